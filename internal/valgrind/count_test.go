package valgrind

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/crosstest"
)

// TestParseDump reads a dump callgrind 3.19 wrote for Measure's first
// region (1000 iterations of loopSum over 1024 elements, with the cache
// simulation) and the file it wrote at the program's end.
func TestParseDump(t *testing.T) {
	b, err := os.ReadFile("testdata/callgrind.out.1")
	if err != nil {
		t.Fatal(err)
	}
	d, err := parseDump(b)
	if err != nil {
		t.Fatal(err)
	}
	reason, _ := strings.CutPrefix(d.trigger, "Client Request: ")
	if k, n, wall, ok := parseTrigger(reason); !ok || k != 0 || n != 1000 || wall <= 0 {
		t.Errorf("trigger %q: region %d, %d iterations, %v (%v)", d.trigger, k, n, wall, ok)
	}
	want := []struct {
		name string
		v    uint64
	}{{"instructions", 4115049}, {"Dr", 1030015}, {"Dw", 4015}, {"I1mr", 6}, {"D1mr", 84}, {"D1mw", 1}, {"ILmr", 1}, {"DLmr", 0}, {"DLmw", 0}}
	if d.reading.Source != SourceCallgrind || len(d.reading.Counts) != len(want) {
		t.Fatalf("reading %+v", d.reading)
	}
	for i, c := range d.reading.Counts {
		if c.Event.Name != want[i].name || c.Raw != want[i].v || !c.IsCounted() || c.Event.Kind != counters.Simulated {
			t.Errorf("count %d = %s %d (%v), want %s %d", i, c.Event.Name, c.Raw, c.State, want[i].name, want[i].v)
		}
	}
	b, err = os.ReadFile("testdata/callgrind.out")
	if err != nil {
		t.Fatal(err)
	}
	if d, err = parseDump(b); err != nil || d.trigger != "Program termination" {
		t.Errorf("final dump: %+v, %v", d, err)
	}
	if _, err := parseDump([]byte("desc: Trigger: x\n")); err == nil {
		t.Error("a file without events parsed")
	}
}

// fakeDump is a callgrind output file with the given trigger and totals.
func fakeDump(trigger string, events string, totals ...uint64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n\ndesc: Trigger: %s\n\npositions: line\nevents: %s\nsummary:", trigger, events)
	for _, v := range totals {
		fmt.Fprintf(&b, " %d", v)
	}
	b.WriteString("\n\nfn=(1) main.f\n16 1\n\ntotals:")
	for _, v := range totals {
		fmt.Fprintf(&b, " %d", v)
	}
	b.WriteString("\n")
	return b.String()
}

func TestSessionResult(t *testing.T) {
	req := Request{Name: "sum", Iterations: []int{10, 20}, Repeats: 1}
	region := func(k int) string {
		return "Client Request: " + trigger(k, req.Iterations[k%2], time.Duration(k+1)*time.Millisecond)
	}
	for _, tt := range []struct {
		name  string
		files map[string]string // callgrind.out.N (or the final callgrind.out) → content
		want  string            // error, or "" for success
	}{
		{"two regions", map[string]string{
			"callgrind.out.1": fakeDump(region(0), "Ir", 148),
			"callgrind.out.2": fakeDump(region(1), "Ir", 248),
			"callgrind.out":   fakeDump("Program termination", "Ir", 0),
		}, ""},
		{"no output", map[string]string{}, "callgrind wrote no output (exit code 3)"},
		{"no region", map[string]string{
			"callgrind.out": fakeDump("Program termination", "Ir", 5000),
		}, `measured no region "sum" (exit code 3)`},
		{"one region", map[string]string{
			"callgrind.out.1": fakeDump(region(0), "Ir", 148),
			"callgrind.out":   fakeDump("Program termination", "Ir", 0),
		}, `measured 1 region of region "sum", want 2`},
		{"a dump of its own", map[string]string{
			"callgrind.out.1": fakeDump(region(0), "Ir", 148),
			"callgrind.out.2": fakeDump("Client Request: mine", "Ir", 7),
			"callgrind.out.3": fakeDump(region(1), "Ir", 248),
			"callgrind.out":   fakeDump("Program termination", "Ir", 0),
		}, `callgrind.out.2 was dumped by "Client Request: mine", want region 1 of 20 iterations`},
		{"counted outside", map[string]string{
			"callgrind.out.1": fakeDump(region(0), "Ir", 148),
			"callgrind.out.2": fakeDump(region(1), "Ir", 248),
			"callgrind.out":   fakeDump("Program termination", "Ir", 12),
		}, "12 instructions were collected outside the measured regions"},
		{"a missing repeat", map[string]string{
			"callgrind.out.1": fakeDump(region(0), "Ir", 148),
			"callgrind.out.2": fakeDump(region(1), "Ir", 248),
			"callgrind.out.3": fakeDump(region(2), "Ir", 148),
			"callgrind.out":   fakeDump("Program termination", "Ir", 0),
		}, "callgrind.out.3 was dumped by \"Client Request: chrono-region 2 10 3000000\", want region 2 of 10 iterations"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := crosstest.TempDir(t)
			s := &Session{req: req, dir: dir, out: filepath.Join(dir, "callgrind.out"), log: filepath.Join(dir, "valgrind.log")}
			for name, content := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r, err := s.Result(3)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "valgrind: ") {
					t.Errorf("err = %v, want %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p, err := r.Instructions()
			if err != nil || p != (PerOp{Event: "instructions", PerOp: 10, Fixed: 48, Exact: true}) {
				t.Errorf("Instructions() = %+v, %v", p, err)
			}
			if len(r.Dumps) != 2 || r.Longest() != 2*time.Millisecond || !r.Repeatable() {
				t.Errorf("dumps %+v, longest %v, repeatable %v", r.Dumps, r.Longest(), r.Repeatable())
			}
		})
	}
}

