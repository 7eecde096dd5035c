package stats

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/internal/excerpt"
	"github.com/chronograph/chronograph/internal/quantile"
	"github.com/chronograph/chronograph/internal/radix"
)

// Method names a sample-quantile definition. The nine methods are the
// Hyndman-Fan definitions (types 1 to 9), named as numpy.quantile names them.
type Method string

// The nine Hyndman-Fan quantile definitions, in numpy's order.
const (
	// InvertedCDF is H&F type 1, the nearest-rank definition: the smallest
	// observation whose empirical CDF reaches q.
	InvertedCDF Method = "inverted_cdf"
	// AveragedInvertedCDF is H&F type 2: like InvertedCDF, but averages the
	// two neighbours where the empirical CDF is flat.
	AveragedInvertedCDF Method = "averaged_inverted_cdf"
	// ClosestObservation is H&F type 3 (SAS definition 2): the nearest order
	// statistic, the even one on a tie.
	ClosestObservation Method = "closest_observation"
	// InterpolatedInvertedCDF is H&F type 4: linear interpolation of the
	// empirical CDF.
	InterpolatedInvertedCDF Method = "interpolated_inverted_cdf"
	// Hazen is H&F type 5: piecewise linear, knots at (k-0.5)/n.
	Hazen Method = "hazen"
	// Weibull is H&F type 6 (Excel PERCENTILE.EXC, Minitab, SPSS): knots at
	// k/(n+1).
	Weibull Method = "weibull"
	// Linear is H&F type 7, the default of numpy, R and Excel's
	// PERCENTILE.INC: knots at (k-1)/(n-1).
	Linear Method = "linear"
	// MedianUnbiased is H&F type 8, recommended by Hyndman and Fan: the
	// quantile estimates are approximately median-unbiased whatever the
	// distribution.
	MedianUnbiased Method = "median_unbiased"
	// NormalUnbiased is H&F type 9: approximately unbiased for the expected
	// order statistics of normally distributed data.
	NormalUnbiased Method = "normal_unbiased"
)

// DefaultMethod is the quantile definition used when none is named.
const DefaultMethod = Linear

// Methods lists the nine definitions in numpy's order (H&F types 1 to 9).
var Methods = []Method{
	InvertedCDF, AveragedInvertedCDF, ClosestObservation,
	InterpolatedInvertedCDF, Hazen, Weibull, Linear, MedianUnbiased, NormalUnbiased,
}

// hyndmanFanType returns the number (1 to 9) of m in Hyndman and Fan's
// "Sample Quantiles in Statistical Packages" (1996), or 0 for an unknown
// method.
func (m Method) hyndmanFanType() int {
	return slices.Index(Methods, m) + 1
}

// valid reports whether m is one of the nine known methods.
func (m Method) valid() bool { return m.hyndmanFanType() > 0 }

// String returns the numpy name of the method.
func (m Method) String() string { return string(m) }

