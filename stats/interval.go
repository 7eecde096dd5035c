package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/chronograph/chronograph/internal/radix"
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
	methodBootstrapPercentile = "bootstrap-percentile"
)

// Contains reports whether x lies in [Lo, Hi].
func (iv Interval) Contains(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// Median returns the median of xs (the average of the two middle values for
// an even count), NaN for an empty sample. xs is not modified.
func Median(xs []float64) float64 {
	return Percentile(xs, 50, Linear)
}

// Mean returns the arithmetic mean of xs by compensated summation, NaN for
// an empty sample. The mean of finite values is within their [min, max]
// (the division's rounding could put the mean of 29 equal values one ulp
// off them).
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	m := kahanSum(xs) / float64(len(xs))
	if !math.IsInf(m, 0) && !math.IsNaN(m) {
		lo, hi := xs[0], xs[0]
		for _, x := range xs {
			lo, hi = min(lo, x), max(hi, x)
		}
		return min(max(m, lo), hi)
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
// with 1 - 2·2⁻ⁿ >= confidence, the coverage of [x(1), x(n)] (6 for 0.95,
// 8 for 0.99). It returns 0 for a confidence outside (0, 1).
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

// MedianCI returns a distribution-free confidence interval [x(l), x(h)]
// (order statistics of the sorted sample, 1-based) for the population
// median. For independent, identically distributed samples the number B
// of values below the median is Binomial(n, 1/2), and the interval holds
// the median with probability P(l <= B < h), its Coverage.
//
// The ranks are chosen as go-moremath's QuantileCI (what benchstat uses)
// chooses them: starting from B = ⌊n/2⌋ it adds the more likely next value
// of B on either side, the lower one when both are equally likely, until
// the coverage reaches confidence. That is the shortest interval with
// that coverage; it is asymmetric by one rank when the confidence is
// reached after a step down (8 samples at 0.95: [x(1), x(7)], coverage
// 0.961, where the symmetric [x(1), x(8)] has 0.992). Exactly how it
// differs from QuantileCI(n, 0.5, confidence), checked for every n up to
// 200 at six levels (TestMedianCIAgainstQuantileCI):
//
//   - n <= 20: equal, coverage included (QuantileCI's Confidence).
//   - n from 21 to 30: equal or, for a few n (24 at 0.95, 28 at 0.99, 22
//     and 29 at 0.9), QuantileCI's is the mirror image (ranks n+1-h,
//     n+1-l; same width and coverage): it computes C(n, k) as
//     exp(lchoose(n, k)), whose rounding makes P(B=k) and P(B=n-k) differ
//     in the last bit, so its tie-break goes either way. Here the
//     probabilities are exact and the tie-break always goes down.
//   - n > 30: QuantileCI approximates the binomial by a normal
//     distribution. Where that changes the ranks its interval is one rank
//     wider than needed (at 0.95: n = 43, 44, 66, 67, 93, 94, 137, 138,
//     189, 190) or, at low levels, covers less than it claims (at 0.5:
//     n = 177 and 178, exact coverage 0.49995), and the confidence it
//     reports is approximate. Coverage here is exact and never below
//     confidence.
//
// Ties in xs leave the interval valid (it still holds the median with at
// least that probability). NaN values are ignored. It fails when the
// sample is too small for any finite interval to reach the confidence,
// naming the minimum (MinSamplesForMedianCI; QuantileCI returns an
// infinite bound instead). Cost: a sort, and O(√n) arithmetic for the
// ranks.
func MedianCI(xs []float64, confidence float64) (Interval, error) {
	if err := checkConfidence(confidence); err != nil {
		return Interval{}, err
	}
	return MedianCISorted(radix.Numbers(xs), confidence)
}

// MedianCISorted is MedianCI of a sample already sorted in increasing
// order (as slices.Sort sorts it, NaNs first): no copy, no sort.
func MedianCISorted(sorted []float64, confidence float64) (Interval, error) {
	if err := checkConfidence(confidence); err != nil {
		return Interval{}, err
	}
	sorted = withoutNaN(sorted)
	n := len(sorted)
	tooFew := func() error {
		return fmt.Errorf("stats: too few samples (%d) for a %s%% confidence interval of the median: take at least %d",
			n, strconv.FormatFloat(confidence*100, 'g', 10, 64), MinSamplesForMedianCI(confidence))
	}
	if n < MinSamplesForMedianCI(confidence) {
		return Interval{}, tooFew()
	}
	lo, hi, cov, ok := medianCIRanks(n, confidence)
	if !ok { // only when confidence is within rounding of 1 - 2^(1-n)
		return Interval{}, tooFew()
	}
	return Interval{
		Lo: sorted[lo-1], Hi: sorted[hi-1],
		Confidence: confidence, Method: MethodOrderStatistic, Coverage: cov,
	}, nil
}

// medianCIRanks returns the 1-based ranks lo < hi of the order statistics
// that bound MedianCI's interval for n values, and its coverage
// P(lo <= B < hi) for B ~ Binomial(n, 1/2); ok is false when no finite
// interval (lo >= 1, hi <= n) reaches confidence. The walk is
// go-moremath's QuantileCI for q = 1/2 without its normal approximation:
// [lo, hi) is a range of values of B, grown from {⌊n/2⌋} by the larger
// neighbouring probability, the lower one on ties. The coverage is
// computed as 1 minus the two tails, each summed from its small end, so it
// stays accurate next to 1.
func medianCIRanks(n int, confidence float64) (lo, hi int, coverage float64, ok bool) {
	b := newBinomialHalf(n)
	lo, hi = n/2, n/2+1
	for coverage = b.inside(lo, hi); coverage < confidence; coverage = b.inside(lo, hi) {
		lp, rp := b.pmf(lo-1), b.pmf(hi)
		if lp == 0 && rp == 0 {
			break
		}
		if lp >= rp {
			lo--
		} else {
			hi++
		}
	}
	if coverage < confidence || lo < 1 || hi > n {
		return 0, 0, 0, false
	}
	return lo, hi, coverage, true
}

// binomialHalf holds Binomial(n, 1/2) for medianCIRanks: w[d] = P(B = k)
// and tail[d] = P(B <= k) for k = ⌊n/2⌋ - d, the lower half (the upper
// half by symmetry, so P(B=k) == P(B=n-k) exactly and the walk breaks
// ties as the mathematics does). It is exact for n <= 53: C(n, k)/2^n and
// their sums are then float64 numbers. Larger n use the ratios
// P(B=k-1)/P(B=k) = k/(n-k+1) from the middle down, normalized by their
// sum; values below 1e-40 of the mode (beyond about 13 standard
// deviations) are 0.
type binomialHalf struct {
	n       int
	w, tail []float64
}

func newBinomialHalf(n int) binomialHalf {
	half := n / 2
	var w []float64
	if n <= 53 {
		w = make([]float64, half+1)
		c := uint64(1) // C(n, k), exact: C(53, 26) < 2^53
		for k := 0; k <= half; k++ {
			w[half-k] = math.Ldexp(float64(c), -n)
			c = c * uint64(n-k) / uint64(k+1)
		}
	} else {
		w = append(w, 1)
		sum := 1.0
		if n%2 == 1 {
			sum = 2 // P(B = half) = P(B = half+1)
		}
		for k := half; k > 0; k-- {
			next := w[len(w)-1] * float64(k) / float64(n-k+1)
			if next < 1e-40 {
				break
			}
			w = append(w, next)
			sum += 2 * next
		}
		for i := range w {
			w[i] /= sum
		}
	}
	tail := make([]float64, len(w))
	acc := 0.0
	for d := len(w) - 1; d >= 0; d-- {
		acc += w[d]
		tail[d] = acc
	}
	return binomialHalf{n: n, w: w, tail: tail}
}

// pmf returns P(B = k), 0 outside [0, n].
func (b binomialHalf) pmf(k int) float64 {
	if k < 0 || k > b.n {
		return 0
	}
	if d := b.n/2 - min(k, b.n-k); d < len(b.w) {
		return b.w[d]
	}
	return 0
}

// below returns P(B <= k) for k <= n/2.
func (b binomialHalf) below(k int) float64 {
	if d := b.n/2 - k; k >= 0 && d < len(b.tail) {
		return b.tail[d]
	}
	return 0
}

// inside returns P(lo <= B < hi) for lo <= n/2 < hi: 1 minus the tails
// P(B < lo) and P(B >= hi) = P(B <= n-hi).
func (b binomialHalf) inside(lo, hi int) float64 {
	return max(0, 1-b.below(lo-1)-b.below(b.n-hi))
}

// defaultResamples is the number of bootstrap resamples used when the
// caller passes a non-positive number.
const defaultResamples = 10000

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

// bootstrapCI returns a percentile-bootstrap confidence interval for
// stat(xs): stat is evaluated on resamples (default defaultResamples when
// not positive) resamples of xs drawn with replacement, and the interval
// holds the central confidence fraction of those values (linear
// percentiles). The same seed gives the same interval. stat may reorder
// the slice it gets but must not keep it. Resamples where stat is NaN are
// left out. An empty xs or a bad confidence gives NaN bounds.
func bootstrapCI(xs []float64, stat func([]float64) float64, confidence float64, resamples int, seed uint64) Interval {
	iv := Interval{Lo: math.NaN(), Hi: math.NaN(), Confidence: confidence, Method: methodBootstrapPercentile}
	if len(xs) == 0 || checkConfidence(confidence) != nil {
		return iv
	}
	if resamples <= 0 {
		resamples = defaultResamples
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

// bootstrapRatioCI returns a percentile-bootstrap confidence interval for
// stat(a)/stat(b), resampling a and b independently (each resample draws
// len(a) values from a and len(b) from b). It suits "B is 1.23x as slow as
// A" statements. Arguments and results are as for bootstrapCI.
func bootstrapRatioCI(a, b []float64, stat func([]float64) float64, confidence float64, resamples int, seed uint64) Interval {
	iv := Interval{Lo: math.NaN(), Hi: math.NaN(), Confidence: confidence, Method: methodBootstrapPercentile}
	if len(a) == 0 || len(b) == 0 || checkConfidence(confidence) != nil {
		return iv
	}
	if resamples <= 0 {
		resamples = defaultResamples
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
	radix.Sort(vals)
	alpha := float64((1 - iv.Confidence) / 2)
	iv.Lo = Quantile(vals, alpha, Linear)
	iv.Hi = Quantile(vals, 1-alpha, Linear)
	return iv
}
