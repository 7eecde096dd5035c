package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// Commands are the comparisons of a command document's commands with its
// reference (CommandDocument).
type Commands struct {
	// Reference is the index in the document's measurements of the
	// command the others are compared with, -1 when there is none (no
	// command has a timed run).
	Reference int
	// Wall compares every other command with a timed run on wall time,
	// in the document's order; Counters on each counter of the
	// reference's, counter by counter.
	Wall, Counters []CommandComparison
	// RankedBy is the metric by which the reference was chosen when none
	// was named: "wall" (the fastest), or the primary metric every command
	// shares when it is another (the fewest "instructions" of chrono run
	// --instructions).
	RankedBy string
}

// CommandComparison compares command A with the reference B on one
// metric: the ratio of medians A/B with its bootstrap interval and the
// Mann-Whitney test (stats.CompareMedians at stats.Confidence and
// stats.Alpha, with the document's seed).
type CommandComparison struct {
	A, B string
	// Command is A's index in the document's measurements.
	Command int
	Metric  string
	stats.MedianRatio
	// HasCI is false when a side has too few runs for an interval
	// (TooFewForCI) or the interval is unbounded (a median of 0 in some
	// resamples); Significant is then false. NoRatio is set when a wall
	// median is too small to divide by (a median clamped to 0, or lost in
	// the overhead correction's noise): only the test is made. Err is the
	// test's. With too few runs for an interval the bootstrap is not
	// made when every resample's ratio is known to be finite (no NaN, and
	// every value of B positive): CI is then NaN, as no interval was
	// computed.
	HasCI, NoRatio bool
	Err            error
	// Exact says why the metric is deterministic on both sides, when it
	// is (Deterministic): the ratio is then exact, with no test.
	Exact      string
	conclusion string
	// unresampled is set when the bootstrap was not made (see HasCI).
	unresampled bool
}

// bounded reports whether the ratio's interval is bounded, or would be
// (see HasCI), so that the words say why there is none.
func (c CommandComparison) bounded() bool {
	return c.unresampled || finite(c.CI.Lo) && finite(c.CI.Hi)
}

// Conclusion is the plain conclusion of c, as the command view and the
// stored comparisons word it: `"b" is 1.75x as slow as "a"`, `"b" has
// 0.500x the instructions of "a" (fewer)`, "not significant: ...",
// "no ratio: ...".
func (c CommandComparison) Conclusion() string { return c.conclusion }

// CommandDocument compares the commands of a command document (chrono
// run's) with the reference: the command named reference (by name or
// command line; "" names the one the document records), or the fastest
// by median. Every comparison is computed from the samples with the seed
// the document records (1 without one), on wall time and on each counter
// of the reference's with a median other than 0. When the overhead is
// subtracted, a wall median within the overhead's scaled MAD gets no
// ratio. It fails when no command has the reference's name.
func CommandDocument(d *result.Document, reference string) (*Commands, error) {
	seed := DocumentSeed(d)
	if r := d.Run.Command; r != nil && reference == "" {
		reference = r.Reference
	}
	out := &Commands{Reference: -1, RankedBy: rankMetric(d)}
	ref := -1
	if reference != "" {
		for i := range d.Measurements {
			if m := &d.Measurements[i]; m.Name == reference || commandLine(m) == reference {
				ref = i
				break
			}
		}
		if ref < 0 {
			return nil, fmt.Errorf("compare: the reference %q is none of the commands of the document: name a command by its name or command line", reference)
		}
	} else {
		meds := map[*result.Measurement]float64{} // each median computed once
		by := func(m *result.Measurement) float64 {
			if med, ok := meds[m]; ok {
				return med
			}
			var med float64
			if out.RankedBy == "wall" {
				med = wallMedian(m)
			} else {
				med, _ = metricMedian(m, out.RankedBy)
			}
			meds[m] = med
			return med
		}
		for i := range d.Measurements {
			if timed(&d.Measurements[i]) && (ref < 0 || by(&d.Measurements[i]) < by(&d.Measurements[ref])) {
				ref = i
			}
		}
	}
	out.Reference = ref
	if ref < 0 || !timed(&d.Measurements[ref]) {
		return out, nil
	}
	rm := &d.Measurements[ref]
	low := overheadResolution(d)
	for i := range d.Measurements {
		if i != ref && timed(&d.Measurements[i]) {
			out.Wall = append(out.Wall, compareMetric(d, i, ref, "wall", low, seed))
		}
	}
	for _, name := range probes(rm) {
		if med, ok := metricMedian(rm, name); !ok || med == 0 {
			continue // a ratio with a zero median says nothing
		}
		for i := range d.Measurements {
			m := &d.Measurements[i]
			if i == ref || !slices.Contains(probes(m), name) {
				continue
			}
			if med, ok := metricMedian(m, name); ok && med != 0 {
				out.Counters = append(out.Counters, compareMetric(d, i, ref, name, 0, seed))
			}
		}
	}
	return out, nil
}