// ParseMethod returns the method named s (numpy's name, case-insensitive,
// '-' accepted for '_'). The empty string gives DefaultMethod.
func ParseMethod(s string) (Method, error) {
	if s == "" {
		return DefaultMethod, nil
	}
	m := Method(strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_"))
	if m.valid() {
		return m, nil
	}
	names := make([]string, len(Methods))
	for i, m := range Methods {
		names[i] = string(m)
	}
	return "", fmt.Errorf("stats: unknown percentile method %s: use one of %s", excerpt.Quote(s), strings.Join(names, ", "))
}

// Quantile returns the q-quantile (q in [0, 1]) of sorted, which must be
// sorted in increasing order, by the definition m. It returns NaN when
// sorted is empty, q is outside [0, 1] or NaN, or m is unknown. The result
// equals numpy.quantile(sorted, q, method=m) to the last bit for every
// method (numpy >= 2.0 for closest_observation; numpy 1.x has a bug there)
// wherever numpy's result lies between the two neighbouring values; where
// their difference overflows (an infinite neighbour, or -1e308 next to
// 1e308) numpy gives NaN or the wrong infinity, and this the infinite
// neighbour or the weighted mean of the two (see lerp). As in
// numpy, a sample holding NaN has NaN quantiles (slices.Sort and
// sort.Float64s put NaNs first; both ends are checked).
func Quantile(sorted []float64, q float64, m Method) float64 {
	n := len(sorted)
	if n == 0 || !(q >= 0 && q <= 1) || math.IsNaN(sorted[0]) || math.IsNaN(sorted[n-1]) {
		return math.NaN()
	}
	fn := float64(n)
	switch m {
	case InvertedCDF:
		// H&F 1: the virtual (0-based) index is n*q - 1; where it is whole
		// take that order statistic, else the next one up.
		return sorted[discreteIndex(float64(fn*q)-1, n, func(g, _ float64) bool { return g == 0 })]
	case ClosestObservation:
		// H&F 3: j = floor(n*q - 1/2) (1-based), g its fractional part;
		// take x_j when g == 0 and j is even, else x_{j+1}. With 0-based
		// index i = j-1 the "even j" test is "odd i".
		return sorted[discreteIndex(float64(fn*q)-1-0.5, n, func(g, i float64) bool {
			return g == 0 && math.Mod(math.Floor(i), 2) != 0
		})]
	}
	var vi float64 // virtual 0-based index into sorted
	switch m {
	case AveragedInvertedCDF:
		vi = float64(fn*q) - 1
	case InterpolatedInvertedCDF:
		vi = virtualIndex(fn, q, 0, 1)
	case Hazen:
		vi = virtualIndex(fn, q, 0.5, 0.5)
	case Weibull:
		vi = virtualIndex(fn, q, 0, 0)
	case Linear:
		// (n-1)*q rather than the alpha=beta=1 formula, as numpy does, to
		// avoid rounding.
		vi = float64(float64(fn-1) * q)
	case MedianUnbiased:
		third := 1 / 3.0
		vi = virtualIndex(fn, q, third, third)
	case NormalUnbiased:
		vi = virtualIndex(fn, q, 3/8.0, 3/8.0)
	default:
		return math.NaN()
	}
	// Neighbouring order statistics, clamped to the sample.
	var lo, hi int
	switch {
	case vi >= fn-1:
		lo, hi = n-1, n-1
	case vi < 0:
		lo, hi = 0, 0
	default:
		lo = int(math.Floor(vi))
		hi = lo + 1
	}
	gamma := vi - float64(lo)
	if m == AveragedInvertedCDF {
		// H&F 2 averages the two neighbours where the ECDF is flat.
		if gamma == 0 {
			gamma = 0.5
		} else {
			gamma = 1
		}
	}
	return quantile.Lerp(sorted[lo], sorted[hi], gamma)
}

// virtualIndex is numpy's _compute_virtual_index: the 0-based position of
// the q-quantile for the H&F continuous family with parameters alpha, beta,
// n*q + (alpha + q*(1-alpha-beta)) - 1, evaluated in numpy's order (the
// float64 conversions stop the compiler fusing multiply-adds).
func virtualIndex(n, q, alpha, beta float64) float64 {
	return float64(n*q) + (alpha + float64(q*(1-alpha-beta))) - 1
}

// discreteIndex is numpy's _discret_interpolation_to_boundaries: floor(vi)
// when prev(g, vi) holds for the fractional part g, else floor(vi)+1,
// clamped to [0, n-1].
func discreteIndex(vi float64, n int, prev func(g, vi float64) bool) int {
	f := math.Floor(vi)
	i := int(f) + 1
	if prev(vi-f, vi) {
		i = int(f)
	}
	return min(max(i, 0), n-1)
}

// Percentile returns the p-th percentile (p in [0, 100]) of xs by the
// definition m. xs need not be sorted and is not modified (it is copied and
// sorted; use Quantile on a sorted sample to avoid that). It returns NaN for
// an empty sample, a sample holding NaN (as numpy does) or p outside
// [0, 100].
func Percentile(xs []float64, p float64, m Method) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	sorted := slices.Clone(xs)
	radix.Sort(sorted)
	return Quantile(sorted, p/100, m)
}

// percentilesOf returns the percentiles ps (each in [0, 100]) of xs by the
// definition m, sorting a copy of xs once. Entries of ps outside [0, 100]
// give NaN.
func percentilesOf(xs []float64, ps []float64, m Method) []float64 {
	out := make([]float64, len(ps))
	sorted := slices.Clone(xs)
	radix.Sort(sorted)
	for i, p := range ps {
		out[i] = Quantile(sorted, p/100, m)
	}
	return out
}

// PercentileLabel names the p-th percentile: 99 gives "p99", 99.9 "p99.9",
// 50 "p50", with the shortest decimal form that reads back as p.
func PercentileLabel(p float64) string {
	return "p" + strconv.FormatFloat(p, 'f', -1, 64)
}

// ParsePercentiles parses a comma-separated list of percentiles such as
// "50,90,99,99.9" (an optional leading 'p' on each is accepted), each in
// [0, 100]. An empty entry ("50,,90", a trailing comma) is an error: it is
// a typo more often than not.
func ParsePercentiles(s string) ([]float64, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("stats: no percentiles in %s: give numbers between 0 and 100, e.g. 50,90,99,99.9", excerpt.Quote(s))
	}
	var ps []float64
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(f)), "p")
		if f == "" {
			return nil, fmt.Errorf("stats: empty percentile in %s (entry %d): remove the extra comma, e.g. 50,90,99", excerpt.Quote(s), len(ps)+1)
		}
		p, err := strconv.ParseFloat(f, 64)
		if err != nil || !(p >= 0 && p <= 100) {
			return nil, fmt.Errorf("stats: bad percentile %s: give numbers between 0 and 100, e.g. 50,90,99,99.9", excerpt.Quote(f))
		}
		ps = append(ps, p)
	}
	return ps, nil
}
