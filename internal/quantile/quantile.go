// Package quantile holds the interpolation of numpy's quantiles that
// stats and clock share: clock may not import stats (it stands alone, with
// golang.org/x/sys only), and its read-cost percentiles must equal the ones
// stats (and numpy) compute from the same sample.
package quantile

import "math"

// Linear is numpy's default ("linear", Hyndman & Fan 7) q-quantile of
// sorted, ascending and free of NaN: the virtual index (n-1)*q, between its
// neighbours by Lerp. It returns NaN for an empty sample or q outside
// [0, 1]. stats.Quantile(sorted, q, stats.Linear) is the same figure.
func Linear(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 || !(q >= 0 && q <= 1) {
		return math.NaN()
	}
	vi := float64(float64(n-1) * q)
	lo := int(math.Floor(vi))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return Lerp(sorted[lo], sorted[lo+1], vi-float64(lo))
}

// Lerp interpolates between a and b by t as numpy's _lerp does: from a when
// t < 0.5, from b otherwise, which is exact at both ends and monotonic.
// Where b - a is infinite numpy's arithmetic gives NaN or the wrong
// infinity (the median of -1e308 and 1e308 is -Inf there, that of 1, 2,
// +Inf NaN); here the result stays between a and b: two finite ends too
// far apart are weighed, a·(1-t) + b·t, an infinite end wins, and equal
// ends or t of 0 or 1 give an end exactly. Only -Inf to +Inf has no value
// between: NaN.
func Lerp(a, b, t float64) float64 {
	switch {
	case a == b || t == 0:
		return a
	case t == 1:
		return b
	}
	d := b - a
	if math.IsInf(d, 0) {
		switch {
		case math.IsInf(a, 0) && math.IsInf(b, 0):
			return math.NaN()
		case math.IsInf(a, 0):
			return a
		case math.IsInf(b, 0):
			return b
		}
		return float64(a*(1-t)) + float64(b*t)
	}
	if t >= 0.5 {
		return b - float64(d*(1-t))
	}
	return a + float64(d*t)
}
