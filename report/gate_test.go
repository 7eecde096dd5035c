package report

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
)

// TestHolmAdjust checks Holm's adjustment against a hand-computed case:
// p = 0.01, 0.04, 0.03, 0.005 (m = 4) sorted are 0.005, 0.01, 0.03, 0.04;
// times 4, 3, 2, 1 they give 0.02, 0.03, 0.06, 0.04, and the running
// maximum makes them 0.02, 0.03, 0.06, 0.06 — back in input order 0.03,
// 0.06, 0.06, 0.02. At alpha 0.05 only the first and the last are
// rejected (Bonferroni, 4p, would reject the last alone).
func TestHolmAdjust(t *testing.T) {
	got := HolmAdjust([]float64{0.01, 0.04, 0.03, 0.005})
	want := []float64{0.03, 0.06, 0.06, 0.02}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("HolmAdjust = %v, want %v", got, want)
		}
	}
	// Capped at 1; NaN stays NaN and counts in m.
	got = HolmAdjust([]float64{0.5, math.NaN(), 0.2})
	if got[0] != 1 || !math.IsNaN(got[1]) || math.Abs(got[2]-0.6) > 1e-12 {
		t.Errorf("with NaN: %v, want [1 NaN 0.6]", got)
	}
	if len(HolmAdjust(nil)) != 0 {
		t.Error("nil")
	}
}

// series is n deterministic values around base, spread ±1 %.
func series(base float64, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = base * (1 + 0.01*float64((i*7)%11-5)/5)
	}
	return xs
}

// gateDoc is a command document with one measurement per name, each
// with the given wall values.
func gateDoc(model string, ms map[string][]float64, order []string) *result.Document {
	d := &result.Document{Schema: result.Schema, Version: result.Version, Kind: result.KindCommand, Tool: result.Tool{Name: "chrono", Version: "test"},
		Start: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	for _, n := range order {
		d.Measurements = append(d.Measurements, result.Measurement{Name: n, Primary: "wall",
			Metrics: []result.Metric{{Name: "wall", Unit: result.UnitNs, Resolution: 1, Values: ms[n]}}})
	}
	d.Environment = &env.Host{CPU: env.CPU{Model: model}, System: env.System{KernelRelease: "6.1.0"}, Go: env.Go{GOMAXPROCS: 2}}
	return d
}

var gateNames = []string{"regressed", "improved", "same", "few", "small-change", "only-old"}

func gatePair() (old, cur *result.Document) {
	old = gateDoc("CPU A", map[string][]float64{
		"regressed": series(1e6, 30), "improved": series(1e6, 30), "same": series(1e6, 30),
		"few": series(1e6, 3), "small-change": series(1e6, 30), "only-old": series(1e6, 30),
	}, gateNames)
	cur = gateDoc("CPU A", map[string][]float64{
		"regressed": series(1.2e6, 30), "improved": series(0.8e6, 30), "same": series(1e6, 30),
		"few": series(1.3e6, 3), "small-change": series(1.03e6, 30),
	}, gateNames[:5])
	return old, cur
}

func TestGateVerdicts(t *testing.T) {
	old, cur := gatePair()
	g, err := Gate(old, cur, GateOptions{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"regressed": VerdictRegression, "improved": VerdictImprovement, "same": VerdictNoChange,
		"few": VerdictUndecided, "small-change": VerdictNoChange}
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
	}
	// Holm: the p-values are corrected over the 4 tests (few has one too).
	var ps []float64
	for _, c := range g.Changes {
		ps = append(ps, c.MannWhitney.P)
	}
	adj := HolmAdjust(ps)
	for i, c := range g.Changes {
		if c.PHolm != adj[i] {
			t.Errorf("%s: Holm p %v, want %v", c.Measurement, c.PHolm, adj[i])
		}
	}
	// A higher threshold turns the regression into undecided.
	g, _ = Gate(old, cur, GateOptions{Threshold: 0.5})
	if g.Regressed() {
		t.Error("a 20% slowdown with a 50% threshold is a regression")
	}
	// No change anywhere: no regression.
	g, _ = Gate(old, old, GateOptions{Threshold: 0.05})
	if g.Regressed() {
		t.Error("a document against itself regressed")
	}
	for _, c := range g.Changes {
		if c.Measurement != "few" && c.Verdict != VerdictNoChange {
			t.Errorf("itself: %s is %s", c.Measurement, c.Verdict)
		}
	}
}

func TestGateEnvironments(t *testing.T) {
	old, cur := gatePair()
	cur.Environment.CPU.Model = "CPU B"
	cur.Environment.Go.GOMAXPROCS = 4
	_, err := Gate(old, cur, GateOptions{Threshold: 0.05})
	var em *EnvMismatchError
	if !errors.As(err, &em) || len(em.Diffs) != 2 || !strings.Contains(err.Error(), `CPU model "CPU A" in the baseline, "CPU B" in the new document`) ||
		!strings.Contains(err.Error(), "--allow-env-mismatch") {
		t.Fatalf("different machines: %v", err)
	}
	g, err := Gate(old, cur, GateOptions{Threshold: 0.05, AllowEnvMismatch: true})
	if err != nil || !g.Regressed() {
		t.Fatalf("allowed: %v", err)
	}
	var b bytes.Buffer
	if err := RenderGate(&b, old, cur, g, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.Contains(l, "environments differ") && !isTableHead(l) {
			t.Errorf("a line does not say that the environments differ: %q", l)
		}
	}
	// A speed profile known in one document only differs too; fields
	// known in neither are listed as unchecked.
	boost := true
	cur = gateDoc("CPU A", nil, nil)
	cur.Environment.Frequency.Boost = &boost
	diffs, unchecked := EnvDiffs(old.Environment, cur.Environment)
	if len(diffs) != 1 || !strings.Contains(diffs[0], "CPU speed profile unknown in the baseline") || len(unchecked) != 0 {
		t.Errorf("speed profile: %v, unchecked %v", diffs, unchecked)
	}
	diffs, unchecked = EnvDiffs(nil, nil)
	if len(diffs) != 0 || len(unchecked) != 4 {
		t.Errorf("no environments: %v, unchecked %v", diffs, unchecked)
	}
}

// isTableHead reports whether l is a table's header line (column names,
// which hold no verdict).
func isTableHead(l string) bool { return strings.HasPrefix(l, "measurement ") }

func TestGateGolden(t *testing.T) {
	old, cur := gatePair()
	g, err := Gate(old, cur, GateOptions{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name string
		f    Format
	}{{"gate.txt", Text}, {"gate.md", Markdown}, {"gate.csv", CSV}} {
		var b bytes.Buffer
		if err := RenderGate(&b, old, cur, g, f.f, Options{}); err != nil {
			t.Fatal(err)
		}
		golden(t, f.name, b.Bytes())
	}
}
