package stats

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/chronograph/chronograph/internal/quantile"
	"github.com/chronograph/chronograph/internal/radix"
	"github.com/chronograph/chronograph/warn"
)

// Summary describes one sample. All figures are in the unit of the sample,
// except CV, which is a fraction (0.05 = 5 %).
type Summary struct {
	N    int     `json:"n"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
	// Median is the 50th percentile (all Hyndman-Fan definitions agree on it
	// except inverted_cdf/closest_observation; this is the average of the two
	// middle values for even N).
	Median float64 `json:"median"`
	// StdDevSample is the sample standard deviation (divisor n-1); zero for N < 2.
	StdDevSample float64 `json:"stddev_sample"`
	// StdDevPopulation is the population standard deviation (divisor n).
	StdDevPopulation float64 `json:"stddev_population"`
	// MAD is the raw median absolute deviation from the median;
	// MADScaled is MAD*1.4826, a consistent estimator of the standard
	// deviation for normal data.
	MAD       float64 `json:"mad"`
	MADScaled float64 `json:"mad_scaled"`
	// Q1 and Q3 are the 25th and 75th percentiles by the linear (R type 7)
	// definition, and IQR = Q3 - Q1.
	Q1  float64 `json:"q1"`
	Q3  float64 `json:"q3"`
	IQR float64 `json:"iqr"`
	// CV is the coefficient of variation StdDevSample/Mean (0 when Mean is 0).
	CV float64 `json:"cv"`
	// Warnings are the conditions that weaken these figures: too few
	// samples, outliers, a large spread, values at the clock's resolution
	// (see CheckResolution), NaN values.
	Warnings []warn.Warning `json:"warnings,omitempty"`
}

// MADScale makes the MAD a consistent estimator of the standard deviation
// of normally distributed data (1/Φ⁻¹(3/4)).
const MADScale = 1.4826

// Summarize computes the summary of xs, with its warnings. It does not
// modify xs. NaN values are left out of every figure (N counts the others)
// and reported by a warning; infinities are kept and make the moments
// infinite or NaN. An empty sample gives the zero Summary with a warning.
// It sorts one copy of xs: O(n log n) time, n float64s of memory.
func Summarize(xs []float64) Summary {
	sorted := slices.Clone(xs)
	radix.Sort(sorted)
	return SummarizeSorted(sorted)
}

// SummarizeSorted is Summarize for a sample already sorted in increasing
// order (as slices.Sort sorts, NaNs first); it avoids the copy and the sort,
// and allocates nothing but the warnings.
func SummarizeSorted(sorted []float64) Summary {
	numbers := withoutNaN(sorted)
	nan := len(sorted) - len(numbers)
	s := summarizeSorted(numbers)
	if nan > 0 {
		s.Warnings = append(s.Warnings, warnf(warnNaN,
			"%d NaN value%s left out of the summary >> check the input", nan, plural(nan)))
	}
	return s
}

func summarizeSorted(sorted []float64) Summary {
	n := len(sorted)
	if n == 0 {
		return Summary{Warnings: []warn.Warning{warnf(WarnTooFewSamples,
			"no samples >> take at least %d", minSamples)}}
	}
	s := Summary{N: n, Min: sorted[0], Max: sorted[n-1]}
	// Mean by compensated (Kahan-Babuska) summation (Mean rescales a sum
	// that overflows). The squared deviations are summed on the values
	// scaled to below 1 by a power of two (exact): unscaled, those of
	// values near 1e-170 underflow to 0 and those near 1e300 overflow.
	s.Mean = meanSorted(sorted)
	e := scaleExpSorted(sorted)
	_, ss := scaledMoments(sorted, e)
	s.StdDevPopulation = math.Ldexp(math.Sqrt(ss/float64(n)), e)
	if n > 1 {
		s.StdDevSample = math.Ldexp(math.Sqrt(ss/float64(n-1)), e)
	}
	s.Median = linearQuantile(sorted, 0.5)
	s.Q1 = linearQuantile(sorted, 0.25)
	s.Q3 = linearQuantile(sorted, 0.75)
	s.IQR = s.Q3 - s.Q1
	s.MAD = madSorted(sorted, s.Median)
	s.MADScaled = s.MAD * MADScale
	if s.Mean != 0 {
		s.CV = s.StdDevSample / math.Abs(s.Mean)
	}
	s.addWarnings(sorted)
	s.checkOverflow()
	return s
}

// scaleExp returns the exponent e of a power of two 2^e just above the
// largest magnitude in the samples (x·2^-e is below 1 in magnitude for
// every x), or 0 when that magnitude is 0, infinite or NaN. Scaling by a
// power of two is exact (but for values that fall among the subnormals,
// far below the largest, whose squares do not count then).
func scaleExp(samples ...[]float64) int {
	a := 0.0
	for _, xs := range samples {
		for _, x := range xs {
			a = max(a, math.Abs(x))
		}
	}
	if a == 0 || math.IsInf(a, 0) || math.IsNaN(a) {
		return 0
	}
	_, e := math.Frexp(a)
	return e
}

// scaleExpSorted is scaleExp of a sorted sample without NaN, whose
// largest magnitude is at one of its ends.
func scaleExpSorted(sorted []float64) int {
	return scaleExp([]float64{sorted[0], sorted[len(sorted)-1]})
}

// meanSorted is Mean of a sorted, non-empty sample without NaN, whose
// extremes, to which the mean is clamped, are its ends. Only where an end
// is a zero (the least of -0 and +0 is the one Mean's min finds) or the
// sum overflows does it take Mean's way.
func meanSorted(sorted []float64) float64 {
	lo, hi := sorted[0], sorted[len(sorted)-1]
	if lo == 0 || hi == 0 {
		return Mean(sorted)
	}
	m := kahanSum(sorted) / float64(len(sorted))
	if math.IsInf(m, 0) || math.IsNaN(m) {
		return Mean(sorted)
	}
	return min(max(m, lo), hi)
}

// scaledMoments returns the mean of xs·2^-e and the sum of their squared
// deviations from it, by two passes with compensated sums (Neumaier's),
// so that the spread of values that are all near 1e-170 (squares 1e-340,
// which underflow to 0 in float64) or near 1e300 (squares that overflow)
// is right when e is scaleExp's. The mean is clamped to the values' range,
// so that equal values have no spread. The standard deviation of xs is
// math.Ldexp(math.Sqrt(ss/k), e) for divisor k. xs must be non-empty.
func scaledMoments(xs []float64, e int) (mean, ss float64) {
	// A product with 2^-e is as exact as math.Ldexp and much faster;
	// 2^-e is a normal float64 but for the largest magnitudes among the
	// subnormals (e below -1021).
	f, sub := math.Ldexp(1, -e), e < -1021
	scale := func(x float64) float64 {
		if sub {
			return math.Ldexp(x, -e)
		}
		return x * f
	}
	var sum neumaier
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		x = scale(x)
		lo, hi = min(lo, x), max(hi, x)
		sum.add(x)
	}
	mean = sum.total() / float64(len(xs))
	if !math.IsNaN(mean) && !math.IsNaN(lo) {
		mean = min(max(mean, lo), hi)
	}
	var squares neumaier
	for _, x := range xs {
		d := scale(x) - mean
		squares.add(float64(d * d))
	}
	return mean, squares.total()
}

// checkOverflow warns about figures that exceed the float64 range although
// every value is finite (values near ±1.8e308: the true standard deviation
// of -1.7e308 and 1.7e308 is 2.4e308). Such figures are +Inf in the
// Summary and null in its JSON; the warning names them.
func (s *Summary) checkOverflow() {
	if math.IsInf(s.Min, 0) || math.IsInf(s.Max, 0) {
		return // infinite values: infinite figures are the right answer
	}
	var over []string
	for _, f := range []struct {
		name string
		v    float64
	}{{"mean", s.Mean}, {"median", s.Median}, {"sample standard deviation", s.StdDevSample},
		{"population standard deviation", s.StdDevPopulation}, {"MAD", s.MAD}, {"scaled MAD", s.MADScaled},
		{"Q1", s.Q1}, {"Q3", s.Q3}, {"IQR", s.IQR}, {"CV", s.CV}} {
		if math.IsInf(f.v, 0) || math.IsNaN(f.v) {
			over = append(over, f.name)
		}
	}
	if len(over) == 0 {
		return
	}
	verb, them := "are", "them"
	if len(over) == 1 {
		verb, them = "is", "it"
	}
	s.Warnings = append(s.Warnings, warnf(warnOverflow,
		"the %s %s beyond the float64 range (±1.8e308), so not shown >> divide the values by a power of ten (e.g. 1e300) to get %s",
		joinAnd(over), verb, them))
}

// joinAnd joins names as prose: "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// madSorted is the median of |x - med| over a sorted, non-empty sample,
// without sorting the deviations: left of the median they decrease, right of
// it they increase, so the two runs are merged up to the middle, in O(n)
// time and no memory.
func madSorted(sorted []float64, med float64) float64 {
	n := len(sorted)
	// Split: sorted[:k] are below the median, sorted[k:] at or above it.
	k, _ := slices.BinarySearch(sorted, med)
	i, j := k-1, k // next deviation from the left run, from the right run
	next := func() float64 {
		if j >= n || (i >= 0 && med-sorted[i] < sorted[j]-med) {
			i--
			return med - sorted[i+1]
		}
		j++
		return sorted[j-1] - med
	}
	// The linear 0.5 quantile of n deviations interpolates the values at
	// ranks floor(h) and floor(h)+1, h = (n-1)/2.
	h := float64(0.5 * float64(n-1))
	lo := int(h)
	var a float64
	for range lo + 1 {
		a = next()
	}
	if lo >= n-1 {
		return a
	}
	b := next()
	return quantile.Lerp(a, b, h-float64(lo))
}

// kahanSum adds xs with Neumaier's compensated summation.
func kahanSum(xs []float64) float64 {
	var sum neumaier
	for _, x := range xs {
		sum.add(x)
	}
	return sum.total()
}

// neumaier is a compensated sum (Neumaier's variant of Kahan's): the
// running sum and the low-order parts its additions lost.
type neumaier struct{ sum, c float64 }

func (n *neumaier) add(x float64) {
	t := n.sum + x
	if math.Abs(n.sum) >= math.Abs(x) {
		n.c += (n.sum - t) + x
	} else {
		n.c += (x - t) + n.sum
	}
	n.sum = t
}

func (n neumaier) total() float64 { return n.sum + n.c }

// linearQuantile is the linear (Hyndman-Fan type 7) quantile of a sorted,
// non-empty sample, q in [0, 1].
func linearQuantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	h := float64(q * float64(n-1))
	lo := math.Floor(h)
	i := int(lo)
	if i >= n-1 {
		return sorted[n-1]
	}
	return quantile.Lerp(sorted[i], sorted[i+1], h-lo)
}

// summaryJSON is the JSON form of a Summary: figures that are not finite
// numbers are null.
type summaryJSON struct {
	N                int            `json:"n"`
	Min              *float64       `json:"min"`
	Max              *float64       `json:"max"`
	Mean             *float64       `json:"mean"`
	Median           *float64       `json:"median"`
	StdDevSample     *float64       `json:"stddev_sample"`
	StdDevPopulation *float64       `json:"stddev_population"`
	MAD              *float64       `json:"mad"`
	MADScaled        *float64       `json:"mad_scaled"`
	Q1               *float64       `json:"q1"`
	Q3               *float64       `json:"q3"`
	IQR              *float64       `json:"iqr"`
	CV               *float64       `json:"cv"`
	Warnings         []warn.Warning `json:"warnings,omitempty"`
}

// UnmarshalJSON reads what MarshalJSON writes: a null figure becomes NaN
// (not a finite number: beyond the float64 range, or from infinite
// values), except "stddev_sample" and "cv" with fewer than two values,
// which stay 0 as Summarize leaves them, so that a summary round-trips.
func (s *Summary) UnmarshalJSON(data []byte) error {
	var j summaryJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	val := func(p *float64) float64 {
		if p == nil {
			return math.NaN()
		}
		return *p
	}
	*s = Summary{N: j.N, Min: val(j.Min), Max: val(j.Max), Mean: val(j.Mean), Median: val(j.Median),
		StdDevSample: val(j.StdDevSample), StdDevPopulation: val(j.StdDevPopulation), MAD: val(j.MAD), MADScaled: val(j.MADScaled),
		Q1: val(j.Q1), Q3: val(j.Q3), IQR: val(j.IQR), CV: val(j.CV), Warnings: j.Warnings}
	if j.N < 2 {
		s.StdDevSample, s.CV = 0, 0
	}
	return nil
}

// MarshalJSON writes the summary with "stddev_sample" and "cv" as null
// when they are undefined (fewer than two values), and every figure that
// is not a finite number (beyond the float64 range, or from infinite
// values) as null, so that a reader never takes them for a measured 0 and
// the encoding never fails. UnmarshalJSON reads such nulls back as NaN.
func (s Summary) MarshalJSON() ([]byte, error) {
	fin := func(x float64) *float64 {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil
		}
		return &x
	}
	var sd, cv *float64
	if s.N >= 2 {
		sd, cv = fin(s.StdDevSample), fin(s.CV)
	}
	v := summaryJSON{s.N, fin(s.Min), fin(s.Max), fin(s.Mean), fin(s.Median), sd, fin(s.StdDevPopulation), fin(s.MAD), fin(s.MADScaled),
		fin(s.Q1), fin(s.Q3), fin(s.IQR), cv, s.Warnings}
	// Not json.Marshal: it would escape <, > and & in warning texts,
	// which the document's writer deliberately leaves readable.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
