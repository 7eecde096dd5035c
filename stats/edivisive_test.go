package stats

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// bruteQ computes the scaled energy statistic of splitting z at tau
// straight from the definition.
func bruteQ(z []float64, tau int) float64 {
	x, y := z[:tau], z[tau:]
	m, n := float64(len(x)), float64(len(y))
	var b, w, v float64
	for _, a := range x {
		for _, c := range y {
			b += math.Abs(a - c)
		}
	}
	for i := range x {
		for k := i + 1; k < len(x); k++ {
			w += math.Abs(x[i] - x[k])
		}
	}
	for i := range y {
		for k := i + 1; k < len(y); k++ {
			v += math.Abs(y[i] - y[k])
		}
	}
	e := 2 * b / (m * n)
	if len(x) > 1 {
		e -= w / (m * (m - 1) / 2)
	}
	if len(y) > 1 {
		e -= v / (n * (n - 1) / 2)
	}
	return m * n / (m + n) * e
}

func TestEnergyScanMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 50 {
		n := 4 + r.IntN(40)
		z := make([]float64, n)
		for i := range z {
			z[i] = math.Round(r.NormFloat64()*3) + float64(i/(n/2+1))*2 // ties and a step
		}
		minSeg := 2 + r.IntN(max(1, n/2-1))
		tau, q := newEnergyScan(n).best(z, minSeg)
		if n < 2*minSeg {
			if tau != 0 {
				t.Fatalf("trial %d: split %d of a series too short", trial, tau)
			}
			continue
		}
		wantTau, wantQ := 0, math.Inf(-1)
		for k := minSeg; k <= n-minSeg; k++ {
			if bq := bruteQ(z, k); bq > wantQ+1e-9 {
				wantTau, wantQ = k, bq
			}
		}
		if math.Abs(q-wantQ) > 1e-9*math.Max(1, math.Abs(wantQ)) || tau != wantTau {
			t.Fatalf("trial %d (n %d, min %d): got split %d Q %v, want %d Q %v", trial, n, minSeg, tau, q, wantTau, wantQ)
		}
	}
}

func noise(r *rand.Rand, n int, mean, sd float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = mean + sd*r.NormFloat64()
	}
	return xs
}

func TestEDivisiveSteps(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	cases := []struct {
		name string
		xs   []float64
		want []int
		tol  int // how far from the true index a change may be found
	}{
		{"step up", append(noise(r, 60, 100, 2), noise(r, 60, 110, 2)...), []int{60}, 1},
		{"step down", append(noise(r, 40, 100, 5), noise(r, 80, 80, 5)...), []int{40}, 1},
		{"noise level", append(noise(r, 80, 100, 1), noise(r, 80, 100, 8)...), []int{80}, 4}, // a change of spread is located less precisely
		{"up then down", append(append(noise(r, 50, 100, 1), noise(r, 50, 105, 1)...), noise(r, 50, 100, 1)...), []int{50, 100}, 1},
	}
	// One regression among 1,000 points, with outliers.
	long := noise(r, 1000, 1000, 10)
	for i := 700; i < 1000; i++ {
		long[i] += 30
	}
	long[100], long[400], long[850] = 5000, 4000, 200
	cases = append(cases, struct {
		name string
		xs   []float64
		want []int
		tol  int
	}{"regression in 1000 with outliers", long, []int{700}, 1})
	for _, c := range cases {
		cps, err := EDivisive(c.xs, EDivisiveOptions{Seed: 1, Significance: 0.01})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(cps) != len(c.want) {
			t.Fatalf("%s: got %+v, want changes at %v", c.name, cps, c.want)
		}
		for i, cp := range cps {
			if d := cp.Index - c.want[i]; d < -c.tol || d > c.tol {
				t.Errorf("%s: change %d at %d, want %d", c.name, i, cp.Index, c.want[i])
			}
			if cp.P > 0.01 || cp.Q <= 0 {
				t.Errorf("%s: change %+v: p above the level or Q not positive", c.name, cp)
			}
		}
	}
}

