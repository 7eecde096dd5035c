package compare

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/chronograph/chronograph/internal/radix"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// Verdict classifies a change of a metric.
type Verdict string

// The verdicts.
const (
	// Regression: worse by more than the threshold, significantly.
	Regression Verdict = "regression"
	// Improvement: better by more than the threshold, significantly.
	Improvement Verdict = "improvement"
	// NoChange: within the threshold, however the noise falls.
	NoChange Verdict = "no change"
	// Undecided: neither can be told (too few samples, or an interval
	// across a threshold).
	Undecided Verdict = "undecided"
)

// Change is how one measurement's metric moved from a baseline to a
// newer document.
type Change struct {
	Measurement, Metric, Unit string
	// Old and New are the medians of the baseline's and the newer
	// document's samples (of a binned metric: read from the bins,
	// result.Histogram.Quantile), NOld and NNew their numbers of samples.
	Old, New   float64
	NOld, NNew int
	// OldMetric and NewMetric are the metrics compared (in the documents).
	OldMetric, NewMetric *result.Metric
	// MedianRatio is New/Old with its bootstrap interval and the
	// Mann-Whitney test (stats.CompareMedians, seed 1).
	stats.MedianRatio
	// Err says why no test could be made (too few samples, binned
	// samples).
	Err error
	// NoCI says why the ratio has no interval (TooFewForCI on one side);
	// the change is then never called significant.
	NoCI string
	// Exact says why the metric is deterministic on both sides, when it
	// is (Deterministic): then no test is made, the ratio is exact (its
	// interval is the ratio itself, its p-value NaN), and it is
	// significant whenever it is not 1.
	Exact string

	// Slowdown is the change as "how many times slower": New/Old, or
	// Old/New for metrics where more is better (units per second), with
	// its interval SlowLo..SlowHi.
	Slowdown, SlowLo, SlowHi float64
	// PHolm is the Mann-Whitney p-value after Holm's correction over
	// every tested metric of a gate (NaN without a test, and outside a
	// gate).
	PHolm float64
	// Verdict is the gate's (GateDocuments; empty in a Diff), Why says why
	// an undecided one is undecided.
	Verdict Verdict
	Why     string
	// MoreRuns is how many runs of each side would likely decide an
	// undecided change (0: none would: the ratio sits at the threshold;
	// -1: not estimated).
	MoreRuns int
}

// Conclusion is the plain conclusion about c, as a comparison with a
// baseline words it: "1.50x slower (higher) than the baseline", "no
// significant change (p = 0.40)", "cannot tell: ...".
func (c Change) Conclusion() string {
	switch {
	case c.Exact != "" && c.Ratio == 1:
		return "no change: exactly the same (" + c.Exact + ")"
	case c.Exact != "":
		more := "higher"
		if c.Ratio < 1 {
			more = "lower"
		}
		pct := unit.Plain(100*(c.Ratio-1), unit.Precision{Resolution: 0.01})
		if c.Ratio > 1 {
			pct = "+" + pct
		}
		return fmt.Sprintf("%s than the baseline, exactly: %s against %s, %s%% (%s)", more, exactText(c.New), exactText(c.Old), pct, c.Exact)
	case c.Err != nil:
		return "cannot tell: " + c.Err.Error()
	case c.NoCI != "":
		return "cannot tell: too few samples (" + c.NoCI + ")"
	case !c.Significant:
		return fmt.Sprintf("no significant change (p = %s)", unit.PValue(c.MannWhitney.P))
	case c.Ratio > 1:
		return fmt.Sprintf("%sx slower (higher) than the baseline", unit.Ratio(c.Ratio, c.CI.Lo, c.CI.Hi))
	default:
		return fmt.Sprintf("%sx faster (lower) than the baseline", unit.Ratio(1/c.Ratio, 1/c.CI.Hi, 1/c.CI.Lo))
	}
}

// Diff is the comparison of a newer document with a baseline.
type Diff struct {
	Baseline, Newer *result.Document
	// Changes has one entry per compared metric, in the newer document's
	// order.
	Changes []Change
	// OnlyOld and OnlyNew list the measurements in one document only.
	OnlyOld, OnlyNew []string
	// Traces hold the differential profiles of the measurements that got
	// slower, when both sides carry profiles (TraceSlower; none until it
	// is called).
	Traces []Trace
}

