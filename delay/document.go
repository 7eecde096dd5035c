package delay

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/warn"
)

// studyPercentiles are the percentiles stored with each metric of a sleep
// document (linear definition).
var studyPercentiles = []float64{50, 90, 99, 99.9}

// latencyPercentiles are the percentiles stored with each latency metric
// (read from the HDR histogram).
var latencyPercentiles = []float64{50, 90, 99, 99.9, 99.99}

// latencyWait is how every thread of a LatencyTest waits for its
// deadlines (the "wait" of a latency document).
const latencyWait = "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)"

// Document returns the study as a result document of kind "sleep"
// (docs/result-schema.md) with m's tool, arguments and environment: the
// options, the conditions in force (with r.Held's) and delay.Sleep's
// spin margin in Run.Sleep, the warnings of refused settings, and one
// measurement per cell, named MECHANISM@DURATION (e.g.
// "delay.Sleep@100µs"), whose metrics "achieved" (primary), "overshoot"
// and "cpu" hold every wait in ns.
func (r *StudyResult) Document(m result.Meta) *result.Document {
	held := r.Held
	d := result.New(result.KindSleep, m)
	d.Start, d.End = r.Start, r.End
	d.Incomplete = r.Interrupted
	run := &result.SleepRun{Mechanisms: append([]string{}, r.Mechanisms...),
		BudgetNs: int64(r.Options.Budget), MaxSamples: r.Options.MaxSamples,
		Conditions: waitConditions(r.Options.Settings, held)}
	for _, dur := range r.Durations {
		run.DurationsNs = append(run.DurationsNs, int64(dur))
	}
	if r.SpinMargin > 0 {
		v := int64(r.SpinMargin)
		run.SpinMarginNs = &v
	}
	if r.ReadCost > 0 {
		run.ReadCostNs = r.ReadCost
	}
	d.Run.Sleep = run
	if held != nil {
		d.Warnings = append(d.Warnings, held.Warnings...)
	}
	d.Warnings = append(d.Warnings, r.warnings()...)
	d.Measurements = []result.Measurement{}
	for _, c := range r.Cells {
		d.Measurements = append(d.Measurements, c.measurement(float64(r.Tick)))
	}
	return d
}

// cellName is the name of the measurement of a mechanism at a requested
// duration: "time.Sleep@100µs".
func cellName(mechanism string, requested time.Duration) string {
	return mechanism + "@" + requested.String()
}

// measurement returns the cell as a measurement; tick is the resolution
// of the achieved durations (ns).
func (c *Cell) measurement(tick float64) result.Measurement {
	det := &result.SleepDetail{Mechanism: c.Mechanism, RequestedNs: int64(c.Requested), OwnThread: c.OwnThread}
	if c.TimerSlack >= 0 {
		v := c.TimerSlack
		det.TimerSlackNs = &v
	}
	if c.TimerResolution > 0 {
		v := c.TimerResolution
		det.TimerResolutionNs = &v
	}
	m := result.Measurement{Name: cellName(c.Mechanism, c.Requested), Metrics: []result.Metric{},
		Detail: result.KindDetail{Sleep: det}, Incomplete: c.Incomplete}
	if c.Unavailable != nil {
		det.Unavailable = c.Unavailable.Error()
		m.Warnings = append(m.Warnings, unavailableWarning(c.Unavailable))
	}
	if len(c.Achieved) > 0 {
		over := make([]float64, len(c.Achieved))
		for i, a := range c.Achieved {
			over[i] = a - float64(c.Requested)
		}
		m.Primary = "achieved"
		m.Metrics = append(m.Metrics, sampleMetric("achieved", c.Achieved, tick), sampleMetric("overshoot", over, tick))
		if len(c.CPU) == len(c.Achieved) {
			m.Metrics = append(m.Metrics, sampleMetric("cpu", c.CPU, c.CPUTick))
			cost := c.CPUReadCost
			det.CPUClock, det.CPUReadCostNs = c.CPUClock, &cost
		}
	}
	if c.Failed > 0 {
		det.FailedWaits = c.Failed
		if c.Err != nil {
			det.FailedError = c.Err.Error()
		}
		m.Warnings = append(m.Warnings, warn.New("waits-failed",
			fmt.Sprintf("%d of %s failed and %s not in the figures: %v", c.Failed, plural.Count(c.Failed+len(c.Achieved), "wait"), plural.Is(c.Failed), c.Err),
			"the error says why the system call failed"))
	}
	return m
}

