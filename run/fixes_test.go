package run

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/report"
)

// TestNoTimingAllTimedOut: a command whose every run timed out is a
// failure (NoTiming), exported as incomplete with its counts; with -i,
// runs that exit non-zero are timings and no failure.
func TestNoTimingAllTimedOut(t *testing.T) {
	c := Command{Name: "sleep 9", Line: "sleep 9", Argv: []string{"sleep", "9"}}
	rep := &Benchmark{Options: Options{Timeout: 50 * time.Millisecond}, Results: []*CommandRuns{
		{Command: &c, TimedOut: []Sample{{TimedOut: true}, {TimedOut: true}, {TimedOut: true}}, Complete: true}}}
	err := rep.NoTiming()
	if err == nil || !strings.Contains(err.Error(), `"sleep 9"`) || !strings.Contains(err.Error(), "all 3 of its runs timed out after 50ms") || !strings.Contains(err.Error(), "raise --timeout") {
		t.Errorf("NoTiming() = %v", err)
	}
	d := docOf(rep)
	if !d.Incomplete || !d.Measurements[0].Incomplete {
		t.Errorf("document incomplete %v, measurement incomplete %v", d.Incomplete, d.Measurements[0].Incomplete)
	}
	if csv := render(t, d, report.CSV); !strings.Contains(csv, "sleep 9,,,,,,,,,,,,,3,0,3") {
		t.Errorf("CSV lacks the run and timeout counts:\n%s", csv)
	}

	f := &fake{walls: map[string]time.Duration{"A": time.Millisecond}, exit: map[string]int{"A": 1}}
	if rep := runFake(t, f, Options{Runs: 3, IgnoreFailure: true}, "A"); rep.NoTiming() != nil {
		t.Errorf("-i, all runs failed: NoTiming() = %v, want nil (their times count)", rep.NoTiming())
	}
}

// TestWarningsQuoteSummaryFigures: warnings quote the corrected figures as
// the summary prints them, not the raw ones.
func TestWarningsQuoteSummaryFigures(t *testing.T) {
	// 13.1 ms raw, 1.1 ms shell overhead: 12.0 ms corrected; CPU times
	// equal to the overhead's: 0 corrected.
	f := &fake{walls: map[string]time.Duration{"A": 13100 * time.Microsecond, "B": 2 * time.Millisecond}, overhead: 1100 * time.Microsecond}
	rep := runFake(t, f, Options{Runs: 6, Shell: "sh", Order: Sequential}, "A", "B")
	rep.Results[0].Samples[1].Wall += 200 * time.Microsecond // a spread
	out := text(t, rep)
	med := regexp.MustCompile(`(?m)^Command 1: A\n  wall median:   (\S+ \S+)`).FindStringSubmatch(out)
	if med == nil {
		t.Fatalf("no median:\n%s", out)
	}
	if !strings.Contains(out, "wall time (median "+med[1]+") is much larger than CPU time (user ") {
		t.Errorf("wall/CPU warning does not quote the summary's median %q:\n%s", med[1], out)
	}
	if strings.Contains(out, "13.1 ms") {
		t.Errorf("a warning quotes the raw median:\n%s", out)
	}
	ov := regexp.MustCompile(`Shell start-up overhead \(sh -c ''\): (\S+ \S+ ± \S+ \S+) `).FindStringSubmatch(out)
	if ov == nil || !strings.Contains(out, "subtracted from it ("+ov[1]+")") {
		t.Errorf("shell-overhead warning does not quote the overhead line's figures %q:\n%s", ov, out)
	}
}

// TestClampedMedianExplained: a command no longer than the shell's
// start-up gets a median clamped to 0 that the summary explains, the
// resolution warning, and no absurd ratio.
func TestClampedMedianExplained(t *testing.T) {
	f := &fake{walls: map[string]time.Duration{"A": time.Millisecond, "B": 20 * time.Millisecond}, overhead: 2 * time.Millisecond}
	rep := runFake(t, f, Options{Runs: 6, Shell: "sh"}, "A", "B")
	out := text(t, rep)
	rep.Results[0].Samples[0].Wall = 3 * time.Millisecond // one run above the overhead: min … max shown
	if out2 := text(t, rep); !strings.Contains(out2, "min … max:     0 (5 clamped) … 1") {
		t.Errorf("min not marked clamped:\n%s", out2)
	}
	rep.Results[0].Samples[0].Wall = time.Millisecond
	for _, want := range []string{
		"wall median:   0 (clamped: raw median 1 ms minus the shell start-up overhead 2 ms;", // every run took exactly that: no "1.000 ms"
		"warning: A: runs shorter than the shell-overhead resolution: the corrected median (clamped to 0)",
		"6 of 6 runs were not longer than it and are clamped to 0",
		"no ratio: the corrected median of \"A\" is below the resolution",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"Inf", "NaN", "wall median:   0 ns", "wall median:   0 ms", "1000000 ns"} {
		if strings.Contains(out, bad) {
			t.Errorf("summary shows %q:\n%s", bad, out)
		}
	}
	if md := render(t, docOf(rep), report.Markdown); strings.Contains(md, "| 1.00 |") {
		t.Errorf("Markdown gives a relative speed without a comparison:\n%s", md)
	}
}

// TestOneRunIsSingular: warnings about one run say "1 run", not "1 runs"
// (chrono run interrupted after its first run said "only 1 runs were
// made").
func TestOneRunIsSingular(t *testing.T) {
	f := &fake{walls: map[string]time.Duration{"A": time.Millisecond, "B": time.Millisecond}, overhead: 2 * time.Millisecond}
	rep := runFake(t, f, Options{Runs: 1, Shell: "sh"}, "A", "B")
	rep.Results[0].Complete = false
	var msgs []string
	for _, w := range docOf(rep).Measurements[0].Warnings {
		msgs = append(msgs, w.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		"incomplete: only 1 run was made before the benchmark stopped",
		"1 of 1 run was not longer than it and is clamped to 0",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "1 runs") {
		t.Errorf("warnings say \"1 runs\":\n%s", all)
	}
}
