package stats

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestSortedVariants: TukeySorted, ModifiedZSorted, MedianCISorted and
// SummarizeSorted of a sample sorted once give what Tukey, ModifiedZ,
// MedianCI and Summarize give of the unsorted sample, and what a plain
// reference computes (slices.Sort, the quantiles, a loop over the
// values); the outlier lists are allocated once, at their size. Samples:
// random ones of several shapes and sizes (radix sort from 4096 values
// on), with ties, NaNs, infinities and heavy tails.
func TestSortedVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	shapes := map[string]func() float64{
		"lognormal": func() float64 { return math.Exp(r.NormFloat64()) },
		"cauchy":    func() float64 { return math.Tan(math.Pi * (r.Float64() - 0.5)) },
		"ties":      func() float64 { return float64(r.IntN(5)) },
		"mostly 5": func() float64 {
			if r.IntN(10) == 0 {
				return r.NormFloat64() * 100
			}
			return 5
		},
		"with NaN and Inf": func() float64 {
			switch r.IntN(50) {
			case 0:
				return math.NaN()
			case 1:
				return math.Inf(1)
			case 2:
				return math.Inf(-1)
			}
			return r.NormFloat64()
		},
	}
	for name, gen := range shapes {
		for _, n := range []int{0, 1, 3, 4, 7, 50, 1000, 5000, 40000} {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = gen()
			}
			orig := slices.Clone(xs)
			sorted := slices.Clone(xs)
			slices.Sort(sorted)

			wantT := refTukey(xs)
			gotT := TukeySorted(xs, sorted)
			if !sameOutliers(gotT, wantT) || !sameOutliers(Tukey(xs), wantT) {
				t.Errorf("%s n=%d: Tukey %+v / %+v, reference %+v", name, n, gotT, Tukey(xs), wantT)
			}
			for _, l := range [][]int{gotT.LowSevere, gotT.LowMild, gotT.HighMild, gotT.HighSevere} {
				if cap(l) != len(l) {
					t.Errorf("%s n=%d: an outlier list of %d has room for %d", name, n, len(l), cap(l))
				}
			}

			wantZ := refModifiedZ(xs, 3.5)
			gotZ := ModifiedZSorted(xs, sorted, 3.5)
			if !slices.Equal(gotZ, wantZ) || !slices.Equal(ModifiedZ(xs, 3.5), wantZ) || (gotZ == nil) != (wantZ == nil) || cap(gotZ) != len(gotZ) {
				t.Errorf("%s n=%d: modified z %d (room %d), reference %d", name, n, len(gotZ), cap(gotZ), len(wantZ))
			}

			ci, err := MedianCISorted(sorted, 0.95)
			ci2, err2 := MedianCI(xs, 0.95)
			if !reflect.DeepEqual(ci, ci2) || (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
				t.Errorf("%s n=%d: MedianCISorted %+v %v, MedianCI %+v %v", name, n, ci, err, ci2, err2)
			}

			if s1, s2 := SummarizeSorted(slices.Clone(sorted)), Summarize(xs); !reflect.DeepEqual(jsonOf(t, s1), jsonOf(t, s2)) {
				t.Errorf("%s n=%d: SummarizeSorted %+v, Summarize %+v", name, n, s1, s2)
			}
			if !slices.EqualFunc(xs, orig, func(a, b float64) bool { return a == b || a != a && b != b }) {
				t.Fatalf("%s n=%d: the input was modified", name, n)
			}
		}
	}
}

// refTukey is Tukey as a reference, from the definitions alone (not
// tukeyFences, nor TukeySorted's loop): the quartiles of the sorted
// numbers, the fences Q1 - 3 IQR, Q1 - 1.5 IQR, Q3 + 1.5 IQR and Q3 + 3
// IQR, and each class by its own interval, as Outliers documents them.
func refTukey(xs []float64) Outliers {
	var s []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	slices.Sort(s)
	nan := math.NaN()
	o := Outliers{Q1: nan, Q3: nan, IQR: nan, LowSevereFence: nan, LowMildFence: nan, HighMildFence: nan, HighSevereFence: nan}
	if len(s) < 4 {
		return o
	}
	o.Q1, o.Q3 = Quantile(s, 0.25, Linear), Quantile(s, 0.75, Linear)
	o.IQR = o.Q3 - o.Q1
	o.LowSevereFence, o.LowMildFence = o.Q1-float64(3*o.IQR), o.Q1-float64(1.5*o.IQR)
	o.HighMildFence, o.HighSevereFence = o.Q3+float64(1.5*o.IQR), o.Q3+float64(3*o.IQR)
	for i, x := range xs {
		if x < o.LowSevereFence {
			o.LowSevere = append(o.LowSevere, i)
		}
		if o.LowSevereFence <= x && x < o.LowMildFence {
			o.LowMild = append(o.LowMild, i)
		}
		if o.HighMildFence < x && x <= o.HighSevereFence {
			o.HighMild = append(o.HighMild, i)
		}
		if x > o.HighSevereFence {
			o.HighSevere = append(o.HighSevere, i)
		}
	}
	return o
}

