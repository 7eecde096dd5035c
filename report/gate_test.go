package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
)

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

// TestGateEnvironmentsDiffer: a gate of documents from different
// environments, compared anyway, says so on every line.
func TestGateEnvironmentsDiffer(t *testing.T) {
	old, cur := gatePair()
	cur.Environment.CPU.Model = "CPU B"
	cur.Environment.Go.GOMAXPROCS = 4
	_, err := compare.GateDocuments(old, cur, compare.GateOptions{Threshold: 0.05})
	var em *compare.EnvMismatchError
	if !errors.As(err, &em) || len(em.Diffs) != 2 {
		t.Fatalf("different machines: %v", err)
	}
	g, err := compare.GateDocuments(old, cur, compare.GateOptions{Threshold: 0.05, AllowEnvMismatch: true})
	if err != nil || !g.Regressed() {
		t.Fatalf("allowed: %v", err)
	}
	var b bytes.Buffer
	if err := Render(&b, Subject{Gate: g}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.Contains(l, "environments differ") && !isTableHead(l) {
			t.Errorf("a line does not say that the environments differ: %q", l)
		}
	}
}

// isTableHead reports whether l is a table's header line (column names,
// which hold no verdict).
func isTableHead(l string) bool { return strings.HasPrefix(l, "measurement ") }

func TestGateGolden(t *testing.T) {
	old, cur := gatePair()
	g, err := compare.GateDocuments(old, cur, compare.GateOptions{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name string
		f    Format
	}{{"gate.txt", Text}, {"gate.md", Markdown}, {"gate.csv", CSV}} {
		var b bytes.Buffer
		if err := Render(&b, Subject{Gate: g}, f.f, Options{}); err != nil {
			t.Fatal(err)
		}
		golden(t, f.name, b.Bytes())
	}
}
