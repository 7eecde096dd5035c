package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// MedianCI's ranks and coverage must equal gen.py's, computed in integers
// (and checked there against scipy's binomial), for every n up to 200 and
// a few large ones, at six confidence levels.
func TestMedianCIRankAgainstScipy(t *testing.T) {
	var ref struct {
		MedianCI []struct {
			N          int
			Confidence float64
			Lo, Hi     int
			Coverage   float64
		} `json:"median_ci"`
	}
	readJSON(t, "special.json", &ref)
	if len(ref.MedianCI) < 1000 {
		t.Fatalf("%d cases", len(ref.MedianCI))
	}
	for _, c := range ref.MedianCI {
		xs := make([]float64, c.N)
		for i := range xs {
			xs[i] = float64(c.N - i) // reversed: MedianCI must sort
		}
		iv, err := MedianCI(xs, c.Confidence)
		if c.Lo == 0 {
			if err == nil || !strings.Contains(err.Error(), "take at least") {
				t.Errorf("n=%d conf=%v: want an error naming the minimum, got %v, %v", c.N, c.Confidence, iv, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("n=%d conf=%v: %v", c.N, c.Confidence, err)
			continue
		}
		// Order statistics x(i) of 1..n are i.
		if iv.Lo != float64(c.Lo) || iv.Hi != float64(c.Hi) {
			t.Errorf("n=%d conf=%v: [%v, %v], gen.py says ranks %d and %d", c.N, c.Confidence, iv.Lo, iv.Hi, c.Lo, c.Hi)
		}
		tol := 1e-12
		if c.N <= 53 {
			tol = 0 // exact: dyadic sums
		}
		if !close(iv.Coverage, c.Coverage, tol) || iv.Coverage < c.Confidence {
			t.Errorf("n=%d conf=%v: coverage %v, gen.py %v", c.N, c.Confidence, iv.Coverage, c.Coverage)
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
	// A finite interval exists exactly from MinSamplesForMedianCI on, also
	// at the reachable limit 1 - 2^(1-n) and just above it.
	for n := 1; n <= 70; n++ {
		limit := 1 - math.Ldexp(1, 1-n)
		for _, c := range []float64{0.01, 0.5, 0.9, 0.95, 0.99, 0.999, 1e-6, limit, math.Nextafter(limit, 1), 1 - 1e-16, math.Nextafter(1, 0)} {
			if !(c > 0 && c < 1) {
				continue
			}
			lo, hi, cov, ok := medianCIRanks(n, c)
			if need := MinSamplesForMedianCI(c); ok != (n >= need) || ok && (lo < 1 || hi > n || lo >= hi || cov < c) {
				t.Errorf("n=%d conf=%v: [%d, %d) coverage %v ok %v, MinSamplesForMedianCI %d", n, c, lo, hi, cov, ok, need)
			}
		}
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
	a := bootstrapCI(xs, Mean, 0.95, 2000, 42)
	b := bootstrapCI(xs, Mean, 0.95, 2000, 42)
	if a != b {
		t.Errorf("same seed, different intervals: %+v vs %+v", a, b)
	}
	if c := bootstrapCI(xs, Mean, 0.95, 2000, 43); c == a {
		t.Errorf("different seeds, same interval %+v", c)
	}
	m := Mean(xs)
	// The standard error of the mean is about 10/sqrt(200) = 0.71: the
	// 95% interval is about ±1.4 wide.
	if !(a.Lo < m && m < a.Hi) || a.Hi-a.Lo < 1.5 || a.Hi-a.Lo > 4.5 {
		t.Errorf("mean %v, interval %+v", m, a)
	}
	if a.Method != methodBootstrapPercentile || a.Confidence != 0.95 {
		t.Errorf("interval %+v", a)
	}
	med := bootstrapCI(xs, Median, 0.9, 0, 1)
	if !med.Contains(Median(xs)) {
		t.Errorf("median %v outside %+v", Median(xs), med)
	}

	ys := make([]float64, 150)
	for i := range ys {
		ys[i] = 2 * xs[i] // twice as slow
	}
	ratio := bootstrapRatioCI(ys, xs, Median, 0.95, 2000, 9)
	if !(ratio.Lo < 2 && 2 < ratio.Hi) || ratio.Lo < 1.6 || ratio.Hi > 2.4 {
		t.Errorf("ratio interval %+v, want around 2", ratio)
	}
	if r2 := bootstrapRatioCI(ys, xs, Median, 0.95, 2000, 9); r2 != ratio {
		t.Errorf("ratio not reproducible: %+v vs %+v", ratio, r2)
	}
	for _, iv := range []Interval{
		bootstrapCI(nil, Mean, 0.95, 10, 1), bootstrapCI(xs, Mean, 1.5, 10, 1),
		bootstrapRatioCI(xs, nil, Mean, 0.95, 10, 1),
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

// MedianCI against go-moremath's QuantileCI (benchstat's median interval),
// for every n from 1 to 200 at six confidence levels. Both are undefined
// (an error here, an infinite bound there) for the same n. Every
// difference must be one that MedianCI's doc comment names and counts:
//
//   - mirror (n from 21 to 30): QuantileCI's binomial probabilities come
//     from exp(lchoose), whose rounding makes P(B=k) and P(B=n-k) differ in
//     the last bit, so its tie-break towards the lower side goes either
//     way; same width and coverage, reflected;
//   - wider (n > 30, its normal approximation): one rank wider, its exact
//     coverage above ours, which already reaches confidence;
//   - under (n > 30): its exact coverage is below confidence.
//
// Up to 20 samples they are equal, coverage included.
func TestMedianCIAgainstQuantileCI(t *testing.T) {
	var ref struct {
		QuantileCI []struct {
			N          int
			Confidence float64
			LoOrder    int `json:"lo_order"`
			HiOrder    int `json:"hi_order"`
			Claimed    float64
		} `json:"quantile_ci"`
	}
	readJSON(t, "xperf.json", &ref)
	if len(ref.QuantileCI) != 1200 {
		t.Fatalf("%d cases", len(ref.QuantileCI))
	}
	type key struct {
		conf float64
		kind string
	}
	diffs := map[key][]int{}
	for _, q := range ref.QuantileCI {
		n, conf := q.N, q.Confidence
		lo, hi, cov, ok := medianCIRanks(n, conf)
		finite := q.LoOrder >= 1 && q.HiOrder <= n
		if ok != finite {
			t.Errorf("n=%d conf=%v: ok %v, QuantileCI [%d, %d)", n, conf, ok, q.LoOrder, q.HiOrder)
			continue
		}
		if !ok {
			continue
		}
		if lo == q.LoOrder && hi == q.HiOrder {
			if n <= 30 && !close(cov, q.Claimed, 1e-12) {
				t.Errorf("n=%d conf=%v: coverage %v, QuantileCI %v", n, conf, cov, q.Claimed)
			}
			continue
		}
		qcov := newBinomialHalf(n).inside(q.LoOrder, q.HiOrder) // its exact coverage
		var kind string
		switch {
		case qcov < conf:
			kind = "under"
		case q.LoOrder == n+1-hi && q.HiOrder == n+1-lo: // B -> n-B
			kind = "mirror"
		case q.HiOrder-q.LoOrder == hi-lo+1 && qcov > cov:
			kind = "wider"
		}
		if kind == "" || n <= 20 || n <= 30 && kind != "mirror" {
			t.Errorf("n=%d conf=%v: [%d, %d) coverage %v; QuantileCI [%d, %d) exact coverage %v", n, conf, lo, hi, cov, q.LoOrder, q.HiOrder, qcov)
			continue
		}
		diffs[key{conf, kind}] = append(diffs[key{conf, kind}], n)
	}
	for _, c := range []float64{0.5, 0.8, 0.9, 0.95, 0.99, 0.999} {
		t.Logf("confidence %v: mirror %v, wider %v, under %v", c, diffs[key{c, "mirror"}], diffs[key{c, "wider"}], diffs[key{c, "under"}])
	}
	// The figures MedianCI's doc comment gives.
	if m, w, u := diffs[key{0.95, "mirror"}], diffs[key{0.95, "wider"}], diffs[key{0.95, "under"}]; !slices.Equal(m, []int{24}) ||
		!slices.Equal(w, []int{43, 44, 66, 67, 93, 94, 137, 138, 189, 190}) || len(u) != 0 {
		t.Errorf("at 0.95: mirror %v, wider %v, under %v; the doc names mirror 24, wider 43, 44, 66, 67, 93, 94, 137, 138, 189, 190", m, w, u)
	}
	if u := diffs[key{0.5, "under"}]; !slices.Equal(u, []int{177, 178}) {
		t.Errorf("at 0.5 QuantileCI covers less than confidence for n = %v; the doc says 177 and 178", u)
	}
}

// Large samples: the walk stays short (O(√n)), the coverage reaches the
// confidence, no interval one rank shorter does, and the ranks match the
// normal approximation n/2 ± z·√n/2 to within a rank or two.
func TestMedianCIRanksLarge(t *testing.T) {
	for _, n := range []int{54, 1001, 100_000, 1_000_001, 1_000_000_000} {
		for _, c := range []struct{ conf, z float64 }{{0.9, 1.6448536269514722}, {0.95, 1.959963984540054}, {0.99, 2.5758293035489004}} {
			lo, hi, cov, ok := medianCIRanks(n, c.conf)
			b := newBinomialHalf(n)
			if !ok || cov < c.conf || b.inside(lo+1, hi) >= c.conf || b.inside(lo, hi-1) >= c.conf {
				t.Errorf("n=%d conf=%v: [%d, %d) coverage %v ok %v; shorter: %v %v", n, c.conf, lo, hi, cov, ok, b.inside(lo+1, hi), b.inside(lo, hi-1))
			}
			half := c.z * math.Sqrt(float64(n)) / 2
			if math.Abs(float64(lo)-(float64(n)/2-half)) > 2 || math.Abs(float64(hi)-(float64(n)/2+half+1)) > 2 {
				t.Errorf("n=%d conf=%v: [%d, %d), normal approximation [%.1f, %.1f)", n, c.conf, lo, hi, float64(n)/2-half, float64(n)/2+half+1)
			}
		}
	}
}
