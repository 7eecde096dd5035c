package stats

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestCompareMedians(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sample := func(n int, center float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = center + rng.NormFloat64()
		}
		return xs
	}
	slow, fast := sample(30, 20), sample(30, 10)
	r, err := CompareMedians(slow, fast, 0.95, 0.05, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Significant || r.Ratio < 1.8 || r.Ratio > 2.2 || !r.CI.Contains(r.Ratio) || r.CI.Lo <= 1 {
		t.Errorf("20 vs 10: %+v, want a significant ratio near 2 with its interval above 1", r)
	}
	same, err := CompareMedians(sample(30, 10), sample(30, 10), 0.95, 0.05, 7)
	if err != nil {
		t.Fatal(err)
	}
	if same.Significant || !same.CI.Contains(1) {
		t.Errorf("equal samples: %+v, want not significant and an interval holding 1", same)
	}
	again, _ := CompareMedians(slow, fast, 0.95, 0.05, 7)
	if again.CI != r.CI {
		t.Errorf("same seed gave %v then %v", r.CI, again.CI)
	}
	if _, err := CompareMedians([]float64{1}, nil, 0.95, 0.05, 1); err == nil {
		t.Error("empty sample: want the test's error")
	}
}

// Finite values near the top of the float64 range do not overflow the
// mean or the standard deviation.
func TestSummarizeHugeValues(t *testing.T) {
	s := Summarize([]float64{1e308, 1e308})
	if s.Mean != 1e308 || s.StdDevSample != 0 || s.CV != 0 {
		t.Errorf("[1e308 1e308]: mean %g sd %g cv %g; want 1e308, 0, 0", s.Mean, s.StdDevSample, s.CV)
	}
	s = Summarize([]float64{-1e308, 1e308})
	if s.Mean != 0 || math.Abs(s.StdDevPopulation-1e308)/1e308 > 1e-15 {
		t.Errorf("[-1e308 1e308]: mean %g, population sd %g; want 0 and 1e308", s.Mean, s.StdDevPopulation)
	}
}

func TestMeanHugeValues(t *testing.T) {
	if m := Mean([]float64{1e308, 1e308, 1e308}); m != 1e308 {
		t.Errorf("Mean = %g, want 1e308", m)
	}
	if m := Mean([]float64{1, math.Inf(1)}); !math.IsInf(m, 1) {
		t.Errorf("Mean with +Inf = %g, want +Inf", m)
	}
}

func TestSummaryJSONUndefinedStdDev(t *testing.T) {
	one, err := json.Marshal(Summarize([]float64{5}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(one), `"stddev_sample":null`) || !strings.Contains(string(one), `"cv":null`) || !strings.Contains(string(one), `"stddev_population":0`) {
		t.Errorf("n=1: %s; want stddev_sample and cv null", one)
	}
	two, _ := json.Marshal(Summarize([]float64{5, 7}))
	var back Summary
	if err := json.Unmarshal(two, &back); err != nil || back.StdDevSample != math.Sqrt2 || back.N != 2 || back.Median != 6 {
		t.Errorf("n=2 round trip: %s -> %+v (%v)", two, back, err)
	}
}

// TestCompareMediansSorted: of sorted copies it gives CompareMedians's
// figures exactly, for small (exact test) and large samples, with ties,
// signed zeros and infinities, and refuses NaN.
func TestCompareMediansSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	gen := func(n int, center float64, ties bool) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = center + rng.NormFloat64()
			if ties {
				xs[i] = math.Round(xs[i])
			}
		}
		return xs
	}
	cases := []struct {
		name string
		a, b []float64
	}{
		{"small", gen(20, 10, false), gen(25, 11, false)},
		{"small ties", gen(20, 10, true), gen(30, 10, true)},
		{"one each", []float64{3}, []float64{2}},
		{"large", gen(5000, 100, false), gen(7000, 101, false)},
		{"large ties", gen(5000, 100, true), gen(7000, 100, true)},
		{"zeros and infinities", []float64{0, math.Copysign(0, -1), 1, math.Inf(1), 2, 0}, []float64{math.Inf(-1), 0, 0, 3, math.Copysign(0, -1), 1, 1}},
	}
	for _, c := range cases {
		want, werr := CompareMedians(c.a, c.b, 0.95, 0.05, 3)
		sa, sb := slices.Sorted(slices.Values(c.a)), slices.Sorted(slices.Values(c.b))
		got, gerr := CompareMediansSorted(sa, sb, 0.95, 0.05, 3)
		if (werr == nil) != (gerr == nil) || !sameFloat(got.Ratio, want.Ratio) || !sameFloat(got.CI.Lo, want.CI.Lo) || !sameFloat(got.CI.Hi, want.CI.Hi) ||
			got.CI.Method != want.CI.Method || got.MannWhitney != want.MannWhitney || got.Significant != want.Significant {
			t.Errorf("%s: sorted %+v (%v), want %+v (%v)", c.name, got, gerr, want, werr)
		}
	}
	if _, err := CompareMediansSorted([]float64{1, math.NaN()}, []float64{1, 2}, 0.95, 0.05, 1); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("NaN: error %v, want one naming NaN", err)
	}
	if _, err := CompareMediansSorted(nil, []float64{1}, 0.95, 0.05, 1); err == nil {
		t.Error("empty sample: want the test's error")
	}
}

func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
