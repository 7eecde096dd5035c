package result

import (
	"slices"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/stats"
)

// MetricReadCost names the metric of a clock's read cost in a clocks
// document: ns per read, one value per timed batch, in order.
const MetricReadCost = "read_cost"

// ClocksDocument records a survey of the host's clocks (clock.Probe) as a
// document of kind "clocks" (docs/result-schema.md), stamped as ending
// now and starting s.Elapsed earlier: one measurement per clock, named
// after it, with its facts in Detail.Clock and, when it could be read,
// the metric read_cost (ns per read of every timed batch, with its
// resolution: the 1 ns unit of the timing clock spread over the batch);
// the counter, the kernel's figures, the recommendation and the probe's
// options in Run.Clocks; the survey's warnings and notes as the
// document's. A clock that was not read (an error, or no timed batch)
// has no metrics, no steps and no cross-thread check, and Unavailable
// says why. Callers set Environment and Args.
func ClocksDocument(s *clock.Survey, m Meta) *Document {
	d := New(KindClocks, m)
	d.End = d.Start
	d.Start = d.End.Add(-s.Elapsed)
	d.Measurements = []Measurement{}
	for _, c := range s.Clocks {
		d.Measurements = append(d.Measurements, clockMeasurement(c))
	}
	host := s.Host
	d.Run.Clocks = &host
	d.Warnings = append(slices.Clone(s.Warnings), s.Notes...)
	return d
}

// clockMeasurement is one clock of a clocks document.
func clockMeasurement(c clock.Measured) Measurement {
	m := Measurement{Name: c.Name, Metrics: []Metric{}, Detail: KindDetail{Clock: &c}}
	if c.Err != nil || len(c.CostNs) == 0 {
		if c.Unavailable == "" && c.Err != nil {
			c.Unavailable = c.Err.Error()
		}
		if c.Unavailable == "" {
			c.Unavailable = c.CostUnavailable
		}
		if c.Unavailable == "" {
			c.Unavailable = "clock: no read was timed"
		}
		c.Steps, c.BatchReads, c.Cross = nil, 0, nil
		return m
	}
	costs := slices.Clone(c.CostNs)
	sum := stats.Summarize(costs)
	res := 1.0 // the timing clock's unit (Mono: 1 ns) over the batch
	if c.BatchReads > 0 {
		res /= float64(c.BatchReads)
	}
	m.Primary = MetricReadCost
	m.Metrics = append(m.Metrics, Metric{
		Name: MetricReadCost, Unit: UnitNs, Values: costs, Resolution: res, Summary: &sum,
		Percentiles:      map[string]float64{"p50": c.CostMedianNs, "p99": c.CostP99Ns},
		PercentileMethod: string(stats.Linear),
	})
	return m
}
