package main

import (
	"github.com/chronograph/chronograph/counters"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
)

// liveIsReport runs chrono with args (which export the document to js)
// and checks that its standard output is, byte for byte, what chrono
// report prints for the saved document.
func liveIsReport(t *testing.T, js string, args ...string) string {
	t.Helper()
	live, errs, code := runChrono(t, "", args...)
	if code != exitOK {
		t.Fatalf("chrono %q: exit %d: %s", args, code, errs)
	}
	again, errs, code := runChrono(t, "", "report", js)
	if code != exitOK {
		t.Fatalf("chrono report: exit %d: %s", code, errs)
	}
	if again != live {
		t.Errorf("chrono %q printed:\n%s\nchrono report of its document:\n%s", args, live, again)
	}
	return live
}

// TestRunLiveIsReport: the text of chrono run is the text rendering of its
// document, with the options it was given (unit, sort, reference).
func TestRunLiveIsReport(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX programs")
	}
	js := filepath.Join(crosstest.TempDir(t), "r.json")
	for _, extra := range [][]string{
		nil,
		{"-u", "microsecond", "--sort", "mean-time", "--reference", "sh -c :"},
		{"--runs", "3", "-L", "n", "1,2", "-n", "one {n}"}, // too few runs for an interval
	} {
		args := append([]string{"run", "-N", "--runs", "6", "--export-json", js}, extra...)
		if len(extra) > 0 && extra[0] == "--runs" {
			args = append([]string{"run", "-N", "--export-json", js}, extra...)
			args = append(args, "sh -c : {n}")
		} else {
			args = append(args, "true", "sh -c :")
		}
		out := liveIsReport(t, js, args...)
		if !strings.Contains(out, "Command 1:") {
			t.Errorf("chrono %q:\n%s", args, out)
		}
	}
	if runtime.GOOS == "linux" && softwareCountersAvailable() {
		liveIsReport(t, js, "run", "-r", "6", "--counters=task-clock,page-faults,cycles", "--export-json", js, "true", ":")
	}
}

func softwareCountersAvailable() bool {
	return captureEnv().Counters.Software
}

// TestStatLiveIsReport: the text of chrono stat is the text rendering of
// its document.
func TestStatLiveIsReport(t *testing.T) {
	softwareCountersOrSkip(t)
	js := filepath.Join(crosstest.TempDir(t), "s.json")
	out := liveIsReport(t, js, "stat", "-r", "3", "-e", "task-clock,page-faults,cycles", "--export-json", js, "--", "true")
	if !strings.Contains(out, "Counter stats for 'true' (3 runs):") {
		t.Errorf("stat:\n%s", out)
	}
	liveIsReport(t, js, "stat", "-e", "task-clock", "--export-json", js, "--", "sh", "-c", "exit 0")
}

// TestRunStatBadInput: conflicting or empty flag values are usage errors
// (exit 2) that name the fix, refused before anything runs.
func TestRunStatBadInput(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX programs")
	}
	dir := crosstest.TempDir(t)
	marker := filepath.Join(dir, "ran")
	touch := "touch " + marker
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--runs", "5", "-m", "3", touch}, "give either -r N or -m/-M, not both"},
		{[]string{"run", "-r", "5", "--max-runs", "9", touch}, "give either -r N or -m/-M, not both"},
		{[]string{"run", "--show-output", "--output", filepath.Join(dir, "out"), touch}, "give --show-output or --output"},
		{[]string{"run", "--subtract-spawn", touch}, "add -N or leave --subtract-spawn out"},
		{[]string{"run", "--counters=", touch}, "give --counters alone for perf stat's default set"},
		{[]string{"run", "-u", "fortnight", touch}, "unknown time unit \"fortnight\": use ns, us, ms or s"},
		{[]string{"run", "--sort", "name", touch}, "--sort \"name\": use one of auto, command, mean-time, median"},
		{[]string{"run", "--export-json", "/nonexistent/x.json", touch}, "directory /nonexistent does not exist"},
		{[]string{"run", "--export-markdown", dir, touch}, "is a directory"},
		{[]string{"run", "--json", "--export-csv", "-", touch}, "both write to standard output"},
		{[]string{"stat", "-e", "", "--", "touch", marker}, "-e '' names no event: leave -e out"},
		{[]string{"stat", "--export-json", "/nonexistent/x.json", "--", "touch", marker}, "directory /nonexistent does not exist"},
		{[]string{"stat", "--export-csv", dir, "--", "touch", marker}, "is a directory"},
		{[]string{"stat", "--json", "--export-markdown", "-", "--", "touch", marker}, "both write to standard output"},
	}
	for _, tt := range tests {
		_, errs, code := runChrono(t, "", tt.args...)
		if code != exitUsage || !strings.Contains(errs, tt.want) {
			t.Errorf("chrono %q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, errs, tt.want)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Errorf("chrono %q ran the command before refusing", tt.args)
			os.Remove(marker)
		}
	}
}

