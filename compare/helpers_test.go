package compare

import (
	"time"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
)

// spread is n deterministic values around base, spread ±1 %.
func spread(base float64, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = base * (1 + 0.01*float64((i*7)%11-5)/5)
	}
	return xs
}

// document is a command document with one measurement per name, in
// order, each with the given wall values (in ns), on a machine with CPU
// model.
func document(model string, walls map[string][]float64, order []string) *result.Document {
	d := &result.Document{Schema: result.Schema, Version: result.Version, Kind: result.KindCommand, Tool: result.Tool{Name: "chrono", Version: "test"},
		Start: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	for _, n := range order {
		d.Measurements = append(d.Measurements, result.Measurement{Name: n, Primary: "wall",
			Metrics: []result.Metric{{Name: "wall", Unit: result.UnitNs, Resolution: 1, Values: walls[n]}}})
	}
	d.Environment = &env.Host{CPU: env.CPU{Model: model}, System: env.System{KernelRelease: "6.1.0"}, Go: env.Go{GOMAXPROCS: 2}}
	return d
}
