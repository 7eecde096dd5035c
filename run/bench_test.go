package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/crosstest"
)

// fake is an executor that records the argument lists it is asked to run
// and answers with figures derived from them: "cmd NAME" runs take
// walls[NAME]; the shell's empty command takes overhead.
type fake struct {
	calls    []string
	walls    map[string]time.Duration
	overhead time.Duration
	exit     map[string]int
}

func (f *fake) run(spec *execSpec) (Sample, []byte, error) {
	line := spec.argv[len(spec.argv)-1]
	f.calls = append(f.calls, line)
	s := Sample{MaxRSSBytes: 1 << 20, User: time.Millisecond, Sys: time.Millisecond}
	if line == "" {
		s.Wall = f.overhead
		return s, nil, nil
	}
	s.Wall = f.walls[line]
	s.ExitCode = f.exit[line]
	return s, []byte("boom: " + line), nil
}
func (f *fake) cancel() {}

func fakeCommands(t *testing.T, lines ...string) []Command {
	t.Helper()
	var cmds []Command
	for i, l := range lines {
		cmds = append(cmds, Command{Name: l, Line: l, Argv: []string{"sh", "-c", l}, Path: "/bin/sh", Index: i})
	}
	return cmds
}

func runFake(t *testing.T, f *fake, opts Options, lines ...string) *Benchmark {
	t.Helper()
	b, err := newBench(fakeCommands(t, lines...), opts, f)
	if err != nil {
		t.Fatal(err)
	}
	// The fake runs nothing: the overhead's program ("true", the shell)
	// need not be on PATH (windows has neither).
	b.look = func(name string) (string, error) { return "/bin/" + name, nil }
	defer b.close()
	b.loop()
	return b.rep
}

func TestOrder(t *testing.T) {
	tests := []struct {
		order Order
		want  string
	}{
		{Sequential, "A A A B B B"},
		{Interleaved, "A B B A A B"},
	}
	for _, tt := range tests {
		f := &fake{walls: map[string]time.Duration{"A": time.Millisecond, "B": time.Millisecond}}
		runFake(t, f, Options{Runs: 3, Order: tt.order}, "A", "B")
		var got []string
		for _, c := range f.calls {
			if c != "" {
				got = append(got, c)
			}
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("order %s: runs %q, want %q", tt.order, g, tt.want)
		}
	}
	// Random: reproducible for a seed, a permutation in every round, and
	// not always the same order.
	seq := func(seed uint64) string {
		f := &fake{walls: map[string]time.Duration{"A": 1, "B": 1, "C": 1}}
		runFake(t, f, Options{Runs: 20, Order: Random, Seed: seed}, "A", "B", "C")
		var got []string
		for _, c := range f.calls {
			if c != "" {
				got = append(got, c)
			}
		}
		return strings.Join(got, "")
	}
	a, b := seq(7), seq(7)
	if a != b {
		t.Errorf("random order with the same seed differs: %s vs %s", a, b)
	}
	rounds := map[string]bool{}
	for i := 0; i+3 <= len(a); i += 3 {
		r := []byte(a[i : i+3])
		slices.Sort(r)
		if string(r) != "ABC" {
			t.Fatalf("round %d is not a permutation: %s", i/3, a[i:i+3])
		}
		rounds[a[i:i+3]] = true
	}
	if len(rounds) < 2 {
		t.Errorf("random order used one order in all 20 rounds: %s", a)
	}
}

func TestShellOverheadSubtraction(t *testing.T) {
	f := &fake{walls: map[string]time.Duration{"A": 10 * time.Millisecond}, overhead: 2 * time.Millisecond}
	rep := runFake(t, f, Options{Runs: 12}, "A")
	if rep.Overhead == nil || rep.Overhead.Kind != "shell" || len(rep.Overhead.Samples) < minOverheadRuns {
		t.Fatalf("overhead = %+v, want shell overhead with >= %d runs", rep.Overhead, minOverheadRuns)
	}
	a := rep.analyze(rep.Results[0])
	if got := a.WallSummary.Median; got != 8e6 {
		t.Errorf("corrected median = %v ns, want 8e6 (10 ms - 2 ms overhead)", got)
	}
	if got := stats0(a.RawWall); got != 10e6 {
		t.Errorf("raw median = %v, want 10e6", got)
	}
	// CPU times are corrected by the overhead's CPU times (1 ms each in
	// the fake), never below zero.
	if a.UserSummary.Median != 0 || a.SysSummary.Median != 0 {
		t.Errorf("corrected user/sys = %v/%v, want 0/0", a.UserSummary.Median, a.SysSummary.Median)
	}
	// -N: spawn overhead measured but not subtracted unless asked.
	for _, sub := range []bool{false, true} {
		f := &fake{walls: map[string]time.Duration{"A": 10 * time.Millisecond}, overhead: 2 * time.Millisecond}
		f.walls["true"] = 2 * time.Millisecond
		rep := runFake(t, f, Options{Runs: 12, NoShell: true, SubtractSpawn: sub}, "A")
		a := rep.analyze(rep.Results[0])
		want := 10e6
		if sub {
			want = 8e6
		}
		if rep.Overhead.Kind != "spawn" || a.WallSummary.Median != want {
			t.Errorf("-N subtract=%v: overhead kind %q, median %v; want spawn, %v", sub, rep.Overhead.Kind, a.WallSummary.Median, want)
		}
	}
}

