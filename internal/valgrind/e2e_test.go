package valgrind

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
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
	needValgrind(t)
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
	needValgrind(t)
	bin := builtChild(t)
	fn := func(name string) listing { return disassemble(t, bin, name) }
	sum, loopS, loopC := fn("sumUint64"), fn("loopSum"), fn("loopCalls")
	for _, tt := range []struct {
		region  string
		o       Options
		want    int
		explain string
	}{
		{"sum1024", Options{}, sum.executed(t, 1024) + loopS.body(t),
			fmt.Sprintf("sumUint64: %d per element, %d for 1024 elements; loopSum: %d per iteration", sum.body(t), sum.executed(t, 1024), loopS.body(t))},
		{"calls", Options{Iterations: []int{100, 200, 300}, Repeats: 3}, loopC.body(t) + fn("nonLeaf").executed(t, 0) + 2*fn("leaf").executed(t, 0),
			fmt.Sprintf("loopCalls: %d per iteration, nonLeaf %d, leaf %d", loopC.body(t), fn("nonLeaf").executed(t, 0), fn("leaf").executed(t, 0))},
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
	needValgrind(t)
	bin := builtChild(t)
	body := disassemble(t, bin, "sumUint64").body(t)
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
	needValgrind(t)
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
	needValgrind(t)
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

// listing is a function's disassembly.
type listing struct {
	name  string
	insns []insn
}

type insn struct {
	addr uint64
	text string // "ADDQ 0(AX)(CX*8), DX"
}

// disassemble returns the listing of the test package's function fn in
// bin (go tool objdump).
func disassemble(t *testing.T, bin, fn string) listing {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to disassemble the test binary: %v", err)
	}
	sym := "github.com/chronograph/chronograph/internal/valgrind." + fn
	cmd := exec.Command(goTool, "tool", "objdump", "-s", "^"+regexp.QuoteMeta(sym)+"$", bin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go tool objdump %s: %v: %s", fn, err, stderr.String())
	}
	l := listing{name: fn}
	for _, line := range strings.Split(string(out), "\n") {
		var fields []string
		for _, f := range strings.Split(line, "\t") {
			if f = strings.TrimSpace(f); f != "" {
				fields = append(fields, f)
			}
		}
		if len(fields) < 4 || !strings.HasPrefix(fields[1], "0x") {
			continue
		}
		a, err := strconv.ParseUint(fields[1], 0, 64)
		if err != nil {
			t.Fatalf("objdump line %q: %v", line, err)
		}
		l.insns = append(l.insns, insn{addr: a, text: fields[3]})
	}
	if len(l.insns) == 0 {
		t.Fatalf("go tool objdump found no %s in %s:\n%s", sym, bin, out)
	}
	return l
}

func (l listing) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", l.name)
	for _, in := range l.insns {
		fmt.Fprintf(&b, "  %#x  %s\n", in.addr, in.text)
	}
	return b.String()
}

// branch classifies an instruction: a jump that is always taken, one that
// is taken on a condition, or neither; target is its address.
func (in insn) branch() (always, conditional bool, target uint64) {
	op, arg, _ := strings.Cut(in.text, " ")
	t, err := strconv.ParseUint(strings.TrimSpace(arg[strings.LastIndexByte(arg, ' ')+1:]), 0, 64)
	hasTarget := err == nil
	switch {
	case op == "JMP" || op == "B":
		return hasTarget, false, t
	case strings.HasPrefix(op, "J"), // amd64: JG, JBE, ...
		len(op) == 3 && op[0] == 'B' && strings.Contains("EQ NE CS HS CC LO MI PL VS VC HI LS GE LT GT LE", op[1:]), // arm64: BGT, ...
		op == "CBZ" || op == "CBNZ" || op == "TBZ" || op == "TBNZ":
		return false, hasTarget, t
	}
	return false, false, 0
}

// loop returns the indexes of the function's one loop: the target and the
// conditional branch back to it; ok is false when it has no loop.
func (l listing) loop(t *testing.T) (start, end int, ok bool) {
	t.Helper()
	start, end = -1, -1
	for i, in := range l.insns {
		if _, cond, target := in.branch(); cond && target <= in.addr {
			if end >= 0 {
				t.Fatalf("%s has more than one loop:\n%s", l.name, l)
			}
			start, end = l.index(t, target), i
		}
	}
	return start, end, end >= 0
}

func (l listing) index(t *testing.T, addr uint64) int {
	t.Helper()
	for i, in := range l.insns {
		if in.addr == addr {
			return i
		}
	}
	t.Fatalf("%s jumps to %#x, outside itself:\n%s", l.name, addr, l)
	return 0
}

// body returns the number of instructions of one trip around the loop.
func (l listing) body(t *testing.T) int {
	t.Helper()
	start, end, ok := l.loop(t)
	if !ok {
		t.Fatalf("%s has no loop:\n%s", l.name, l)
	}
	return end - start + 1
}

// executed walks the function from its entry to its RET and returns the
// number of instructions executed when its loop, if it has one, runs
// trips times: the loop must be entered by a jump to its test at the
// bottom (Go's layout for a counted loop), so that its backward branch is
// taken once per trip; forward conditional branches (the stack-growth
// check) are not taken; calls count as one instruction (their callees
// are counted apart).
func (l listing) executed(t *testing.T, trips int) int {
	t.Helper()
	start, end, _ := l.loop(t)
	n, taken, entered := 0, 0, false
	for i := 0; ; {
		in := l.insns[i]
		n++
		if strings.HasPrefix(in.text, "RET") {
			break
		}
		always, cond, target := in.branch()
		switch {
		case always:
			j := l.index(t, target)
			if i < start && j > start && j <= end {
				entered = true // jumped to the loop's test
			}
			i = j
		case cond && i == end:
			if !entered {
				t.Fatalf("%s's loop is not entered at its test; the hand count assumes it is:\n%s", l.name, l)
			}
			if taken < trips {
				taken++
				i = start
			} else {
				i++
			}
		default:
			i++
		}
		if n > 10*len(l.insns)*(trips+1) {
			t.Fatalf("%s: the walk does not end:\n%s", l.name, l)
		}
	}
	return n
}
