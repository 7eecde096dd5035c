package bench

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/internal/golden"
	"github.com/chronograph/chronograph/internal/objdump"
	"github.com/chronograph/chronograph/internal/valgrind"
	"github.com/chronograph/chronograph/internal/valgrind/valgrindtest"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/warn"
)

// The benchmarks counted by the instruction mode's tests: a //go:noinline
// sum of 1024 (and, a planted 1 % more work, 1034) uint64s in a B.Loop
// loop, and the empty loop.
var (
	instrData1024 = make([]uint64, 1024)
	instrData1034 = make([]uint64, 1034)
	instrSink     uint64
)

//go:noinline
func instrSum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

func loopSum1024(b *B) {
	for b.Loop() {
		instrSink += instrSum(instrData1024)
	}
}

func loopSum1034(b *B) {
	for b.Loop() {
		instrSink += instrSum(instrData1034)
	}
}

// loopStopped sums with the timer stopped: nothing of the sum is counted.
func loopStopped(b *B) {
	for b.Loop() {
		b.StopTimer()
		instrSink += instrSum(instrData1024)
		b.StartTimer()
	}
}

var instrCases = map[string]func(*B){"sum1024": loopSum1024, "sum1034": loopSum1034, "empty": emptyLoop, "stopped": loopStopped}

// fakeCounts builds the valgrind result of regions of its iterations,
// repeats times, whose events count fixed + n·perOp (Ir, and with the
// cache simulation the eight cache events), plus extra[k] in dump k; a
// region takes 50 µs + 30 µs per iteration under callgrind.
func fakeCounts(its []int, repeats int, cacheSim bool, extra map[int]uint64) *valgrind.Result {
	events := []string{"instructions"}
	perOp := []uint64{4121}
	fixed := []uint64{58}
	if cacheSim {
		events = append(events, "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw")
		perOp = append(perOp, 1030, 4, 0, 0, 0, 0, 0, 0)
		fixed = append(fixed, 345, 215, 31, 1, 6, 31, 1, 6)
	}
	r := &valgrind.Result{Name: "sum1024", Iterations: its}
	for k := 0; k < len(its)*repeats; k++ {
		n := its[k%len(its)]
		var rd counters.Reading
		for i, e := range events {
			v := fixed[i] + uint64(n)*perOp[i]
			if i == 0 {
				v += extra[k]
			}
			rd.Counts = append(rd.Counts, counters.Count{Event: counters.Event{Name: e, Kind: counters.Simulated, Unit: "count"}, State: counters.Counted, Raw: v, Value: float64(v)})
		}
		wall := 50*time.Microsecond + time.Duration(n)*30*time.Microsecond
		r.Dumps = append(r.Dumps, valgrind.Dump{Iterations: n, Wall: wall, Reading: rd})
	}
	// Regions: per count, the repeat with the fewest instructions.
	ir := func(k int) float64 { v, _ := r.Dumps[k].Reading.Value("instructions"); return v }
	for i := range its {
		best := i
		for k := i; k < len(r.Dumps); k += len(its) {
			if ir(k) < ir(best) {
				best = k
			}
		}
		r.Regions = append(r.Regions, r.Dumps[best].Reading)
	}
	return r
}

// fixedInstructions is an instruction-mode result built from fake counts.
func fixedInstructions(t *testing.T, cacheSim bool, extra map[int]uint64) *Benchmark {
	t.Helper()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := &Benchmark{Name: "sum1024", Start: start, End: start.Add(2 * time.Second), Clock: "tsc", Probe: clockProbe{TickNs: 0.4, ReadNs: 9.5},
		Target: 10 * time.Millisecond, GoalNs: 1e7, Iterations: 4000, Calibration: []Sample{trial(1, 900), trial(10, 3100), trial(10000, 3e6)}}
	if err := r.setInstructions(fakeCounts([]int{20, 40, 60}, 3, cacheSim, extra), &Instructions{CacheSim: cacheSim}, 300); err != nil {
		t.Fatal(err)
	}
	r.Instructions.Valgrind = "valgrind-3.19.0" // the machine's, in a golden file
	return r
}

func warningCodes(ws []warn.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Code)
	}
	return out
}