func stats0(xs []float64) float64 { s := slices.Clone(xs); slices.Sort(s); return s[len(s)/2] }

func TestFailure(t *testing.T) {
	f := &fake{walls: map[string]time.Duration{"A": time.Millisecond, "B": time.Millisecond}, exit: map[string]int{"B": 3}}
	rep := runFake(t, f, Options{Runs: 5}, "A", "B")
	var fe *FailureError
	if !errors.As(rep.Err, &fe) {
		t.Fatalf("Err = %v, want a FailureError", rep.Err)
	}
	msg := fe.Error()
	for _, want := range []string{`"B"`, "exited with code 3", "boom: B", "--ignore-failure"} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure message %q lacks %q", msg, want)
		}
	}
	if !rep.incomplete() {
		t.Error("report of a failed benchmark is not incomplete")
	}
	// With -i the failures are recorded and the benchmark completes.
	f = &fake{walls: map[string]time.Duration{"A": time.Millisecond, "B": time.Millisecond}, exit: map[string]int{"B": 3}}
	rep = runFake(t, f, Options{Runs: 5, IgnoreFailure: true}, "A", "B")
	if rep.Err != nil || rep.incomplete() {
		t.Fatalf("-i: Err = %v, incomplete %v", rep.Err, rep.incomplete())
	}
	a := rep.analyze(rep.Results[1])
	if a.Failures != 5 || rep.Results[1].Samples[0].ExitCode != 3 {
		t.Errorf("-i: %d failures recorded, exit code %d; want 5, 3", a.Failures, rep.Results[1].Samples[0].ExitCode)
	}
}

func TestRunCounts(t *testing.T) {
	tests := []struct {
		opts Options
		wall time.Duration
		want int
	}{
		{Options{Runs: 7}, time.Second, 7},
		{Options{}, time.Second, 10},                                       // min runs beat the 3 s budget
		{Options{}, 100 * time.Millisecond, 30},                            // budget 3 s
		{Options{MaxRuns: 20}, 10 * time.Millisecond, 20},                  // max runs
		{Options{MinRuns: 3, Budget: time.Second}, time.Second, 3},         // min runs
		{Options{Precision: 0.01, MinRuns: 10}, time.Millisecond, 10},      // constant times: CI width 0
		{Options{Precision: 0.01, MaxRuns: 15}, 10 * time.Millisecond, 10}, // reached at once
	}
	for _, tt := range tests {
		f := &fake{walls: map[string]time.Duration{"A": tt.wall}}
		rep := runFake(t, f, tt.opts, "A")
		if got := len(rep.Results[0].Samples); got != tt.want {
			t.Errorf("%+v with %v runs: %d runs, want %d", tt.opts, tt.wall, got, tt.want)
		}
	}
}