// unavailableWarning says why a mechanism could not be measured, with
// the way to measure it when there is one.
func unavailableWarning(err error) warn.Warning {
	var pe *PermissionError
	switch {
	case errors.As(err, &pe):
		return warn.New("mechanism-unavailable", fmt.Sprintf("not measured: %s refused (%v)", pe.Setting, pe.Err), pe.Fix)
	case errors.Is(err, ErrUnsupported):
		return warn.New("mechanism-unavailable", "not measured: "+err.Error(), "measure on Linux for this mechanism")
	}
	return warn.New("mechanism-unavailable", "not measured: "+err.Error(), "the error says what failed; the other mechanisms were measured")
}

// sampleMetric is a series of raw samples in ns with its summary and
// linear percentiles; resolution is the step of one sample (0: unknown).
func sampleMetric(name string, xs []float64, resolution float64) result.Metric {
	return result.SampleMetric(name, result.UnitNs, resolution, xs, studyPercentiles...)
}

// waitConditions are the conditions of a run with thread settings set
// (in force) and what Acquire held (nil: nothing acquired).
func waitConditions(set ThreadSettings, held *Held) result.WaitConditions {
	c := result.WaitConditions{Priority: set.Priority, Pin: append([]int(nil), set.CPUs...)}
	if held != nil {
		c.MLocked = held.MLocked
		if held.DMALatency >= 0 {
			v := held.DMALatency
			c.DMALatencyUs = &v
		}
		c.BestEffort = held.BestEffort
		c.Refused = append([]string(nil), held.Refused...)
	}
	return c
}

