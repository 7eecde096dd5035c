package compare

import (
	"math"
	"slices"
	"testing"

	"github.com/chronograph/chronograph/stats"
)

// TestMediansBootstrap: up to BootstrapLimit samples, Medians is
// stats.CompareMedians with the seed.
func TestMediansBootstrap(t *testing.T) {
	a, b := spread(2e6, 30), spread(1e6, 40)
	for _, seed := range []uint64{1, 7} {
		got, err := Medians(a, b, seed)
		want, werr := stats.CompareMedians(a, b, stats.Confidence, stats.Alpha, seed)
		if err != werr || got != want {
			t.Errorf("seed %d: %+v, %v; want %+v, %v", seed, got, err, want, werr)
		}
	}
}

// TestMediansAsymptotic: above BootstrapLimit samples, the interval is
// the medians' distribution-free intervals combined in log ratio.
func TestMediansAsymptotic(t *testing.T) {
	n := BootstrapLimit/2 + 1
	a, b := make([]float64, n), make([]float64, n)
	for i := range n {
		a[i] = 2e6 + float64((i*7919)%1000)
		b[i] = 1e6 + float64((i*104729)%1000)
	}
	r, err := Medians(a, b, 1)
	if err != nil {
		t.Fatal(err)
	}
	ma, mb := stats.Median(a), stats.Median(b)
	ia, _ := stats.MedianCI(a, stats.Confidence)
	ib, _ := stats.MedianCI(b, stats.Confidence)
	z := 1.959963984540054
	h := z * math.Hypot(math.Log(ia.Hi/ia.Lo)/(2*z), math.Log(ib.Hi/ib.Lo)/(2*z))
	if r.Ratio != ma/mb || math.Abs(r.CI.Lo-r.Ratio*math.Exp(-h)) > 1e-12 || math.Abs(r.CI.Hi-r.Ratio*math.Exp(h)) > 1e-12 || !r.Significant {
		t.Errorf("%+v; want ratio %v, h %v", r, ma/mb, h)
	}
	if !(r.CI.Lo < r.Ratio && r.Ratio < r.CI.Hi) {
		t.Errorf("interval %v does not hold the ratio %v", r.CI, r.Ratio)
	}
	// A median of 0 has no ratio in log: no interval, an error.
	for i := range b {
		b[i] = 0
	}
	r, err = Medians(a, b, 1)
	if err == nil || !math.IsNaN(r.CI.Lo) || !math.IsNaN(r.CI.Hi) {
		t.Errorf("zero median: %+v, %v", r, err)
	}
}

// TestMediansSorted: of the sorted samples, MediansSorted gives what
// Medians gives of the samples, on both sides of BootstrapLimit, and
// refuses NaN and an empty sample as Medians does.
func TestMediansSorted(t *testing.T) {
	shuffled := func(n int, base float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = base + float64((i*7919)%1000)
		}
		return xs
	}
	for _, n := range []int{30, BootstrapLimit/2 + 1} {
		a, b := shuffled(n, 2e6), shuffled(n+3, 1e6)
		sa, sb := slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
		want, werr := Medians(a, b, 1)
		got, err := MediansSorted(sa, sb, 1)
		if (err == nil) != (werr == nil) || got.Ratio != want.Ratio || got.CI != want.CI || got.MannWhitney != want.MannWhitney || got.Significant != want.Significant {
			t.Errorf("n %d: MediansSorted %+v, %v; Medians %+v, %v", n, got, err, want, werr)
		}
	}
	for _, tt := range []struct {
		name   string
		sa, sb []float64
	}{
		{"NaN", append([]float64{math.NaN()}, make([]float64, BootstrapLimit)...), []float64{1, 2}},
		{"empty", nil, make([]float64, BootstrapLimit+1)},
	} {
		if _, err := MediansSorted(tt.sa, tt.sb, 1); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}