func TestCommandsValidation(t *testing.T) {
	if _, err := Commands([]string{"definitely-not-a-program-xyz --flag"}, nil, nil, Options{NoShell: true}); err == nil || !strings.Contains(err.Error(), "cannot run") {
		t.Errorf("missing program with -N: error %v", err)
	}
	// With a shell, the shell decides what runs (functions, builtins,
	// `cmd || true`): nothing is refused before the first run.
	if _, err := Commands([]string{"definitely-not-a-program-xyz | wc"}, nil, nil, Options{}); err != nil {
		t.Errorf("missing program with a shell: error %v, want none (the shell reports it)", err)
	}
	// A parameter the command does not use shows in its name, as in
	// hyperfine.
	if cmds, err := Commands([]string{"echo {x}"}, nil, []Param{{Name: "y", Values: []string{"1"}}}, Options{}); err != nil || cmds[0].Name != "echo {x} (y = 1)" {
		t.Errorf("unused parameter: %v, %v", cmds, err)
	}
	// -N substitutes into words: a value with blanks stays one argument.
	// (prog is a program of the platform's: windows has no echo program.)
	prog := "echo"
	if runtime.GOOS == "windows" {
		prog = "cmd"
	}
	p, _ := ListParam("v", "a b,'q'")
	cmds, err := Commands([]string{prog + " {v} x"}, []string{"echo-{v}"}, []Param{p}, Options{NoShell: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%q %q", cmds[0].Argv, cmds[1].Argv), fmt.Sprintf(`["%s" "a b" "x"] ["%s" "'q'" "x"]`, prog, prog); got != want {
		t.Errorf("argv = %s, want %s", got, want)
	}
	if cmds[0].Name != "echo-a b" || cmds[0].Params["v"] != "a b" {
		t.Errorf("name %q params %v", cmds[0].Name, cmds[0].Params)
	}
	// With the (default) shell, the line is substituted as text.
	sh, err := shellWords(Options{})
	if err != nil {
		t.Fatal(err)
	}
	cmds, err = Commands([]string{"echo {v}"}, nil, []Param{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%q", cmds[0].Argv), fmt.Sprintf("%q", append(sh, "echo a b")); got != want {
		t.Errorf("shell argv = %s, want %s", got, want)
	}
}

// pgroupAlive reports whether a live (non-zombie) process is left in
// process group pgid, waiting up to 5 s for SIGKILL to take effect.
func pgroupAlive(pgid int) bool {
	deadline := time.Now().Add(5 * time.Second)
	for {
		if len(LiveGroupMembers(pgid)) == 0 {
			return false
		}
		if time.Now().After(deadline) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestTimeoutKillsProcessGroup(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process groups")
	}
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep program")
	}
	cmds, err := Commands([]string{"sleep 10 & sleep 10"}, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// No bound on the elapsed time (a loaded host may be slow): that the
	// runs were killed shows in their being recorded as timed out.
	rep, err := Run(context.Background(), cmds, Options{Runs: 2, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Results[0]
	if len(res.TimedOut) != 2 || len(res.Samples) != 0 || rep.Err != nil {
		t.Fatalf("timed out %d, completed %d, err %v; want 2, 0, nil", len(res.TimedOut), len(res.Samples), rep.Err)
	}
	for _, s := range res.TimedOut {
		if s.Wall < 200*time.Millisecond {
			t.Errorf("timed-out run lasted %v, less than the timeout", s.Wall)
		}
		if pgroupAlive(s.Pid) {
			t.Errorf("process group %d of a timed-out run survives", s.Pid)
		}
	}
	a := rep.analyze(res)
	if !strings.Contains(warnText(a.Warnings), "timed out") {
		t.Errorf("warnings %q do not mention the timeouts", a.Warnings)
	}
}

func TestRealRun(t *testing.T) {
	if _, err := exec.LookPath("true"); err != nil {
		t.Skip("no true program")
	}
	cmds, err := Commands([]string{"true", "sh -c 'exit 0'"}, nil, nil, Options{NoShell: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), cmds, Options{Runs: 10, NoShell: true})
	if err != nil || rep.Err != nil {
		t.Fatal(err, rep.Err)
	}
	for _, res := range rep.Results {
		if len(res.Samples) != 10 || !res.Complete {
			t.Fatalf("%s: %d samples, complete %v", res.Command.Name, len(res.Samples), res.Complete)
		}
		for _, s := range res.Samples {
			if s.Wall <= 0 || s.ExitCode != 0 {
				t.Errorf("%s: sample %+v", res.Command.Name, s)
			}
			if runtime.GOOS == "linux" && (s.MaxRSSBytes <= 0 || s.MinorFaults <= 0) {
				t.Errorf("%s: no rusage in %+v", res.Command.Name, s)
			}
		}
	}
	if rep.Overhead.Kind != "spawn" || len(rep.Overhead.Samples) < minOverheadRuns {
		t.Errorf("spawn overhead %+v", rep.Overhead)
	}
	// Every process started is counted, and the own CPU time is measured
	// (a duration, not checked against any threshold).
	if want := 20 + len(rep.Overhead.Samples); rep.Processes != want {
		t.Errorf("Processes = %d, want %d", rep.Processes, want)
	}
	if runtime.GOOS != "windows" && rep.OwnCPU < 0 {
		t.Errorf("OwnCPU = %v, want measured", rep.OwnCPU)
	}
}

// TestCancel: canceling the context kills the running command and stops
// the benchmark. The command is this test binary again, told by the
// environment to sleep 10 s (a program every platform has).
func TestCancel(t *testing.T) {
	if os.Getenv("CHRONO_RUN_TEST_SLEEP") == "1" {
		time.Sleep(10 * time.Second)
		return
	}
	t.Setenv("CHRONO_RUN_TEST_SLEEP", "1")
	cmds, err := Commands([]string{joinWords(crosstest.Argv(os.Args[0], "-test.run=^TestCancel$"))}, nil, nil, Options{NoShell: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	rep, err := Run(ctx, cmds, Options{Runs: 3, NoShell: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Interrupted || !rep.incomplete() || rep.Err != nil {
		t.Errorf("interrupted %v incomplete %v err %v", rep.Interrupted, rep.incomplete(), rep.Err)
	}
	// The running sleep was killed, not waited for: no run completed (no
	// bound on the elapsed time, which a loaded host stretches).
	if n := len(rep.Results[0].Samples); n != 0 {
		t.Errorf("%d runs of a 10 s sleep completed after the cancel", n)
	}
}
