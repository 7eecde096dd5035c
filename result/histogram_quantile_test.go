package result

import (
	"math"
	"testing"
)

func TestHistogramQuantile(t *testing.T) {
	// 100 values: 10 in [0,10), 80 in [10,20), 10 in [20,30); exact
	// extremes 1 and 29.
	h := &Histogram{Bounds: []float64{0, 10, 20, 30}, Counts: []int64{10, 80, 10}, Min: 1, Max: 29, Mean: 15}
	for _, tt := range []struct {
		q, want float64
	}{
		{0, 1},  // the exact minimum
		{1, 29}, // the exact maximum
		// rank 49.5 of 0..99: between the 40th and 41st of the middle
		// bin's 80 (0-based 39 and 40), at 10 + (39.5/80)·10 and
		// 10 + (40.5/80)·10.
		{0.5, 15},
		// rank 9.9: between the last of the first bin (9.5) and the
		// first of the second (10 + 0.5/80·10).
		{0.1, 9.5 + 0.9*(10+0.0625-9.5)},
	} {
		if got := h.Quantile(tt.q); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Quantile(%v) = %v, want %v", tt.q, got, tt.want)
		}
	}
	prev := math.Inf(-1)
	for q := 0.0; q <= 1; q += 0.01 {
		v := h.Quantile(q)
		if v < prev {
			t.Fatalf("quantiles decrease at q=%v: %v < %v", q, v, prev)
		}
		prev = v
	}
	// Overflows count in the rank and sit at the exact maximum, underflows
	// at the exact minimum.
	o := *h
	o.Overflow, o.Max = 100, 1000
	if q := o.Quantile(0.99); q != 1000 {
		t.Errorf("p99 with half the values overflowing: %v, want the max 1000", q)
	}
	u := *h
	u.Underflow, u.Min = 100, -5
	if q := u.Quantile(0.01); q != -5 {
		t.Errorf("p1 with half the values underflowing: %v, want the min -5", q)
	}
	if q := (&Histogram{Bounds: []float64{0, 1}, Counts: []int64{0}}).Quantile(0.5); !math.IsNaN(q) {
		t.Errorf("empty: %v, want NaN", q)
	}
}