// TestSessionRepeats: each count measured twice; the repeat with the
// fewest instructions is the count's, and the result says the repeats
// differed.
func TestSessionRepeats(t *testing.T) {
	req := Request{Name: "sum", Iterations: []int{10, 20}, Repeats: 2}
	dir := crosstest.TempDir(t)
	s := &Session{req: req, dir: dir, out: filepath.Join(dir, "callgrind.out"), log: filepath.Join(dir, "valgrind.log")}
	for i, v := range []uint64{148, 1248, 1148, 248} { // the second 10 and the first 20 were preempted
		k := i
		name := fmt.Sprintf("callgrind.out.%d", i+1)
		content := fakeDump("Client Request: "+trigger(k, req.Iterations[k%2], time.Duration(v)*time.Microsecond), "Ir", v)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(s.out, []byte(fakeDump("Program termination", "Ir", 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := s.Result(0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Instructions()
	if err != nil || p != (PerOp{Event: "instructions", PerOp: 10, Fixed: 48, Exact: true}) {
		t.Errorf("Instructions() = %+v, %v", p, err)
	}
	if len(r.Dumps) != 4 || r.Repeatable() || r.Longest() != 1248*time.Microsecond {
		t.Errorf("dumps %d, repeatable %v, longest %v", len(r.Dumps), r.Repeatable(), r.Longest())
	}
	// Each repeat on its own: the first measured 148 and 1248 (its 20
	// preempted), the second 1148 and 248 (its 10 preempted).
	reps := r.Repeats()
	want := []PerOp{{Event: "instructions", PerOp: 110, Fixed: -952, Exact: true}, {Event: "instructions", PerOp: -90, Fixed: 2048, Exact: true}}
	if len(reps) != len(want) {
		t.Fatalf("%d repeats, want %d", len(reps), len(want))
	}
	for j, rr := range reps {
		if p, err := rr.Instructions(); err != nil || p != want[j] {
			t.Errorf("repeat %d: %+v, %v, want %+v", j, p, err, want[j])
		}
		if len(rr.Dumps) != 2 || rr.Dumps[0].Iterations != 10 || !rr.Repeatable() {
			t.Errorf("repeat %d: dumps %+v", j, rr.Dumps)
		}
	}
}

// result builds a Result from raw totals per region, named by events.
func result(iterations []int, events string, regions ...[]uint64) *Result {
	r := &Result{Name: "x", Iterations: iterations}
	for _, totals := range regions {
		var rd counters.Reading
		for i, name := range strings.Fields(events) {
			if name == "Ir" {
				name = "instructions"
			}
			rd.Counts = append(rd.Counts, counters.Count{Event: counters.Event{Name: name, Kind: counters.Simulated, Unit: "count"}, State: counters.Counted, Raw: totals[i], Value: float64(totals[i])})
		}
		r.Regions = append(r.Regions, rd)
	}
	return r
}

func TestPerOp(t *testing.T) {
	for _, tt := range []struct {
		name       string
		iterations []int
		totals     [][]uint64
		want       PerOp
	}{
		{"exact", []int{1000, 2000, 3000}, [][]uint64{{4115048}, {8230048}, {12345048}}, PerOp{PerOp: 4115, Fixed: 48, Exact: true}},
		{"exact, two counts", []int{1000, 2000}, [][]uint64{{4115048}, {8230048}}, PerOp{PerOp: 4115, Fixed: 48, Exact: true}},
		// A count that is a whole number per iteration at the ends but
		// not in the middle: the middle region counted 3 more.
		{"not linear", []int{1000, 2000, 3000}, [][]uint64{{4115048}, {8230051}, {12345048}}, PerOp{PerOp: 4115, Fixed: 48, Exact: false}},
		// Not a whole number per iteration.
		{"fraction", []int{1000, 3000}, [][]uint64{{1}, {0}}, PerOp{PerOp: -0.0005, Fixed: 1.5, Exact: false}},
		{"zero", []int{10, 20}, [][]uint64{{0}, {0}}, PerOp{PerOp: 0, Fixed: 0, Exact: true}},
	} {
		r := result(tt.iterations, "Ir", tt.totals...)
		got, err := r.Instructions()
		tt.want.Event = "instructions"
		if err != nil || got != tt.want {
			t.Errorf("%s: %+v, %v, want %+v", tt.name, got, err, tt.want)
		}
	}
	if _, err := result([]int{10}, "Ir", []uint64{1}).PerOp(); err == nil {
		t.Error("PerOp of one region: no error")
	}
	if _, err := result([]int{10, 20, 30}, "Ir", []uint64{1}, []uint64{2}).PerOp(); err == nil {
		t.Error("PerOp of two regions for three counts: no error")
	}
	if _, err := result([]int{10, 20}, "Dr", []uint64{1}, []uint64{2}).Instructions(); err == nil || !strings.Contains(err.Error(), "no instructions") {
		t.Errorf("Instructions without instructions: %v", err)
	}
}

// TestEstimatedCycles: the model gives Gungraun's documented figure for
// its example (1734 instructions, 270 reads, 358 writes, 3 I1 misses that
// are also LL misses: 2464 estimated cycles) as the count per iteration
// of regions of one and two iterations; an L1 hit costs 1, an LL hit 5, a
// miss that goes to memory 35.
func TestEstimatedCycles(t *testing.T) {
	const events = "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw"
	r := result([]int{1, 2}, events, []uint64{1734, 270, 358, 3, 0, 0, 3, 0, 0}, []uint64{2 * 1734, 2 * 270, 2 * 358, 2 * 3, 0, 0, 2 * 3, 0, 0})
	c, ok, err := r.EstimatedCycles()
	if err != nil || !ok || c != (PerOp{Event: EstimatedCycles, PerOp: 2464, Fixed: 0, Exact: true}) {
		t.Errorf("Gungraun's example: %+v, %v, %v", c, ok, err)
	}
	for _, tt := range []struct {
		name   string
		totals []uint64
		want   float64
	}{
		{"all hits", []uint64{100, 20, 10, 0, 0, 0, 0, 0, 0}, 130},
		{"an L1 data miss served by LL", []uint64{100, 20, 10, 0, 1, 0, 0, 0, 0}, 129 + 5},
		{"a write miss to memory", []uint64{100, 20, 10, 0, 0, 1, 0, 0, 1}, 129 + 35},
	} {
		r := result([]int{10, 20}, events, make([]uint64, 9), tt.totals)
		c, ok, err := r.EstimatedCycles()
		if err != nil || !ok || c.PerOp != tt.want/10 {
			t.Errorf("%s: %+v, %v, %v, want %g per iteration", tt.name, c, ok, err, tt.want/10)
		}
	}
	// Without the cache simulation there is no estimate.
	if _, ok, err := result([]int{1, 2}, "Ir", []uint64{1}, []uint64{2}).EstimatedCycles(); ok || err != nil {
		t.Errorf("estimate from instructions alone: %v, %v", ok, err)
	}
}

func TestFigures(t *testing.T) {
	events := func(kv map[string]float64) func(string) (float64, bool) {
		return func(e string) (float64, bool) { v, ok := kv[e]; return v, ok }
	}
	for _, tt := range []struct {
		name   string
		counts map[string]float64
		want   []Figure
	}{
		{"no count", map[string]float64{}, nil},
		{"instructions alone", map[string]float64{"instructions": 4115}, []Figure{{FigureInstructions, 4115}}},
		// Gungraun's example (see cycles.go): 2359 L1 hits, 3 misses to memory.
		{"cache simulation", map[string]float64{"instructions": 1734, "Dr": 270, "Dw": 358, "I1mr": 3, "D1mr": 0, "D1mw": 0, "ILmr": 3, "DLmr": 0, "DLmw": 0},
			[]Figure{{FigureInstructions, 1734}, {FigureL1Misses, 3}, {FigureLLMisses, 3}, {FigureEstimatedCycles, 2464}}},
		{"misses of every kind", map[string]float64{"instructions": 100, "Dr": 20, "Dw": 10, "I1mr": 1, "D1mr": 2, "D1mw": 3, "ILmr": 0, "DLmr": 1, "DLmw": 1},
			[]Figure{{FigureInstructions, 100}, {FigureL1Misses, 6}, {FigureLLMisses, 2}, {FigureEstimatedCycles, 124 + 5*4 + 35*2}}},
		{"a cache event missing", map[string]float64{"instructions": 100, "Dr": 20}, []Figure{{FigureInstructions, 100}}},
	} {
		if got := Figures(events(tt.counts)); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
