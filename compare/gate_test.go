package compare

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/result"
)

// TestHolm checks Holm's adjustment against a hand-computed case:
// p = 0.01, 0.04, 0.03, 0.005 (m = 4) sorted are 0.005, 0.01, 0.03, 0.04;
// times 4, 3, 2, 1 they give 0.02, 0.03, 0.06, 0.04, and the running
// maximum makes them 0.02, 0.03, 0.06, 0.06 — back in input order 0.03,
// 0.06, 0.06, 0.02. At alpha 0.05 only the first and the last are
// rejected (Bonferroni, 4p, would reject the last alone).
func TestHolm(t *testing.T) {
	got := holm([]float64{0.01, 0.04, 0.03, 0.005})
	want := []float64{0.03, 0.06, 0.06, 0.02}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("holm = %v, want %v", got, want)
		}
	}
	// Capped at 1; NaN stays NaN and counts in m.
	got = holm([]float64{0.5, math.NaN(), 0.2})
	if got[0] != 1 || !math.IsNaN(got[1]) || math.Abs(got[2]-0.6) > 1e-12 {
		t.Errorf("with NaN: %v, want [1 NaN 0.6]", got)
	}
	if len(holm(nil)) != 0 {
		t.Error("nil")
	}
}

var gateNames = []string{"regressed", "improved", "same", "few", "small-change", "only-old"}

// gateDocs are the wall times of a baseline and a newer document: one
// measurement of each verdict, and one in the baseline only.
func gateDocs() (old, cur map[string][]float64) {
	old = map[string][]float64{
		"regressed": spread(1e6, 30), "improved": spread(1e6, 30), "same": spread(1e6, 30),
		"few": spread(1e6, 3), "small-change": spread(1e6, 30), "only-old": spread(1e6, 30),
	}
	cur = map[string][]float64{
		"regressed": spread(1.2e6, 30), "improved": spread(0.8e6, 30), "same": spread(1e6, 30),
		"few": spread(1.3e6, 3), "small-change": spread(1.03e6, 30),
	}
	return old, cur
}

