//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/internal/valgrind/valgrindtest"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/run"
)

func TestStatText(t *testing.T) {
	a := softwareCountersOrSkip(t)
	var out, errb bytes.Buffer
	code := execute([]string{"stat", "-r", "2", "-e", "task-clock,page-faults,cycles", "--", "true"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{"Counter stats for 'true' (2 runs):", "task-clock", "page-faults", "CPUs utilized", "time elapsed", "standard error of the mean", "read(2)", "user-space rdpmc read"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if !a.Hardware {
		if !regexp.MustCompile(`<not supported>\s+cycles `).MatchString(s) || !strings.Contains(s, "no PMU exposed") {
			t.Errorf("cycles on a host without hardware counters should be <not supported> with the reason:\n%s", s)
		}
	}
}

func TestStatJSON(t *testing.T) {
	a := softwareCountersOrSkip(t)
	path := filepath.Join(crosstest.TempDir(t), "stat.json")
	var out, errb bytes.Buffer
	code := execute([]string{"stat", "-r", "3", "-e", "task-clock,page-faults,instructions", "--export-json", path, "--", "true"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errb.String())
	}
	d, err := result.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != "counters" || len(d.Measurements) != 1 {
		t.Fatalf("kind %q, %d measurements", d.Kind, len(d.Measurements))
	}
	m := d.Measurements[0]
	if m.Name != "true" || m.Primary != "task-clock" {
		t.Errorf("measurement %q primary %q", m.Name, m.Primary)
	}
	for _, name := range []string{"task-clock", "page-faults", "wall", "user", "sys"} {
		met := m.Metric(name)
		if met == nil || len(met.Values) != 3 || met.Summary == nil || met.Summary.N != 3 {
			t.Errorf("metric %s = %+v, want 3 values and a summary", name, met)
			continue
		}
		if name == "task-clock" || name == "wall" {
			for _, v := range met.Values {
				if v <= 0 {
					t.Errorf("%s value %v: a run of true takes time", name, v)
				}
			}
		}
	}
	det := m.Detail.Counters
	if det == nil || len(det.Events) != 3 {
		t.Fatalf("detail %+v, want the 3 events asked for", det)
	}
	if !a.Hardware {
		if m.Metric("instructions") != nil {
			t.Error("instructions has a metric on a host without hardware counters")
		}
		if e := det.Events[2]; e.Name != "instructions" || e.State != result.CounterNotSupported || !strings.Contains(e.Reason, "no PMU") {
			t.Errorf("instructions: %+v, want not supported, no PMU", e)
		}
	}
	if d.Run.Counters == nil || d.Run.Counters.Source != counters.SourcePerf || d.Run.Counters.Runs != 3 {
		t.Errorf("run details %+v", d.Run.Counters)
	}
	if ex := m.Metric("exit_code"); ex == nil || len(ex.Values) != 3 {
		t.Errorf("exit_code metric %+v", ex)
	}
}

func TestStatUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"stat"}, exitUsage, "needs a command"},
		{[]string{"stat", "-r", "0", "--", "true"}, exitUsage, "--runs must be at least 1"},
		{[]string{"stat", "--repeat", "0", "--", "true"}, exitUsage, "--runs must be at least 1"},
		{[]string{"stat", "-e", "cyclez", "--", "true"}, exitUsage, `unknown event "cyclez"; known events: cycles`},
		{[]string{"stat", "--valgrind", "-e", "cycles", "--", "true"}, exitUsage, "does not take -e"},
		{[]string{"stat", "--bogus", "--", "true"}, exitUsage, "unknown flag"},
		{[]string{"stat", "--", "/nonexistent/chrono-stat-test"}, exitFailure, "cannot start"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		code := execute(tt.args, &out, &errb)
		if code != tt.code || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("chrono %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tt.args, " "), code, errb.String(), tt.code, tt.want)
		}
	}
}

func TestStatFailingCommand(t *testing.T) {
	softwareCountersOrSkip(t)
	var out, errb bytes.Buffer
	code := execute([]string{"stat", "-e", "task-clock", "--", "sh", "-c", "exit 3"}, &out, &errb)
	if code != 3 || !strings.Contains(errb.String(), "exited with code 3") {
		t.Errorf("exit %d, stderr %q; want the command's exit code 3, as perf stat returns it", code, errb.String())
	}
	if !strings.Contains(out.String(), "task-clock") {
		t.Errorf("the counts of the failing run are not shown:\n%s", out.String())
	}
}