// rankMetric is the metric by which the reference is chosen: the primary
// metric every command with a timed run shares, when it is not wall and
// each has values of it (instructions, for chrono run --instructions),
// else wall.
func rankMetric(d *result.Document) string {
	rank := ""
	for i := range d.Measurements {
		m := &d.Measurements[i]
		if !timed(m) {
			continue
		}
		if met := m.Metric(m.Primary); met == nil || len(met.Values) == 0 || (rank != "" && m.Primary != rank) {
			return "wall"
		}
		rank = m.Primary
	}
	if rank == "" {
		return "wall"
	}
	return rank
}

// commandLine is a command's command line (its name when it has none).
func commandLine(m *result.Measurement) string {
	if c := m.Detail.Command; c != nil && c.CommandLine != "" {
		return c.CommandLine
	}
	return m.Name
}

// probes are the counters a command was measured with.
func probes(m *result.Measurement) []string {
	if c := m.Detail.Command; c != nil {
		return c.Probes
	}
	return nil
}

// timed reports whether a command has timed runs (wall values).
func timed(m *result.Measurement) bool {
	w := m.Metric("wall")
	return w != nil && len(w.Values) > 0
}

// wallMedian is a command's wall median (+Inf without a timed run).
func wallMedian(m *result.Measurement) float64 {
	if !timed(m) {
		return math.Inf(1)
	}
	return median(m.Metric("wall"))
}

// metricMedian is the median of a command's metric name; ok is false
// when it has no values.
func metricMedian(m *result.Measurement, name string) (med float64, ok bool) {
	met := m.Metric(name)
	if met == nil || len(met.Values) == 0 {
		return 0, false
	}
	return median(met), true
}

// overheadResolution is the scaled MAD of the overhead's wall times when
// the overhead is subtracted (a corrected median within it cannot be told
// from the overhead), else 0.
func overheadResolution(d *result.Document) float64 {
	r := d.Run.Command
	if r == nil || r.Overhead == nil || !r.Overhead.Subtracted {
		return 0
	}
	if w := r.Overhead.Metric("wall"); w != nil && len(w.Values) > 0 {
		return stats.Summarize(w.Values).MADScaled
	}
	return 0
}

// DocumentSeed is the seed of the bootstrap intervals of a command
// document's comparisons: the one it records (chrono run's --seed), 1
// without one.
func DocumentSeed(d *result.Document) uint64 {
	if r := d.Run.Command; r != nil && r.Seed != 0 {
		return r.Seed
	}
	return 1
}

