package run

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/crosstest"
)

// The tests in this file check the behaviours of `chrono run` that
// hyperfine 1.20 has and chrono lacked (issue 11), at the level of the run
// package, with the fake executor (figures exact, no real clock). The
// scenarios of hyperfine's own tests are in cmd/chrono/hyperfine_test.go.

// TestBudgetCountsPrepareConclude: as in hyperfine, the time budget counts
// the prepare and conclude commands of each run, and the number of runs is
// floor(budget / cost of a run) for runs of a constant cost.
func TestBudgetCountsPrepareConclude(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name             string
		prepare, conc    string
		wall             map[string]time.Duration
		budget           time.Duration
		want             int
		overhead         time.Duration
		minRuns, maxRuns int
	}{
		// The case: a 50 ms prepare, a 20 ms command, a 1 s budget:
		// 14 runs (chrono made 50).
		{name: "prepare", prepare: "P", wall: map[string]time.Duration{"P": 50 * ms, "A": 20 * ms}, budget: time.Second, want: 14},
		{name: "conclude", conc: "C", wall: map[string]time.Duration{"C": 20 * ms, "A": 10 * ms}, budget: 3 * time.Second, want: 100},
		{name: "both", prepare: "P", conc: "C", wall: map[string]time.Duration{"P": 10 * ms, "C": 10 * ms, "A": 10 * ms}, budget: 3 * time.Second, want: 100},
		// A 1 s prepare and a 10 ms command: the minimum of 10 runs, not
		// minutes of runs.
		{name: "long prepare", prepare: "P", wall: map[string]time.Duration{"P": time.Second, "A": 10 * ms}, budget: 3 * time.Second, want: 10},
		{name: "no hooks", wall: map[string]time.Duration{"A": 10 * ms}, budget: 3 * time.Second, want: 300},
		// floor, not ceil: 7 ms runs fill 3 s with 428 runs (429 would
		// end at 3.003 s).
		{name: "floor", wall: map[string]time.Duration{"A": 7 * ms}, budget: 3 * time.Second, want: 428},
		{name: "max runs", prepare: "P", wall: map[string]time.Duration{"P": ms, "A": ms}, budget: 3 * time.Second, maxRuns: 20, want: 20},
		{name: "min runs 1", wall: map[string]time.Duration{"A": 4 * time.Second}, budget: 3 * time.Second, minRuns: 1, want: 1},
	}
	for _, tt := range tests {
		f := &fake{walls: tt.wall, overhead: tt.overhead}
		opts := Options{Budget: tt.budget, MinRuns: tt.minRuns, MaxRuns: tt.maxRuns}
		if tt.prepare != "" {
			opts.Prepare = []string{tt.prepare}
		}
		if tt.conc != "" {
			opts.Conclude = []string{tt.conc}
		}
		rep := runFake(t, f, opts, "A")
		if got := len(rep.Results[0].Samples); got != tt.want {
			t.Errorf("%s: %d runs, want %d (hyperfine's count)", tt.name, got, tt.want)
		}
	}
}

// TestBudgetIgnoresWarmups: warm-up runs and their hooks do not count
// towards the budget (hyperfine counts from the first timing run).
func TestBudgetIgnoresWarmups(t *testing.T) {
	f := &fake{walls: map[string]time.Duration{"P": 10 * time.Millisecond, "A": 20 * time.Millisecond}}
	rep := runFake(t, f, Options{Budget: 3 * time.Second, Warmup: 50, Prepare: []string{"P"}}, "A")
	if got := len(rep.Results[0].Samples); got != 100 {
		t.Errorf("%d runs, want 100", got)
	}
}

