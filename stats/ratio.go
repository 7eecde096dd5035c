package stats

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
// SignificanceWarning) are never called significant. The error is the
// test's (an empty sample, NaN); the ratio and interval are still filled
// in then.
func CompareMedians(a, b []float64, confidence, alpha float64, seed uint64) (MedianRatio, error) {
	var r MedianRatio
	r.Ratio = Median(a) / Median(b)
	// Bound the work: about 4 million resampled values in all.
	resamples := max(1000, min(DefaultResamples, 4_000_000/max(1, len(a)+len(b))))
	r.CI = BootstrapRatioCI(a, b, Median, confidence, resamples, seed)
	mw, err := MannWhitneyU(a, b)
	r.MannWhitney = mw
	r.Significant = err == nil && mw.Significant(alpha) && !r.CI.Contains(1)
	return r, err
}
