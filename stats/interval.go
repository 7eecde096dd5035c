package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
)

// Interval is a confidence interval [Lo, Hi] for some statistic.
// Confidence is the requested level (0.95 for 95 %); Method says how the
// interval was made.
type Interval struct {
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	Confidence float64 `json:"confidence"`
	Method     string  `json:"method"`
	// Coverage is the exact coverage probability of a distribution-free
	// interval (at least Confidence); 0 when not known exactly.
	Coverage float64 `json:"coverage,omitempty"`
}

// Interval methods.
const (
	MethodOrderStatistic      = "order-statistic"
	MethodBootstrapPercentile = "bootstrap-percentile"
)

// Contains reports whether x lies in [Lo, Hi].
func (iv Interval) Contains(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// Median returns the median of xs (the average of the two middle values for
// an even count), NaN for an empty sample. xs is not modified.
func Median(xs []float64) float64 {
	return Percentile(xs, 50, Linear)
}

// Mean returns the arithmetic mean of xs by compensated summation, NaN for
// an empty sample.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	m := kahanSum(xs) / float64(len(xs))
	if !math.IsInf(m, 0) && !math.IsNaN(m) {
		return m
	}
	// An overflowing sum (or the compensation's Inf-Inf): NaN in, NaN
	// out; an infinite value gives the plain sum's answer; finite values
	// whose sum overflows are scaled down.
	scale, plain := 0.0, 0.0
	for _, x := range xs {
		if math.IsNaN(x) {
			return math.NaN()
		}
		scale = max(scale, math.Abs(x))
		plain += x
	}
	if math.IsInf(scale, 0) {
		return plain / float64(len(xs))
	}
	scaled := make([]float64, len(xs))
	for i, x := range xs {
		scaled[i] = x / scale
	}
	return kahanSum(scaled) / float64(len(xs)) * scale
}

func checkConfidence(c float64) error {
	if !(c > 0 && c < 1) {
		return fmt.Errorf("stats: confidence %v is not between 0 and 1: give e.g. 0.95 for 95%%", c)
	}
	return nil
}

// MinSamplesForMedianCI returns the smallest sample size for which
// MedianCI can give an interval of the given confidence: the smallest n
// with 1 - 2·2⁻ⁿ >= confidence (6 for 0.95, 8 for 0.99). It returns 0 for
// a confidence outside (0, 1).
func MinSamplesForMedianCI(confidence float64) int {
	if checkConfidence(confidence) != nil {
		return 0
	}
	n := 1
	for 1-2*math.Pow(0.5, float64(n)) < confidence {
		n++
	}
	return n
}

// MedianCI returns a distribution-free confidence interval for the
// population median: [x(j), x(n+1-j)] (order statistics, 1-based), with the
// largest j whose exact binomial coverage
//
//	P(j <= B <= n-j), B ~ Binomial(n, 1/2)
//
// is at least confidence. It assumes only independent, identically
// distributed samples (the method benchstat uses). NaN values are ignored.
// It fails when the sample is too small to reach the confidence at all,
// naming the minimum sample size.
func MedianCI(xs []float64, confidence float64) (Interval, error) {
	if err := checkConfidence(confidence); err != nil {
		return Interval{}, err
	}
	sorted := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			sorted = append(sorted, x)
		}
	}
	n := len(sorted)
	if need := MinSamplesForMedianCI(confidence); n < need {
		return Interval{}, fmt.Errorf("stats: %d samples are too few for a %s%% confidence interval of the median: take at least %d",
			n, strconv.FormatFloat(confidence*100, 'g', 10, 64), need)
	}
	slices.Sort(sorted)
	j, cov := medianCIRank(n, confidence)
	return Interval{
		Lo: sorted[j-1], Hi: sorted[n-j],
		Confidence: confidence, Method: MethodOrderStatistic, Coverage: cov,
	}, nil
}