func TestEDivisiveNoise(t *testing.T) {
	// A fixed-seed i.i.d. series has no change.
	r := rand.New(rand.NewPCG(3, 4))
	cps, err := EDivisive(noise(r, 200, 50, 3), EDivisiveOptions{Seed: 9})
	if err != nil || len(cps) != 0 {
		t.Fatalf("i.i.d. noise: got %+v, %v; want no change", cps, err)
	}
}

// TestEDivisiveFalsePositiveRate measures how often noise-only series get
// a change: the permutation test holds the level, so about Significance.
func TestEDivisiveFalsePositiveRate(t *testing.T) {
	series := 200
	if testing.Short() {
		series = 40
	}
	r := rand.New(rand.NewPCG(11, 12))
	hits := 0
	for i := range series {
		cps, err := EDivisive(noise(r, 100, 10, 1), EDivisiveOptions{Seed: uint64(i), Permutations: 99})
		if err != nil {
			t.Fatal(err)
		}
		if len(cps) > 0 {
			hits++
		}
	}
	rate := float64(hits) / float64(series)
	t.Logf("false-positive rate over %d noise-only series of 100 points at level 0.05: %.3f", series, rate)
	if rate > 0.15 {
		t.Errorf("false-positive rate %.3f, far above the level 0.05", rate)
	}
	// Heavy-tailed noise (log-normal, as run times are), 300 points.
	hits = 0
	for i := range series {
		xs := noise(r, 300, 0, 0.5)
		for k := range xs {
			xs[k] = 1000 * math.Exp(xs[k])
		}
		cps, err := EDivisive(xs, EDivisiveOptions{Seed: uint64(i), Permutations: 99})
		if err != nil {
			t.Fatal(err)
		}
		if len(cps) > 0 {
			hits++
		}
	}
	rate = float64(hits) / float64(series)
	t.Logf("false-positive rate over %d log-normal noise-only series of 300 points at level 0.05: %.3f", series, rate)
	if rate > 0.15 {
		t.Errorf("log-normal: false-positive rate %.3f, far above the level 0.05", rate)
	}
}