// TestStatExit checks the exit code rule with made-up runs: the last
// run's status as perf stat returns it, 128+N for a command killed by
// signal N, 128 + the signal for an interrupt.
func TestStatExit(t *testing.T) {
	exit := func(code int) run.Sample { return run.Sample{ExitCode: code} }
	killed := func(n int, name string) run.Sample {
		return run.Sample{ExitCode: -1, SignalNumber: n, Signal: name}
	}
	tests := []struct {
		name    string
		samples []run.Sample
		sig     os.Signal
		code    int
		want    string // in the message; "" for none
	}{
		{"success", []run.Sample{exit(0)}, nil, 0, ""},
		{"exit 3", []run.Sample{exit(3)}, nil, 3, "exited with code 3"},
		{"exit 200", []run.Sample{exit(200)}, nil, 200, "exited with code 200"},
		{"last run counts (fails)", []run.Sample{exit(0), exit(5)}, nil, 5, "non-zero in 1 of 2 runs"},
		{"last run counts (succeeds)", []run.Sample{exit(3), exit(0)}, nil, 0, ""},
		{"killed by SIGTERM", []run.Sample{exit(0), killed(15, "terminated")}, nil, 143, "killed by signal 15 (terminated)"},
		{"killed by SIGKILL", []run.Sample{killed(9, "killed")}, nil, 137, "128+9"},
		{"SIGINT after runs", []run.Sample{exit(0), exit(0)}, syscall.SIGINT, 130, "after 2 of 5 runs"},
		{"SIGTERM after runs", []run.Sample{exit(3)}, syscall.SIGTERM, 143, "after 1 of 5 runs"},
		{"os.Interrupt before a run", nil, os.Interrupt, 130, "before a run finished"},
	}
	for _, tt := range tests {
		code, err := statExit(tt.samples, 5, tt.sig)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if code != tt.code || (tt.want == "") != (err == nil) || !strings.Contains(msg, tt.want) {
			t.Errorf("%s: exit %d, message %q; want %d and %q", tt.name, code, msg, tt.code, tt.want)
		}
	}
}

// TestStatInterrupt builds chrono, lets the first of 5 runs finish, then
// interrupts the second (a command that ignores SIGINT and SIGTERM and
// leaves a background child) with SIGINT, and SIGTERM in a second round:
// the exit code is 130 or 143, the first run's results are printed and
// exported (marked incomplete), and no process of the command survives.
func TestStatInterrupt(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checks process groups through /proc")
	}
	softwareCountersOrSkip(t)
	dir := crosstest.TempDir(t)
	bin := filepath.Join(dir, "chrono")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		mark := filepath.Join(dir, "ran-"+tc.sig.String())
		js := filepath.Join(dir, "stat-"+tc.sig.String()+".json")
		script := `if [ -e "$MARK" ]; then trap "" INT TERM; sleep 60 & sleep 60; else : > "$MARK"; fi`
		cmd := crosstest.Command(bin, "stat", "-r", "5", "-e", "task-clock", "--export-json", js, "--", "sh", "-c", script)
		cmd.Env = append(os.Environ(), "MARK="+mark)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait until the second run's sh and both sleeps are there.
		var groups []int
		deadline := time.Now().Add(30 * time.Second)
		for {
			groups = childGroups(cmd.Process.Pid)
			live := 0
			for _, g := range groups {
				live += len(run.LiveGroupMembers(g))
			}
			if live >= 3 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("the second run did not start in 30 s; stderr %s", stderr.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		cmd.Process.Signal(tc.sig)
		err := cmd.Wait()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != tc.code {
			t.Fatalf("%v: exit %v, want code %d; stderr %s", tc.sig, err, tc.code, stderr.String())
		}
		if !strings.Contains(stdout.String(), "Interrupted: 1 of 5 runs finished") || !strings.Contains(stdout.String(), "task-clock") {
			t.Errorf("%v: the first run's results are not printed:\n%s\nstderr: %s", tc.sig, stdout.String(), stderr.String())
		}
		if !strings.Contains(stderr.String(), "interrupted") {
			t.Errorf("%v: stderr %q does not say it was interrupted", tc.sig, stderr.String())
		}
		d, err := result.ReadFile(js)
		if err != nil {
			t.Fatalf("%v: %v", tc.sig, err)
		}
		if m := d.Measurements[0].Metric("task-clock"); !d.Incomplete || m == nil || len(m.Values) != 1 {
			t.Errorf("%v: export incomplete=%v, task-clock %+v; want incomplete with 1 value", tc.sig, d.Incomplete, m)
		}
		for _, g := range groups {
			deadline := time.Now().Add(5 * time.Second)
			for len(run.LiveGroupMembers(g)) > 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if m := run.LiveGroupMembers(g); len(m) > 0 {
				t.Errorf("%v: processes %v of the command survive the interrupt", tc.sig, m)
				if g > 0 && g != ownGroup() { // never this test's own group
					syscall.Kill(-g, syscall.SIGKILL)
				}
			}
		}
	}
}

