package run

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// TextOptions configures WriteText.
type TextOptions struct {
	// Unit fixes the time unit (-u); the zero Unit chooses per command.
	Unit unit.Unit
	// Reference names the command the others are compared with ("" =
	// the fastest).
	Reference string
	// Sort orders the summaries: "command" (as given, the default) or
	// "mean-time"/"median" (fastest first).
	Sort string
	// EnvWarnings are printed once at the end.
	EnvWarnings []string
}

// resolution returns how finely to print figures whose spread is spread
// ns: a tenth of it, never finer than 1 ns.
func resolution(spread float64) float64 {
	if !(spread > 0) || math.IsInf(spread, 0) {
		return 1
	}
	return math.Max(1, spread/10)
}

// WriteText writes the human-readable summary of the report to w.
func (r *Report) WriteText(w io.Writer, o TextOptions) error {
	var as []*Analysis
	for _, res := range r.Results {
		as = append(as, r.analyze(res, o.Unit))
	}
	order := make([]int, len(as))
	for i := range order {
		order[i] = i
	}
	if o.Sort == "mean-time" || o.Sort == "median" {
		sortByMedian(order, as)
	}
	var b strings.Builder
	for k, i := range order {
		a := as[i]
		if k > 0 {
			b.WriteString("\n")
		}
		r.writeAnalysis(&b, i+1, a, o.Unit)
	}
	if oa := r.AnalyzeOverhead(); oa != nil {
		res := resolution(oa.Wall.MADScaled)
		what, sub := "Shell start-up overhead ("+oa.Line+")", "subtracted from every run"
		if oa.Kind == "spawn" {
			what = "Spawn overhead (start and reap `true`)"
			sub = "not subtracted (--subtract-spawn subtracts it)"
			if oa.Subtracted {
				sub = "subtracted from every run (--subtract-spawn)"
			}
		}
		fmt.Fprintf(&b, "\n%s: %s ± %s (median ± scaled MAD of %d runs, range %s … %s), %s\n", what,
			fd(oa.Wall.Median, res, o.Unit), fd(oa.Wall.MADScaled, res, o.Unit), oa.Wall.N,
			fd(oa.Wall.Min, res, o.Unit), fd(oa.Wall.Max, res, o.Unit), sub)
	} else if r.Overhead != nil && r.Overhead.Unavailable != "" {
		fmt.Fprintf(&b, "\n%s overhead: unavailable (%s)\n", r.Overhead.Kind, r.Overhead.Unavailable)
	}
	if r.Processes > 0 && r.OwnCPU >= 0 {
		// getrusage gives microseconds: no finer digits than that.
		fmt.Fprintf(&b, "chrono's own CPU time: %s per process started (%d processes; user+system of all its threads, children excluded)\n",
			fd(float64(r.OwnCPU)/float64(r.Processes), 1000, o.Unit), r.Processes)
	}
	if len(as) > 1 {
		refIdx, cmps, err := r.Compare(as, o.Reference)
		if err != nil {
			return err
		}
		if refIdx >= 0 && len(cmps) > 0 {
			how := "the fastest"
			if o.Reference != "" {
				how = "the reference"
			}
			fmt.Fprintf(&b, "\nComparison with %s, %q (ratio of medians with %.0f%% bootstrap CI; two-sided Mann-Whitney U p-value):\n", how, as[refIdx].Result.Command.Name, Confidence*100)
			for _, c := range cmps {
				if math.IsNaN(c.Ratio) {
					fmt.Fprintf(&b, "  %-24s p = %s  %s\n", quoteName(c.Command.Command.Name), formatP(c.MannWhitney.P, c.MWErr), c.Verdict)
					continue
				}
				fmt.Fprintf(&b, "  %-24s %sx %s  p = %s  %s\n", quoteName(c.Command.Command.Name), unit.Sig(c.Ratio, 3),
					ratioCI(c), formatP(c.MannWhitney.P, c.MWErr), c.Verdict)
			}
			if mc := r.CompareMetrics(as, refIdx); len(mc) > 0 {
				fmt.Fprintf(&b, "\nCounters compared with %q (ratio of medians with %.0f%% bootstrap CI; two-sided Mann-Whitney U p-value):\n", as[refIdx].Result.Command.Name, Confidence*100)
				w := 0
				for _, c := range mc {
					w = max(w, len(c.Metric))
				}
				for _, c := range mc {
					fmt.Fprintf(&b, "  %-*s  %-24s %sx %s  p = %s  %s\n", w, c.Metric, quoteName(c.Command.Command.Name), unit.Sig(c.Ratio, 3),
						ratioCI(c), formatP(c.MannWhitney.P, c.MWErr), c.Verdict)
				}
			}
		}
	}
	if n := r.countersNote(); n != "" {
		fmt.Fprintf(&b, "\nNote: %s\n", n)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "\nNote: %s\n", n)
	}
	if len(o.EnvWarnings) > 0 {
		b.WriteString("\nEnvironment:\n")
		for _, w := range o.EnvWarnings {
			fmt.Fprintf(&b, "  warning: %s\n", w)
		}
	}
	if r.Interrupted {
		b.WriteString("\nInterrupted: the figures above are from the runs made before the interrupt.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func sortByMedian(order []int, as []*Analysis) {
	med := func(i int) float64 {
		if len(as[i].Wall) == 0 {
			return math.Inf(1)
		}
		return as[i].WallSummary.Median
	}
	for i := 1; i < len(order); i++ { // insertion sort, stable
		for j := i; j > 0 && med(order[j]) < med(order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

func quoteName(s string) string { return "\"" + s + "\"" }

func formatP(p float64, err error) string {
	if err != nil {
		return "n/a"
	}
	if p < 1e-4 {
		return fmt.Sprintf("%.1e", p)
	}
	return unit.Sig(p, 2)
}

// fd formats ns in u (or an automatic unit when u is zero).
func fd(ns, res float64, u unit.Unit) string {
	if u.Nanos == 0 {
		return unit.FormatDuration(ns, res)
	}
	return unit.FormatIn(ns, u, res)
}

func (r *Report) writeAnalysis(b *strings.Builder, n int, a *Analysis, u unit.Unit) {
	res := a.Result
	fmt.Fprintf(b, "Command %d: %s\n", n, res.Command.Name)
	if res.Command.Line != res.Command.Name {
		fmt.Fprintf(b, "  command line:  %s\n", res.Command.Line)
	}
	if len(a.Wall) > 0 {
		s := a.WallSummary
		ou := u // the overhead is printed as its own line prints it
		u, r0 := a.wallFormat(u)
		ci := "(too few runs for a CI)"
		if a.MedianCI != nil {
			ci = fmt.Sprintf("%.0f%% CI [%s, %s]", a.MedianCI.Confidence*100, fd(a.MedianCI.Lo, r0, u), fd(a.MedianCI.Hi, r0, u))
		}
		median := fd(s.Median, r0, u)
		if s.Median == 0 && a.Clamped > 0 {
			// A bare 0 would read as a measured zero: say where it
			// comes from.
			om, _, what := r.overheadText(ou)
			median = fmt.Sprintf("0 (clamped: raw median %s minus the %s %s; see the warnings)", fd(stats.Median(a.RawWall), r0, u), what, om)
		}
		fmt.Fprintf(b, "  wall median:   %s   %s\n", median, ci)
		if a.Clamped < len(a.Wall) { // all clamped: nothing but zeros to show
			fmt.Fprintf(b, "  mean ± σ:      %s ± %s   (σ = sample stddev, n-1)\n", fd(s.Mean, r0, u), sampleSD(s, func(v float64) string { return fd(v, r0, u) }))
			lo := fd(s.Min, r0, u)
			if s.Min == 0 && a.Clamped > 0 {
				lo = fmt.Sprintf("0 (%d clamped)", a.Clamped)
			}
			fmt.Fprintf(b, "  min … max:     %s … %s   %s %s, %s %s (%s)\n", lo, fd(s.Max, r0, u),
				stats.PercentileLabel(95), fd(a.P95, r0, u), stats.PercentileLabel(99), fd(a.P99, r0, u), PercentileMethod)
		}
		cr := a.cpuRes()
		line := fmt.Sprintf("  CPU:           user %s, sys %s (medians)", fd(a.UserSummary.Median, cr, u), fd(a.SysSummary.Median, cr, u))
		if a.MaxRSS >= 0 {
			line += fmt.Sprintf("   max RSS %s (median %s)", unit.FormatBytes(a.MaxRSS), unit.FormatBytes(a.MedianRSS))
		}
		b.WriteString(line + "\n")
	}
	writeMetrics(b, a, u)
	fmt.Fprintf(b, "  runs:          %d (%d failed, %d timed out)\n", len(res.Samples)+len(res.TimedOut), a.Failures, a.TimedOut)
	if len(a.PerCPU) > 1 {
		fmt.Fprintf(b, "  per CPU:       %s (medians; --pin runs each run on one CPU in turn)\n", a.perCPUText(u))
	}
	for _, w := range a.Warnings {
		fmt.Fprintf(b, "  warning: %s\n", w)
	}
}

// writeMetrics writes the counters of a command: median with its
// confidence interval, mean ± σ, then the derived figures.
func writeMetrics(b *strings.Builder, a *Analysis, u unit.Unit) {
	if len(a.Metrics) == 0 {
		return
	}
	how := "median [95% CI], mean ± σ"
	if a.Metrics[0].Subtracted {
		how += "; the overhead runs' median counts subtracted"
	}
	fmt.Fprintf(b, "  counters:      %s\n", how)
	w := 0
	for _, m := range a.Metrics {
		w = max(w, len(m.Name))
	}
	for _, d := range a.Derived {
		w = max(w, len(d.Name))
	}
	for _, m := range a.Metrics {
		s := m.Summary
		spread := s.MADScaled
		if m.MedianCI != nil {
			spread = math.Min(spread, m.MedianCI.Hi-m.MedianCI.Lo)
		}
		r := resolution(spread)
		f := func(v float64) string { return fcount(v, r) }
		if m.Unit == "ns" {
			mu := u
			if mu.Nanos == 0 {
				mu = unit.For(s.Median)
			}
			f = func(v float64) string { return fd(v, r, mu) }
		}
		ci := "[too few runs for a CI]"
		if m.MedianCI != nil {
			ci = fmt.Sprintf("[%s, %s]", f(m.MedianCI.Lo), f(m.MedianCI.Hi))
		}
		line := fmt.Sprintf("    %-*s  %s %s   %s ± %s", w, m.Name, f(s.Median), ci, f(s.Mean), sampleSD(s, f))
		if m.Scaled {
			line += fmt.Sprintf("   (scaled: multiplexed, counted at least %s%% of each run)", unit.Sig(100*m.MinRunningFraction, 2))
		}
		b.WriteString(line + "\n")
	}
	for _, d := range a.Derived {
		v := unit.Sig(d.Value, 3)
		if d.Unit == "fraction" {
			v = unit.Sig(100*d.Value, 3) + "%"
		}
		fmt.Fprintf(b, "    %-*s  %s %s (from the means)\n", w, d.Name, v, d.Label)
	}
}

// fcount formats a count with no digit finer than res (at least 1, so
// whole counts print as integers): 10,000 and more with an SI prefix
// ("47.58 M"), small fractional values (a median of counts can be a half)
// with three significant digits.
func fcount(v, res float64) string {
	if v != 0 && math.Abs(v) < 100 && v != math.Trunc(v) {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	scale, prefix := 1.0, ""
	for _, p := range []struct {
		s float64
		p string
	}{{1e12, " T"}, {1e9, " G"}, {1e6, " M"}, {1e3, " k"}} {
		if math.Abs(v) >= 10*p.s {
			scale, prefix = p.s, p.p
			break
		}
	}
	d := 0
	if r := res / scale; r > 0 && r < 1 {
		d = min(3, int(math.Ceil(-math.Log10(r))))
	}
	return strconv.FormatFloat(v/scale, 'f', d, 64) + prefix
}

// unitFor returns the time unit for the first positive figure of xs (the
// median, then the mean, then the maximum): a median clamped to 0 by the
// overhead correction must not make every figure print in ns.
func unitFor(xs ...float64) unit.Unit {
	for _, x := range xs {
		if x > 0 {
			return unit.For(x)
		}
	}
	return unit.Nanosecond
}

// sampleSD formats the sample standard deviation of s with f, or says it
// is undefined (one run): never a measured-looking 0.
func sampleSD(s stats.Summary, f func(float64) string) string {
	if s.N < 2 {
		return "undefined (one run)"
	}
	return f(s.StdDevSample)
}

// ratioCI formats the bootstrap interval of a comparison's ratio, unless
// a side has fewer runs than a distribution-free interval of its median
// needs: a bootstrap of two or three values only ever draws a handful of
// medians, and its interval would claim a precision the runs do not have.
func ratioCI(c Comparison) string {
	if need := stats.MinSamplesForMedianCI(Confidence); c.MWErr == nil && min(c.MannWhitney.NA, c.MannWhitney.NB) < need {
		return fmt.Sprintf("[no CI: fewer than %d runs]", need)
	}
	return fmt.Sprintf("[%s, %s]", unit.Sig(c.CI.Lo, 3), unit.Sig(c.CI.Hi, 3))
}