// Documents compares every metric of newer that has a counterpart (same
// measurement name, metric name and unit) in baseline: the primary
// metrics, or every one with all. The comparison is recomputed from the
// samples of both documents (stats.CompareMedians at stats.Confidence
// and stats.Alpha, seed 1), never copied from stored verdicts; binned
// metrics get their medians and no test. Measurements present in one
// document only are listed in OnlyOld and OnlyNew.
func Documents(baseline, newer *result.Document, all bool) *Diff {
	return DocumentsSorted(baseline, newer, all, nil)
}

// DocumentsSorted is Documents with the sorted samples of each metric
// from sorted: its values without NaN, in increasing order, which a
// renderer that holds them already (view.Series.Sorted) passes so that
// each sample is sorted once per page. A nil sorted sorts a copy of each
// metric's values once, for its median and its comparison alike.
func DocumentsSorted(baseline, newer *result.Document, all bool, sorted func(*result.Metric) []float64) *Diff {
	if sorted == nil {
		sorted = sortedMetric
	}
	d := &Diff{Baseline: baseline, Newer: newer}
	old := map[string]*result.Measurement{}
	for i := range baseline.Measurements {
		old[baseline.Measurements[i].Name] = &baseline.Measurements[i]
	}
	seen := map[string]bool{}
	for i := range newer.Measurements {
		m := &newer.Measurements[i]
		om, ok := old[m.Name]
		if !ok {
			d.OnlyNew = append(d.OnlyNew, m.Name)
			continue
		}
		seen[m.Name] = true
		for j := range m.Metrics {
			met := &m.Metrics[j]
			binned := isBinned(met)
			if (!all && m.Primary != "" && met.Name != m.Primary) || (len(met.Values) == 0 && !binned) {
				continue
			}
			omet := om.Metric(met.Name)
			if omet == nil || (len(omet.Values) == 0 && !isBinned(omet)) || omet.Unit != met.Unit {
				continue
			}
			d.Changes = append(d.Changes, change(m.Name, omet, met, sorted, 1))
		}
	}
	for _, m := range baseline.Measurements {
		if !seen[m.Name] {
			d.OnlyOld = append(d.OnlyOld, m.Name)
		}
	}
	return d
}

// isBinned reports whether m's samples are binned: a histogram with
// samples and no per-sample values.
func isBinned(m *result.Metric) bool {
	return len(m.Values) == 0 && m.Histogram != nil && m.Histogram.Total() > 0
}

// change compares metric met of measurement name with the baseline's
// omet, under the one rule for small samples.
func change(name string, omet, met *result.Metric, sorted func(*result.Metric) []float64, seed uint64) Change {
	c := Change{Measurement: name, Metric: met.Name, Unit: met.Unit, OldMetric: omet, NewMetric: met,
		NOld: count(omet), NNew: count(met), PHolm: math.NaN(), MoreRuns: -1}
	binned := isBinned(met) || isBinned(omet)
	var so, sn []float64 // the sorted values, each sorted once
	if binned {
		c.Old, c.New = median(omet), median(met)
	} else {
		so, sn = sorted(omet), sorted(met)
		c.Old, c.New = medianSorted(omet, so), medianSorted(met, sn)
	}
	if binned {
		// Binned samples (latency histograms): the medians are read
		// from the bins, but the test needs raw values.
		c.Err = errors.New("the samples are binned: no test of binned samples yet, compare the medians and percentiles")
	} else if why, ok := Deterministic(omet, met); ok {
		// Nothing varies: the ratio is exact, and no test is needed.
		c.Exact = why
		c.Ratio = exactRatio(c.New, c.Old)
		c.CI = stats.Interval{Lo: c.Ratio, Hi: c.Ratio, Confidence: 1, Method: "exact: " + why}
		c.MannWhitney.P = math.NaN()
		c.Significant = c.Ratio != 1
	} else {
		if len(so) == len(omet.Values) && len(sn) == len(met.Values) {
			c.MedianRatio, c.Err = stats.CompareMediansSorted(sn, so, stats.Confidence, stats.Alpha, seed)
		} else { // NaNs: the test refuses them, the interval resamples
			c.MedianRatio, c.Err = stats.CompareMedians(met.Values, omet.Values, stats.Confidence, stats.Alpha, seed)
		}
		if few, no := TooFewForCI(len(met.Values), len(omet.Values)); few {
			c.NoCI, c.Significant = no, false
		}
	}
	c.Slowdown, c.SlowLo, c.SlowHi = c.Ratio, c.CI.Lo, c.CI.Hi
	if HigherIsBetter(c.Unit) {
		c.Slowdown, c.SlowLo, c.SlowHi = 1/c.Ratio, 1/c.CI.Hi, 1/c.CI.Lo
	}
	return c
}