func TestGateVerdicts(t *testing.T) {
	o, c := gateDocs()
	old, cur := document("CPU A", o, gateNames), document("CPU A", c, gateNames[:5])
	g, err := GateDocuments(old, cur, GateOptions{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Verdict{"regressed": Regression, "improved": Improvement, "same": NoChange, "few": Undecided, "small-change": NoChange}
	for _, c := range g.Changes {
		if c.Verdict != want[c.Measurement] {
			t.Errorf("%s: %s (%s; ratio %.3f [%.3f, %.3f], p %.3g, Holm %.3g), want %s", c.Measurement, c.Verdict, c.Why, c.Ratio, c.CI.Lo, c.CI.Hi, c.MannWhitney.P, c.PHolm, want[c.Measurement])
		}
	}
	if !g.Regressed() {
		t.Error("a regression, and Regressed is false")
	}
	if len(g.OnlyOld) != 1 || g.OnlyOld[0] != "only-old" {
		t.Errorf("only in the baseline: %v", g.OnlyOld)
	}
	for _, c := range g.Changes {
		if c.Measurement == "few" && (!strings.Contains(c.Why, "too few samples (3 and 3)") || c.MoreRuns <= 0) {
			t.Errorf("few: why %q, more runs %d", c.Why, c.MoreRuns)
		}
		if c.Measurement != "few" && (c.Why != "" || c.MoreRuns != -1) {
			t.Errorf("%s: why %q, more runs %d for a decided change", c.Measurement, c.Why, c.MoreRuns)
		}
	}
	// Holm: the p-values are corrected over the 5 tests (few has one too).
	var ps []float64
	for _, c := range g.Changes {
		ps = append(ps, c.MannWhitney.P)
	}
	adj := holm(ps)
	for i, c := range g.Changes {
		if c.PHolm != adj[i] {
			t.Errorf("%s: Holm p %v, want %v", c.Measurement, c.PHolm, adj[i])
		}
	}
	// A higher threshold turns the regression into undecided.
	g, _ = GateDocuments(old, cur, GateOptions{Threshold: 0.5})
	if g.Regressed() {
		t.Error("a 20% slowdown with a 50% threshold is a regression")
	}
	// No change anywhere: no regression.
	g, _ = GateDocuments(old, old, GateOptions{Threshold: 0.05})
	if g.Regressed() {
		t.Error("a document against itself regressed")
	}
	for _, c := range g.Changes {
		if c.Measurement != "few" && c.Verdict != NoChange {
			t.Errorf("itself: %s is %s", c.Measurement, c.Verdict)
		}
	}
}

// TestGateRates: for a rate (units per second) more is better, so the
// slowdown is the inverse ratio.
func TestGateRates(t *testing.T) {
	old := document("CPU A", map[string][]float64{"x": spread(100, 30)}, []string{"x"})
	cur := document("CPU A", map[string][]float64{"x": spread(50, 30)}, []string{"x"})
	old.Measurements[0].Metrics[0].Unit, cur.Measurements[0].Metrics[0].Unit = "B/s", "B/s"
	g, err := GateDocuments(old, cur, GateOptions{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	c := g.Changes[0]
	if c.Verdict != Regression || math.Abs(c.Slowdown-2) > 1e-9 || math.Abs(c.SlowLo-1/c.CI.Hi) > 1e-12 || math.Abs(c.SlowHi-1/c.CI.Lo) > 1e-12 {
		t.Errorf("half the throughput: %s, slowdown %v [%v, %v]", c.Verdict, c.Slowdown, c.SlowLo, c.SlowHi)
	}
}

// TestGateBinned: a binned metric has no test: undecided, saying why,
// and it counts in no correction.
func TestGateBinned(t *testing.T) {
	o, c := gateDocs()
	old, cur := document("CPU A", o, gateNames[:1]), document("CPU A", c, gateNames[:1])
	for _, d := range []*result.Document{old, cur} {
		d.Measurements = append(d.Measurements, result.Measurement{Name: "latency", Primary: "latency", Metrics: []result.Metric{{Name: "latency", Unit: result.UnitNs,
			Histogram: &result.Histogram{Bounds: []float64{0, 10, 20}, Counts: []int64{10, 10}, Min: 1, Max: 19}}}})
	}
	g, err := GateDocuments(old, cur, GateOptions{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	c0, c1 := g.Changes[0], g.Changes[1]
	if c1.Verdict != Undecided || !strings.HasPrefix(c1.Why, "no test: the samples are binned") || !math.IsNaN(c1.PHolm) || c1.MoreRuns != -1 {
		t.Errorf("binned: %s, %q, Holm p %v, more runs %d", c1.Verdict, c1.Why, c1.PHolm, c1.MoreRuns)
	}
	// The one test is corrected for one test: its p is unchanged.
	if c0.Verdict != Regression || c0.PHolm != c0.MannWhitney.P {
		t.Errorf("regressed: %s, Holm p %v, p %v", c0.Verdict, c0.PHolm, c0.MannWhitney.P)
	}
}

func TestGateEnvironments(t *testing.T) {
	o, c := gateDocs()
	old, cur := document("CPU A", o, gateNames), document("CPU B", c, gateNames[:5])
	cur.Environment.Go.GOMAXPROCS = 4
	_, err := GateDocuments(old, cur, GateOptions{Threshold: 0.05})
	var em *EnvMismatchError
	if !errors.As(err, &em) || len(em.Diffs) != 2 || !strings.HasPrefix(err.Error(), "compare: ") ||
		!strings.Contains(err.Error(), `CPU model "CPU A" in the baseline, "CPU B" in the new document`) ||
		!strings.Contains(err.Error(), `GOMAXPROCS "2" in the baseline, "4" in the new document`) || !strings.Contains(err.Error(), "--allow-env-mismatch") {
		t.Fatalf("different machines: %v", err)
	}
	g, err := GateDocuments(old, cur, GateOptions{Threshold: 0.05, AllowEnvMismatch: true})
	if err != nil || !g.Regressed() || len(g.EnvDiffs) != 2 {
		t.Fatalf("allowed: %v, %+v", err, g)
	}
	// A speed profile known in one document only differs too; fields
	// known in neither are listed as unchecked.
	boost := true
	cur = document("CPU A", nil, nil)
	cur.Environment.Frequency.Boost = &boost
	diffs, unchecked := environments(old.Environment, cur.Environment)
	if len(diffs) != 1 || !strings.Contains(diffs[0], "CPU speed profile unknown in the baseline") || len(unchecked) != 0 {
		t.Errorf("speed profile: %v, unchecked %v", diffs, unchecked)
	}
	diffs, unchecked = environments(nil, nil)
	if len(diffs) != 0 || strings.Join(unchecked, ", ") != "CPU model, kernel, GOMAXPROCS, CPU speed profile" {
		t.Errorf("no environments: %v, unchecked %v", diffs, unchecked)
	}
	diffs, _ = environments(old.Environment, nil)
	if len(diffs) != 3 || !strings.HasSuffix(diffs[0], "in the baseline, unknown in the new document") {
		t.Errorf("no new environment: %v", diffs)
	}
}

// exactDoc is a function document with one instruction-mode measurement
// per name: its values, marked exact or not.
func exactDoc(values map[string][]float64, exact bool) *result.Document {
	d := document("CPU A", nil, nil)
	d.Kind = result.KindFunction
	for _, n := range []string{"sum", "alloc", "single"} {
		if values[n] == nil {
			continue
		}
		d.Measurements = append(d.Measurements, result.Measurement{Name: n, Primary: "instructions",
			Metrics: []result.Metric{{Name: "instructions", Unit: result.UnitCountPerOp, Resolution: 1, Values: values[n], Exact: exact}}})
	}
	return d
}

// TestGateExact: a deterministic metric gets no test and no Holm
// correction: its exact ratio against the threshold decides, to the
// instruction (a threshold of 0 calls one instruction more a
// regression), and the gate says so.
func TestGateExact(t *testing.T) {
	three := func(v float64) []float64 { return []float64{v, v, v} }
	for _, tt := range []struct {
		name      string
		old, cur  []float64
		exact     bool
		threshold float64
		want      Verdict
		tested    bool // a U test was made (not deterministic)
	}{
		{"1 % more, threshold 0.5 %", three(4117), three(4157), true, 0.005, Regression, false},
		{"1 % more, threshold 5 %", three(4117), three(4157), true, 0.05, NoChange, false},
		{"one instruction more, threshold 0", three(4117), three(4118), true, 0, Regression, false},
		{"the same, threshold 0", three(4117), three(4117), true, 0, NoChange, false},
		{"1 % fewer", three(4157), three(4117), true, 0.005, Improvement, false},
		{"identical samples, not marked", three(0), three(0), false, 0, NoChange, false},
		{"identical samples, not marked, more", three(10), three(11), false, 0.05, Regression, false},
		// One sample a side, not marked: nothing shows it would not vary.
		{"one sample each, not marked", []float64{4117}, []float64{4157}, false, 0.005, Undecided, true},
		// Marked exact on one side only: the samples decide (they vary).
		{"varying samples", []float64{4117, 4120, 4117}, three(4157), false, 0.005, Undecided, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			old := exactDoc(map[string][]float64{"sum": tt.old}, tt.exact)
			cur := exactDoc(map[string][]float64{"sum": tt.cur}, tt.exact)
			g, err := GateDocuments(old, cur, GateOptions{Threshold: tt.threshold})
			if err != nil {
				t.Fatal(err)
			}
			c := g.Changes[0]
			if c.Verdict != tt.want {
				t.Errorf("verdict %s, want %s (%+v)", c.Verdict, tt.want, c)
			}
			if tested := c.Exact == ""; tested != tt.tested {
				t.Errorf("tested %v (exact %q), want %v", tested, c.Exact, tt.tested)
			}
			if !tt.tested {
				if want := tt.cur[0] / tt.old[0]; tt.old[0] != 0 && (c.Ratio != want || c.CI.Lo != want || c.CI.Hi != want) {
					t.Errorf("ratio %v [%v, %v], want exactly %v", c.Ratio, c.CI.Lo, c.CI.Hi, want)
				}
				if !math.IsNaN(c.PHolm) || !math.IsNaN(c.MannWhitney.P) || !strings.Contains(c.Why, "no test needed") {
					t.Errorf("p %v, p (Holm) %v, why %q: want no test, and the gate saying so", c.MannWhitney.P, c.PHolm, c.Why)
				}
			}
		})
	}
}

// TestGateExactNotInHolm: exact comparisons do not count in Holm's
// correction of the tested ones.
func TestGateExactNotInHolm(t *testing.T) {
	o, c := gateDocs()
	old, cur := document("CPU A", o, gateNames), document("CPU A", c, gateNames[:5])
	g0, err := GateDocuments(old, cur, GateOptions{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"e1", "e2", "e3"} {
		for _, d := range []*result.Document{old, cur} {
			d.Measurements = append(d.Measurements, result.Measurement{Name: n, Primary: "instructions",
				Metrics: []result.Metric{{Name: "instructions", Unit: result.UnitCountPerOp, Values: []float64{100, 100, 100}, Exact: true}}})
		}
	}
	g1, err := GateDocuments(old, cur, GateOptions{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	for i := range g0.Changes {
		if a, b := g0.Changes[i].PHolm, g1.Changes[i].PHolm; a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
			t.Errorf("%s: p (Holm) %v without the exact metrics, %v with them", g0.Changes[i].Measurement, a, b)
		}
	}
	if n := len(g1.Changes); n != len(g0.Changes)+3 || g1.Changes[n-1].Verdict != NoChange {
		t.Errorf("changes %d (want %d), last %+v", n, len(g0.Changes)+3, g1.Changes[n-1])
	}
}

func TestConclusionExact(t *testing.T) {
	for _, tt := range []struct {
		old, cur float64
		want     string
	}{
		{4117, 4117, "no change: exactly the same"},
		{4117, 4157, "higher than the baseline, exactly: 4157 against 4117, +0.97%"},
		{4157, 4117, "lower than the baseline, exactly: 4117 against 4157, -0.96%"},
	} {
		c := change("sum", &result.Metric{Values: []float64{tt.old, tt.old}, Exact: true}, &result.Metric{Values: []float64{tt.cur, tt.cur}, Exact: true}, sortedMetric, 1)
		if got := c.Conclusion(); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%v → %v: %q, want %q", tt.old, tt.cur, got, tt.want)
		}
	}
}
