package stats

import (
	"encoding/json"
	golden_ "github.com/chronograph/chronograph/internal/golden"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
)

func TestNewHistogramErrors(t *testing.T) {
	for _, c := range []struct {
		lo, hi int64
		sig    int
	}{{0, 100, 3}, {10, 15, 3}, {1, 1000, 0}, {1, 1000, 6}, {1 << 50, 1 << 62, 5}} {
		if h, err := NewHistogram(c.lo, c.hi, c.sig); err == nil {
			t.Errorf("NewHistogram(%d, %d, %d) = %v, want an error", c.lo, c.hi, c.sig, h)
		}
	}
}

// Every quantile must be within the configured relative error of the exact
// (inverted-CDF) quantile of the recorded values.
func TestHistogramRelativeError(t *testing.T) {
	for _, sig := range []int{2, 3, 4} {
		h, err := NewHistogram(1, 3_600_000_000_000, sig)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(sig), 5))
		xs := make([]float64, 100_000)
		for i := range xs {
			v := int64(math.Exp(r.NormFloat64()*2 + 10)) // lognormal, ~1e2..1e7
			h.Record(v)
			xs[i] = float64(v)
		}
		slices.Sort(xs)
		bound := math.Pow10(-sig)
		for _, q := range []float64{0.001, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999} {
			exact := Quantile(xs, q, InvertedCDF)
			got := float64(h.Quantile(q))
			if rel := math.Abs(got-exact) / exact; rel > bound {
				t.Errorf("sig %d q %v: histogram %v, exact %v, relative error %.2g > %g", sig, q, got, exact, rel, bound)
			}
		}
		if h.Count() != int64(len(xs)) || h.Min() != int64(xs[0]) || h.Max() != int64(xs[len(xs)-1]) {
			t.Errorf("count/min/max %d %d %d", h.Count(), h.Min(), h.Max())
		}
		s := Summarize(xs)
		if rel := math.Abs(h.Mean()-s.Mean) / s.Mean; rel > bound {
			t.Errorf("sig %d: mean %v, exact %v", sig, h.Mean(), s.Mean)
		}
		if rel := math.Abs(h.StdDev()-s.StdDevPopulation) / s.StdDevPopulation; rel > bound {
			t.Errorf("sig %d: stddev %v, exact %v", sig, h.StdDev(), s.StdDevPopulation)
		}
		var n int64
		for _, b := range h.buckets() {
			if b.Count <= 0 || b.Lo > b.Hi {
				t.Fatalf("bad bucket %+v", b)
			}
			n += b.Count
		}
		if n != h.Count() {
			t.Errorf("buckets hold %d values, count %d", n, h.Count())
		}
	}
}

func TestHistogramOverflow(t *testing.T) {
	h, err := NewHistogram(1, 1000, 3)
	if err != nil {
		t.Fatal(err)
	}
	for v := int64(1); v <= 100; v++ {
		h.Record(v)
	}
	h.Record(5000)
	h.Record(1 << 40)
	h.Record(-3)
	if h.Count() != 103 || h.Overflows() != 2 || h.Underflows() != 1 {
		t.Fatalf("count %d overflows %d underflows %d", h.Count(), h.Overflows(), h.Underflows())
	}
	if h.Max() != 1<<40 || h.Min() != -3 {
		t.Errorf("min %d max %d", h.Min(), h.Max())
	}
	// The top two ranks are the overflows: a lower bound at the highest
	// trackable value.
	if q := h.Quantile(0.995); q < 1000 {
		t.Errorf("p99.5 = %d, want >= 1000 (an overflow)", q)
	}
	if q := h.Quantile(0.5); q < 49 || q > 51 {
		t.Errorf("median %d", q)
	}
}

func TestHistogramCorrected(t *testing.T) {
	h, _ := NewHistogram(1, 1_000_000, 3)
	g, _ := NewHistogram(1, 1_000_000, 3)
	for range 100 {
		h.RecordCorrected(10, 100)
		g.Record(10)
	}
	h.RecordCorrected(1000, 100) // a stall: 900, 800, ..., 100 were missed
	g.Record(1000)
	if h.Count() != 110 || g.Count() != 101 {
		t.Errorf("counts %d %d, want 110 101", h.Count(), g.Count())
	}
	if h.Quantile(0.95) <= g.Quantile(0.95) {
		t.Errorf("correction did not raise p95: %d vs %d", h.Quantile(0.95), g.Quantile(0.95))
	}
}

