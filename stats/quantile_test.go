package stats

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/quantile"
)

func TestQuantileAgainstNumpy(t *testing.T) {
	var ref struct {
		Percentiles []float64
		Cases       []struct {
			Name   string
			Xs     []float64
			Values map[string][]float64
		}
	}
	readJSON(t, "percentiles.json", &ref)
	if len(ref.Cases) == 0 {
		t.Fatal("no cases in percentiles.json")
	}
	checked := 0
	for _, c := range ref.Cases {
		if len(c.Values) != len(Methods) {
			t.Errorf("%s: %d methods in the reference, want %d", c.Name, len(c.Values), len(Methods))
		}
		orig := slices.Clone(c.Xs)
		for name, want := range c.Values {
			m, err := ParseMethod(name)
			if err != nil {
				t.Fatal(err)
			}
			got := percentilesOf(c.Xs, ref.Percentiles, m)
			for i, p := range ref.Percentiles {
				// Exact for every method: the same float operations as numpy.
				if got[i] != want[i] {
					t.Errorf("%s %s p%v: got %v, numpy %v", c.Name, m, p, got[i], want[i])
				}
				if one := Percentile(c.Xs, p, m); one != got[i] {
					t.Errorf("%s %s p%v: Percentile %v != Percentiles %v", c.Name, m, p, one, got[i])
				}
				checked++
			}
		}
		if !slices.Equal(orig, c.Xs) {
			t.Errorf("%s: input modified", c.Name)
		}
	}
	t.Logf("%d percentiles equal numpy's exactly", checked)
}

func TestQuantileEdges(t *testing.T) {
	for _, m := range Methods {
		if v := Quantile(nil, 0.5, m); !math.IsNaN(v) {
			t.Errorf("%s: empty sample gave %v, want NaN", m, v)
		}
		for _, q := range []float64{-0.01, 1.01, math.NaN()} {
			if v := Quantile([]float64{1, 2}, q, m); !math.IsNaN(v) {
				t.Errorf("%s: q=%v gave %v, want NaN", m, q, v)
			}
		}
		// Every definition keeps within [min, max] and is monotonic in q.
		xs := []float64{-3, 1, 1, 2, 8, 13, 21}
		prev := math.Inf(-1)
		for i := 0; i <= 1000; i++ {
			v := Quantile(xs, float64(i)/1000, m)
			if v < xs[0] || v > xs[len(xs)-1] || v < prev {
				t.Fatalf("%s: q=%v gave %v after %v", m, float64(i)/1000, v, prev)
			}
			prev = v
		}
		if v := Quantile(xs, 0, m); v != xs[0] {
			t.Errorf("%s: q=0 gave %v, want min", m, v)
		}
		if v := Quantile(xs, 1, m); v != xs[len(xs)-1] {
			t.Errorf("%s: q=1 gave %v, want max", m, v)
		}
	}
	if v := Percentile([]float64{1, math.NaN(), 2}, 50, Linear); !math.IsNaN(v) {
		t.Errorf("sample with NaN gave %v, want NaN as numpy", v)
	}
	if v := Quantile([]float64{1, 2}, 0.5, Method("bogus")); !math.IsNaN(v) {
		t.Errorf("unknown method gave %v", v)
	}
}

func TestParseMethod(t *testing.T) {
	for i, m := range Methods {
		got, err := ParseMethod(strings.ToUpper(strings.ReplaceAll(string(m), "_", "-")))
		if err != nil || got != m {
			t.Errorf("ParseMethod(%q) = %q, %v", m, got, err)
		}
		if m.hyndmanFanType() != i+1 {
			t.Errorf("%s: type %d, want %d", m, m.hyndmanFanType(), i+1)
		}
	}
	if m, err := ParseMethod(""); m != DefaultMethod || err != nil {
		t.Errorf("ParseMethod(\"\") = %q, %v", m, err)
	}
	_, err := ParseMethod("nearest")
	if err == nil || !strings.Contains(err.Error(), "median_unbiased") || !strings.HasPrefix(err.Error(), "stats: ") {
		t.Errorf("ParseMethod(nearest) error = %v, want one listing the methods", err)
	}
}

func TestPercentileLabel(t *testing.T) {
	for _, c := range []struct {
		p    float64
		want string
	}{{99, "p99"}, {99.9, "p99.9"}, {50, "p50"}, {0, "p0"}, {100, "p100"}, {99.99, "p99.99"}, {2.5, "p2.5"}} {
		if got := PercentileLabel(c.p); got != c.want {
			t.Errorf("PercentileLabel(%v) = %q, want %q", c.p, got, c.want)
		}
	}
}

func TestParsePercentiles(t *testing.T) {
	got, err := ParsePercentiles("50, p90,99,99.9")
	if err != nil || fmt.Sprint(got) != "[50 90 99 99.9]" {
		t.Errorf("got %v, %v", got, err)
	}
	for _, bad := range []string{"", " ", "101", "-1", "x", "50,,abc"} {
		if _, err := ParsePercentiles(bad); err == nil {
			t.Errorf("ParsePercentiles(%q): no error", bad)
		}
	}
	// An empty entry is refused, not skipped: "50,,90" is a typo.
	for _, bad := range []string{"50,,90", "50,", ",50", "50, ,90"} {
		if _, err := ParsePercentiles(bad); err == nil || !strings.Contains(err.Error(), "empty percentile") {
			t.Errorf("ParsePercentiles(%q): %v, want an empty-percentile error", bad, err)
		}
	}
}

