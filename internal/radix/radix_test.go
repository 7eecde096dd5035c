package radix

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortAsSlicesSort: Sort orders every sample as slices.Sort does, bit
// for bit (but for the order of -0 and +0 and of NaNs, which compare
// equal), on both sides of minRadix and with the values that order
// floats trickily: NaNs, infinities, ±0, subnormals, the extremes.
func TestSortAsSlicesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 5e-324, -5e-324,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 1, -1}
	gens := map[string]func() float64{
		"lognormal":  func() float64 { return math.Exp(r.NormFloat64()) },
		"normal":     func() float64 { return r.NormFloat64() * 1e6 },
		"bits":       func() float64 { return math.Float64frombits(r.Uint64()) }, // NaNs of every payload among them
		"few values": func() float64 { return float64(r.IntN(3)) },
		"special":    func() float64 { return special[r.IntN(len(special))] },
		"durations":  func() float64 { return float64(r.IntN(1000)) * 1e3 },
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, 2, 100, minRadix - 1, minRadix, 100_000} {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = gen()
			}
			want := slices.Clone(xs)
			slices.Sort(want)
			got := slices.Clone(xs)
			Sort(got)
			for i := range got {
				if !same(got[i], want[i]) {
					t.Fatalf("%s, n %d: at %d got %v (%#x), slices.Sort %v (%#x)", name, n, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
				}
			}
		}
	}
}

// same reports whether a and b are the same value, or equal zeros, or
// both NaN.
func same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a == b || a != a && b != b
}

// TestSortStableZeros: -0 and +0 keep their input order, and NaNs stay in
// front in theirs.
func TestSortStableZeros(t *testing.T) {
	neg := math.Copysign(0, -1)
	nan1, nan2 := math.Float64frombits(0x7ff8000000000001), math.Float64frombits(0xfff8000000000002)
	xs := make([]float64, minRadix)
	for i := range xs {
		xs[i] = float64(1 + i%7)
	}
	zeros := []float64{neg, 0, neg, neg, 0}
	for i, z := range zeros {
		xs[10+100*i] = z
	}
	xs[40], xs[50] = nan1, nan2
	Sort(xs)
	if math.Float64bits(xs[0]) != math.Float64bits(nan1) || math.Float64bits(xs[1]) != math.Float64bits(nan2) {
		t.Fatalf("NaNs first, in input order: got %#x %#x", math.Float64bits(xs[0]), math.Float64bits(xs[1]))
	}
	for i, z := range zeros {
		if got := xs[2+i]; math.Float64bits(got) != math.Float64bits(z) {
			t.Errorf("zero %d: got %v (signbit %v), want signbit %v", i, got, math.Signbit(got), math.Signbit(z))
		}
	}
	if xs[2+len(zeros)] != 1 || !slices.IsSorted(xs[2:]) {
		t.Errorf("not sorted after the zeros")
	}
}

func BenchmarkSortMillion(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([]float64, 1_000_000)
	for i := range xs {
		xs[i] = math.Exp(r.NormFloat64())
	}
	w := make([]float64, len(xs))
	b.Run("radix", func(b *testing.B) {
		for b.Loop() {
			copy(w, xs)
			Sort(w)
		}
	})
	b.Run("slices", func(b *testing.B) {
		for b.Loop() {
			copy(w, xs)
			slices.Sort(w)
		}
	})
}

// TestNumbers: Numbers is the values but NaN in increasing order, in a
// new slice, the input left as it was.
func TestNumbers(t *testing.T) {
	nan := math.NaN()
	big := make([]float64, minRadix+3)
	for i := range big {
		big[i] = float64((i * 7919) % 1000)
	}
	big[5], big[minRadix] = nan, nan
	for _, tt := range []struct {
		name string
		xs   []float64
		want []float64
	}{
		{"empty", nil, []float64{}},
		{"only NaN", []float64{nan, nan}, []float64{}},
		{"mixed", []float64{3, nan, -1, math.Inf(1), 2, nan, math.Inf(-1)}, []float64{math.Inf(-1), -1, 2, 3, math.Inf(1)}},
		{"radix sized", big, func() []float64 {
			var w []float64
			for _, x := range big {
				if x == x {
					w = append(w, x)
				}
			}
			slices.Sort(w)
			return w
		}()},
	} {
		orig := slices.Clone(tt.xs)
		got := Numbers(tt.xs)
		if !slices.Equal(got, tt.want) || got == nil {
			t.Errorf("%s: Numbers = %v, want %v", tt.name, got, tt.want)
		}
		if !slices.EqualFunc(tt.xs, orig, same) {
			t.Errorf("%s: the input was modified", tt.name)
		}
		if len(got) > 0 && len(tt.xs) > 0 && &got[0] == &tt.xs[0] {
			t.Errorf("%s: Numbers returned its input", tt.name)
		}
	}
}