func TestSetInstructions(t *testing.T) {
	for _, tt := range []struct {
		name     string
		cacheSim bool
		extra    map[int]uint64 // instructions added to dump k
		exact    bool
		perOp    float64
		values   []float64 // of the instructions metric
		codes    []string
		metrics  []string
	}{
		{"exact", false, nil, true, 4121, []float64{4121, 4121, 4121}, []string{warnSimulated, warnRuntimeExcluded}, []string{"instructions", "iterations"}},
		{"cache simulation", true, nil, true, 4121, []float64{4121, 4121, 4121}, []string{warnSimulated, warnRuntimeExcluded, warnCachePlacement},
			[]string{"instructions", "iterations", "l1_misses", "ll_misses", "estimated_cycles"}},
		// The second repeat's 60-iteration region was preempted (1,128
		// more): the figure is the other repeats', the values show it.
		{"a preempted repeat", false, map[int]uint64{5: 1128}, false, 4121, []float64{4121, 4121 + 1128.0/40, 4121}, []string{warnSimulated, warnRuntimeExcluded, warnNotExact},
			[]string{"instructions", "iterations"}},
		// Every repeat's first region counted 7 more: not linear.
		{"not linear", false, map[int]uint64{0: 7, 3: 7, 6: 7}, false, 4121 - 7.0/40, []float64{4121 - 7.0/40, 4121 - 7.0/40, 4121 - 7.0/40},
			[]string{warnSimulated, warnRuntimeExcluded, warnNotExact}, []string{"instructions", "iterations"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := fixedInstructions(t, tt.cacheSim, tt.extra)
			mode := r.Instructions
			if got := warningCodes(r.Warnings); !slices.Equal(got, tt.codes) {
				t.Errorf("warnings %v, want %v: %v", got, tt.codes, r.Warnings)
			}
			// 30 µs per iteration under callgrind against 300 ns natively.
			if mode.SimulatedNsPerOp != 30000 || mode.NativeNsPerOp != 300 || mode.Slowdown != 100 {
				t.Errorf("simulated %v ns/op, native %v, slowdown %v", mode.SimulatedNsPerOp, mode.NativeNsPerOp, mode.Slowdown)
			}
			if mode.Repeats != 3 || mode.Warmup != 20 || mode.Events[0].PerOp != tt.perOp {
				t.Errorf("mode %+v", mode)
			}
			d := Document(result.Meta{}, r)
			m := d.Measurements[0]
			var names []string
			for _, met := range m.Metrics {
				names = append(names, met.Name)
			}
			if !slices.Equal(names, tt.metrics) || m.Primary != "instructions" || m.Detail.Function.Mode != result.FunctionInstructions {
				t.Errorf("metrics %v, primary %q, mode %q", names, m.Primary, m.Detail.Function.Mode)
			}
			ins := m.Metric("instructions")
			if ins.Exact != tt.exact || !slices.Equal(ins.Values, tt.values) || ins.Unit != result.UnitCountPerOp {
				t.Errorf("instructions metric %+v, want values %v, exact %v", ins, tt.values, tt.exact)
			}
			if it := m.Metric("iterations"); !slices.Equal(it.Values, []float64{40, 40, 40}) {
				t.Errorf("iterations %v", it.Values)
			}
			// The document is valid: it survives a round trip.
			var b bytes.Buffer
			if err := result.Encode(&b, d); err != nil {
				t.Fatal(err)
			}
			if _, err := result.Decode(&b); err != nil {
				t.Errorf("the document does not read back: %v", err)
			}
		})
	}
}

// TestInstructionsDocumentGolden: the JSON of an instruction-mode
// document with the cache simulation (testdata/document-instructions.json;
// go test -update rewrites it).
func TestInstructionsDocumentGolden(t *testing.T) {
	d := Document(result.Meta{Tool: result.Tool{Name: "chronograph/bench", Version: "test"}}, fixedInstructions(t, true, nil))
	var b bytes.Buffer
	if err := result.Encode(&b, d); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/document-instructions.json", b.Bytes())
}