// compareMetric compares command a with the reference on a metric: the
// ratio of medians with its bootstrap interval and the Mann-Whitney test
// (stats.CompareMedians), under the one rule for small samples. A wall
// median at or below low (the overhead's resolution) gives no ratio.
func compareMetric(d *result.Document, a, ref int, metric string, low float64, seed uint64) CommandComparison {
	am, rm := &d.Measurements[a], &d.Measurements[ref]
	c := CommandComparison{A: am.Name, B: rm.Name, Command: a, Metric: metric}
	xs, ys := am.Metric(metric).Values, rm.Metric(metric).Values
	ma, mb := stats.Median(xs), stats.Median(ys)
	if metric == "wall" && (!(ma > low) || !(mb > low)) {
		which := am.Name
		if !(mb > low) {
			which = rm.Name
		}
		c.NoRatio = true
		c.MannWhitney, c.Err = stats.MannWhitneyU(xs, ys)
		c.conclusion = fmt.Sprintf("no ratio: the corrected median of %q is below the resolution of the overhead correction (see its warning); time both with -N to compare them", which)
		return c
	}
	// (Counters only: identical wall times come from simulated runs,
	// --debug-mode, whose comparison stays the tested one.)
	if why, ok := Deterministic(rm.Metric(metric), am.Metric(metric)); ok && metric != "wall" {
		// Nothing varies: the exact ratio, no test.
		c.Ratio = exactRatio(ma, mb)
		c.CI = stats.Interval{Lo: c.Ratio, Hi: c.Ratio, Confidence: 1, Method: "exact: " + why}
		c.MannWhitney.P = math.NaN()
		c.HasCI, c.Significant, c.Exact = finite(c.Ratio), c.Ratio != 1, why
		c.conclusion = c.conclude(am.Metric(metric).Unit)
		return c
	}
	few, _ := TooFewForCI(len(xs), len(ys))
	if few && finiteRatios(xs, ys) {
		// No interval is shown with so few runs, and this one would be
		// bounded: its 10,000 resamples (about a millisecond, most of the
		// cost of a scan of many values with a few runs each) are not
		// drawn. The ratio and the test are CompareMedians'.
		c.Ratio = ma / mb
		c.CI = stats.Interval{Lo: math.NaN(), Hi: math.NaN()}
		c.MannWhitney, c.Err = stats.MannWhitneyU(xs, ys)
		c.unresampled = true
	} else {
		c.MedianRatio, c.Err = stats.CompareMedians(xs, ys, stats.Confidence, stats.Alpha, seed)
	}
	// A resample whose median is 0 (counts clamped to 0 after the
	// overhead's are subtracted) gives an unbounded interval: none.
	c.HasCI = !few && c.bounded()
	if !c.HasCI {
		c.Significant = false
	}
	c.conclusion = c.conclude(am.Metric(metric).Unit)
	return c
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// finiteRatios reports whether the median of every resample of xs
// divided by that of every resample of ys is finite: all values finite,
// and those of ys positive.
func finiteRatios(xs, ys []float64) bool {
	for _, x := range xs {
		if !finite(x) {
			return false
		}
	}
	for _, y := range ys {
		if !finite(y) || !(y > 0) {
			return false
		}
	}
	return len(xs) > 0 && len(ys) > 0
}

// conclude words the conclusion of c, a comparison on a metric of unit u.
func (c CommandComparison) conclude(u string) string {
	a, b := c.A, c.B
	what := ""
	if c.Metric != "wall" {
		what = " in " + c.Metric
	}
	if c.Exact != "" {
		if c.Ratio == 1 {
			return fmt.Sprintf("%q and %q are exactly the same%s (%s)", a, b, what, c.Exact)
		}
		more := "more"
		if c.Ratio < 1 {
			more = "fewer"
		}
		return fmt.Sprintf("%q has exactly %sx the %s of %q (%s; %s)", a, unit.Plain(c.Ratio, unit.Precision{Resolution: 1e-4}), c.Metric, b, more, c.Exact)
	}
	if !c.Significant {
		switch {
		case c.Err != nil:
			return fmt.Sprintf("not significant: %q and %q cannot be told apart%s (%v)", a, b, what, c.Err)
		case !c.HasCI && c.bounded():
			_, no := TooFewForCI(0, 0)
			return fmt.Sprintf("not significant: too few runs to tell %q and %q apart%s (%s)", a, b, what, no)
		case !c.HasCI:
			return fmt.Sprintf("not significant: the ratio%s of %q to %q has no bounded interval (a median of 0 in some resamples)", what, a, b)
		}
		return fmt.Sprintf("not significant: no difference%s between %q and %q can be shown (p = %s)", what, a, b, unit.PValue(c.MannWhitney.P))
	}
	r := c.RatioText()
	if what != "" {
		more := "more"
		if c.Ratio < 1 {
			more = "fewer"
			if u == result.UnitNs {
				more = "less"
			}
		}
		return fmt.Sprintf("%q has %sx the %s of %q (%s)", a, r, c.Metric, b, more)
	}
	if c.Ratio >= 1 {
		return fmt.Sprintf("%q is %sx as slow as %q", a, r, b)
	}
	return fmt.Sprintf("%q is %sx as fast as %q", a, unit.Ratio(1/c.Ratio, 1/c.CI.Hi, 1/c.CI.Lo), b)
}

// RatioText is the ratio with the digits its interval supports (3
// significant ones without an interval, four decimals for an exact one).
func (c CommandComparison) RatioText() string {
	if c.Exact != "" {
		return unit.Plain(c.Ratio, unit.Precision{Resolution: 1e-4})
	}
	if !c.HasCI {
		return unit.Ratio(c.Ratio, c.Ratio, c.Ratio)
	}
	return unit.Ratio(c.Ratio, c.CI.Lo, c.CI.Hi)
}

// CIText is the ratio's interval ("[2.2, 2.7]"), or why there is none
// ("[no CI: fewer than 6 runs]", "[no bounded CI]").
func (c CommandComparison) CIText() string {
	if c.Exact != "" {
		return "[exact]"
	}
	if !c.HasCI {
		if !c.bounded() {
			return "[no bounded CI]"
		}
		_, no := TooFewForCI(0, 0)
		return "[" + no + "]"
	}
	return "[" + unit.Ratio(c.CI.Lo, c.CI.Lo, c.CI.Hi) + ", " + unit.Ratio(c.CI.Hi, c.CI.Lo, c.CI.Hi) + "]"
}

// Stored returns the comparisons as a document stores them
// (result.Document.Comparisons): on wall time, then on each counter. A
// comparison without an interval has none (Lo, Hi and Confidence 0);
// one without a test has no Test and P; one without a ratio is left out;
// an exact one has no test and its ratio as its interval (confidence 1).
func (c *Commands) Stored() []result.Comparison {
	var out []result.Comparison
	for _, x := range append(slices.Clip(c.Wall), c.Counters...) {
		if x.Exact != "" && finite(x.Ratio) {
			// No test: the exact ratio, its interval the ratio itself.
			out = append(out, result.Comparison{A: x.A, B: x.B, Metric: x.Metric, Statistic: "median (exact: " + x.Exact + ")",
				Ratio: x.Ratio, Lo: x.Ratio, Hi: x.Ratio, Confidence: 1, Verdict: x.conclusion})
			continue
		}
		if x.NoRatio || !finite(x.Ratio) || !finite(x.MannWhitney.P) {
			continue
		}
		rc := result.Comparison{A: x.A, B: x.B, Metric: x.Metric, Statistic: "median", Ratio: x.Ratio,
			Test: "mann-whitney-u", P: x.MannWhitney.P, Verdict: x.conclusion}
		if x.HasCI {
			rc.Lo, rc.Hi, rc.Confidence = x.CI.Lo, x.CI.Hi, stats.Confidence
		}
		if x.Err != nil {
			rc.Test, rc.P = "", 0
		}
		out = append(out, rc)
	}
	return out
}
