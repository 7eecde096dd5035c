package stats

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/warn"
)

func TestSummaryAgainstNumpy(t *testing.T) {
	var ref struct {
		Cases []struct {
			Name                   string
			Xs                     []float64
			N                      int
			Min, Max, Mean, Median float64
			StddevPopulation       float64 `json:"stddev_population"`
			StddevSample           float64 `json:"stddev_sample"`
			MAD, Q1, Q3, IQR, CV   float64
		}
	}
	readJSON(t, "summary.json", &ref)
	if len(ref.Cases) == 0 {
		t.Fatal("no cases")
	}
	const tol = 1e-12
	for _, c := range ref.Cases {
		s := Summarize(c.Xs)
		check := func(what string, got, want float64) {
			t.Helper()
			if !close(got, want, tol) {
				t.Errorf("%s: %s = %v, numpy/scipy %v", c.Name, what, got, want)
			}
		}
		if s.N != c.N {
			t.Errorf("%s: N = %d, want %d", c.Name, s.N, c.N)
		}
		check("min", s.Min, c.Min)
		check("max", s.Max, c.Max)
		check("mean", s.Mean, c.Mean)
		check("median", s.Median, c.Median)
		check("stddev_sample", s.StdDevSample, c.StddevSample)
		check("stddev_population", s.StdDevPopulation, c.StddevPopulation)
		check("mad", s.MAD, c.MAD)
		check("mad_scaled", s.MADScaled, c.MAD*MADScale)
		check("q1", s.Q1, c.Q1)
		check("q3", s.Q3, c.Q3)
		check("iqr", s.IQR, c.IQR)
		check("cv", s.CV, c.CV)
	}
}

func codes(ws []warn.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Code)
	}
	return out
}

func TestSummaryWarnings(t *testing.T) {
	steady := []float64{100, 101, 99, 100, 102, 98, 100, 101, 99, 100}
	cases := []struct {
		name string
		xs   []float64
		want []string
	}{
		{"clean", steady, nil},
		{"empty", nil, []string{WarnTooFewSamples}},
		{"three", []float64{1, 1.01, 0.99}, []string{WarnTooFewSamples}},
		{"outlier", append(slices.Clone(steady), 130), []string{warnOutliers}},
		{"spread", []float64{10, 20, 30, 40, 50, 60}, []string{warnHighVariance}},
		{"nan", append(slices.Clone(steady), math.NaN()), []string{warnNaN}},
	}
	for _, c := range cases {
		s := Summarize(c.xs)
		if got := codes(s.Warnings); !slices.Equal(got, c.want) {
			t.Errorf("%s: warnings %v, want %v (%v)", c.name, got, c.want, s.Warnings)
		}
		for _, w := range s.Warnings {
			if w.Message == "" || w.Next == "" || w.Severity == "" {
				t.Errorf("%s: bad warning %+v", c.name, w)
			}
		}
	}
	s := Summarize([]float64{1, 2})
	if !strings.Contains(s.Warnings[0].Next, "at least 5") {
		t.Errorf("too-few warning does not say how many: %q", s.Warnings[0].Message)
	}
	if s := Summarize(append(slices.Clone(steady), math.NaN())); s.N != len(steady) || s.Mean != 100 {
		t.Errorf("NaN not left out: N=%d mean=%v", s.N, s.Mean)
	}
}

func TestCheckResolution(t *testing.T) {
	s := Summarize([]float64{100, 101, 99, 100, 102, 98})
	s.CheckResolution(1)
	if len(s.Warnings) != 0 {
		t.Fatalf("warned at 100 ticks: %v", s.Warnings)
	}
	s.CheckResolution(0)
	s.CheckResolution(math.NaN())
	if len(s.Warnings) != 0 {
		t.Fatalf("warned for a non-positive resolution: %v", s.Warnings)
	}
	s.CheckResolution(50)
	if got := codes(s.Warnings); !slices.Equal(got, []string{warnResolution}) ||
		!strings.HasPrefix(s.Warnings[0].Message, "values are at the clock's resolution: ") {
		t.Fatalf("warnings %v", s.Warnings)
	}
}

