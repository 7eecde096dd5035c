package unit

import (
	"math"
	"strconv"
)

// Ratio formats a dimensionless ratio r with the digits its interval
// [lo, hi] supports, at most 3 significant ones: Ratio(2.403, 2.171, 2.703)
// is "2.40", Ratio(1.5, 1, 2) is "1.5". Give r for lo and hi when there
// is no interval (3 significant digits).
func Ratio(r, lo, hi float64) string {
	unc := math.Max(math.Abs(r-lo), math.Abs(hi-r))
	if math.IsNaN(unc) {
		unc = 0
	}
	p := Precision{Uncertainty: unc, Resolution: math.Pow(10, math.Floor(math.Log10(math.Abs(r)))-2)}
	return Plain(r, p)
}

// PValue formats a p-value with 2 significant digits, in exponent form
// below 0.001 ("1.5e-11"); NaN (no test) is "–".
func PValue(p float64) string {
	if math.IsNaN(p) {
		return "–"
	}
	if p != 0 && p < 1e-3 {
		return strconv.FormatFloat(p, 'e', 1, 64)
	}
	return Sig(p, 2)
}

// Percent formats a fraction (0.95) as a percentage without float noise:
// "95%", "99.9%", "0.0001%".
func Percent(f float64) string {
	return strconv.FormatFloat(f*100, 'g', 6, 64) + "%"
}
