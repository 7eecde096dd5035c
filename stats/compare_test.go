package stats

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestCompareAgainstScipy(t *testing.T) {
	var ref struct {
		Cases []struct {
			Name    string
			A, B    []float64
			MWU     float64  `json:"mw_u"`
			MWP     float64  `json:"mw_p"`
			MWRef   string   `json:"mw_ref"`
			MWExact bool     `json:"mw_exact"`
			MWTies  bool     `json:"mw_ties"`
			HL      float64  `json:"hodges_lehmann"`
			WelchT  *float64 `json:"welch_t"`
			WelchDF *float64 `json:"welch_df"`
			WelchP  *float64 `json:"welch_p"`
		}
		MinSamples map[string]int `json:"min_samples_for_significance"`
	}
	readJSON(t, "compare.json", &ref)
	if len(ref.Cases) == 0 {
		t.Fatal("no cases")
	}
	const tol = 1e-12
	for _, c := range ref.Cases {
		r, err := MannWhitneyU(c.A, c.B)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if r.U != c.MWU || r.Exact != c.MWExact || r.Ties != c.MWTies || r.NA != len(c.A) || r.NB != len(c.B) {
			t.Errorf("%s: got %+v, scipy U=%v exact=%v ties=%v", c.Name, r, c.MWU, c.MWExact, c.MWTies)
		}
		if !close(r.P, c.MWP, tol) {
			t.Errorf("%s: Mann-Whitney p = %v, %s %v (rel. diff %.2g)", c.Name, r.P, c.MWRef, c.MWP, math.Abs(r.P-c.MWP)/c.MWP)
		}
		if hl := hodgesLehmann(c.A, c.B); !close(hl, c.HL, tol) {
			t.Errorf("%s: Hodges-Lehmann %v, numpy %v", c.Name, hl, c.HL)
		}
		w, err := welchT(c.A, c.B)
		if c.WelchP == nil {
			if err == nil {
				t.Errorf("%s: Welch gave %+v, want an error", c.Name, w)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: Welch: %v", c.Name, err)
			continue
		}
		if !close(w.T, *c.WelchT, tol) || !close(w.DF, *c.WelchDF, tol) || !close(w.P, *c.WelchP, tol) {
			t.Errorf("%s: Welch %+v, scipy t=%v df=%v p=%v (p rel. diff %.2g)", c.Name, w, *c.WelchT, *c.WelchDF, *c.WelchP,
				math.Abs(w.P-*c.WelchP) / *c.WelchP)
		}
	}
	if len(ref.MinSamples) == 0 {
		t.Fatal("no min_samples_for_significance")
	}
	for a, want := range ref.MinSamples {
		alpha, _ := strconv.ParseFloat(a, 64)
		if got := minSamplesForSignificance(alpha); got != want {
			t.Errorf("MinSamplesForSignificance(%v) = %d, scipy says %d", alpha, got, want)
		}
	}
}

func TestMinSamplesForSignificance(t *testing.T) {
	// 2/C(6,3) = 0.1 > 0.05 >= 2/C(8,4) = 0.0286.
	if n := minSamplesForSignificance(0.05); n != 4 {
		t.Errorf("MinSamplesForSignificance(0.05) = %d, want 4", n)
	}
	if n := minSamplesForSignificance(0); n != 0 {
		t.Errorf("alpha 0 gave %d", n)
	}
	if w, ok := significanceWarning(3, 3, 0.05); !ok || w.Code != warnNoSignificance || !strings.Contains(w.Next, "at least 4") {
		t.Errorf("3 vs 3: %v %v", w, ok)
	}
	if _, ok := significanceWarning(4, 4, 0.05); ok {
		t.Error("4 vs 4 warned")
	}
}

func TestCompareErrors(t *testing.T) {
	for _, c := range []struct{ a, b []float64 }{
		{nil, []float64{1}}, {[]float64{1}, nil}, {[]float64{math.NaN(), 1}, []float64{1, 2}},
	} {
		if _, err := MannWhitneyU(c.a, c.b); err == nil || !strings.HasPrefix(err.Error(), "stats: ") {
			t.Errorf("MannWhitneyU(%v, %v): err %v", c.a, c.b, err)
		}
	}
	for _, c := range []struct{ a, b []float64 }{
		{[]float64{1}, []float64{1, 2}}, {[]float64{1, 1}, []float64{2, 2}}, {[]float64{math.NaN(), 1}, []float64{1, 2}},
	} {
		if _, err := welchT(c.a, c.b); err == nil || !strings.HasPrefix(err.Error(), "stats: ") {
			t.Errorf("WelchT(%v, %v): err %v", c.a, c.b, err)
		}
	}
	if !math.IsNaN(hodgesLehmann(nil, []float64{1})) {
		t.Error("HodgesLehmann of an empty sample is not NaN")
	}
}

func TestSpecialAgainstScipy(t *testing.T) {
	var ref struct {
		TSF []struct {
			T, DF, SF float64
		} `json:"t_sf"`
		NormSF []struct {
			Z, SF float64
		} `json:"norm_sf"`
	}
	readJSON(t, "special.json", &ref)
	if len(ref.TSF) == 0 || len(ref.NormSF) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range ref.TSF {
		if got := studentTSF(c.T, c.DF); !close(got, c.SF, 1e-12) {
			t.Errorf("t.sf(%v, %v) = %v, scipy %v (rel. diff %.2g)", c.T, c.DF, got, c.SF, math.Abs(got-c.SF)/c.SF)
		}
	}
	for _, c := range ref.NormSF {
		if got := normalSF(c.Z); !close(got, c.SF, 1e-12) {
			t.Errorf("norm.sf(%v) = %v, scipy %v", c.Z, got, c.SF)
		}
	}
}

// The selection path of hodgesLehmann must equal the sorting path exactly.
func TestHodgesLehmannSelect(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, nn := range [][2]int{{1, 1}, {1, 2}, {2, 2}, {3, 7}, {10, 10}, {31, 17}, {200, 150}} {
		for range 20 {
			a, b := make([]float64, nn[0]), make([]float64, nn[1])
			for i := range a {
				a[i] = math.Round(r.NormFloat64()*10) / 4 // ties
			}
			for i := range b {
				b[i] = r.NormFloat64()*1e-3 - 2
			}
			if got, want := hodgesLehmannSelect(a, b), hodgesLehmannSort(a, b); got != want {
				t.Fatalf("%v: select %v, sort %v", nn, got, want)
			}
		}
	}
	// A size that takes the selection path through the exported function.
	a, b := benchSample(1500), benchSample(1000)
	if got, want := hodgesLehmann(a, b), hodgesLehmannSort(a, b); got != want {
		t.Errorf("1500x1000: %v, sort %v", got, want)
	}
}