// TestExpansionOrder: hyperfine expands the parameter values in the outer
// loop and the command lines in the inner one, the first parameter
// varying fastest after the command lines; -n names follow that order.
func TestExpansionOrder(t *testing.T) {
	val, _ := ScanParam("val", "1", "2", "")
	names := []string{"echo-1", "sleep-1", "echo-2", "sleep-2"}
	cmds, err := Commands([]string{"echo {val}", "sleep {val}"}, names, []Param{val}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cmds {
		got = append(got, c.Name+"="+c.Line)
	}
	want := []string{"echo-1=echo 1", "sleep-1=sleep 1", "echo-2=echo 2", "sleep-2=sleep 2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("-P with two commands: %q, want %q", got, want)
	}
	// -L cross product: the command lines vary fastest, then par1, then
	// par2 (hyperfine's test_build_commands_cross_product).
	p1, _ := ListParam("par1", "a,b")
	p2, _ := ListParam("par2", "z,y")
	cmds, err = Commands([]string{"echo {par1} {par2}", "printf '%s\\n' {par1} {par2}"}, nil, []Param{p1, p2}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, c := range cmds {
		got = append(got, fmt.Sprintf("%d:%s%s", c.Index, c.Params["par1"], c.Params["par2"]))
	}
	want = []string{"0:az", "1:az", "0:bz", "1:bz", "0:ay", "1:ay", "0:by", "1:by"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("-L cross product: %q, want %q", got, want)
	}
	// Index follows the command line (for per-command --prepare lists).
	if cmds[1].Index != 1 || cmds[2].Index != 0 {
		t.Errorf("indices %d %d", cmds[1].Index, cmds[2].Index)
	}
}

// TestCommandNames: hyperfine's rules for -n: fewer names than commands
// name the first ones (the others keep their command line); with
// parameters, one name serves every command ({param} substituted), or one
// per command; chrono also takes one per command line.
func TestCommandNames(t *testing.T) {
	n, _ := ListParam("n", "1,2")
	tests := []struct {
		lines, names []string
		params       []Param
		want         []string
		err          string
	}{
		{[]string{"echo a", "echo b", "echo c"}, []string{"A"}, nil, []string{"A", "echo b", "echo c"}, ""},
		{[]string{"echo a", "echo b"}, []string{"A", "B"}, nil, []string{"A", "B"}, ""},
		{[]string{"echo a"}, []string{"A", "B"}, nil, nil, "too many -n/--command-name names: 2 for 1 command"},
		{[]string{"echo {n}"}, []string{"name-{n}"}, []Param{n}, []string{"name-1", "name-2"}, ""},
		{[]string{"echo {n}", "cat {n}"}, []string{"x{n}"}, []Param{n}, []string{"x1", "x1", "x2", "x2"}, ""},
		{[]string{"echo {n}", "cat {n}"}, []string{"e{n}", "c{n}"}, []Param{n}, []string{"e1", "c1", "e2", "c2"}, ""},
		{[]string{"echo {n}", "cat {n}"}, []string{"a", "b", "c", "d"}, []Param{n}, []string{"a", "b", "c", "d"}, ""},
		{[]string{"echo {n}", "cat {n}"}, []string{"a", "b", "c"}, []Param{n}, nil, "3 -n/--command-name names for 4 benchmarks"},
		// A parameter the line does not use is shown, as hyperfine shows it.
		{[]string{"echo test"}, nil, []Param{{Name: "branch", Values: []string{"master", "feature"}}}, []string{"echo test (branch = master)", "echo test (branch = feature)"}, ""},
	}
	for _, tt := range tests {
		cmds, err := Commands(tt.lines, tt.names, tt.params, Options{})
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q -n %q: error %v, want %q", tt.lines, tt.names, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q -n %q: %v", tt.lines, tt.names, err)
			continue
		}
		var got []string
		for _, c := range cmds {
			got = append(got, c.Name)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q -n %q: names %q, want %q", tt.lines, tt.names, got, tt.want)
		}
	}
}

