package report_test

import (
	"os"
	"time"

	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
)

func ExampleRender() {
	// A document of one measurement's wall times (kind "custom": the
	// generic table), as a program that measured something might write.
	d := result.New("custom", result.Meta{Tool: result.Tool{Name: "example", Version: "1.0"}})
	d.Start = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	d.Measurements = []result.Measurement{{Name: "parse", Primary: "wall", Metrics: []result.Metric{
		result.SampleMetric("wall", result.UnitNs, 1, []float64{1_210_000, 1_190_000, 1_250_000, 1_200_000, 1_230_000, 1_180_000, 1_220_000, 1_240_000}),
	}}}
	s := report.Subject{Docs: []*result.Document{d}}
	if err := report.Render(os.Stdout, s, report.Text, report.Options{}); err != nil {
		panic(err)
	}
	// Output:
	// custom document, written by example 1.0 on 2026-03-01 12:00:00 UTC
	//
	// measurement  metric  n    median  95% CI                  mean ± σ (n-1)  min … max                 p50       p99
	// parse        wall    8  1.215 ms  [1.180 ms, 1.240 ms]  1.215 ms ± 24 µs  1.180 ms … 1.250 ms  1.215 ms  1.249 ms
	// percentiles: linear definition (numpy's default); CI: distribution-free, from order statistics; digits: as far as each figure is known
	//
	// parse (wall):
	//   distribution  1.180 ms ████████ 1.250 ms
	//   sequence      ▄▂█▃▆▁▅▇ (8 samples in run order)
}