func TestHistogramMergeAndJSON(t *testing.T) {
	a, _ := NewHistogram(1, 1_000_000, 3)
	b, _ := NewHistogram(1, 1_000_000, 3)
	all, _ := NewHistogram(1, 1_000_000, 3)
	r := rand.New(rand.NewPCG(1, 1))
	for i := range 5000 {
		v := int64(r.ExpFloat64() * 20000)
		if i%2 == 0 {
			a.Record(v)
		} else {
			b.Record(v)
		}
		all.Record(v)
	}
	a.Merge(b)
	if a.Count() != all.Count() || a.Min() != all.Min() || a.Max() != all.Max() || a.Overflows() != all.Overflows() {
		t.Fatalf("merge: %d %d %d, want %d %d %d", a.Count(), a.Min(), a.Max(), all.Count(), all.Min(), all.Max())
	}
	for _, q := range []float64{0.1, 0.5, 0.99} {
		if a.Quantile(q) != all.Quantile(q) {
			t.Errorf("q %v: merged %d, direct %d", q, a.Quantile(q), all.Quantile(q))
		}
	}

	data, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var back Histogram
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Count() != a.Count() || back.Min() != a.Min() || back.Max() != a.Max() ||
		!slices.Equal(back.buckets(), a.buckets()) || back.Quantile(0.99) != a.Quantile(0.99) {
		t.Errorf("JSON round trip changed the histogram")
	}
	for _, bad := range []string{`{`, `{"lowest":0,"highest":10,"sigfigs":3}`,
		`{"lowest":1,"highest":1000,"sigfigs":3,"count":1,"counts":[[99999999,1]]}`,
		`{"lowest":1,"highest":1000,"sigfigs":3,"count":2,"counts":[[3,1]]}`} {
		var h Histogram
		if err := json.Unmarshal([]byte(bad), &h); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// The JSON form is part of the result document: keep it stable (golden).
func TestHistogramJSONGolden(t *testing.T) {
	h, _ := NewHistogram(1, 10_000, 2)
	for _, v := range []int64{1, 2, 2, 3, 150, 151, 9999, 20000, -1} {
		h.Record(v)
	}
	got, err := json.MarshalIndent(h, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden_.Check(t, filepath.Join("testdata", "histogram.golden.json"), got)
}

func TestLinearBins(t *testing.T) {
	bins := LinearBins([]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, math.NaN(), math.Inf(1)}, 5)
	if len(bins) != 5 {
		t.Fatalf("%d bins", len(bins))
	}
	counts := []int{}
	for _, b := range bins {
		counts = append(counts, b.Count)
	}
	if !slices.Equal(counts, []int{2, 2, 2, 2, 3}) || bins[0].Lo != 0 || bins[4].Hi != 10 || bins[1].Lo != 2 {
		t.Errorf("bins %+v", bins)
	}
	if b := LinearBins([]float64{3, 3, 3}, 10); len(b) != 1 || b[0].Count != 3 {
		t.Errorf("constant sample: %+v", b)
	}
	if b := LinearBins(nil, 10); b != nil {
		t.Errorf("empty: %+v", b)
	}
	if b := LinearBins([]float64{1, 2}, 0); b != nil {
		t.Errorf("n=0: %+v", b)
	}
	// Every value lands in a bin whose bounds hold it.
	r := rand.New(rand.NewPCG(2, 2))
	xs := make([]float64, 10000)
	for i := range xs {
		xs[i] = r.NormFloat64() * 1e-7
	}
	total := 0
	for _, b := range LinearBins(xs, 37) {
		total += b.Count
	}
	if total != len(xs) {
		t.Errorf("bins hold %d of %d values", total, len(xs))
	}
}

// TestLinearBinsExtremeRanges: ranges wider than the largest float64
// (this panicked with an index out of range: chrono stats --histogram of
// -1e308 and 1e308), ranges of a few subnormals and ranges too narrow for
// their magnitude give strictly increasing bounds that hold every value.
func TestLinearBinsExtremeRanges(t *testing.T) {
	for _, c := range []struct {
		xs []float64
		n  int
	}{
		{[]float64{-1e308, 1e308}, 20},
		{[]float64{-math.MaxFloat64, math.MaxFloat64, 0, 1, -1}, 7},
		{[]float64{-math.MaxFloat64, math.MaxFloat64}, 1},
		{[]float64{0, 5e-324, 1e-323}, 10},
		{[]float64{1e16, 1e16 + 2, 1e16 + 2}, 10},
		{[]float64{-5e-324, 5e-324}, MaxLinearBins},
		{[]float64{1, 2, 3}, MaxLinearBins},
	} {
		bins := LinearBins(c.xs, c.n)
		if len(bins) == 0 || len(bins) > c.n {
			t.Errorf("%v, %d bins: got %d bins", c.xs, c.n, len(bins))
			continue
		}
		total := 0
		for i, b := range bins {
			total += b.Count
			if math.IsInf(b.Lo, 0) || math.IsInf(b.Hi, 0) || !(b.Hi > b.Lo) || (i > 0 && b.Lo != bins[i-1].Hi) {
				t.Errorf("%v, %d bins: bin %d is [%v, %v)", c.xs, c.n, i, b.Lo, b.Hi)
			}
		}
		if total != len(c.xs) {
			t.Errorf("%v, %d bins: bins hold %d of %d values", c.xs, c.n, total, len(c.xs))
		}
		if bins[0].Lo != slices.Min(c.xs) || bins[len(bins)-1].Hi != slices.Max(c.xs) {
			t.Errorf("%v: bins span [%v, %v]", c.xs, bins[0].Lo, bins[len(bins)-1].Hi)
		}
	}
	// Each value sits in the bin whose bounds hold it.
	xs := []float64{-1e308, -3e307, 0, 4e307, 1e308}
	bins := LinearBins(xs, 4)
	for _, x := range xs {
		n := 0
		for i, b := range bins {
			if x >= b.Lo && (x < b.Hi || (i == len(bins)-1 && x == b.Hi)) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%v is in %d bins of %+v", x, n, bins)
		}
	}
	if got := []int{bins[0].Count, bins[1].Count, bins[2].Count, bins[3].Count}; !slices.Equal(got, []int{1, 1, 2, 1}) {
		t.Errorf("counts %v, want [1 1 2 1] (bins %+v)", got, bins)
	}
}

// TestMergeIntoEmptyKeepsExactExtremes: merging into an empty histogram
// (as a per-thread total is built) must keep o's exact min and max, not
// the bounds of the buckets they fell in.
func TestMergeIntoEmptyKeepsExactExtremes(t *testing.T) {
	o, _ := NewHistogram(1, 10_000_000_000, 3)
	o.Record(25_026)
	o.Record(476_777)
	all, _ := NewHistogram(1, 10_000_000_000, 3)
	all.Merge(o)
	if all.Min() != 25_026 || all.Max() != 476_777 {
		t.Errorf("merged into empty: min %d max %d, want 25026 476777", all.Min(), all.Max())
	}
	p, _ := NewHistogram(1, 10_000_000_000, 3)
	p.Record(30_529)
	all.Merge(p)
	if all.Min() != 25_026 || all.Max() != 476_777 || all.Count() != 3 {
		t.Errorf("second merge: min %d max %d count %d", all.Min(), all.Max(), all.Count())
	}
}

func TestBins(t *testing.T) {
	h, err := NewHistogram(1, 1_000_000, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []int64{5, 5, 7, 1500, 999_999} {
		h.Record(v)
	}
	bounds, counts := h.Bins()
	if len(bounds) != len(counts)+1 {
		t.Fatalf("%d bounds, %d counts", len(bounds), len(counts))
	}
	var total int64
	for i, c := range counts {
		if bounds[i+1] <= bounds[i] {
			t.Fatalf("bounds not increasing at %d: %v %v", i, bounds[i], bounds[i+1])
		}
		total += c
	}
	if total != 5 || counts[0] == 0 || counts[len(counts)-1] == 0 {
		t.Errorf("total %d, first %d, last %d: want 5 values, no empty bins at the ends", total, counts[0], counts[len(counts)-1])
	}
	if bounds[0] > 5 || bounds[len(bounds)-1] <= 999_999 {
		t.Errorf("bins [%v, %v) do not hold the values 5..999999", bounds[0], bounds[len(bounds)-1])
	}
	empty, _ := NewHistogram(1, 1000, 3)
	if b, c := empty.Bins(); b != nil || c != nil {
		t.Errorf("empty histogram: %v %v", b, c)
	}
}
