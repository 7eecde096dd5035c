package stats

import (
	"math"
	"testing"
)

func TestQuantileUncertainty(t *testing.T) {
	xs := make([]float64, 343)
	for i := range xs {
		xs[i] = float64(i + 1) // 1..343
	}
	// p50 of 343 evenly spaced values: ranks 171.5 ± 1.96·√85.75 ≈ ±18.
	if u := QuantileUncertainty(xs, 0.5); u < 15 || u > 22 {
		t.Errorf("median uncertainty %v, want about 18 ranks", u)
	}
	// p99: n·q = 339.57, ± 3.6 ranks, clamped at the top.
	if u := QuantileUncertainty(xs, 0.99); u < 3 || u > 6 {
		t.Errorf("p99 uncertainty %v, want a few ranks", u)
	}
	if u := QuantileUncertainty([]float64{5}, 0.5); u != 0 {
		t.Errorf("one value: %v, want 0 (unknown)", u)
	}
	if u := QuantileUncertainty([]float64{1, 2}, 2); u != 0 {
		t.Errorf("q out of range: %v, want 0", u)
	}
	// Equal values: no uncertainty.
	if u := QuantileUncertainty([]float64{3, 3, 3, 3}, 0.9); u != 0 {
		t.Errorf("equal values: %v", u)
	}
}

func TestMeanUncertainty(t *testing.T) {
	s := Summarize([]float64{1, 2, 3, 4, 5})
	want := z95 * s.StdDevSample / math.Sqrt(5)
	if got := MeanUncertainty(s); math.Abs(got-want) > 1e-12 {
		t.Errorf("MeanUncertainty = %v, want %v", got, want)
	}
	if got := MeanUncertainty(Summarize([]float64{1})); got != 0 {
		t.Errorf("one value: %v", got)
	}
	if got := StdDevUncertainty(Summarize([]float64{1})); got != 0 {
		t.Errorf("one value: %v", got)
	}
}
