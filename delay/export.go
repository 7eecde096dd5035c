package delay

import (
	"fmt"
	"github.com/chronograph/chronograph/warn"
	"math"
	"strconv"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// percentile labels reported for latency and overshoot series.
var exportPercentiles = []float64{50, 90, 99, 99.9}

func metric(name, unit string, xs []float64) result.Metric {
	m := result.Metric{Name: name, Unit: unit, Values: xs}
	if len(xs) > 0 {
		s := stats.Summarize(xs)
		m.Summary = &s
		m.Percentiles = map[string]float64{}
		for _, p := range exportPercentiles {
			m.Percentiles[stats.PercentileLabel(p)] = stats.Percentile(xs, p, stats.Linear)
		}
		m.PercentileMethod = string(stats.Linear)
	}
	return m
}

// Measurement returns the cell as a result measurement: the raw achieved
// durations ("achieved", primary), the overshoots and the CPU time per
// wait, all in ns.
func (c *Cell) Measurement() result.Measurement {
	over := make([]float64, len(c.Achieved))
	for i, a := range c.Achieved {
		over[i] = a - float64(c.Requested)
	}
	m := result.Measurement{
		Name: fmt.Sprintf("%s %v", c.Mechanism, c.Requested),
		Parameters: map[string]string{
			"mechanism":    c.Mechanism,
			"requested_ns": strconv.FormatInt(int64(c.Requested), 10),
		},
		Primary: "achieved",
		Metrics: []result.Metric{metric("achieved", "ns", c.Achieved), metric("overshoot", "ns", over)},
		Details: map[string]any{
			"best":        c.Best,
			"best_frugal": c.BestFrugal,
		},
		Incomplete: c.Incomplete,
	}
	if len(c.CPU) == len(c.Achieved) && len(c.CPU) > 0 {
		m.Metrics = append(m.Metrics, metric("cpu", "ns", c.CPU))
		m.Details["cpu_clock"] = c.CPUClock
	}
	if !math.IsNaN(c.ErrorPct) {
		m.Details["relative_error_pct"] = c.ErrorPct
	}
	if c.Unavailable != "" {
		m.Warnings = append(m.Warnings, warn.Legacy("unavailable", "unavailable: "+c.Unavailable))
	}
	if c.Failed > 0 {
		m.Details["failed"] = c.Failed
		m.Warnings = append(m.Warnings, warn.New("waits-failed",
			fmt.Sprintf("%d of %d waits failed and are not in the figures: %v", c.Failed, c.Failed+len(c.Achieved), c.Err),
			"the error says why the system call failed"))
	}
	return m
}

// LatencyPercentiles are the percentiles a latency report shows.
var LatencyPercentiles = []float64{50, 90, 99, 99.9, 99.99}

// Measurements returns one measurement per thread plus, with more than one
// thread, "all threads". Latencies are in an HDR histogram, not a raw
// series: Metrics is empty (so no Primary) and Details holds the counts, extremes,
// percentiles (HdrHistogram's definition) and the histogram itself.
func (r *LatencyResult) Measurements() []result.Measurement {
	var out []result.Measurement
	add := func(name string, h *stats.Histogram, th *ThreadLatency) {
		overflows, mean := r.Overflows(), r.Mean()
		if th != nil {
			overflows, mean = th.Overflows, math.NaN()
			if th.Count > 0 {
				mean = float64(th.Sum) / float64(th.Count)
			}
		}
		d := map[string]any{
			"count":          h.Count(),
			"overflows":      overflows,
			"min_ns":         h.Min(),
			"max_ns":         h.Max(),
			"histogram":      h,
			"percentile_def": "hdrhistogram (value at quantile, 3 significant digits)",
		}
		ps := map[string]int64{}
		for _, p := range LatencyPercentiles {
			ps[stats.PercentileLabel(p)] = h.Quantile(p / 100)
		}
		d["percentiles_ns"] = ps
		if !math.IsNaN(mean) {
			d["mean_ns"] = mean // exact, from the raw latencies
		}
		if r.HistogramMax > 0 {
			d["overflow_limit_ns"] = int64(r.HistogramMax)
		}
		params := map[string]string{}
		if th != nil {
			params["thread"] = strconv.Itoa(th.Thread)
			params["interval_ns"] = strconv.FormatInt(int64(th.Interval), 10)
			params["priority"] = strconv.Itoa(th.Priority)
			params["cpu"] = strconv.Itoa(th.CPU)
			d["overruns"] = th.Overruns
			d["runtime_yields"] = th.Yields
			d["runtime_yield_max_ns"] = int64(th.YieldMax)
			if len(th.PerCPU) > 0 {
				var per []map[string]any
				for _, c := range th.PerCPU {
					per = append(per, map[string]any{"cpu": c.CPU, "count": c.Count, "min_ns": int64(c.Min),
						"max_ns": int64(c.Max), "mean_ns": c.Mean()})
				}
				d["per_cpu"] = per
			}
		}
		m := result.Measurement{Name: name, Parameters: params, Metrics: []result.Metric{}, Details: d, Incomplete: r.Interrupted}
		if th != nil && th.Err != nil {
			m.Incomplete = true
			m.Warnings = append(m.Warnings, warn.New("sleep-failed",
				fmt.Sprintf("the thread stopped after %d latencies: %v", th.Count, th.Err),
				"the figures cover what it measured before; the error says why the sleep failed"))
		}
		out = append(out, m)
	}
	for i, h := range r.Histograms {
		add(fmt.Sprintf("thread %d", i), h, &r.Threads[i])
	}
	if len(r.Histograms) > 1 {
		add("all threads", r.All, nil)
	}
	return out
}