// refModifiedZ is ModifiedZ as a reference: the median and the MAD by
// sorting the deviations.
func refModifiedZ(xs []float64, threshold float64) []int {
	var s []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	if len(s) == 0 {
		return nil
	}
	slices.Sort(s)
	med := Quantile(s, 0.5, Linear)
	dev := make([]float64, len(s))
	for i, x := range s {
		dev[i] = math.Abs(x - med)
	}
	slices.Sort(dev)
	mad := Quantile(dev, 0.5, Linear)
	if !(mad > 0) || math.IsInf(mad, 0) {
		return nil
	}
	var out []int
	for i, x := range xs {
		if math.Abs(modifiedZScoreFactor*(x-med)/mad) > threshold {
			out = append(out, i)
		}
	}
	return out
}

func sameOutliers(a, b Outliers) bool {
	same := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	return slices.Equal(a.LowSevere, b.LowSevere) && slices.Equal(a.LowMild, b.LowMild) &&
		slices.Equal(a.HighMild, b.HighMild) && slices.Equal(a.HighSevere, b.HighSevere) &&
		same(a.Q1, b.Q1) && same(a.Q3, b.Q3) && same(a.IQR, b.IQR) &&
		same(a.LowSevereFence, b.LowSevereFence) && same(a.LowMildFence, b.LowMildFence) &&
		same(a.HighMildFence, b.HighMildFence) && same(a.HighSevereFence, b.HighSevereFence)
}

func jsonOf(t *testing.T, s Summary) string {
	b, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSortedShortcuts: what summarizeSorted takes from the ends of the
// sorted sample and by bisection equals what a pass over it gives, bit
// for bit: the mean (with its clamp), the scale exponent, and the outlier
// counts of the warning; samples with zeros of both signs at the ends,
// infinities, values near the float64 range and ties among them.
func TestSortedShortcuts(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	neg := math.Copysign(0, -1)
	pick := [][]float64{{0, neg, 1, 2, 3}, {neg, -1, -2}, {math.Inf(1), 1, 2}, {math.Inf(-1), math.Inf(1), 3}, {1.7e308, 1.6e308, 1e308},
		{-1.7e308, 1.7e308}, {5e-324, 1e-320}, {1, 1, 1, 1}, {2.5}}
	for trial := range 3000 {
		n := 1 + r.IntN(60)
		xs := make([]float64, n)
		vals := pick[trial%len(pick)]
		for i := range xs {
			if r.IntN(3) == 0 {
				xs[i] = vals[r.IntN(len(vals))]
			} else {
				xs[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-10))
			}
		}
		slices.Sort(xs)
		if got, want := meanSorted(xs), Mean(xs); math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
			t.Fatalf("%v: meanSorted %v, Mean %v", xs, got, want)
		}
		if got, want := scaleExpSorted(xs), scaleExp(xs); got != want {
			t.Fatalf("%v: scaleExpSorted %d, scaleExp %d", xs, got, want)
		}
		if n < 4 {
			continue
		}
		o := tukeyFences(linearQuantile(xs, 0.25), linearQuantile(xs, 0.75))
		var low, high, severe int
		for _, x := range xs {
			switch {
			case x < o.LowMildFence:
				low++
				if x < o.LowSevereFence {
					severe++
				}
			case x > o.HighMildFence:
				high++
				if x > o.HighSevereFence {
					severe++
				}
			}
		}
		gl, gh := countBelow(xs, o.LowMildFence), countAbove(xs, o.HighMildFence)
		gs := countBelow(xs, o.LowSevereFence) + countAbove(xs, o.HighSevereFence)
		if gl != low || gh != high || gs != severe {
			t.Fatalf("%v: counts %d %d %d by bisection, %d %d %d by a pass", xs, gl, gh, gs, low, high, severe)
		}
	}
}
