package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
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

func TestRunCLI(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX programs")
	}
	dir := crosstest.TempDir(t)
	js := filepath.Join(dir, "r.json")
	csvf := filepath.Join(dir, "r.csv")
	stdout, stderr, code := runChrono(t, "", "run", "-N", "--runs", "5", "-L", "n", "1,2", "--export-json", js, "--export-csv", csvf, "sh -c 'exit 0' {n}")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	for _, want := range []string{"Command 1: sh -c 'exit 0' 1", "Command 2: sh -c 'exit 0' 2", "wall median:", "p99", "(linear)", "Spawn overhead", "Comparison with the fastest"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	d, err := result.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != "command" || len(d.Measurements) != 2 || d.Incomplete {
		t.Fatalf("document kind %q, %d measurements, incomplete %v", d.Kind, len(d.Measurements), d.Incomplete)
	}
	m := d.Measurements[1]
	if m.Parameters["n"] != "2" || len(m.Metric("wall").Values) != 5 || m.Metric("max_rss") == nil || m.Metric("exit_code") == nil {
		t.Errorf("measurement %+v", m)
	}
	c, _ := os.ReadFile(csvf)
	if !strings.HasPrefix(string(c), "command,mean,stddev,median,user,system,min,max,parameter_n,") {
		t.Errorf("CSV header: %s", c)
	}
}

func TestRunCLIErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
		// sh: the command line is for a POSIX shell (exit code 127, sh -c,
		// ';'); windows runs command lines with cmd.exe.
		sh bool
	}{
		{args: []string{"run"}, code: exitUsage, want: "name a command"},
		{args: []string{"run", "-N", "no-such-program-xyz"}, code: exitFailure, want: "cannot run"},
		{args: []string{"run", "no-such-program-xyz --x"}, code: exitFailure, want: "127: the shell found no such command", sh: true},
		{args: []string{"run", "-N", "echo 'unterminated"}, code: exitUsage, want: "unterminated"},
		{args: []string{"run", "-N", "-m", "7", "-M", "5", noop}, code: exitUsage, want: "lower --min-runs"},
		{args: []string{"run", "-N", "-r", "-1", noop}, code: exitUsage, want: "must not be negative"},
		{args: []string{"run", "-N", "-n", "a", "-n", "b", noop}, code: exitUsage, want: "too many -n/--command-name names"},
		{args: []string{"run", "-N", "-P", "n", "1", "echo {n}"}, code: exitUsage, want: "is not a decimal number"},
		{args: []string{"run", "--style", "fancy", "true"}, code: exitUsage, want: "--style"},
		{args: []string{"run", "--export-json", "-", "--export-csv", "-", "true"}, code: exitUsage, want: "both write to standard output"},
		{args: []string{"run", "-N", "-P", "t", "1", "2", "--reference", noop + " {t}", noop + " {t}"}, code: exitUsage, want: "--reference"},
		{args: []string{"run", "-N", "-s", noop, "-s", noop, "--reference", noop, noop + " a", noop + " b"}, code: exitUsage, want: "the --reference command first"},
		{args: []string{"run", "--order", "sideways", "true"}, code: exitUsage, want: "unknown order"},
		{args: []string{"run", "-P", "n", "1"}, code: exitUsage, want: "needs 3 values"},
		{args: []string{"run", "--precision", "abc", "true"}, code: exitUsage, want: "precision"},
		{args: []string{"run", "--runs", "3", "sh -c 'echo oops >&2; exit 3'"}, code: exitFailure, want: "exited with code 3", sh: true},
		{args: []string{"run", "--runs", "3", "sh -c 'echo oops >&2; exit 3'"}, code: exitFailure, want: "oops", sh: true},
		{args: []string{"run", "--bogus", "true"}, code: exitUsage, want: "unknown flag"},
	}
	for _, tt := range tests {
		if tt.sh && runtime.GOOS == "windows" {
			t.Logf("not on windows: %q is a command line for sh", tt.args)
			continue
		}
		_, stderr, code := runChrono(t, "", tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("chrono %q: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr, tt.code, tt.want)
		}
	}
	// Without -i, the stderr tail keeps its lines, and the summary does
	// not claim -i was given (a command line for sh).
	if runtime.GOOS != "windows" {
		stdout, stderr, code := runChrono(t, "", "run", "--runs", "3", "echo first >&2; echo second >&2; exit 3")
		if code != exitFailure || !strings.Contains(stderr, "\n  | first\n  | second\n") || strings.Contains(stdout, "with -i") {
			t.Errorf("failure: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
	}
	// -i records the failures and succeeds.
	stdout, stderr, code := runChrono(t, "", "run", "-i", "--runs", "3", "exit 3")
	if code != 0 || !strings.Contains(stdout, "3 failed") {
		t.Errorf("-i: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestRunInterrupt builds chrono, starts a long benchmark, sends SIGINT and
// checks the exit code, the partial export and that no child survives.
func TestRunInterrupt(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checks process groups through /proc")
	}
	dir := crosstest.TempDir(t)
	bin := filepath.Join(dir, "chrono")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	js := filepath.Join(dir, "partial.json")
	// The first command completes its 3 runs quickly; the second sleeps
	// (with a background child in its process group) until interrupted.
	cmd := crosstest.Command(bin, "run", "--order", "sequential", "--runs", "3", "--export-json", js,
		"true", "sleep 30 & sleep 30; echo $CHRONO_ITERATION")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the first command's export is written.
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(js); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no export after 20 s; stderr %s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // let the sleep command start
	pgids := childGroups(cmd.Process.Pid)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want code 130; stderr %s", err, stderr.String())
	}
	d, err := result.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Incomplete || len(d.Measurements) != 2 || len(d.Measurements[0].Metric("wall").Values) != 3 {
		t.Errorf("partial document: incomplete %v, %d measurements", d.Incomplete, len(d.Measurements))
	}
	if !strings.Contains(stdout.String(), "Interrupted") {
		t.Errorf("no summary after the interrupt: %s", stdout.String())
	}
	if len(pgids) == 0 {
		t.Errorf("found no child process group of chrono to check")
	}
	for _, g := range pgids {
		deadline := time.Now().Add(5 * time.Second)
		for len(run.LiveGroupMembers(g)) > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if m := run.LiveGroupMembers(g); len(m) > 0 {
			t.Errorf("processes %v of the benchmarked command survive the interrupt", m)
		}
	}
}

// childGroups returns the process groups of pid's children (each run has
// its own).
func childGroups(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	var gs []int
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		// Only children that lead a group of their own: a child caught
		// between fork and its setpgid is still in this test's group,
		// and killing that group would kill go test itself.
		if len(f) >= 3 && f[1] == strconv.Itoa(pid) && f[2] == e.Name() {
			if g, err := strconv.Atoi(f[2]); err == nil && g != pid && g != ownGroup() {
				gs = append(gs, g)
			}
		}
	}
	return gs
}

// TestRunCounters counts software events for real (they work without a
// PMU), asks for hardware events that this host may not have, and checks
// the usage errors of --counters.
func TestRunCounters(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("perf_event_open is Linux only")
	}
	avail := counters.Available()
	if !avail.Software {
		t.Skip("software counters unavailable: " + avail.SoftwareReason)
	}
	dir := crosstest.TempDir(t)
	tests := []struct {
		name   string
		args   []string
		counts []string // metrics with a value > 0 in every run
		absent []string // metrics that must not be recorded (no PMU)
		stdout []string
	}{
		{"software", []string{"--counters=task-clock,page-faults", "-N", "true"}, []string{"task-clock", "page-faults"}, nil,
			[]string{"counters:", "task-clock", "page-faults"}},
		{"hardware", []string{"--counters=task-clock,cycles,instructions", "-N", "true"}, []string{"task-clock"}, []string{"cycles", "instructions"},
			[]string{"counters not counted", "cycles, instructions: "}},
		{"bare, shell", []string{"--counters", "true"}, []string{"task-clock", "page-faults"}, []string{"cycles"},
			[]string{"median counts subtracted"}},
	}
	for i, tt := range tests {
		js := filepath.Join(dir, strconv.Itoa(i)+".json")
		args := append([]string{"run", "--runs", "3", "--export-json", js}, tt.args...)
		stdout, stderr, code := runChrono(t, "", args...)
		if code != 0 {
			t.Fatalf("%s: exit %d, stderr %s", tt.name, code, stderr)
		}
		d, err := result.ReadFile(js)
		if err != nil {
			t.Fatal(err)
		}
		m := d.Measurements[0]
		for _, name := range tt.counts {
			mt := m.Metric(name)
			if mt == nil || len(mt.Values) != 3 {
				t.Errorf("%s: metric %s = %+v, want 3 values", tt.name, name, mt)
				continue
			}
			raw := m.Metric(name + "_raw") // before the shell's counts are subtracted
			if raw == nil {
				raw = mt
			}
			for _, v := range raw.Values {
				if !(v > 0) {
					t.Errorf("%s: %s values %v, want > 0", tt.name, name, raw.Values)
				}
			}
		}
		if !avail.Hardware {
			for _, name := range tt.absent {
				if m.Metric(name) != nil {
					t.Errorf("%s: %s recorded on a host without hardware counters", tt.name, name)
				}
			}
			for _, want := range tt.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("%s: stdout lacks %q:\n%s", tt.name, want, stdout)
				}
			}
			if tt.absent != nil && strings.Count(stdout, avail.HardwareReason) != 1 {
				t.Errorf("%s: the reason %q is not given exactly once:\n%s", tt.name, avail.HardwareReason, stdout)
			}
		}
	}
	_, stderr, code := runChrono(t, "", "run", "--counters=task-clock,bogus", "true")
	if code != exitUsage || !strings.Contains(stderr, `unknown event "bogus"`) || !strings.Contains(stderr, "page-faults") {
		t.Errorf("bad event: exit %d, stderr %q; want exit 2 listing the known events", code, stderr)
	}
	_, stderr, code = runChrono(t, "", "run", "--counters", "task-clock,cycles", "true")
	if code != exitUsage || !strings.Contains(stderr, "--counters=task-clock,cycles") {
		t.Errorf("list without '=': exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runChrono(t, "", "run", "--counters=", "true")
	if code != exitUsage || !strings.Contains(stderr, "empty event list") {
		t.Errorf("empty list: exit %d, stderr %q", code, stderr)
	}
}

// TestRunMaxRunsLowersDefaultMin checks hyperfine's rule: -M below the
// default minimum of 10 runs lowers the minimum instead of failing.
func TestRunMaxRunsLowersDefaultMin(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX programs")
	}
	js := filepath.Join(crosstest.TempDir(t), "r.json")
	_, stderr, code := runChrono(t, "", "run", "-N", "-M", "3", "--style", "none", "--export-json", js, "true")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	d, err := result.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(d.Measurements[0].Metric("wall").Values); n != 3 {
		t.Errorf("%d runs, want 3", n)
	}
}

