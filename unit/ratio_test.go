package unit_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/chronograph/chronograph/unit"
)

// The figures below are the ones the command, diff and gate views print
// (report's goldens): a ratio with its interval, the interval's bounds,
// a ratio without one.
func TestRatio(t *testing.T) {
	for _, tt := range []struct {
		r, lo, hi float64
		want      string
	}{
		{2.403000690758885, 2.1711586806173155, 2.7025122866729876, "2.40"}, // gzip -9 against gzip -1
		{2.1711586806173155, 2.1711586806173155, 2.7025122866729876, "2.2"}, // its interval's bounds: known to the interval's width
		{2.7025122866729876, 2.1711586806173155, 2.7025122866729876, "2.7"},
		{1.75, 1.75, 1.75, "1.75"}, // no interval: 3 significant digits
		{0.5, 0.5, 0.5, "0.500"},   // the same below 1
		{1234.5, 1234.5, 1234.5, "1.23e+03"},
		{1.5, 1.0, 2.0, "1.5"},              // ±0.5: one decimal
		{1.5, 1.4, 1.6, "1.50"},             // ±0.1: two
		{1.5, 1.499, 1.501, "1.50"},         // at most 3 significant digits
		{1, math.NaN(), math.NaN(), "1.00"}, // an interval of NaN counts as none
	} {
		if got := unit.Ratio(tt.r, tt.lo, tt.hi); got != tt.want {
			t.Errorf("Ratio(%v, %v, %v) = %q, want %q", tt.r, tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestPValue(t *testing.T) {
	for _, tt := range []struct {
		p    float64
		want string
	}{
		{1.4508889103849688e-11, "1.5e-11"},
		{0.0009, "9.0e-04"},
		{0.001, "0.0010"},
		{0.02857142857142857, "0.029"},
		{0.4, "0.40"},
		{1, "1.0"},
		{0, "0"},
		{math.NaN(), "–"},
	} {
		if got := unit.PValue(tt.p); got != tt.want {
			t.Errorf("PValue(%v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}

func TestPercent(t *testing.T) {
	for f, want := range map[float64]string{0.95: "95%", 0.999: "99.9%", 0.000001: "0.0001%", 0.05: "5%", 1: "100%"} {
		if got := unit.Percent(f); got != want {
			t.Errorf("Percent(%v) = %q, want %q", f, got, want)
		}
	}
}

// A ratio of medians printed with the digits its 95% interval supports,
// the interval's bounds, and the p-value of the test beside it.
func ExampleRatio() {
	r, lo, hi := 2.403000690758885, 2.1711586806173155, 2.7025122866729876
	fmt.Printf("%sx [%s, %s], p = %s, %s CI\n", unit.Ratio(r, lo, hi), unit.Ratio(lo, lo, hi), unit.Ratio(hi, lo, hi),
		unit.PValue(1.4508889103849688e-11), unit.Percent(0.95))
	// Output: 2.40x [2.2, 2.7], p = 1.5e-11, 95% CI
}