// TestQuantileNearFloat64Range: interpolating between values of opposite
// sign near ±MaxFloat64 overflows b - a; the quantiles stay finite,
// between the two values, and monotone in q.
func TestQuantileNearFloat64Range(t *testing.T) {
	for _, xs := range [][]float64{{-1.7e308, 1.7e308}, {-math.MaxFloat64, math.MaxFloat64}, {-1e308, 0, 1e308}} {
		prev := math.Inf(-1)
		for _, m := range Methods {
			for q := 0.0; q <= 1; q += 0.05 {
				v := Quantile(xs, q, m)
				if math.IsInf(v, 0) || math.IsNaN(v) || v < xs[0] || v > xs[len(xs)-1] {
					t.Errorf("%v %s q=%v: %v", xs, m, q, v)
				}
			}
		}
		for q := 0.0; q <= 1; q += 0.01 {
			v := Quantile(xs, q, Linear)
			if v < prev {
				t.Errorf("%v: linear quantile decreases at q=%v: %v < %v", xs, q, v, prev)
			}
			prev = v
		}
	}
	if got := Quantile([]float64{-1.7e308, 1.7e308}, 0.5, Linear); got != 0 {
		t.Errorf("median of ±1.7e308 = %v, want 0", got)
	}
}

// TestQuantileNotFused: the figures are numpy's on every platform, where
// Go may fuse x*y+z into one rounding (arm64's FMADD/FMSUB; the Go spec
// allows it unless an explicit float64 conversion rounds the product).
// For the 0.7 quantile of 100, 200, …, 700, numpy rounds the virtual index
// 6·0.7 to 4.199999999999999 and interpolates to 519.9999999999999; the
// fractional part taken without that rounding (fused) gives 520. Each
// definition's numpy value (numpy 1.24, np.quantile(x, 0.7, method=...)),
// exactly, through every entry point.
func TestQuantileNotFused(t *testing.T) {
	x := []float64{100, 200, 300, 400, 500, 600, 700}
	// What fusing 6·0.7 - 4 gives (the case must tell the two apart).
	if fused := quantile.Lerp(500, 600, math.FMA(6, 0.7, -4)); fused != 520 {
		t.Fatalf("the fused interpolation gives %v, want 520: the case does not tell fused from unfused", fused)
	}
	tests := []struct {
		m    Method
		want float64
	}{
		{Linear, 519.9999999999999},
		{NormalUnbiased, 544.9999999999999},
		{InterpolatedInvertedCDF, 489.99999999999994},
		{MedianUnbiased, 546.6666666666666},
		{Hazen, 540},
		{Weibull, 560},
	}
	for _, tt := range tests {
		got := []float64{Quantile(x, 0.7, tt.m), Percentile(x, 70, tt.m), percentilesOf(x, []float64{70}, tt.m)[0]}
		for i, g := range got {
			if g != tt.want {
				t.Errorf("%s 0.7 quantile (entry point %d of Quantile, Percentile, percentilesOf) = %v, want numpy's %v", tt.m, i, g, tt.want)
			}
		}
	}
	// With the method a constant, the compiler inlines Quantile and folds
	// the switch: the multiply-add is then there to fuse (it is not in
	// the general function), as it is in Summarize's linear quantile.
	if got := Quantile(x, 0.7, Linear); got != 519.9999999999999 {
		t.Errorf("Quantile(x, 0.7, Linear) = %v, want numpy's 519.9999999999999", got)
	}
	if got := linearQuantile(x, 0.7); got != 519.9999999999999 {
		t.Errorf("linearQuantile(x, 0.7) = %v, want numpy's 519.9999999999999", got)
	}
}

// TestQuantileLinearShared: internal/quantile.Linear, which clock uses for
// its read-cost percentiles (clock may not import stats), is Quantile's
// Linear bit for bit: on samples with ties, zeros of both signs, huge and
// tiny magnitudes and infinities at the ends, at every q of a fine grid
// and at the ends.
func TestQuantileLinearShared(t *testing.T) {
	samples := [][]float64{
		{1},
		{1, 2},
		{100, 200, 300, 400, 500, 600, 700},
		{math.Copysign(0, -1), 0, 0, 1e-300, 5e-324, 3},
		{-1e308, 1e308},
		{1, 2, math.Inf(1)},
		{math.Inf(-1), 0, 1},
		{1.5, 1.5, 1.5, 2.25, 9.75, 1e6},
	}
	for _, s := range samples {
		sorted := slices.Clone(s)
		slices.Sort(sorted)
		for i := 0; i <= 1000; i++ {
			q := float64(i) / 1000
			want, got := Quantile(sorted, q, Linear), quantile.Linear(sorted, q)
			if math.Float64bits(want) != math.Float64bits(got) && !(math.IsNaN(want) && math.IsNaN(got)) {
				t.Fatalf("%v at q=%v: quantile.Linear %v, Quantile %v", sorted, q, got, want)
			}
		}
	}
	for _, q := range []float64{-0.1, 1.1, math.NaN()} {
		if !math.IsNaN(quantile.Linear([]float64{1, 2}, q)) {
			t.Errorf("q=%v: want NaN", q)
		}
	}
	if !math.IsNaN(quantile.Linear(nil, 0.5)) {
		t.Error("empty sample: want NaN")
	}
}
