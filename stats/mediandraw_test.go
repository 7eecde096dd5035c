package stats

import (
	"math"
	"testing"
)

// TestMedianDrawMatchesResampling checks the Beta shortcut of
// BootstrapMedianRatioCI against the bootstrap it replaces: the exact
// distribution of a resample's median, found by enumerating every
// resample of a small sample, against the frequencies of 200,000 draws.
func TestMedianDrawMatchesResampling(t *testing.T) {
	for _, xs := range [][]float64{
		{1, 2, 3, 4, 5},
		{1, 2, 4, 8, 16, 32},
		{3, 3, 7, 10, 10, 10, 20},
		{5},
		{2, 9},
	} {
		n := len(xs)
		exact := map[float64]float64{}
		total := int(math.Pow(float64(n), float64(n)))
		idx := make([]int, n)
		buf := make([]float64, n)
		for range total {
			for i, j := range idx {
				buf[i] = xs[j]
			}
			exact[Median(buf)] += 1 / float64(total)
			for i := range idx { // next index tuple
				idx[i]++
				if idx[i] < n {
					break
				}
				idx[i] = 0
			}
		}
		const draws = 200_000
		d := newMedianDraw(xs, newRand(7))
		got := map[float64]float64{}
		for range draws {
			got[d.draw()] += 1.0 / draws
		}
		for v, p := range exact {
			sigma := math.Sqrt(p * (1 - p) / draws)
			if math.Abs(got[v]-p) > 5*sigma+1e-9 {
				t.Errorf("%v: median %v drawn with frequency %.4f, the bootstrap gives %.4f", xs, v, got[v], p)
			}
		}
		for v, f := range got {
			if _, ok := exact[v]; !ok {
				t.Errorf("%v: drew median %v (frequency %.4f), which no resample has", xs, v, f)
			}
		}
	}
}

// TestBootstrapMedianRatioCI: the shortcut's interval agrees with the
// resampling one, NaN takes the resampling path, and bad inputs give NaN.
func TestBootstrapMedianRatioCI(t *testing.T) {
	a := make([]float64, 301)
	b := make([]float64, 200)
	r := newRand(3)
	for i := range a {
		a[i] = 100 + 10*r.NormFloat64()
	}
	for i := range b {
		b[i] = 80 + 10*r.NormFloat64()
	}
	fast := BootstrapMedianRatioCI(a, b, 0.95, 20000, 1)
	slow := bootstrapRatioCI(a, b, Median, 0.95, 20000, 1)
	if math.Abs(fast.Lo-slow.Lo) > 0.01 || math.Abs(fast.Hi-slow.Hi) > 0.01 {
		t.Errorf("shortcut interval [%.4f, %.4f], resampling [%.4f, %.4f]", fast.Lo, fast.Hi, slow.Lo, slow.Hi)
	}
	if again := BootstrapMedianRatioCI(a, b, 0.95, 20000, 1); again != fast {
		t.Errorf("the same seed gave %+v then %+v", fast, again)
	}
	if iv := BootstrapMedianRatioCI(nil, b, 0.95, 0, 1); !math.IsNaN(iv.Lo) {
		t.Errorf("empty sample: %+v", iv)
	}
	if iv := BootstrapMedianRatioCI(a, b, 1.5, 0, 1); !math.IsNaN(iv.Lo) {
		t.Errorf("confidence 1.5: %+v", iv)
	}
	withNaN := append([]float64{math.NaN()}, a...)
	if iv := BootstrapMedianRatioCI(withNaN, b, 0.95, 0, 1); iv.Confidence != 0.95 {
		t.Errorf("NaN sample: %+v", iv)
	}
}