func TestEDivisiveEdges(t *testing.T) {
	if cps, err := EDivisive([]float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}, EDivisiveOptions{}); err != nil || cps != nil {
		t.Errorf("constant: %+v %v", cps, err)
	}
	for _, n := range []int{0, 1, 2, 9} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i * i)
		}
		if cps, err := EDivisive(xs, EDivisiveOptions{}); err != nil || cps != nil {
			t.Errorf("n=%d: %+v %v", n, cps, err)
		}
	}
	if _, err := EDivisive([]float64{1, 2, math.NaN(), 4}, EDivisiveOptions{}); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("NaN: got %v", err)
	}
	if _, err := EDivisive([]float64{1, math.Inf(1)}, EDivisiveOptions{}); err == nil {
		t.Error("Inf accepted")
	}
	for _, o := range []EDivisiveOptions{{Permutations: -1}, {Significance: 1.5}, {MinSegment: 1}} {
		if _, err := EDivisive([]float64{1, 2, 3}, o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

func TestEDivisiveMinSegment(t *testing.T) {
	// A step 3 points from the end: found with MinSegment 3, not with 10.
	r := rand.New(rand.NewPCG(5, 6))
	xs := append(noise(r, 57, 100, 1), noise(r, 3, 150, 1)...)
	cps, err := EDivisive(xs, EDivisiveOptions{MinSegment: 3, Seed: 2})
	if err != nil || len(cps) != 1 || cps[0].Index != 57 {
		t.Fatalf("min 3: %+v %v", cps, err)
	}
	for _, m := range []int{10, 20} {
		cps, err = EDivisive(xs, EDivisiveOptions{MinSegment: m, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		prev := 0
		for _, cp := range append(cps, ChangePoint{Index: len(xs)}) {
			if cp.Index-prev < m {
				t.Errorf("min %d: segment [%d, %d) shorter: %+v", m, prev, cp.Index, cps)
			}
			prev = cp.Index
		}
	}
}

func TestEDivisiveReproducible(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	xs := append(noise(r, 30, 10, 1), noise(r, 30, 10.8, 1)...)
	a, _ := EDivisive(xs, EDivisiveOptions{Seed: 42})
	b, _ := EDivisive(xs, EDivisiveOptions{Seed: 42})
	if len(a) != len(b) {
		t.Fatalf("%+v vs %+v", a, b)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("%+v vs %+v", a, b)
		}
	}
}

func BenchmarkEDivisive1000(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	xs := append(noise(r, 600, 100, 3), noise(r, 400, 106, 3)...)
	for b.Loop() {
		if _, err := EDivisive(xs, EDivisiveOptions{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMinPermutations: the fewest permutations whose smallest p-value,
// 1/(n+1), reaches the level, by EDivisive's own acceptance rule.
func TestMinPermutations(t *testing.T) {
	for _, tt := range []struct {
		level float64
		want  int
	}{
		{0.05, 19}, {0.01, 99}, {0.1, 9}, {0.5, 1}, {0.9, 1}, {1.0 / 3, 2}, {0.001, 999}, {0, 0}, {1, 0}, {-0.1, 0},
	} {
		got := MinPermutations(tt.level)
		if got != tt.want {
			t.Errorf("MinPermutations(%v) = %d, want %d", tt.level, got, tt.want)
		}
		if got > 0 {
			// got reaches the level, got-1 does not.
			if 1/float64(got+1) > tt.level || got > 1 && 1/float64(got) <= tt.level {
				t.Errorf("MinPermutations(%v) = %d: 1/(n+1) = %v", tt.level, got, 1/float64(got+1))
			}
		}
	}
}

// TestEDivisiveTooFewPermutations: a count of permutations that can never
// reach the level is refused, saying the smallest that can (with 9 at
// 0.05, the smallest p-value 0.1, no change was ever found, silently); the
// smallest count finds a clear step.
func TestEDivisiveTooFewPermutations(t *testing.T) {
	xs := make([]float64, 40)
	for i := range xs {
		xs[i] = float64(i % 3)
		if i >= 20 {
			xs[i] += 100
		}
	}
	for _, n := range []int{-1, 1, 9, 18} {
		_, err := EDivisive(xs, EDivisiveOptions{Permutations: n, Seed: 1})
		if err == nil || !strings.Contains(err.Error(), "can never accept a change at p ≤ 0.05") || !strings.Contains(err.Error(), "give at least 19") {
			t.Errorf("%d permutations: %v", n, err)
		}
	}
	cps, err := EDivisive(xs, EDivisiveOptions{Permutations: 19, Seed: 1})
	if err != nil || len(cps) != 1 || cps[0].Index != 20 || cps[0].P != 0.05 {
		t.Errorf("19 permutations: %+v %v", cps, err)
	}
	if _, err := EDivisive(xs, EDivisiveOptions{Permutations: 99, Significance: 0.01, Seed: 1}); err != nil {
		t.Errorf("99 at 0.01: %v", err)
	}
	if _, err := EDivisive(xs, EDivisiveOptions{Permutations: 98, Significance: 0.01, Seed: 1}); err == nil || !strings.Contains(err.Error(), "give at least 99") {
		t.Errorf("98 at 0.01: %v", err)
	}
}

// TestEDivisiveDefaults: WithDefaults fills exactly the zero fields, with
// the values EDivisive documents.
func TestEDivisiveDefaults(t *testing.T) {
	if got, want := (EDivisiveOptions{}).WithDefaults(), (EDivisiveOptions{Permutations: 199, Significance: 0.05, MinSegment: 5}); got != want {
		t.Errorf("zero options: %+v, want %+v", got, want)
	}
	set := EDivisiveOptions{Permutations: 999, Significance: 0.01, MinSegment: 3, Seed: 7}
	if got := set.WithDefaults(); got != set {
		t.Errorf("set options: %+v, want them unchanged", got)
	}
}
