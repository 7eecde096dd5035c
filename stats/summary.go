package stats

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
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
	Warnings []Warning `json:"warnings,omitempty"`
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
	slices.Sort(sorted)
	return SummarizeSorted(sorted)
}

// SummarizeSorted is Summarize for a sample already sorted in increasing
// order (as slices.Sort sorts, NaNs first); it avoids the copy and the sort,
// and allocates nothing but the warnings.
func SummarizeSorted(sorted []float64) Summary {
	nan := 0
	for nan < len(sorted) && math.IsNaN(sorted[nan]) {
		nan++
	}
	sorted = sorted[nan:]
	s := summarizeSorted(sorted)
	if nan > 0 {
		s.Warnings = append(s.Warnings, warnf(WarnNaN,
			"%d NaN value%s left out of the summary >> check the input", nan, plural(nan)))
	}
	return s
}

func summarizeSorted(sorted []float64) Summary {
	n := len(sorted)
	if n == 0 {
		return Summary{Warnings: []Warning{warnf(WarnTooFewSamples,
			"no samples >> take at least %d", MinSamples)}}
	}
	s := Summary{N: n, Min: sorted[0], Max: sorted[n-1]}
	// Mean by compensated (Kahan-Babuska) summation (Mean rescales a sum
	// that overflows). Values near the top of the float64 range would
	// also overflow the squared deviations: compute those on x/scale.
	s.Mean = Mean(sorted)
	scale := 1.0
	if a := max(math.Abs(s.Min), math.Abs(s.Max)); a > 1e150 && !math.IsInf(a, 0) {
		scale = a
	}
	mean := s.Mean / scale
	var ss, c float64
	for _, x := range sorted {
		d := x/scale - mean
		y := d*d - c
		t := ss + y
		c = (t - ss) - y
		ss = t
	}
	s.StdDevPopulation = math.Sqrt(ss/float64(n)) * scale
	if n > 1 {
		s.StdDevSample = math.Sqrt(ss/float64(n-1)) * scale
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
	s.Warnings = append(s.Warnings, warnf(WarnOverflow,
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
	h := 0.5 * float64(n-1)
	lo := int(h)
	var a float64
	for range lo + 1 {
		a = next()
	}
	if lo >= n-1 {
		return a
	}
	b := next()
	return lerp(a, b, h-float64(lo))
}

// kahanSum adds xs with Neumaier's compensated summation.
func kahanSum(xs []float64) float64 {
	var sum, c float64
	for _, x := range xs {
		t := sum + x
		if math.Abs(sum) >= math.Abs(x) {
			c += (sum - t) + x
		} else {
			c += (x - t) + sum
		}
		sum = t
	}
	return sum + c
}

// linearQuantile is the linear (Hyndman-Fan type 7) quantile of a sorted,
// non-empty sample, q in [0, 1].
func linearQuantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	h := q * float64(n-1)
	lo := math.Floor(h)
	i := int(lo)
	if i >= n-1 {
		return sorted[n-1]
	}
	return lerp(sorted[i], sorted[i+1], h-lo)
}

// summaryJSON is the JSON form of a Summary: figures that are not finite
// numbers are null.
type summaryJSON struct {
	N                int       `json:"n"`
	Min              *float64  `json:"min"`
	Max              *float64  `json:"max"`
	Mean             *float64  `json:"mean"`
	Median           *float64  `json:"median"`
	StdDevSample     *float64  `json:"stddev_sample"`
	StdDevPopulation *float64  `json:"stddev_population"`
	MAD              *float64  `json:"mad"`
	MADScaled        *float64  `json:"mad_scaled"`
	Q1               *float64  `json:"q1"`
	Q3               *float64  `json:"q3"`
	IQR              *float64  `json:"iqr"`
	CV               *float64  `json:"cv"`
	Warnings         []Warning `json:"warnings,omitempty"`
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