// median is the median of m's samples as the views print it: of the
// values (NaNs left out; stats.SummarizeSorted), or read from the bins.
func median(m *result.Metric) float64 { return medianSorted(m, sortedMetric(m)) }

// medianSorted is median(m) of sorted, m's values without NaN, sorted.
func medianSorted(m *result.Metric, sorted []float64) float64 {
	if len(m.Values) == 0 && m.Histogram != nil {
		if m.Histogram.Total() == 0 {
			return 0
		}
		return m.Histogram.Quantile(0.5)
	}
	return stats.SummarizeSorted(sorted).Median
}

// count is the number of m's samples: its values, or its histogram's.
func count(m *result.Metric) int {
	if len(m.Values) == 0 && m.Histogram != nil {
		return int(m.Histogram.Total())
	}
	return len(m.Values)
}

// sortedMetric is m's values without NaN, sorted (radix.Numbers).
func sortedMetric(m *result.Metric) []float64 { return radix.Numbers(m.Values) }

// TooFewForCI reports whether samples of na and nb values are too small
// for the interval of a median or of a ratio of medians (fewer than
// stats.MinSamplesForMedianCI at stats.Confidence: 6), and the words that
// say so ("no CI: fewer than 6 runs"). It is the one rule of every
// comparison and every format: such a ratio has no interval, and no
// difference of such samples is called significant.
func TooFewForCI(na, nb int) (bool, string) {
	need := stats.MinSamplesForMedianCI(stats.Confidence)
	return min(na, nb) < need, fmt.Sprintf("no CI: fewer than %d runs", need)
}

// Deterministic reports whether two metrics compare without a test, and
// why: both are marked exact (result.Metric.Exact: exact counts of
// deterministic work, such as instructions counted by valgrind), or every
// sample of each is the same, with at least two samples a side (counts
// that do not vary, such as 0 allocations per operation). A comparison of
// deterministic metrics is the ratio of their values, exactly, to be held
// against a plain threshold.
func Deterministic(old, cur *result.Metric) (why string, ok bool) {
	if len(old.Values) == 0 || len(cur.Values) == 0 {
		return "", false
	}
	if old.Exact && cur.Exact {
		return "exact counts: both metrics are marked exact", true
	}
	if len(old.Values) >= 2 && len(cur.Values) >= 2 && constant(old.Values) && constant(cur.Values) {
		return fmt.Sprintf("every sample identical on both sides (%d and %d)", len(old.Values), len(cur.Values)), true
	}
	return "", false
}

// constant reports whether every value of xs is the same (NaNs never are).
func constant(xs []float64) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}

// exactText is x with every digit it has.
func exactText(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// exactRatio is cur/old, with 0/0 = 1 (nothing, unchanged) and x/0 =
// +Inf.
func exactRatio(cur, old float64) float64 {
	if old == 0 {
		if cur == 0 {
			return 1
		}
		return math.Inf(1)
	}
	return cur / old
}

// Measurements compares the named metrics of next with base (two
// measurements, of one document or two), as Documents compares a
// metric: the ratio of medians next/base with its bootstrap interval and
// the Mann-Whitney test, from the samples. A metric missing on either
// side, or in different units, is left out. The intervals are
// bootstrapped with seed: give two measurements of one command document
// its seed (DocumentSeed), so that each interval is the one
// CommandDocument's comparison of the same metric prints.
func Measurements(base, next *result.Measurement, seed uint64, metrics ...string) []Change {
	var out []Change
	for _, name := range metrics {
		omet, met := base.Metric(name), next.Metric(name)
		if omet == nil || met == nil || omet.Unit != met.Unit || len(omet.Values) == 0 || len(met.Values) == 0 {
			continue
		}
		out = append(out, change(next.Name, omet, met, sortedMetric, seed))
	}
	return out
}
