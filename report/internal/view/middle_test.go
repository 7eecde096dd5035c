package view

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chronograph/chronograph/result"
)

// TestMiddleOf: selection gives the median of the sorted values, for
// odd and even counts, ties, sorted and reversed input and runs shorter
// and longer than the insertion-sorted ones.
func TestMiddleOf(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	gen := func(n int, f func(i int) float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = f(i)
		}
		return xs
	}
	cases := []struct {
		name string
		xs   []float64
	}{
		{"one", []float64{4}},
		{"two", []float64{5, 1}},
		{"short odd", gen(15, func(int) float64 { return r.NormFloat64() })},
		{"odd", gen(1001, func(int) float64 { return r.NormFloat64() })},
		{"even", gen(1250, func(int) float64 { return r.ExpFloat64() })},
		{"ties", gen(1250, func(int) float64 { return float64(r.IntN(4)) })},
		{"all equal", gen(999, func(int) float64 { return 7 })},
		{"sorted", gen(1000, func(i int) float64 { return float64(i) })},
		{"reversed", gen(1001, func(i int) float64 { return float64(-i) })},
		{"infinities", []float64{math.Inf(1), 1, math.Inf(-1), 2, math.Inf(1), 3, 0, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1}},
	}
	for _, c := range cases {
		want := Middle(slices.Sorted(slices.Values(c.xs)))
		if got := MiddleOf(slices.Clone(c.xs)); got != want {
			t.Errorf("%s: MiddleOf = %v, want %v", c.name, got, want)
		}
	}
}

// TestSeriesCache: with a cache, a metric's Series is made once and
// shared; without, each call makes its own; both hold the same figures.
func TestSeriesCache(t *testing.T) {
	m := &result.Metric{Name: "wall", Unit: result.UnitNs, Values: []float64{3, math.NaN(), 1, 2}}
	other := &result.Metric{Name: "wall", Unit: result.UnitNs, Values: []float64{3, 1, 2}}
	c := Options{Cache: NewSeriesCache()}
	a, b := c.Series(m), c.Series(m)
	if a != b {
		t.Error("with a cache: two Series of one metric")
	}
	if c.Series(other) == a {
		t.Error("with a cache: two metrics share a Series")
	}
	if !slices.Equal(c.Sorted(m), []float64{1, 2, 3}) {
		t.Errorf("Sorted = %v, want [1 2 3] (NaN left out)", c.Sorted(m))
	}
	var none Options
	if x, y := none.Series(m), none.Series(m); x == y || x.Summary.Median != a.Summary.Median || x.N() != 3 {
		t.Errorf("without a cache: shared %v, medians %v and %v of %d", x == y, x.Summary.Median, a.Summary.Median, x.N())
	}
}