// madSorted must equal the median of the sorted deviations for any shape,
// including ties at the median and even/odd sizes.
func TestMADMergeEqualsSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 1; n < 60; n++ {
		for range 20 {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = float64(r.IntN(7)) // many ties
				if r.IntN(2) == 0 {
					xs[i] = r.NormFloat64()
				}
			}
			slices.Sort(xs)
			med := linearQuantile(xs, 0.5)
			dev := make([]float64, n)
			for i, x := range xs {
				dev[i] = math.Abs(x - med)
			}
			slices.Sort(dev)
			if got, want := madSorted(xs, med), linearQuantile(dev, 0.5); got != want {
				t.Fatalf("n=%d %v: madSorted %v, sort %v", n, xs, got, want)
			}
		}
	}
}

func TestSummarizeDoesNotModify(t *testing.T) {
	xs := []float64{3, 1, 2, 5, 4}
	Summarize(xs)
	if !slices.Equal(xs, []float64{3, 1, 2, 5, 4}) {
		t.Errorf("input modified: %v", xs)
	}
}

// TestSummaryNearFloat64Range: values near ±MaxFloat64 give finite
// figures where the float64 range holds them, and a warning naming the
// ones it cannot hold; the summary always encodes as JSON.
func TestSummaryNearFloat64Range(t *testing.T) {
	s := Summarize([]float64{-1.7e308, 1.7e308})
	if s.Mean != 0 || s.Median != 0 || s.MAD != 1.7e308 || s.StdDevPopulation != 1.7e308 {
		t.Errorf("summary %+v", s)
	}
	if !math.IsInf(s.StdDevSample, 1) {
		t.Errorf("sample stddev %v: 2.4e308 is beyond the float64 range", s.StdDevSample)
	}
	var over string
	for _, w := range s.Warnings {
		if w.Code == warnOverflow {
			over = w.Message
		}
	}
	if !strings.Contains(over, "sample standard deviation") || !strings.Contains(over, "scaled MAD") || strings.Contains(over, "population") {
		t.Errorf("overflow warning %q", over)
	}
	b, err := json.Marshal(s)
	if err != nil || !strings.Contains(string(b), `"stddev_sample":null`) || !strings.Contains(string(b), `"mad":1.7e+308`) {
		t.Errorf("JSON %s, %v", b, err)
	}
	// The JSON round-trips: null reads back as NaN, and writes as null.
	var back Summary
	if err := json.Unmarshal(b, &back); err != nil || !math.IsNaN(back.StdDevSample) || back.MAD != 1.7e308 {
		t.Errorf("read back %+v, %v", back, err)
	}
	if b2, _ := json.Marshal(back); string(b2) != string(b) {
		t.Errorf("round trip:\n%s\n%s", b, b2)
	}
	// Large values of one sign: every figure finite, no warning.
	s = Summarize([]float64{1e308, 1.5e308, 1.2e308, 1.7e308})
	if w := codes(s.Warnings); slices.Contains(w, warnOverflow) || math.IsInf(s.StdDevSample, 0) || math.IsInf(s.IQR, 0) {
		t.Errorf("one-sign summary %+v", s)
	}
}

