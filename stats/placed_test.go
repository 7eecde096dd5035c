package stats

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// placed lays out values per block (one slice per block) on the given CPU
// per block.
func placed(cpus []int, blocks ...[]float64) (xs []float64, bs, cs []int) {
	for j, b := range blocks {
		for _, x := range b {
			xs, bs, cs = append(xs, x), append(bs, j), append(cs, cpus[j])
		}
	}
	return xs, bs, cs
}

func TestPlacedMedianCI(t *testing.T) {
	rep := func(x float64, n int) []float64 { return slices.Repeat([]float64{x}, n) }
	t.Run("blocks", func(t *testing.T) {
		// Block medians 10, 12, 14, 16: mean 13, s = √(20/3), t(0.975, 3)
		// = 3.18245: 13 ± 4.1085. The 20 values' order-statistic interval
		// [x(6), x(15)] = [12, 14] lies inside.
		xs, bs, cs := placed([]int{0, 0, 0, 0}, rep(10, 5), rep(12, 5), rep(14, 5), rep(16, 5))
		p, err := PlacedMedianCI(xs, bs, cs, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		h := 3.182446305284263 * math.Sqrt(20.0/3) / 2
		if math.Abs(p.CI.Lo-(13-h)) > 1e-6 || math.Abs(p.CI.Hi-(13+h)) > 1e-6 {
			t.Errorf("interval [%v, %v], want 13 ± %v", p.CI.Lo, p.CI.Hi, h)
		}
		if !slices.Equal(p.BlockMedians, []float64{10, 12, 14, 16}) || p.CPUsDiffer || len(p.PerCPU) != 1 {
			t.Errorf("block medians %v, differ %v, per CPU %+v", p.BlockMedians, p.CPUsDiffer, p.PerCPU)
		}
		if !strings.HasPrefix(p.CI.Method, "hull of: order statistics of the 20 samples; t-interval") {
			t.Errorf("method %q", p.CI.Method)
		}
	})
	t.Run("cpus-differ", func(t *testing.T) {
		// Two CPUs 10 % apart, each steady: the interval spans both.
		xs, bs, cs := placed([]int{0, 1, 0, 1}, rep(100, 5), rep(110, 5), rep(100, 5), rep(110, 5))
		p, err := PlacedMedianCI(xs, bs, cs, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if !p.CPUsDiffer || len(p.PerCPU) != 2 || p.PerCPU[0].Median != 100 || p.PerCPU[1].Median != 110 {
			t.Fatalf("differ %v, per CPU %+v", p.CPUsDiffer, p.PerCPU)
		}
		if p.CI.Lo > 100 || p.CI.Hi < 110 {
			t.Errorf("interval [%v, %v] does not span 100 and 110", p.CI.Lo, p.CI.Hi)
		}
		if !strings.Contains(p.CI.Method, "every CPU's interval") {
			t.Errorf("method %q does not say it spans the CPUs", p.CI.Method)
		}
	})
	t.Run("threshold", func(t *testing.T) {
		// 4.9 % apart is not "differ"; 5.1 % is.
		for _, tt := range []struct {
			hi   float64
			want bool
		}{{104.9, false}, {105.1, true}} {
			xs, bs, cs := placed([]int{0, 1}, rep(100, 4), rep(tt.hi, 4))
			if p, _ := PlacedMedianCI(xs, bs, cs, 0.95); p.CPUsDiffer != tt.want {
				t.Errorf("100 vs %v: differ %v, want %v", tt.hi, p.CPUsDiffer, tt.want)
			}
		}
	})
	t.Run("unknown-and-few", func(t *testing.T) {
		// A value of unknown CPU belongs to no CPU; a CPU with fewer than
		// 3 values does not decide "differ".
		xs, bs, cs := placed([]int{0, 1}, rep(100, 6), rep(200, 2))
		xs, bs, cs = append(xs, 300), append(bs, 2), append(cs, -1)
		p, err := PlacedMedianCI(xs, bs, cs, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if p.CPUsDiffer || len(p.PerCPU) != 2 || p.PerCPU[0].Samples != 6 || p.PerCPU[1].Samples != 2 {
			t.Errorf("differ %v, per CPU %+v", p.CPUsDiffer, p.PerCPU)
		}
	})
	t.Run("not-below-zero", func(t *testing.T) {
		// Block medians 15, 9, 37, 9: mean 17.5, t interval 17.5 ± 21.1
		// would reach -3.6; times are not negative.
		xs, bs, cs := placed([]int{0, 1, 0, 1}, rep(15, 5), rep(9, 5), rep(37, 5), rep(9, 5))
		p, err := PlacedMedianCI(xs, bs, cs, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if p.CI.Lo != 0 || p.CI.Hi < 37 || !strings.Contains(p.CI.Method, "cut at 0") {
			t.Errorf("interval %+v, want [0, ≥37] and a method that says it was cut", p.CI)
		}
		neg, _, _ := placed([]int{0, 1, 0, 1}, rep(-15, 5), rep(-9, 5), rep(-37, 5), rep(9, 5))
		if p, _ := PlacedMedianCI(neg, bs, cs, 0.95); p.CI.Hi < 9 || p.CI.Lo > -37 {
			t.Errorf("values of both signs: interval %+v cut", p.CI)
		}
	})
	t.Run("too-few", func(t *testing.T) {
		p, err := PlacedMedianCI([]float64{1, 2, 3}, []int{0, 0, 0}, nil, 0.95)
		if err == nil || p.PerCPU != nil || len(p.BlockMedians) != 1 {
			t.Errorf("3 values in one block: err %v, %+v; want an error, no CPUs, one block median", err, p)
		}
	})
	t.Run("bad-input", func(t *testing.T) {
		if _, err := PlacedMedianCI([]float64{1, 2}, []int{0}, nil, 0.95); err == nil || !strings.Contains(err.Error(), "one block") {
			t.Errorf("mismatched blocks: err %v", err)
		}
		if _, err := PlacedMedianCI([]float64{1, 2}, []int{0, 0}, nil, 1.5); err == nil {
			t.Error("confidence 1.5 accepted")
		}
	})
}

func TestTQuantile(t *testing.T) {
	// scipy.stats.t.ppf(0.975, df)
	for _, tt := range []struct{ df, want float64 }{
		{1, 12.706204736174698}, {3, 3.182446305284263}, {10, 2.2281388519649385}, {1000, 1.9623390808264078},
	} {
		if got := tQuantile(0.975, tt.df); math.Abs(got-tt.want) > 1e-9*tt.want {
			t.Errorf("t(0.975, %v) = %v, want %v", tt.df, got, tt.want)
		}
	}
}

func TestComparePaired(t *testing.T) {
	rounds := 12
	blocks := make([]int, rounds)
	for i := range blocks {
		blocks[i] = i / 3
	}
	mk := func(v float64, jitter float64) []float64 {
		xs := make([]float64, rounds)
		for i := range xs {
			xs[i] = v + jitter*float64(i%3)
		}
		return xs
	}
	tests := []struct {
		name      string
		a, b      []float64
		wantSig   bool
		wantAbove bool // the interval lies above 1
	}{
		{"b faster", mk(100, 1), mk(50, 0.5), true, true},
		{"b slower", mk(50, 0.5), mk(100, 1), true, false},
		{"same", mk(80, 1), mk(80, 1), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ComparePaired(tt.a, tt.b, blocks, nil, 0.95, Alpha)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Ratios) != rounds || r.Significant != tt.wantSig {
				t.Errorf("%d ratios, significant %v (p %v, CI %+v), want %d and %v", len(r.Ratios), r.Significant, r.MannWhitney.P, r.Placed.CI, rounds, tt.wantSig)
			}
			if tt.wantSig && (r.Placed.CI.Lo > 1) != tt.wantAbove {
				t.Errorf("interval %+v", r.Placed.CI)
			}
		})
	}
	// Too few rounds: the ratios and the median, and an error.
	r, err := ComparePaired([]float64{2, 2}, []float64{1, 1}, []int{0, 0}, nil, 0.95, Alpha)
	if err == nil || r.Median != 2 || r.Significant {
		t.Errorf("two rounds: err %v, %+v", err, r)
	}
	if _, err := ComparePaired([]float64{2, 2}, []float64{1, 1}, []int{0}, nil, 0.95, Alpha); err == nil {
		t.Error("one block for two rounds accepted")
	}
}