// TestRunReference checks hyperfine's --reference: a command that is not
// among the others is benchmarked too, first, and is the reference; one
// that is (after parameter substitution) is not run twice.
func TestRunReference(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX programs")
	}
	dir := crosstest.TempDir(t)
	js := filepath.Join(dir, "r.json")
	stdout, stderr, code := runChrono(t, "", "run", "-N", "-r", "6", "--reference", "echo ref", "--export-json", js, "echo a")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	if !strings.Contains(stdout, "Command 1: echo ref") || !strings.Contains(stdout, "Comparison with the reference, \"echo ref\"") {
		t.Errorf("stdout:\n%s", stdout)
	}
	d, err := result.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Measurements) != 2 || d.Measurements[0].Name != "echo ref" {
		t.Errorf("measurements %d, first %q", len(d.Measurements), d.Measurements[0].Name)
	}
	// As in hyperfine 1.20, the reference is a command of its own even
	// when the same line is among the commands.
	_, stderr, code = runChrono(t, "", "run", "-N", "-r", "6", "-L", "x", "a,b", "--reference", "echo b", "--reference-name", "ref", "--export-json", js, "echo {x}")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	if d, err = result.ReadFile(js); err != nil {
		t.Fatal(err)
	}
	if len(d.Measurements) != 3 || d.Measurements[0].Name != "ref" || d.Run.Command.Reference != "ref" {
		t.Errorf("%d measurements, first %q, reference %q; want 3, the reference first, named ref", len(d.Measurements), d.Measurements[0].Name, d.Run.Command.Reference)
	}
}

