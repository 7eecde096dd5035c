package stats

import "math"

// z95 is the standard normal quantile of 0.975.
const z95 = 1.959963984540054

// QuantileUncertainty returns how far the q-quantile of the sorted sample
// (0 <= q <= 1, by the linear definition) may be from the population's at
// about 95 % confidence: the larger distance from the estimate to the
// order statistics x(l), x(h) whose ranks bound B ~ Binomial(n, q) by
// n·q ± 1.96·√(n·q·(1-q)) (the normal approximation; ranks beyond the
// sample are clamped to its extremes, so a p99 of 50 samples is as
// uncertain as the sample's range above it). It is meant for the digits
// a figure may show (unit.Precision), not for inference: use MedianCI
// for an exact interval. It returns 0 for fewer than 2 values (nothing
// is known) and ignores nothing: sorted must hold no NaN.
func QuantileUncertainty(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n < 2 || !(q >= 0 && q <= 1) {
		return 0
	}
	est := linearQuantile(sorted, q)
	half := float64(z95 * math.Sqrt(float64(n)*q*(1-q)))
	lo := int(math.Floor(float64(float64(n)*q) - half)) // 1-based rank
	hi := int(math.Ceil(float64(float64(n)*q)+half)) + 1
	lo = max(1, min(n, lo))
	hi = max(1, min(n, hi))
	return math.Max(est-sorted[lo-1], sorted[hi-1]-est)
}

// MeanUncertainty returns the half-width of the mean's normal 95 %
// interval, 1.96·s/√n (s: the sample standard deviation), or 0 for fewer
// than 2 values.
func MeanUncertainty(s Summary) float64 {
	if s.N < 2 || math.IsNaN(s.StdDevSample) {
		return 0
	}
	return z95 * s.StdDevSample / math.Sqrt(float64(s.N))
}

// StdDevUncertainty returns the half-width of an approximate 95 %
// interval of the standard deviation, 1.96·s/√(2(n-1)), or 0 for fewer
// than 2 values.
func StdDevUncertainty(s Summary) float64 {
	if s.N < 2 || math.IsNaN(s.StdDevSample) {
		return 0
	}
	return z95 * s.StdDevSample / math.Sqrt(2*float64(s.N-1))
}