// TestSpreadAtExtremeScales: the figures of a sample scaled by 1e-170,
// 1e-300, 1e300 or a power of two are those of the sample at normal
// scale, scaled back. Squared deviations of values near 1e-170 underflow
// to 0 in float64 (the standard deviation of 1e-170 … 6e-170 was 0, and
// its CV 0 %), those near 1e300 overflow; a power of two changes no digit
// of the standard deviations at all.
func TestSpreadAtExtremeScales(t *testing.T) {
	bases := [][]float64{
		{1, 2, 3, 4, 5, 6},
		{-3, 1, 2, 2.5, 10, 10, 11.25},
		{7, 7, 7, 7, 7.5},
	}
	for _, base := range bases {
		want := Summarize(base)
		wantCI, err := MedianCI(base, 0.9)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name   string
			scale  func(float64) float64
			factor float64 // the figures' factor (0: given by scale(1) in exponent form)
			exact  bool
		}{
			{"1e-170", func(x float64) float64 { return x * 1e-170 }, 1e-170, false},
			{"1e-300", func(x float64) float64 { return x * 1e-300 }, 1e-300, false},
			{"1e300", func(x float64) float64 { return x * 1e300 }, 1e300, false},
			{"2^-1000", func(x float64) float64 { return math.Ldexp(x, -1000) }, math.Ldexp(1, -1000), true},
			{"2^1000", func(x float64) float64 { return math.Ldexp(x, 1000) }, math.Ldexp(1, 1000), true},
		} {
			xs := make([]float64, len(base))
			for i, x := range base {
				xs[i] = c.scale(x)
			}
			s := Summarize(xs)
			tol := 1e-14
			if c.exact {
				tol = 0
			}
			for _, f := range []struct {
				what      string
				got, want float64
			}{
				{"mean", s.Mean, want.Mean * c.factor}, {"median", s.Median, want.Median * c.factor},
				{"stddev (population)", s.StdDevPopulation, want.StdDevPopulation * c.factor},
				{"stddev (sample)", s.StdDevSample, want.StdDevSample * c.factor},
				{"MAD", s.MAD, want.MAD * c.factor}, {"scaled MAD", s.MADScaled, want.MADScaled * c.factor},
				{"Q1", s.Q1, want.Q1 * c.factor}, {"Q3", s.Q3, want.Q3 * c.factor}, {"IQR", s.IQR, want.IQR * c.factor},
				{"CV", s.CV, want.CV},
			} {
				if !close(f.got, f.want, tol) {
					t.Errorf("%g × %s: %s = %g, want %g", base, c.name, f.what, f.got, f.want)
				}
			}
			if want.StdDevSample > 0 && !(s.StdDevSample > 0 && s.CV > 0) {
				t.Errorf("%g × %s: a sample of different values has stddev %g, CV %g", base, c.name, s.StdDevSample, s.CV)
			}
			if ci, err := MedianCI(xs, 0.9); err != nil || ci.Lo != c.scale(wantCI.Lo) || ci.Hi != c.scale(wantCI.Hi) {
				t.Errorf("%g × %s: MedianCI = %+v, %v; want [%g, %g]", base, c.name, ci, err, c.scale(wantCI.Lo), c.scale(wantCI.Hi))
			}
			if ti, wt := tInterval(xs, 0.95), tInterval(base, 0.95); !close(ti.Lo, wt.Lo*c.factor, 1e-12) || !close(ti.Hi, wt.Hi*c.factor, 1e-12) {
				t.Errorf("%g × %s: t interval [%g, %g], want [%g, %g]", base, c.name, ti.Lo, ti.Hi, wt.Lo*c.factor, wt.Hi*c.factor)
			}
		}
	}
}

// TestWelchAtExtremeScales: Welch's t and its degrees of freedom do not
// change when both samples are scaled alike; at 1e-170 the variances
// underflowed to 0 and the test called two different samples constant.
func TestWelchAtExtremeScales(t *testing.T) {
	a, b := []float64{1, 2, 3, 4, 5, 6}, []float64{2, 3, 3.5, 5, 7, 8, 9}
	want, err := welchT(a, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []float64{1e-170, 1e-300, 1e300} {
		as, bs := make([]float64, len(a)), make([]float64, len(b))
		for i, x := range a {
			as[i] = x * k
		}
		for i, x := range b {
			bs[i] = x * k
		}
		got, err := welchT(as, bs)
		if err != nil || !close(got.T, want.T, 1e-12) || !close(got.DF, want.DF, 1e-12) || !close(got.P, want.P, 1e-12) {
			t.Errorf("×%g: WelchT = %+v, %v; want %+v", k, got, err, want)
		}
	}
}
