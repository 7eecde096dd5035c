package stats

import (
	"math"
	"slices"
	"testing"
)

func TestTukey(t *testing.T) {
	xs := make([]float64, 0, 24)
	for i := 1; i <= 20; i++ {
		xs = append(xs, float64(i))
	}
	// Added values: index 20 low severe, 21 low mild, 22 high mild, 23 high severe.
	// With them Q1 = 4.75, Q3 = 16.25, IQR = 11.5: fences -29.75, -12.5 |
	// 33.5, 50.75.
	xs = append(xs, -100, -20, 35, 1000)
	o := Tukey(xs)
	sorted := slices.Sorted(slices.Values(xs))
	q1, q3 := Quantile(sorted, 0.25, Linear), Quantile(sorted, 0.75, Linear)
	if o.Q1 != q1 || o.Q3 != q3 || o.IQR != q3-q1 {
		t.Fatalf("quartiles %v %v %v, want %v %v", o.Q1, o.Q3, o.IQR, q1, q3)
	}
	// float64(...) keeps the compiler from fusing the references'
	// multiply-adds on arm64, where the code under test does not fuse.
	if o.LowSevereFence != q1-float64(3*o.IQR) || o.LowMildFence != q1-float64(1.5*o.IQR) ||
		o.HighMildFence != q3+float64(1.5*o.IQR) || o.HighSevereFence != q3+float64(3*o.IQR) {
		t.Errorf("fences %+v", o)
	}
	if o.Q1 != 4.75 || o.Q3 != 16.25 || o.LowMildFence != -12.5 || o.HighSevereFence != 50.75 {
		t.Errorf("hand-computed quartiles or fences differ: %+v", o)
	}
	want := Outliers{LowSevere: []int{20}, LowMild: []int{21}, HighMild: []int{22}, HighSevere: []int{23}}
	if !slices.Equal(o.LowSevere, want.LowSevere) || !slices.Equal(o.LowMild, want.LowMild) ||
		!slices.Equal(o.HighMild, want.HighMild) || !slices.Equal(o.HighSevere, want.HighSevere) {
		t.Errorf("got %+v", o)
	}
	if o.Count() != 4 || o.low() != 2 || o.high() != 2 || o.Severe() != 2 {
		t.Errorf("counts %d %d %d %d", o.Count(), o.low(), o.high(), o.Severe())
	}

	// Clean data: nothing flagged; small samples: nothing flagged, NaN fences.
	if o := Tukey([]float64{1, 2, 3, 4, 5, 6}); o.Count() != 0 {
		t.Errorf("clean sample flagged: %+v", o)
	}
	if o := Tukey([]float64{1, 100, math.NaN()}); o.Count() != 0 || !math.IsNaN(o.Q1) {
		t.Errorf("tiny sample: %+v", o)
	}
	// NaNs are neither flagged nor used.
	if o := Tukey([]float64{1, 2, math.NaN(), 3, 4, 100}); !slices.Equal(o.HighSevere, []int{5}) || o.Count() != 1 {
		t.Errorf("with NaN: %+v", o)
	}
}

func TestModifiedZ(t *testing.T) {
	// median 10, |deviations| 0,1,1,2,2,... MAD = 1.
	xs := []float64{10, 9, 11, 8, 12, 10, 10, 15.2, 4}
	// Scores: 0.6745*5.2 = 3.51 (flagged), 0.6745*6 = 4.05 (flagged),
	// 0.6745*2 = 1.35 (not).
	if got := ModifiedZ(xs, 3.5); !slices.Equal(got, []int{7, 8}) {
		t.Errorf("got %v, want [7 8]", got)
	}
	if got := ModifiedZ(xs, 3.52); !slices.Equal(got, []int{8}) {
		t.Errorf("threshold 3.52: got %v, want [8]", got)
	}
	// MAD = 0: more than half equal; no scores.
	if got := ModifiedZ([]float64{5, 5, 5, 5, 1000}, 3.5); got != nil {
		t.Errorf("MAD 0 flagged %v", got)
	}
	if got := ModifiedZ(nil, 3.5); got != nil {
		t.Errorf("empty: %v", got)
	}
}