// medianCIRank returns the largest 1-based rank j <= n/2 such that
// P(j <= B <= n-j) >= confidence for B ~ Binomial(n, 1/2), and that
// probability. It starts at the middle of the distribution and widens the
// interval one rank at a time, so it touches only O(sqrt(n)) terms. The
// caller ensures n is large enough for j = 1 to suffice.
func medianCIRank(n int, confidence float64) (int, float64) {
	// pmf(i) = C(n, i) / 2^n, from the middle by the ratio
	// pmf(i-1) = pmf(i) * i / (n-i+1).
	lpmf := func(i int) float64 {
		if n <= 1000 {
			return math.Log(binomial(n, i)) - float64(n)*math.Ln2
		}
		a, _ := math.Lgamma(float64(n + 1))
		b, _ := math.Lgamma(float64(i + 1))
		c, _ := math.Lgamma(float64(n - i + 1))
		return a - b - c - float64(n)*math.Ln2
	}
	j := n / 2
	var cov float64
	if n%2 == 0 {
		// j = n/2: the interval [x(n/2), x(n/2+1)] covers B = n/2 only.
		cov = math.Exp(lpmf(j))
	} else {
		// j = (n-1)/2: covers B = j and j+1 = n-j.
		cov = 2 * math.Exp(lpmf(j))
	}
	p := math.Exp(lpmf(j)) // pmf(j)
	for cov < confidence && j > 1 {
		// Widen to j-1: adds B = j-1 and B = n-j+1, equal by symmetry.
		p = p * float64(j) / float64(n-j+1)
		j--
		cov += 2 * p
	}
	return j, min(cov, 1)
}

// DefaultResamples is the number of bootstrap resamples used when the
// caller passes a non-positive number.
const DefaultResamples = 10000

// newRand returns the package's seeded generator: PCG, so a seed gives the
// same stream on every platform and Go release that keeps PCG.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// resample fills dst with len(dst) draws with replacement from xs.
func resample(r *rand.Rand, dst, xs []float64) {
	n := uint64(len(xs))
	for i := range dst {
		dst[i] = xs[r.Uint64N(n)]
	}
}

// BootstrapCI returns a percentile-bootstrap confidence interval for
// stat(xs): stat is evaluated on resamples (default DefaultResamples when
// not positive) resamples of xs drawn with replacement, and the interval
// holds the central confidence fraction of those values (linear
// percentiles). The same seed gives the same interval. stat may reorder
// the slice it gets but must not keep it. Resamples where stat is NaN are
// left out. An empty xs or a bad confidence gives NaN bounds.
func BootstrapCI(xs []float64, stat func([]float64) float64, confidence float64, resamples int, seed uint64) Interval {
	iv := Interval{Lo: math.NaN(), Hi: math.NaN(), Confidence: confidence, Method: MethodBootstrapPercentile}
	if len(xs) == 0 || checkConfidence(confidence) != nil {
		return iv
	}
	if resamples <= 0 {
		resamples = DefaultResamples
	}
	r := newRand(seed)
	buf := make([]float64, len(xs))
	vals := make([]float64, 0, resamples)
	for range resamples {
		resample(r, buf, xs)
		if v := stat(buf); !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	return percentileInterval(iv, vals)
}

// BootstrapRatioCI returns a percentile-bootstrap confidence interval for
// stat(a)/stat(b), resampling a and b independently (each resample draws
// len(a) values from a and len(b) from b). It suits "B is 1.23x as slow as
// A" statements. Arguments and results are as for BootstrapCI.
func BootstrapRatioCI(a, b []float64, stat func([]float64) float64, confidence float64, resamples int, seed uint64) Interval {
	iv := Interval{Lo: math.NaN(), Hi: math.NaN(), Confidence: confidence, Method: MethodBootstrapPercentile}
	if len(a) == 0 || len(b) == 0 || checkConfidence(confidence) != nil {
		return iv
	}
	if resamples <= 0 {
		resamples = DefaultResamples
	}
	r := newRand(seed)
	bufA := make([]float64, len(a))
	bufB := make([]float64, len(b))
	vals := make([]float64, 0, resamples)
	for range resamples {
		resample(r, bufA, a)
		resample(r, bufB, b)
		if v := stat(bufA) / stat(bufB); !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	return percentileInterval(iv, vals)
}

func percentileInterval(iv Interval, vals []float64) Interval {
	if len(vals) == 0 {
		return iv
	}
	slices.Sort(vals)
	alpha := (1 - iv.Confidence) / 2
	iv.Lo = Quantile(vals, alpha, Linear)
	iv.Hi = Quantile(vals, 1-alpha, Linear)
	return iv
}
