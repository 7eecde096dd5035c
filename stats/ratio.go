package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// The one significance level and confidence level of chronograph's
// comparisons (chrono run, bench.Compare, chrono report --baseline):
// significant means p <= Alpha, and intervals are at Confidence.
const (
	Alpha      = 0.05
	Confidence = 0.95
)

// MedianRatio compares two samples by the ratio of their medians: the
// answer to "how many times slower is A than B".
type MedianRatio struct {
	// Ratio is Median(a)/Median(b); CI its percentile-bootstrap
	// confidence interval.
	Ratio float64  `json:"ratio"`
	CI    Interval `json:"ci"`
	// MannWhitney is the two-sided Mann-Whitney U test of a against b.
	MannWhitney MannWhitneyResult `json:"mann_whitney"`
	// Significant is true when the test rejects equality at level alpha
	// (MannWhitney.Significant(alpha): P <= alpha) and the interval
	// excludes 1.
	Significant bool `json:"significant"`
}

// CompareMedians computes the ratio of medians of a and b with its
// bootstrap confidence interval (seeded, so reproducible) and the
// Mann-Whitney U test, and calls the difference significant at level
// alpha only when both agree. The test is exact for small samples (see
// MannWhitneyU), so samples too small to reach alpha at all (see
// significanceWarning) are never called significant. The error is the
// test's (an empty sample, NaN); the ratio and interval are still filled
// in then.
func CompareMedians(a, b []float64, confidence, alpha float64, seed uint64) (MedianRatio, error) {
	var r MedianRatio
	r.Ratio = Median(a) / Median(b)
	r.CI = BootstrapMedianRatioCI(a, b, confidence, defaultResamples, seed)
	mw, err := MannWhitneyU(a, b)
	r.MannWhitney = mw
	r.Significant = err == nil && mw.Significant(alpha) && !r.CI.Contains(1)
	return r, err
}

// CompareMediansSorted is CompareMedians of samples already sorted in
// increasing order, with no NaN (view.Series.Sorted, a document's sorted
// copy): the same figures, computed with no copy and no sort. Unsorted
// input gives wrong figures; NaN or an empty sample is an error.
func CompareMediansSorted(sa, sb []float64, confidence, alpha float64, seed uint64) (MedianRatio, error) {
	var r MedianRatio
	if len(sa) == 0 || len(sb) == 0 {
		return CompareMedians(sa, sb, confidence, alpha, seed)
	}
	if math.IsNaN(sa[len(sa)-1]) || math.IsNaN(sb[len(sb)-1]) || math.IsNaN(sa[0]) || math.IsNaN(sb[0]) {
		return r, errors.New("stats: CompareMediansSorted got NaN values: remove them first")
	}
	r.Ratio = Quantile(sa, 0.5, Linear) / Quantile(sb, 0.5, Linear)
	r.CI = Interval{Lo: math.NaN(), Hi: math.NaN(), Confidence: confidence, Method: methodBootstrapPercentile}
	if checkConfidence(confidence) == nil {
		r.CI = bootstrapMedianRatioSorted(sa, sb, r.CI, defaultResamples, seed)
	}
	mw := mannWhitneySorted(sa, sb)
	r.MannWhitney = mw
	r.Significant = mw.Significant(alpha) && !r.CI.Contains(1)
	return r, nil
}

// BootstrapMedianRatioCI is bootstrapRatioCI(a, b, Median, ...) computed
// without building the resamples: the median of a resample of n values
// drawn with replacement from xs is an order statistic of xs whose rank
// is that of the m-th smallest of n uniform draws, and that uniform order
// statistic is Beta(m, n-m+1) distributed. One draw from a Beta (two for
// an even n) therefore gives the same bootstrap distribution as sorting a
// full resample, so a comparison of a million samples costs one sort of
// each side instead of a sort per resample. Samples holding NaN take the
// resampling path (with at most about 4 million resampled values).
func BootstrapMedianRatioCI(a, b []float64, confidence float64, resamples int, seed uint64) Interval {
	if slices.ContainsFunc(a, math.IsNaN) || slices.ContainsFunc(b, math.IsNaN) {
		if resamples <= 0 {
			resamples = defaultResamples
		}
		resamples = max(100, min(resamples, 4_000_000/max(1, len(a)+len(b))))
		return bootstrapRatioCI(a, b, Median, confidence, resamples, seed)
	}
	iv := Interval{Lo: math.NaN(), Hi: math.NaN(), Confidence: confidence, Method: methodBootstrapPercentile}
	if len(a) == 0 || len(b) == 0 || checkConfidence(confidence) != nil {
		return iv
	}
	if resamples <= 0 {
		resamples = defaultResamples
	}
	return bootstrapMedianRatioSorted(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)), iv, resamples, seed)
}

// bootstrapMedianRatioSorted is BootstrapMedianRatioCI of sorted,
// non-empty samples without NaN, iv its interval to fill in.
func bootstrapMedianRatioSorted(sa, sb []float64, iv Interval, resamples int, seed uint64) Interval {
	r := newRand(seed)
	ma, mb := newMedianDraw(sa, r), newMedianDraw(sb, r)
	vals := make([]float64, 0, resamples)
	for range resamples {
		if v := ma.draw() / mb.draw(); !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	return percentileInterval(iv, vals)
}

// medianDraw draws the median of a bootstrap resample of sorted.
type medianDraw struct {
	sorted []float64
	r      *rand.Rand
	lower  distuv.Beta // the rank, as a fraction, of the lower middle value
}

func newMedianDraw(sorted []float64, r *rand.Rand) medianDraw {
	n := len(sorted)
	m := (n + 1) / 2 // the (lower) middle rank, 1-based
	return medianDraw{sorted: sorted, r: r, lower: distuv.Beta{Alpha: float64(m), Beta: float64(n - m + 1), Src: r}}
}

// at is the value at the uniform quantile u: a draw u from (0, 1) maps
// to the value of rank ceil(n*u), as a draw with replacement does.
func (d medianDraw) at(u float64) float64 {
	n := len(d.sorted)
	i := int(math.Ceil(float64(n)*u)) - 1
	return d.sorted[min(max(i, 0), n-1)]
}

func (d medianDraw) draw() float64 {
	n := len(d.sorted)
	if n == 1 {
		return d.sorted[0]
	}
	u := d.lower.Rand()
	if n%2 == 1 {
		return d.at(u)
	}
	// The next order statistic: u plus the least of the n-m draws above
	// it, each uniform on (u, 1).
	k := float64(n - n/2)
	next := u + float64((1-u)*(1-math.Pow(1-float64(d.r.Float64()), 1/k)))
	return (d.at(u) + d.at(next)) / 2
}