// Document returns the test as a result document of kind "latency"
// (docs/result-schema.md) with m's tool, arguments and environment: the
// options and the conditions in force (with r.Held's) in Run.Latency,
// the warnings of refused settings, one measurement per thread ("thread
// N") and, with several threads, one for all of them ("all threads"),
// whose metric "latency" holds every latency binned as the HDR histogram
// kept them (ns), with the exact min, max, mean and standard deviation
// and the histogram's percentiles.
func (r *LatencyResult) Document(m result.Meta) *result.Document {
	held := r.Held
	d := result.New(result.KindLatency, m)
	d.Start, d.End = r.Start, r.End
	d.Incomplete = r.Interrupted
	o := r.Options
	interval := o.Interval
	if interval == 0 {
		interval = time.Millisecond
	}
	set := ThreadSettings{Priority: o.Priority, CPUs: o.Affinity}
	run := &result.LatencyRun{Wait: latencyWait, IntervalNs: int64(interval), Threads: len(r.Threads),
		Loops: o.Loops, DurationNs: int64(o.Duration), OverflowNs: int64(r.HistogramMax),
		SignificantDigits: latencyDigits, Conditions: waitConditions(set, held)}
	if o.HistogramMax > 0 {
		run.HistogramUs = int(o.HistogramMax / time.Microsecond)
	}
	d.Run.Latency = run
	if held != nil {
		d.Warnings = append(d.Warnings, held.Warnings...)
	}
	tick := float64(r.Tick)
	d.Measurements = []result.Measurement{}
	var overruns int64
	for i, th := range r.Threads {
		overruns += th.Overruns
		n := th.Thread
		det := &result.LatencyDetail{Thread: &n, TID: th.TID, Priority: th.Priority,
			Overflows: th.Overflows, Overruns: th.Overruns}
		yields := th.Yields
		det.RuntimeYields = &yields
		if th.Yields > 0 {
			v := int64(th.YieldMax)
			det.RuntimeYieldMaxNs = &v
		}
		if th.CPU >= 0 {
			cpu := th.CPU
			det.CPU = &cpu
		}
		if th.TimerSlack >= 0 {
			v := th.TimerSlack
			det.TimerSlackNs = &v
		}
		if th.Count > 0 {
			v := int64(th.Act)
			det.LastNs = &v
		}
		det.PerCPU = th.PerCPU
		m := result.Measurement{Name: "thread " + strconv.Itoa(th.Thread), Metrics: []result.Metric{},
			Detail: result.KindDetail{Latency: det}, Incomplete: r.Interrupted}
		if i < len(r.Histograms) && th.Count > 0 {
			mean := float64(th.Sum) / float64(th.Count)
			m.Primary = "latency"
			m.Metrics = append(m.Metrics, latencyMetric(r.Histograms[i], mean, th.StdDev, tick))
		}
		if th.Err != nil {
			det.Error = th.Err.Error()
			m.Incomplete = true
			d.Incomplete = true
			m.Warnings = append(m.Warnings, warn.New("sleep-failed",
				fmt.Sprintf("the thread stopped after %s: %v", plural.Count(int(th.Count), "latency"), th.Err),
				"the figures cover what it measured before; the error says why the sleep failed"))
		}
		d.Measurements = append(d.Measurements, m)
	}
	if len(r.Threads) > 1 && r.All != nil {
		m := result.Measurement{Name: "all threads", Metrics: []result.Metric{},
			Detail:     result.KindDetail{Latency: &result.LatencyDetail{Overflows: r.overflows(), Overruns: overruns}},
			Incomplete: d.Incomplete}
		if r.All.Count() > 0 {
			m.Primary = "latency"
			m.Metrics = append(m.Metrics, latencyMetric(r.All, r.mean(), r.stdDev(), tick))
		}
		d.Measurements = append(d.Measurements, m)
	}
	return d
}

// latencyDigits is the precision of the latency histograms (significant
// decimal digits).
const latencyDigits = 3

// latencyMetric is the metric of one HDR histogram of latencies (ns): its
// bins, the exact extremes, mean and standard deviation, and its
// percentiles (the upper end of the bucket at the quantile, clamped to
// the exact extremes).
func latencyMetric(h *stats.Histogram, mean, stdDev, resolution float64) result.Metric {
	rh := binned(h)
	rh.Mean = mean
	if !math.IsNaN(stdDev) {
		rh.StdDev = &stdDev
	}
	m := result.Metric{Name: "latency", Unit: result.UnitNs, Histogram: rh, Resolution: resolution,
		Percentiles: map[string]float64{}, PercentileMethod: "hdr-upper"}
	for _, p := range latencyPercentiles {
		m.Percentiles[stats.PercentileLabel(p)] = float64(h.Quantile(p / 100))
	}
	return m
}

// binned returns h's bins as a result.Histogram with its exact extremes.
// The HDR histogram keeps a value above its range at its highest value
// and a negative one at 0: they are moved out of the bins into Overflow
// and Underflow.
func binned(h *stats.Histogram) *result.Histogram {
	bounds, counts := h.Bins()
	rh := &result.Histogram{Min: float64(h.Min()), Max: float64(h.Max()),
		Overflow: h.Overflows(), Underflow: h.Underflows()}
	if n := h.Overflows(); n > 0 && len(counts) > 0 {
		counts[len(counts)-1] -= n
	}
	if n := h.Underflows(); n > 0 && len(counts) > 0 {
		counts[0] -= n
	}
	for len(counts) > 1 && counts[len(counts)-1] <= 0 {
		counts, bounds = counts[:len(counts)-1], bounds[:len(bounds)-1]
	}
	for len(counts) > 1 && counts[0] <= 0 {
		counts, bounds = counts[1:], bounds[1:]
	}
	rh.Bounds, rh.Counts = bounds, counts
	return rh
}
