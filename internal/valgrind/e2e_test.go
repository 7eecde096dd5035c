package valgrind

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/objdump"
	"github.com/chronograph/chronograph/internal/valgrind/valgrindtest"
)

// count measures a region of the test binary under callgrind.
func count(t *testing.T, name string, o Options) *Result {
	t.Helper()
	return countIn(t, child(t), name, o)
}

// countIn measures a region of the test binary bin.
func countIn(t *testing.T, bin, name string, o Options) *Result {
	t.Helper()
	if o.Iterations == nil {
		o.Iterations = []int{1000, 2000, 3000}
	}
	if o.Warmup == 0 {
		o.Warmup = 10
	}
	r, err := Count(context.Background(), []string{bin}, name, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// instructions returns r's exact instruction count per iteration and the
// regions' raw counts.
func instructions(t *testing.T, r *Result) (PerOp, []uint64) {
	t.Helper()
	p, err := r.Instructions()
	if err != nil {
		t.Fatal(err)
	}
	var raw []uint64
	for _, reg := range r.Regions {
		c, _ := reg.Get("instructions")
		raw = append(raw, c.Raw)
	}
	if !p.Exact {
		t.Errorf("%s: instructions %v for %v iterations are not exactly linear", r.Name, raw, r.Iterations)
	}
	return p, raw
}

// TestInstructionsRepeatable: the instruction count of a region is the
// same in 10 runs, to the instruction, for every region.
func TestInstructionsRepeatable(t *testing.T) {
	valgrindtest.Need(t)
	first, firstRaw := instructions(t, count(t, "sum1024", Options{}))
	t.Logf("sum1024: %v instructions for %v iterations: %.0f per iteration + %.0f fixed", firstRaw, []int{1000, 2000, 3000}, first.PerOp, first.Fixed)
	for run := 2; run <= 10; run++ {
		p, raw := instructions(t, count(t, "sum1024", Options{}))
		if p != first || fmt.Sprint(raw) != fmt.Sprint(firstRaw) {
			t.Errorf("run %d: %v instructions (%+v), run 1: %v (%+v)", run, raw, p, firstRaw, first)
		}
	}
}

// TestInstructionsHandCount: the count per iteration equals the count of
// the instructions the loop executes, read from the disassembly of the
// binary that was counted (go tool objdump).
//
// sum1024 is sumUint64's instructions for 1024 elements plus one
// iteration of loopSum's loop (which calls it). On amd64 with Go 1.26
// that is 4104 + 11 = 4115: sumUint64 runs 4 instructions before its loop
// (MOVQ, XORL, XORL, JMP to the loop's test), 4 per element (ADDQ, INCQ,
// CMPQ, JG), the test once more at the end (CMPQ, JG) and 2 after it
// (MOVQ, RET): 4 + 4·1024 + 2 + 2 = 4104; loopSum's loop is 11
// instructions, the CALL included.
//
// calls is one iteration of loopCalls's loop (10 instructions, a NOPL
// included) plus nonLeaf (16: the stack check, the frame, two calls) and
// leaf twice (3 each): 32. Its functions check the stack, so a goroutine
// that has run for PreemptAfter yields in them: each count is measured
// three times and the repeat with the fewest instructions kept.
func TestInstructionsHandCount(t *testing.T) {
	valgrindtest.Need(t)
	bin := builtChild(t)
	fn := func(name string) objdump.Listing { return disassemble(t, bin, name) }
	sum, loopS, loopC := fn("sumUint64"), fn("loopSum"), fn("loopCalls")
	must := counted(t)
	body := func(l objdump.Listing) int { return must(l.Body()) }
	executed := func(l objdump.Listing, trips int) int { return must(l.Executed(trips)) }
	for _, tt := range []struct {
		region  string
		o       Options
		want    int
		explain string
	}{
		{"sum1024", Options{}, executed(sum, 1024) + body(loopS),
			fmt.Sprintf("sumUint64: %d per element, %d for 1024 elements; loopSum: %d per iteration", body(sum), executed(sum, 1024), body(loopS))},
		{"calls", Options{Iterations: []int{100, 200, 300}, Repeats: 3}, body(loopC) + executed(fn("nonLeaf"), 0) + 2*executed(fn("leaf"), 0),
			fmt.Sprintf("loopCalls: %d per iteration, nonLeaf %d, leaf %d", body(loopC), executed(fn("nonLeaf"), 0), executed(fn("leaf"), 0))},
	} {
		r := countIn(t, bin, tt.region, tt.o)
		got, _ := instructions(t, r)
		t.Logf("%s: %.0f instructions per iteration counted, %d from the disassembly (%s); fixed per region: %.0f; longest region %v, repeats equal: %v",
			tt.region, got.PerOp, tt.want, tt.explain, got.Fixed, r.Longest(), r.Repeatable())
		if got.PerOp != float64(tt.want) {
			t.Errorf("%s: %.0f instructions per iteration, the disassembly executes %d", tt.region, got.PerOp, tt.want)
		}
	}
}

// TestInstructionsPlantedChange: ten more elements (1024 → 1034, about
// 1 %) cost exactly ten more times the loop body's instructions.
func TestInstructionsPlantedChange(t *testing.T) {
	valgrindtest.Need(t)
	bin := builtChild(t)
	body := counted(t)(disassemble(t, bin, "sumUint64").Body())
	a, _ := instructions(t, countIn(t, bin, "sum1024", Options{}))
	b, _ := instructions(t, countIn(t, bin, "sum1034", Options{}))
	t.Logf("sum1024: %.0f, sum1034: %.0f instructions per iteration (body: %d instructions per element)", a.PerOp, b.PerOp, body)
	if d := b.PerOp - a.PerOp; d != float64(10*body) {
		t.Errorf("1034 elements cost %.0f instructions more than 1024, want 10 × %d = %d", d, body, 10*body)
	}
}

// TestCacheSim: with the cache simulation the instruction count is the
// same, the simulated cache events are there, and so is the cycle
// estimate.
func TestCacheSim(t *testing.T) {
	valgrindtest.Need(t)
	plain, _ := instructions(t, count(t, "sum1024", Options{}))
	r := count(t, "sum1024", Options{CacheSim: true})
	withSim, _ := instructions(t, r)
	if withSim.PerOp != plain.PerOp {
		t.Errorf("%.0f instructions per iteration with the cache simulation, %.0f without", withSim.PerOp, plain.PerOp)
	}
	ps, err := r.PerOp()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.Event)
		t.Logf("%s: %g per iteration + %g fixed (exact: %v)", p.Event, p.PerOp, p.Fixed, p.Exact)
	}
	if got, want := strings.Join(names, " "), "instructions Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	c, ok, err := r.EstimatedCycles()
	if err != nil || !ok {
		t.Fatalf("EstimatedCycles: %v %v", ok, err)
	}
	t.Logf("%s: %g per iteration + %g fixed", c.Event, c.PerOp, c.Fixed)
	// The region's reads and writes are exactly linear too, and its 8 KiB
	// of data and its code stay in the simulated L1 caches: every access
	// after the warm-up is an L1 hit, at one estimated cycle.
	dr, dw := ps[1], ps[2]
	if !dr.Exact || !dw.Exact {
		t.Errorf("reads %+v, writes %+v: not exact", dr, dw)
	}
	if accesses := withSim.PerOp + dr.PerOp + dw.PerOp; math.Abs(c.PerOp-accesses) > 1 {
		t.Errorf("%g estimated cycles per iteration for %g accesses that hit L1", c.PerOp, accesses)
	}
}

// TestCountFailures: a program that measures nothing, or fails, is an
// error that says so.
func TestCountFailures(t *testing.T) {
	valgrindtest.Need(t)
	o := Options{Iterations: []int{1, 2}}
	_, err := Count(context.Background(), []string{"true"}, "sum1024", o)
	if err == nil || !strings.Contains(err.Error(), "measured no region") {
		t.Errorf("a program that does not measure: %v", err)
	}
	_, err = Count(context.Background(), []string{child(t)}, "nosuch", o)
	if err == nil || !strings.Contains(err.Error(), `no region "nosuch"`) || !strings.Contains(err.Error(), "exit code 2") {
		t.Errorf("an unknown region: %v", err)
	}
}

// disassemble returns the listing of the test package's function fn in
// bin (go tool objdump).
func disassemble(t *testing.T, bin, fn string) objdump.Listing {
	t.Helper()
	l, err := objdump.Disassemble(bin, "github.com/chronograph/chronograph/internal/valgrind."+fn)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// counted returns a function that returns a count, failing the test on
// its error.
func counted(t *testing.T) func(n int, err error) int {
	return func(n int, err error) int {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
}
