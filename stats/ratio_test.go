package stats

import (
	"encoding/json"
	"math"
	"math/rand/v2"
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
