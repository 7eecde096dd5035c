package compare

import (
	"errors"
	"math"

	"github.com/chronograph/chronograph/internal/radix"
	"github.com/chronograph/chronograph/stats"
)

// BootstrapLimit is the number of samples of a pair above which Medians
// gives an asymptotic interval rather than a bootstrap one: 1000
// bootstrap medians of 50,000 samples take seconds (stats.CompareMedians
// resamples at least 1000 times), of a million minutes.
const BootstrapLimit = 10_000

// Medians compares sample a with the reference b: the ratio of their
// medians with its interval at stats.Confidence and the two-sided
// Mann-Whitney U test at stats.Alpha. Up to BootstrapLimit samples in all
// the interval is bootstrapped (stats.CompareMedians with seed); above,
// it is asymptotic: each median's distribution-free interval
// (stats.MedianCI, from every sample) gives its standard error in log,
// sd = log(hi/lo)/(2z), and the ratio's interval is exp(log ratio ±
// z·√(sd_a² + sd_b²)), which needs positive medians and intervals.
// NaNs are left out of the medians.
func Medians(a, b []float64, seed uint64) (stats.MedianRatio, error) {
	if len(a)+len(b) <= BootstrapLimit {
		return stats.CompareMedians(a, b, stats.Confidence, stats.Alpha, seed)
	}
	mw, err := stats.MannWhitneyU(a, b)
	return asymptotic(radix.Numbers(a), radix.Numbers(b), mw, err)
}

// MediansSorted is Medians of samples already sorted in increasing order,
// with no NaN (view.Series.Sorted): the same figures with no copy and no
// sort. Unsorted input gives wrong figures; NaN or an empty sample is an
// error.
func MediansSorted(sa, sb []float64, seed uint64) (stats.MedianRatio, error) {
	if len(sa)+len(sb) <= BootstrapLimit {
		return stats.CompareMediansSorted(sa, sb, stats.Confidence, stats.Alpha, seed)
	}
	mw, err := stats.MannWhitneyUSorted(sa, sb)
	return asymptotic(sa, sb, mw, err)
}

// asymptotic is Medians' asymptotic interval of the ratio of the medians
// of sa and sb (sorted, without NaN), with their test mw and its error.
func asymptotic(sa, sb []float64, mw stats.MannWhitneyResult, err error) (stats.MedianRatio, error) {
	var r stats.MedianRatio
	ma, mb := stats.SummarizeSorted(sa).Median, stats.SummarizeSorted(sb).Median
	r.Ratio = ma / mb
	ia, erra := stats.MedianCISorted(sa, stats.Confidence)
	ib, errb := stats.MedianCISorted(sb, stats.Confidence)
	r.MannWhitney = mw
	if err == nil {
		err = errors.Join(erra, errb)
	}
	if err != nil || !(ia.Lo > 0) || !(ib.Lo > 0) || !(mb > 0) || !(ma > 0) {
		r.CI = stats.Interval{Lo: math.NaN(), Hi: math.NaN()}
		if err == nil {
			err = errors.New("compare: an asymptotic interval of a ratio needs positive medians")
		}
		return r, err
	}
	z := 1.959963984540054
	da, db := math.Log(ia.Hi/ia.Lo)/(2*z), math.Log(ib.Hi/ib.Lo)/(2*z)
	h := z * math.Hypot(da, db)
	r.CI = stats.Interval{Lo: r.Ratio * math.Exp(-h), Hi: r.Ratio * math.Exp(h)}
	r.Significant = mw.Significant(stats.Alpha) && !r.CI.Contains(1)
	return r, nil
}