func TestInstructionOptions(t *testing.T) {
	for _, tt := range []struct {
		name string
		o    Options
		want string
	}{
		{"one count", Options{Instructions: &Instructions{Iterations: []int{10}}}, "give at least two counts"},
		{"decreasing", Options{Instructions: &Instructions{Iterations: []int{20, 10}}}, "must be positive and increasing"},
		{"zero", Options{Instructions: &Instructions{Iterations: []int{0, 10}}}, "must be positive and increasing"},
		{"negative repeats", Options{Instructions: &Instructions{Repeats: -1}}, "negative Instructions.Repeats"},
		{"with latency", Options{Latency: true, Instructions: &Instructions{}}, "does not combine with Latency"},
		{"with counters", Options{Counters: counters.DefaultEvents(), Instructions: &Instructions{}}, "does not combine"},
	} {
		_, err := tt.o.withDefaults()
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "bench: ") {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := Compare([]Case{{Name: "a", F: emptyLoop}, {Name: "b", F: emptyLoop}}, &Options{Instructions: &Instructions{}}); err == nil || !strings.Contains(err.Error(), "does not count instructions") {
		t.Errorf("Compare in the instruction mode: %v", err)
	}
}

func TestRegionCounts(t *testing.T) {
	for _, tt := range []struct {
		nsPerOp, budget float64
		want            []int
	}{
		{300, 20_000, []int{22, 44, 66}},
		{1, 20_000, []int{6666, 13332, 19998}},
		{1e6, 20_000, []int{1, 2, 3}}, // slower than the budget: one iteration per step
		{0, 20_000, []int{1, 2, 3}},   // unknown
		{1e-6, 20_000, []int{maxRegionStep, 2 * maxRegionStep, 3 * maxRegionStep}},
	} {
		if got := regionCounts(tt.nsPerOp, tt.budget); !slices.Equal(got, tt.want) {
			t.Errorf("regionCounts(%v, %v) = %v, want %v", tt.nsPerOp, tt.budget, got, tt.want)
		}
	}
}

// TestCountRegionsNative: outside valgrind, the regions cannot begin: the
// loop does not run and the error says why.
func TestCountRegionsNative(t *testing.T) {
	ran := 0
	err := countRegions(func(b *B) {
		for b.Loop() {
			ran++
		}
	}, nil, &valgrind.Request{Name: "x", Iterations: []int{1, 2}})
	if err == nil || !strings.Contains(err.Error(), "does not run under valgrind") || ran != 0 {
		t.Errorf("err = %v, the loop ran %d times", err, ran)
	}
}

// cleanBinary returns this package's tests built without -race and -cover
// and with their symbol table (go test strips the binaries it runs), to
// count and to disassemble.
func cleanBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(crosstest.TempDir(t), "bench.test")
	if _, err := valgrind.BuildTest(".", bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestInstructionMode counts the instructions of bench's loops in the
// instruction mode, end to end: the test binary re-executes itself (this
// test alone) under callgrind, where Run of the requested benchmark
// counts its regions and returns ErrCounted.
//
// The counts equal the hand counts from the disassembly of the binary
// counted: a trip around emptyLoop's loop (B.Loop's fast path: load,
// test, branch, decrement, store, jump back: 6 instructions on amd64) and
// around loopSum1024's, plus instrSum's instructions for 1024 elements;
// and the planted 1 % more work (1034 elements) costs exactly 10 more
// trips around instrSum's loop. The region's fixed cost (B.Loop's slow
// path, Start and Stop) cancels in the difference of the counts.
func TestInstructionMode(t *testing.T) {
	if req, _ := childRequest(); req != nil {
		// The child: count the requested benchmark, nothing else.
		_, err := Run(req.Name, instrCases[req.Name], &Options{Instructions: &Instructions{NoExit: true}})
		if !errors.Is(err, ErrCounted) {
			t.Fatalf("the child of %s: %v", req.Name, err)
		}
		return
	}
	valgrindtest.Need(t)
	bin := cleanBinary(t)
	count := func(name string) *Benchmark {
		t.Helper()
		r, err := Run(name, instrCases[name], &Options{Instructions: &Instructions{Argv: []string{bin, "-test.run=^TestInstructionMode$"}}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	must := func(n int, err error) int {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	dis := func(fn string) objdump.Listing {
		l, err := objdump.Disassemble(bin, "github.com/chronograph/chronograph/bench."+fn)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	sum := dis("instrSum")
	want := map[string]int{
		"empty":   must(dis("emptyLoop").Trip()),
		"sum1024": must(dis("loopSum1024").Trip()) + must(sum.Executed(1024)),
		"sum1034": must(dis("loopSum1034").Trip()) + must(sum.Executed(1034)),
	}
	got := map[string]float64{}
	for _, name := range []string{"empty", "sum1024", "sum1034"} {
		r := count(name)
		mode := r.Instructions
		f := r.Simulated[0]
		got[name] = f.PerRepeat[0]
		t.Logf("%s: %v instructions per iteration (exact %v), hand count %d; regions %v, fixed %v per region, longest %v; %s/op under callgrind, %s/op native: ×%.0f",
			name, f.PerRepeat, f.Exact, want[name], mode.Iterations, mode.Events[0].Fixed, time.Duration(mode.LongestRegionNs),
			time.Duration(mode.SimulatedNsPerOp), time.Duration(mode.NativeNsPerOp), mode.Slowdown)
		if f.Name != "instructions" || !f.Exact || !mode.Repeatable || !mode.Linear {
			t.Errorf("%s: %+v, repeatable %v, linear %v: not exact", name, f, mode.Repeatable, mode.Linear)
		}
		for _, v := range f.PerRepeat {
			if v != float64(want[name]) {
				t.Errorf("%s: %v instructions per iteration, the disassembly executes %d", name, f.PerRepeat, want[name])
				break
			}
		}
	}
	// Between StopTimer and StartTimer nothing is counted: what is, is
	// the pair's own toggling and the loop, the same every iteration.
	st := count("stopped")
	t.Logf("stopped: %v instructions per iteration (exact %v)", st.Simulated[0].PerRepeat, st.Simulated[0].Exact)
	if f := st.Simulated[0]; !f.Exact || f.PerRepeat[0] >= float64(must(sum.Executed(1024))) || f.PerRepeat[0] > 200 {
		t.Errorf("with the timer stopped around the sum: %+v instructions per iteration, want a few dozen, exact", f)
	}
	if d := got["sum1034"] - got["sum1024"]; d != float64(10*must(sum.Body())) {
		t.Errorf("1034 elements cost %v instructions more than 1024, want 10 × %d", d, must(sum.Body()))
	}
}