func TestStatValgrind(t *testing.T) {
	valgrindtest.Need(t)
	path := filepath.Join(crosstest.TempDir(t), "vg.json")
	var out, errb bytes.Buffer
	code := execute([]string{"stat", "--valgrind", "-r", "2", "--export-json", path, "--", "true"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{"Simulated counts (valgrind cachegrind) for 'true' (2 runs)", " instructions ", "D1mr", "time elapsed (under valgrind)", "simulated by valgrind cachegrind"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	d, err := result.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := d.Measurements[0]
	ir := m.Metric("instructions")
	if ir == nil || len(ir.Values) != 2 || ir.Values[0] <= 0 || ir.Values[0] != ir.Values[1] {
		t.Errorf("instructions metric = %+v, want two equal positive (deterministic) counts", ir)
	}
	if m.Metric("Ir") != nil {
		t.Error("cachegrind's Ir is a metric: it is called instructions, as in perf mode")
	}
	if d.Run.Counters == nil || d.Run.Counters.Source != counters.SourceCachegrind {
		t.Errorf("run details %+v", d.Run.Counters)
	}
}

// TestStatValgrindChildren: --valgrind counts the processes the command
// starts too (valgrind --trace-children): a shell that runs /bin/true
// twice counts at least twice /bin/true's instructions more than a shell
// that runs only its builtin ':'.
func TestStatValgrindChildren(t *testing.T) {
	valgrindtest.Need(t)
	count := func(argv ...string) float64 {
		t.Helper()
		path := filepath.Join(crosstest.TempDir(t), "vg.json")
		out, errs, code := runChrono(t, "", append([]string{"stat", "--valgrind", "--export-json", path, "--"}, argv...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s%s", argv, code, out, errs)
		}
		d, err := result.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ir := d.Measurements[0].Metric("instructions")
		if ir == nil || len(ir.Values) != 1 {
			t.Fatalf("%v: instructions %+v", argv, ir)
		}
		return ir.Values[0]
	}
	shell, alone, twice := count("sh", "-c", ":"), count("/bin/true"), count("sh", "-c", "/bin/true; /bin/true")
	t.Logf("sh -c ':' %.0f, /bin/true %.0f, sh -c '/bin/true; /bin/true' %.0f instructions", shell, alone, twice)
	if twice-shell < 2*alone*0.9 {
		t.Errorf("the shell's children were not counted: %.0f − %.0f < 2 × %.0f", twice, shell, alone)
	}
}

// The command's own output never mixes with the results on stdout.
func TestStatCommandOutputKeptOffStdout(t *testing.T) {
	out, errs, code := runChrono(t, "", "stat", "-e", "task-clock", "--", "printf", "%s%s", "MARKER", "-OUTPUT")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "MARKER-OUTPUT") || strings.Contains(errs, "MARKER-OUTPUT") {
		t.Errorf("command output shown without --show-output: stdout %q stderr %q", out, errs)
	}
	out, errs, code = runChrono(t, "", "stat", "--show-output", "-e", "task-clock", "--", "printf", "%s%s", "MARKER", "-OUTPUT")
	if code != exitOK || strings.Contains(out, "MARKER-OUTPUT") || !strings.Contains(errs, "MARKER-OUTPUT") {
		t.Errorf("--show-output: exit %d, stdout %q, stderr %q; want the output on stderr only", code, out, errs)
	}
}
