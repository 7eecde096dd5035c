package run

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/report"
)

// TestUsageErrors checks that mistakes in the options and command lines
// are *UsageError (chrono exits 2 for them), and failures to run are not.
func TestUsageErrors(t *testing.T) {
	usage := []struct {
		name string
		err  error
	}{
		{"min>max", func() error {
			_, err := newBench(fakeCommands(t, "A"), Options{MinRuns: 7, MaxRuns: 5}, &fake{})
			return err
		}()},
		{"negative", func() error { _, err := newBench(fakeCommands(t, "A"), Options{Runs: -1}, &fake{}); return err }()},
		{"hooks", func() error {
			_, err := newBench(fakeCommands(t, "A", "B", "C"), Options{Setup: []string{"x", "y"}}, &fake{})
			return err
		}()},
		{"quote", func() error { _, err := Commands([]string{"echo 'a"}, nil, nil, Options{NoShell: true}); return err }()},
		{"names", func() error {
			_, err := Commands([]string{"true"}, []string{"a", "b"}, nil, Options{NoShell: true})
			return err
		}()},
		{"empty", func() error { _, err := Commands([]string{""}, nil, nil, Options{}); return err }()},
		{"names with parameters", func() error {
			_, err := Commands([]string{"echo {x}"}, []string{"a", "b"}, []Param{{Name: "x", Values: []string{"1", "2", "3"}}}, Options{})
			return err
		}()},
		{"scan", func() error { _, err := ScanParam("n", "3", "1", ""); return err }()},
	}
	for _, tt := range usage {
		var ue *UsageError
		if !errors.As(tt.err, &ue) {
			t.Errorf("%s: %v (%T) is not a *UsageError", tt.name, tt.err, tt.err)
		}
	}
	_, err := Commands([]string{"no-such-program-xyz"}, nil, nil, Options{NoShell: true})
	var ue *UsageError
	if err == nil || errors.As(err, &ue) {
		t.Errorf("missing program: %v; want an error that is not a usage error", err)
	}
}

// TestMaxRunsLowersDefaultMin: as in hyperfine, --max-runs below the
// default minimum lowers it instead of failing.
func TestMaxRunsLowersDefaultMin(t *testing.T) {
	f := &fake{walls: map[string]time.Duration{"A": time.Millisecond}}
	rep := runFake(t, f, Options{MaxRuns: 3}, "A")
	if n := len(rep.Results[0].Samples); n != 3 {
		t.Errorf("%d runs, want 3", n)
	}
}

// TestFailureMessageLines: the stderr tail keeps its lines, set off from
// the message, so that main's one-line joining cannot garble it.
func TestFailureMessageLines(t *testing.T) {
	e := &FailureError{What: "command", Command: "c", ExitCode: 2, Stderr: "first\nsecond\n\n"}
	msg := e.Error()
	if !strings.Contains(msg, "the end of its stderr:\n  | first\n  | second\n") {
		t.Errorf("message %q", msg)
	}
}

// TestFailureWarning: without -i, the summary must not say the failed run
// was kept "with -i".
func TestFailureWarning(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		f := &fake{walls: map[string]time.Duration{"A": time.Millisecond}, exit: map[string]int{"A": 1}}
		rep := runFake(t, f, Options{Runs: 3, IgnoreFailure: ignore}, "A")
		a := rep.analyze(rep.Results[0])
		got := warnText(a.Warnings)
		if withI := strings.Contains(got, "(kept, with -i)"); withI != ignore {
			t.Errorf("IgnoreFailure=%v: warnings %q", ignore, got)
		}
	}
}

// TestTextUnitWithZeroMedian: a median clamped to 0 by the shell-overhead
// correction must not make every figure print in ns ("386053 ns").
func TestTextUnitWithZeroMedian(t *testing.T) {
	f := &fake{walls: map[string]time.Duration{"A": time.Millisecond}, overhead: 2 * time.Millisecond}
	rep := runFake(t, f, Options{Runs: 3, Shell: "sh"}, "A")
	// One run slower than the overhead: mean > 0, median 0.
	rep.Results[0].Samples[2].Wall = 5 * time.Millisecond
	out := text(t, rep)
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "median:") || strings.Contains(line, "mean ± σ") || strings.Contains(line, "min … max") {
			if strings.Contains(line, " ns") {
				t.Errorf("figure in ns: %q", line)
			}
		}
	}
	if !strings.Contains(out, "wall median:   0 (clamped: raw median 1.0 ms") {
		t.Errorf("summary:\n%s", out)
	}
}

// TestMarkdownUnitWithZeroMedian: the Markdown table's unit follows the
// mean when the overhead correction clamped the median to 0.
func TestMarkdownUnitWithZeroMedian(t *testing.T) {
	f := &fake{walls: map[string]time.Duration{"A": time.Millisecond}, overhead: 2 * time.Millisecond}
	rep := runFake(t, f, Options{Runs: 3, Shell: "sh"}, "A")
	rep.Results[0].Samples[2].Wall = 5 * time.Millisecond
	if md := render(t, docOf(rep), report.Markdown); !strings.Contains(md, "Mean [ms]") {
		t.Errorf("table:\n%s", md)
	}
}