// TestRunTimeUnit: -u takes hyperfine's names too, and the document
// records the unit so that chrono report prints it the same way.
func TestRunTimeUnit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX programs")
	}
	js := filepath.Join(crosstest.TempDir(t), "r.json")
	for _, tt := range []struct{ flag, name, stored string }{
		{"microsecond", "µs", "us"}, {"µs", "µs", "us"}, {"millisecond", "ms", "ms"}, {"second", "s", "s"}, {"ns", "ns", "ns"},
	} {
		out, errs, code := runChrono(t, "", "run", "-N", "-r", "2", "-u", tt.flag, "--export-json", js, "true")
		if code != exitOK {
			t.Fatalf("-u %s: exit %d: %s", tt.flag, code, errs)
		}
		if !strings.Contains(out, " "+tt.name+"   ") {
			t.Errorf("-u %s: no figure in %s:\n%s", tt.flag, tt.name, out)
		}
		d, err := result.ReadFile(js)
		if err != nil {
			t.Fatal(err)
		}
		if d.Run.Command == nil || d.Run.Command.TimeUnit != tt.stored {
			t.Errorf("-u %s: stored unit %+v, want %q", tt.flag, d.Run.Command, tt.stored)
		}
	}
}

// TestRunStatJSON: --json prints the document on standard output and
// nothing else; stat's --json is no longer a file name (it once wrote a
// file named "--").
func TestRunStatJSON(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX programs")
	}
	t.Chdir(crosstest.TempDir(t))
	out, errs, code := runChrono(t, "", "run", "-N", "-r", "2", "--json", "true")
	if code != exitOK {
		t.Fatalf("run --json: exit %d: %s", code, errs)
	}
	if d, err := result.Decode(strings.NewReader(out)); err != nil || d.Kind != result.KindCommand {
		t.Errorf("run --json: %v, stdout:\n%s", err, out)
	}
	if runtime.GOOS == "linux" && softwareCountersAvailable() {
		out, errs, code = runChrono(t, "", "stat", "-e", "task-clock", "--json", "--", "true")
		if code != exitOK {
			t.Fatalf("stat --json: exit %d: %s", code, errs)
		}
		if d, err := result.Decode(strings.NewReader(out)); err != nil || d.Kind != result.KindCounters {
			t.Errorf("stat --json: %v, stdout:\n%s", err, out)
		}
		if _, err := os.Stat("--"); err == nil {
			t.Error("stat --json -- true wrote a file named --")
		}
	}
	// --style none: no text, the exports only.
	csvf := filepath.Join(crosstest.TempDir(t), "r.csv")
	out, errs, code = runChrono(t, "", "run", "-N", "-r", "2", "--style", "none", "--export-csv", csvf, "true")
	if c, err := os.ReadFile(csvf); code != exitOK || out != "" || err != nil || !strings.HasPrefix(string(c), "command,mean,stddev,median,user,system,min,max,") {
		t.Errorf("--style none: exit %d, stdout %q, stderr %q, csv %q (%v)", code, out, errs, c, err)
	}
}

// TestRunStatCompletion: completion offers the values of the enumerated
// flags (run parses its own flags, so it completes them itself).
func TestRunStatCompletion(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "run", "--order", ""}, []string{"sequential", "interleaved", "random"}},
		{[]string{"__complete", "run", "--sort=m"}, []string{"--sort=mean-time", "--sort=median"}},
		{[]string{"__complete", "run", "-u", ""}, []string{"ns", "us", "microsecond", "millisecond", "second"}},
		{[]string{"__complete", "run", "--style", "n"}, []string{"none", "nocolor"}},
		{[]string{"__complete", "run", "--output", ""}, []string{"null", "pipe", "inherit"}},
		{[]string{"__complete", "stat", "-e", "task-clock,page-"}, []string{"task-clock,page-faults"}},
	} {
		out, errs, code := runChrono(t, "", tt.args...)
		if code != exitOK {
			t.Fatalf("%q: exit %d: %s", tt.args, code, errs)
		}
		for _, w := range tt.want {
			if !strings.Contains("\n"+out, "\n"+w+"\n") {
				t.Errorf("%q: no %q in\n%s", tt.args, w, out)
			}
		}
	}
}

func softwareCountersOrSkip(t *testing.T) counters.Availability {
	t.Helper()
	a := counters.Available()
	if !a.Software {
		t.Skipf("software counters are not available here: %s", a.SoftwareReason)
	}
	return a
}
