package stats

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestMedianCIRankAgainstScipy(t *testing.T) {
	var ref struct {
		MedianCI []struct {
			N          int
			Confidence float64
			J          int
			Coverage   float64
		} `json:"median_ci"`
	}
	readJSON(t, "special.json", &ref)
	if len(ref.MedianCI) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range ref.MedianCI {
		xs := make([]float64, c.N)
		for i := range xs {
			xs[i] = float64(c.N - i) // reversed: MedianCI must sort
		}
		iv, err := MedianCI(xs, c.Confidence)
		if c.J == 0 {
			if err == nil || !strings.Contains(err.Error(), "take at least") {
				t.Errorf("n=%d conf=%v: want an error naming the minimum, got %v, %v", c.N, c.Confidence, iv, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("n=%d conf=%v: %v", c.N, c.Confidence, err)
			continue
		}
		// Order statistics x(j) and x(n+1-j) of 1..n are j and n+1-j.
		if iv.Lo != float64(c.J) || iv.Hi != float64(c.N+1-c.J) {
			t.Errorf("n=%d conf=%v: [%v, %v], scipy's binomial says ranks %d and %d", c.N, c.Confidence, iv.Lo, iv.Hi, c.J, c.N+1-c.J)
		}
		if !close(iv.Coverage, c.Coverage, 1e-6) || iv.Coverage < c.Confidence {
			t.Errorf("n=%d conf=%v: coverage %v, scipy %v", c.N, c.Confidence, iv.Coverage, c.Coverage)
		}
	}
}

func TestMedianCIMinimum(t *testing.T) {
	if n := MinSamplesForMedianCI(0.95); n != 6 {
		t.Errorf("MinSamplesForMedianCI(0.95) = %d, want 6", n)
	}
	_, err := MedianCI([]float64{1, 2, 3, 4, 5}, 0.95)
	if err == nil || !strings.Contains(err.Error(), "at least 6") || !strings.HasPrefix(err.Error(), "stats: ") {
		t.Errorf("n=5: err %v", err)
	}
	if _, err := MedianCI([]float64{1, 2, 3, 4, 5, 6}, 0.95); err != nil {
		t.Errorf("n=6: %v", err)
	}
	for _, c := range []float64{0, 1, -0.5, 95, math.NaN()} {
		if _, err := MedianCI([]float64{1, 2, 3, 4, 5, 6, 7, 8}, c); err == nil {
			t.Errorf("confidence %v: no error", c)
		}
	}
}

// The 95% interval must cover the true median in at least 95% of samples
// (it is exact and conservative); 1000 trials leave room for chance, so the
// bound tested is 93%.
func TestMedianCICoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for _, n := range []int{6, 10, 25, 100} {
		covered := 0
		const trials = 1000
		for range trials {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = r.ExpFloat64() // skewed; true median ln 2
			}
			iv, err := MedianCI(xs, 0.95)
			if err != nil {
				t.Fatal(err)
			}
			if iv.Contains(math.Ln2) {
				covered++
			}
		}
		if covered < 930 {
			t.Errorf("n=%d: covered the median in %d of %d trials, want >= 930", n, covered, trials)
		}
		t.Logf("n=%d: coverage %d/%d", n, covered, trials)
	}
}

func TestBootstrap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([]float64, 200)
	for i := range xs {
		xs[i] = 50 + 10*r.NormFloat64()
	}
	a := BootstrapCI(xs, Mean, 0.95, 2000, 42)
	b := BootstrapCI(xs, Mean, 0.95, 2000, 42)
	if a != b {
		t.Errorf("same seed, different intervals: %+v vs %+v", a, b)
	}
	if c := BootstrapCI(xs, Mean, 0.95, 2000, 43); c == a {
		t.Errorf("different seeds, same interval %+v", c)
	}
	m := Mean(xs)
	// The standard error of the mean is about 10/sqrt(200) = 0.71: the
	// 95% interval is about ±1.4 wide.
	if !(a.Lo < m && m < a.Hi) || a.Hi-a.Lo < 1.5 || a.Hi-a.Lo > 4.5 {
		t.Errorf("mean %v, interval %+v", m, a)
	}
	if a.Method != MethodBootstrapPercentile || a.Confidence != 0.95 {
		t.Errorf("interval %+v", a)
	}
	med := BootstrapCI(xs, Median, 0.9, 0, 1)
	if !med.Contains(Median(xs)) {
		t.Errorf("median %v outside %+v", Median(xs), med)
	}

	ys := make([]float64, 150)
	for i := range ys {
		ys[i] = 2 * xs[i] // twice as slow
	}
	ratio := BootstrapRatioCI(ys, xs, Median, 0.95, 2000, 9)
	if !(ratio.Lo < 2 && 2 < ratio.Hi) || ratio.Lo < 1.6 || ratio.Hi > 2.4 {
		t.Errorf("ratio interval %+v, want around 2", ratio)
	}
	if r2 := BootstrapRatioCI(ys, xs, Median, 0.95, 2000, 9); r2 != ratio {
		t.Errorf("ratio not reproducible: %+v vs %+v", ratio, r2)
	}
	for _, iv := range []Interval{
		BootstrapCI(nil, Mean, 0.95, 10, 1), BootstrapCI(xs, Mean, 1.5, 10, 1),
		BootstrapRatioCI(xs, nil, Mean, 0.95, 10, 1),
	} {
		if !math.IsNaN(iv.Lo) || !math.IsNaN(iv.Hi) {
			t.Errorf("bad input gave %+v, want NaN bounds", iv)
		}
	}
}

func TestMeanMedian(t *testing.T) {
	if !math.IsNaN(Mean(nil)) || !math.IsNaN(Median(nil)) {
		t.Error("empty sample not NaN")
	}
	if m := Mean([]float64{1e16, 1, -1e16, 1}); m != 0.5 {
		t.Errorf("compensated mean = %v, want 0.5", m)
	}
	if m := Median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median = %v", m)
	}
}
