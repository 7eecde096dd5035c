package run

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/valgrind/valgrindtest"
)

// TestInstructionsOptions: --instructions does not combine with what it
// would spoil.
func TestInstructionsOptions(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("valgrind counts instructions on Linux only; the test's program (true) is Linux's")
	}
	cmds, err := Commands([]string{"true"}, nil, nil, Options{NoShell: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		o    Options
		want string
	}{
		{Options{Instructions: true, Counters: counters.DefaultEvents()}, "--counters would count valgrind itself"},
		{Options{Instructions: true, Simulate: true}, "--debug-mode runs nothing"},
	} {
		_, err := newBench(cmds, tt.o, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: err = %v, want %q", tt.o, err, tt.want)
		}
	}
}

// TestInstructionsReal counts /bin/true run through the shell under
// cachegrind: every run has the four simulated figures, the same
// instructions in every run, less the shell's counts (the overhead
// runs'), and the measurement is ranked by them.
func TestInstructionsReal(t *testing.T) {
	valgrindtest.Need(t)
	cmds, err := Commands([]string{"/bin/true", "/bin/true; /bin/true"}, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), cmds, Options{Runs: 3, Instructions: true})
	if err != nil || rep.Err != nil {
		t.Fatal(err, rep.Err)
	}
	d := docOf(rep)
	var once, twice float64
	for i, m := range d.Measurements {
		ins := m.Metric("instructions")
		if m.Primary != "instructions" || ins == nil || len(ins.Values) != 3 {
			t.Fatalf("%s: primary %q, instructions %+v", m.Name, m.Primary, ins)
		}
		for _, name := range []string{"l1_misses", "ll_misses", "estimated_cycles", "instructions_raw"} {
			if m.Metric(name) == nil {
				t.Errorf("%s: no %s metric", m.Name, name)
			}
		}
		if ins.Values[0] != ins.Values[1] || ins.Values[1] != ins.Values[2] || !(ins.Values[0] > 0) {
			t.Errorf("%s: instructions %v: not the same positive count in every run", m.Name, ins.Values)
		}
		if i == 0 {
			once = ins.Values[0]
		} else {
			twice = ins.Values[0]
		}
	}
	// Net of the shell, twice /bin/true is about twice once (the shell's
	// own work for the longer line differs by little).
	if r := twice / once; r < 1.8 || r > 2.2 {
		t.Errorf("instructions net of the shell: %v once, %v twice (ratio %v, want about 2)", once, twice, r)
	}
	if d.Run.Command.Counters == nil || !strings.Contains(d.Run.Command.Counters.Source, "cachegrind") {
		t.Errorf("counters %+v", d.Run.Command.Counters)
	}
	out := text(t, rep)
	for _, want := range []string{"Comparison with the one with the fewest instructions", "has exactly", "every run ran under valgrind's cachegrind", "valgrind slowed the runs down"} {
		if !strings.Contains(out, want) {
			t.Errorf("the text lacks %q:\n%s", want, out)
		}
	}
}

// TestSimulationNotes: the slowdown is each command's median raw time
// under valgrind over its native time, and a command without a native
// time or runs is left out.
func TestSimulationNotes(t *testing.T) {
	res := func(name string, walls ...time.Duration) *CommandRuns {
		r := &CommandRuns{Command: &Command{Name: name}}
		for _, w := range walls {
			r.Samples = append(r.Samples, Sample{Wall: w})
		}
		return r
	}
	for _, tt := range []struct {
		results []*CommandRuns
		native  []time.Duration
		want    string
	}{
		{[]*CommandRuns{res("a", 90*time.Millisecond, 100*time.Millisecond, 400*time.Millisecond)}, []time.Duration{2 * time.Millisecond},
			`valgrind slowed the runs down "a" ×50 (the median raw time of a run under cachegrind against the median of 3 native runs)`},
		{[]*CommandRuns{res("a", 10*time.Millisecond), res("b")}, []time.Duration{time.Millisecond, time.Millisecond},
			`down "a" ×10 (`},
		{[]*CommandRuns{res("a", 10*time.Millisecond)}, []time.Duration{0}, "valgrind's slowdown could not be measured"},
	} {
		r := &Benchmark{Results: tt.results}
		ws := r.simulationNotes(tt.native)
		if len(ws) != 2 || ws[0].Code != "instructions-simulated" || !strings.Contains(ws[0].Message, tt.want) {
			t.Errorf("%v: %+v, want %q", tt.native, ws, tt.want)
		}
	}
}