// TestListEscapes: -L splits at commas, as hyperfine's tokenizer does: a
// backslash escapes a comma or a backslash, other backslashes stay.
func TestListEscapes(t *testing.T) {
	tests := map[string][]string{
		`a\,b,c`:        {"a,b", "c"},
		`hello\, world`: {"hello, world"},
		`\,\,\,`:        {",,,"},
		`\n`:            {`\n`},
		`\\`:            {`\`},
		`\\\,`:          {`\,`},
		`foo,,bar`:      {"foo", "", "bar"},
		`,bar`:          {"", "bar"},
		`bar,`:          {"bar", ""},
		`a\`:            {`a\`},
	}
	for in, want := range tests {
		p, err := ListParam("x", in)
		if err != nil || !reflect.DeepEqual(p.Values, want) {
			t.Errorf("ListParam(%q) = %q, %v; want %q", in, p.Values, err, want)
		}
	}
}

// TestEmptyCommandRefused: an empty command line is refused (hyperfine
// refuses ”), with a shell as without, also when a parameter makes it
// empty.
func TestEmptyCommandRefused(t *testing.T) {
	for _, opts := range []Options{{}, {NoShell: true}} {
		for _, line := range []string{"", "  "} {
			if _, err := Commands([]string{"true", line}, nil, nil, opts); err == nil || !strings.Contains(err.Error(), "command 2 is empty") {
				t.Errorf("%q (no shell %v): error %v", line, opts.NoShell, err)
			}
		}
	}
	x, _ := ListParam("x", "true,")
	if _, err := Commands([]string{"{x}"}, nil, []Param{x}, Options{}); err == nil || !strings.Contains(err.Error(), "is empty with x = ") {
		t.Errorf("empty by substitution: %v", err)
	}
	if _, err := shellWords(Options{Shell: "''"}); err == nil {
		t.Error("shell '': no error")
	}
}

// TestShellDecides: with a shell, chrono refuses nothing the shell may
// run: functions, bash builtins and keywords, `cmd || true` (the issue's
// five lines), with sh and with bash. They run for real where bash is
// installed.
func TestShellDecides(t *testing.T) {
	lines := []string{"f(){ :; }; f", "declare x=1", "shopt -s extglob", "function g { :; }; g", "nonexistent_xyz || true"}
	if _, err := Commands(lines, nil, nil, Options{}); err != nil {
		t.Errorf("default shell: %v", err)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run them with")
	}
	if _, err := Commands(lines, nil, nil, Options{Shell: "bash"}); err != nil {
		t.Errorf("shell bash: %v", err)
	}
	cmds, err := Commands(lines, nil, nil, Options{Shell: "bash"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), cmds, Options{Shell: "bash", Runs: 2})
	if err != nil || rep.Err != nil {
		t.Fatalf("bash: %v %v", err, rep.Err)
	}
	// With sh (dash on Debian) the bash-only lines fail at their first
	// run, as in hyperfine, with the shell's message; not before.
	cmds, _ = Commands([]string{"declare x=1"}, nil, nil, Options{})
	rep, err = Run(context.Background(), cmds, Options{Runs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Err != nil && strings.Contains(rep.Err.Error(), "exited with code 127") && !strings.Contains(rep.Err.Error(), "127: the shell found no such command") {
		t.Errorf("no hint for exit code 127: %v", rep.Err)
	}
}

// TestIgnoreExitCodes: --ignore-failure=LIST keeps the runs that exit
// with a listed code and stops on any other; a run killed by signal N has
// code 128+N.
func TestIgnoreExitCodes(t *testing.T) {
	tests := []struct {
		codes []int
		exit  int
		stop  bool
	}{
		{[]int{1}, 1, false},
		{[]int{1}, 2, true},
		{[]int{1, 2, 3}, 3, false},
		{[]int{1, 2, 3}, 4, true},
	}
	for _, tt := range tests {
		f := &fake{walls: map[string]time.Duration{"A": time.Millisecond}, exit: map[string]int{"A": tt.exit}}
		rep := runFake(t, f, Options{Runs: 2, IgnoreExitCodes: tt.codes}, "A")
		if stopped := rep.Err != nil; stopped != tt.stop {
			t.Errorf("--ignore-failure=%v, exit %d: stopped %v (%v), want %v", tt.codes, tt.exit, stopped, rep.Err, tt.stop)
		}
		if tt.stop && !strings.Contains(rep.Err.Error(), fmt.Sprintf("exited with code %d", tt.exit)) {
			t.Errorf("failure does not name code %d: %v", tt.exit, rep.Err)
		}
		if !tt.stop {
			if w := warnText(rep.analyze(rep.Results[0]).Warnings); !strings.Contains(w, "(kept, --ignore-failure="+joinInts(tt.codes)+")") {
				t.Errorf("warnings %q", w)
			}
		}
	}
	b := &bench{opts: Options{IgnoreExitCodes: []int{137}}}
	if !b.ignored(Sample{ExitCode: -1, Signal: "killed", SignalNumber: 9}) || b.ignored(Sample{ExitCode: -1, SignalNumber: 15}) {
		t.Error("a run killed by SIGKILL is not code 137")
	}
}

// TestHyperfineIteration: runs see HYPERFINE_ITERATION as hyperfine sets
// it (0, 1, ... for timing runs, warmup-0, ... for warm-ups; not set for
// the other commands), besides CHRONO_ITERATION.
func TestHyperfineIteration(t *testing.T) {
	var envs []string
	f := &envFake{seen: &envs}
	b, err := newBench(fakeCommands(t, "A"), Options{Runs: 2, Warmup: 1, Prepare: []string{"P"}}, f)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	b.loop()
	want := []string{"P:", "A:warmup-0", "P:", "A:0", "P:", "A:1"}
	if !reflect.DeepEqual(envs, want) {
		t.Errorf("HYPERFINE_ITERATION seen %q, want %q", envs, want)
	}
}

// envFake records, for every run but the overhead runs, the line and its
// HYPERFINE_ITERATION.
type envFake struct{ seen *[]string }

func (f *envFake) run(spec *execSpec) (Sample, []byte, error) {
	line := spec.argv[len(spec.argv)-1]
	if line != "" {
		v := ""
		for _, e := range spec.env {
			if s, ok := strings.CutPrefix(e, "HYPERFINE_ITERATION="); ok {
				v = s
			}
		}
		*f.seen = append(*f.seen, line+":"+v)
	}
	return Sample{Wall: time.Millisecond}, nil, nil
}
func (f *envFake) cancel() {}

// TestOutputPolicy: --output takes null, pipe, inherit or a file; a bare
// word is refused as hyperfine refuses it (./name is a file).
func TestOutputPolicy(t *testing.T) {
	for _, ok := range []string{"null", "pipe", "inherit", "./out.txt", "/tmp/x"} {
		if err := CheckOutput(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	if err := CheckOutput("nul"); err == nil || !strings.Contains(err.Error(), "./nul") {
		t.Errorf("bare word: %v", err)
	}
}

// TestSimulator: --debug-mode's executor: `sleep SECONDS` takes SECONDS,
// a shell given as `sleep SECONDS` adds its own, anything else is refused.
func TestSimulator(t *testing.T) {
	sm := simulator{shell: []string{"sleep", "0.02", "-c"}}
	s, _, err := sm.run(&execSpec{argv: []string{"sleep", "0.02", "-c", "sleep 0.01"}})
	if err != nil || s.Wall != 30*time.Millisecond {
		t.Errorf("shell sleep 0.02, sleep 0.01: %v, %v", s.Wall, err)
	}
	if s, _, err := sm.run(&execSpec{argv: []string{"sleep", "0.02", "-c", ""}}); err != nil || s.Wall != 20*time.Millisecond {
		t.Errorf("overhead run: %v, %v", s.Wall, err)
	}
	if _, _, err := (simulator{}).run(&execSpec{argv: []string{"echo", "hi"}}); err == nil || !strings.Contains(err.Error(), "sleep SECONDS") {
		t.Errorf("echo: %v", err)
	}
	// A simulated run looks up no program: `sleep` need not exist.
	opts := Options{NoShell: true, Simulate: true}
	cmds, err := Commands([]string{"sleep 0.5"}, nil, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), cmds, opts)
	if err != nil || rep.Err != nil || len(rep.Results[0].Samples) != 10 {
		t.Fatalf("simulated run: %v %v", err, rep)
	}
	if d := docOf(rep); !d.Run.Command.Simulated || !strings.Contains(warnText(d.Warnings), "simulated: no command was run") {
		t.Errorf("the document does not say it is simulated: %+v", d.Warnings)
	}
}

// TestPerCommandOutput: as with hyperfine's repeated --output, each
// command line can write somewhere else, its hooks with it; the overhead
// runs write nowhere.
func TestPerCommandOutput(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := crosstest.TempDir(t)
	a, b := dir+"/a.txt", dir+"/b.txt"
	cmds, err := Commands([]string{"echo one", "echo two"}, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), cmds, Options{Runs: 2, Order: Sequential, Outputs: []string{a, b}, Prepare: []string{"echo prep-one", "echo prep-two"}})
	if err != nil || rep.Err != nil {
		t.Fatal(err, rep.Err)
	}
	for path, want := range map[string]string{a: "prep-one\none\nprep-one\none\n", b: "prep-two\ntwo\nprep-two\ntwo\n"} {
		if got, _ := os.ReadFile(path); string(got) != want {
			t.Errorf("%s holds %q, want %q", path, got, want)
		}
	}
	if _, err := newBench(cmds, Options{Outputs: []string{a, b, a}}, &fake{}); err == nil || !strings.Contains(err.Error(), "3 --output values for 2 commands") {
		t.Errorf("three outputs for two commands: %v", err)
	}
}