// TestRunNoTiming: every run timed out: the summary and the export are
// written (marked incomplete), and chrono exits 1 with one line naming
// the command and the fix. With -i, runs that exit non-zero are timings:
// exit 0.
func TestRunNoTiming(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX programs")
	}
	js := filepath.Join(crosstest.TempDir(t), "r.json")
	stdout, stderr, code := runChrono(t, "", "run", "-N", "--timeout", "20ms", "--runs", "2", "--export-json", js, "sleep 5")
	if code != exitFailure {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitFailure, stderr)
	}
	if !strings.Contains(stderr, `"sleep 5" has no timing: all 2 of its runs timed out after 20ms`) || !strings.Contains(stderr, "raise --timeout") {
		t.Errorf("stderr: %s", stderr)
	}
	if !strings.Contains(stdout, "2 timed out") {
		t.Errorf("stdout: %s", stdout)
	}
	d, err := result.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Incomplete || !d.Measurements[0].Incomplete {
		t.Errorf("export not marked incomplete")
	}
	if _, stderr, code := runChrono(t, "", "run", "-N", "-i", "--runs", "2", "false"); code != 0 {
		t.Errorf("-i with failing runs: exit %d, stderr %s", code, stderr)
	}
}

// TestRunStyleBasic: chrono run --style basic prints ASCII only (the
// charts too), with the labels of each command block still aligned.
func TestRunStyleBasic(t *testing.T) {
	out, errs, code := runChrono(t, "", "run", "--runs", "3", "--warmup", "0", "--style", "basic", "-N", noop)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for i, r := range out {
		if r > 127 {
			t.Fatalf("non-ASCII %q at byte %d of:\n%s", r, i, out)
		}
	}
	for _, label := range []string{"  wall median:   ", "  mean +/- sd:   ", "  min ... max:   ", "  distribution  ", "  sequence      "} {
		if !strings.Contains(out, "\n"+label) {
			t.Errorf("no line starts with %q:\n%s", label, out)
		}
	}
}

// TestRunInstructions: chrono run --instructions counts every run under
// cachegrind and ranks the commands by instructions; without valgrind it
// says how to install it; with --counters it is refused.
func TestRunInstructions(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("valgrind counts instructions on Linux only; the tests' programs (true) are Linux's")
	}
	if _, _, code := runChrono(t, "", "run", "--instructions", "--counters", "-N", "true"); code != exitUsage {
		t.Errorf("--instructions with --counters: exit %d, want %d", code, exitUsage)
	}
	t.Run("no valgrind", func(t *testing.T) {
		t.Setenv("PATH", crosstest.TempDir(t)) // no valgrind there
		_, errs, code := runChrono(t, "", "run", "--instructions", "-N", "/bin/true")
		if code != exitFailure || !strings.Contains(errs, "apt-get install valgrind") {
			t.Errorf("without valgrind: exit %d, %s", code, errs)
		}
	})
	valgrindtest.Need(t)
	out, errs, code := runChrono(t, "", "run", "--instructions", "-N", "--runs", "2", "--json", "/bin/true", "/bin/echo hello")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	d, err := result.Decode(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range d.Measurements {
		ins := m.Metric("instructions")
		if m.Primary != "instructions" || ins == nil || len(ins.Values) != 2 || ins.Values[0] != ins.Values[1] {
			t.Errorf("%s: primary %q, instructions %+v", m.Name, m.Primary, ins)
		}
	}
}
