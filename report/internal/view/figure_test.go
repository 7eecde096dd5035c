package view

import (
	"math"
	"testing"

	"github.com/chronograph/chronograph/result"
)

func TestBinnedSeries(t *testing.T) {
	// 100 values: 10 in [0,10), 80 in [10,20), 10 in [20,30); exact
	// extremes 1 and 29.
	m := &result.Metric{Name: "x", Unit: result.UnitNs, Histogram: &result.Histogram{
		Bounds: []float64{0, 10, 20, 30}, Counts: []int64{10, 80, 10}, Min: 1, Max: 29, Mean: 15}}
	s := NewSeries(m)
	if !s.Binned() || s.N() != 100 || s.Summary.Mean != 15 {
		t.Fatalf("series %+v", s.Summary)
	}
	if q := s.Quantile(0.5); q < 10 || q > 20 {
		t.Errorf("median %v, want in the middle bin", q)
	}
	if q := s.Quantile(0); q != 1 {
		t.Errorf("q0 %v, want the exact min 1", q)
	}
	if q := s.Quantile(1); q != 29 {
		t.Errorf("q1 %v, want the exact max 29", q)
	}
	prev := math.Inf(-1)
	for q := 0.0; q <= 1; q += 0.01 {
		v := s.Quantile(q)
		if v < prev {
			t.Fatalf("quantiles decrease at q=%v: %v < %v", q, v, prev)
		}
		prev = v
	}
	if p := s.AtQuantile(0.5); p.Uncertainty < 5 {
		t.Errorf("median uncertainty %v, want at least half the bin width", p.Uncertainty)
	}
	if _, err := s.MedianCI(0.95); err == nil {
		t.Error("a binned series gave an order-statistic interval")
	}
	// Overflows count in the rank and sit at the exact maximum.
	m.Histogram.Overflow = 100
	m.Histogram.Max = 1000
	s = NewSeries(m)
	if q := s.Quantile(0.99); q != 1000 {
		t.Errorf("p99 with half the values overflowing: %v, want the max 1000", q)
	}
}
