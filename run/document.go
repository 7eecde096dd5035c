package run

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// Kind is the result document kind of command benchmarks.
const Kind = "command"

// Document returns the result document of the report: one Measurement per
// command with every run's raw figures, the comparisons (against ref, or
// the fastest when ref is ""), and host's environment and warnings.
func (r *Report) Document(tool result.Tool, args []string, host *env.Host, ref string) *result.Document {
	d := result.New(Kind, tool)
	d.Args = args
	d.Start, d.End = r.Start, r.End
	if d.End.IsZero() {
		d.End = d.Start
	}
	d.Incomplete = r.Incomplete()
	d.Environment = host
	if host != nil {
		for _, w := range host.Warnings {
			d.Warnings = append(d.Warnings, w.Message)
		}
	}
	if r.Err != nil {
		d.Warnings = append(d.Warnings, "stopped by an error: "+r.Err.Error())
	}
	if r.Interrupted {
		d.Warnings = append(d.Warnings, "interrupted: the measurements present are real but fewer than asked for")
	}
	var as []*Analysis
	for _, res := range r.Results {
		a := r.Analyze(res)
		as = append(as, a)
		d.Measurements = append(d.Measurements, r.measurement(a))
	}
	_, cmps, _ := r.Compare(as, ref)
	for _, c := range cmps {
		if !finite(c.Ratio, c.CI.Lo, c.CI.Hi, c.MannWhitney.P) {
			d.Warnings = append(d.Warnings, "no comparison of "+c.Command.Command.Name+": "+c.Verdict)
			continue
		}
		d.Comparisons = append(d.Comparisons, result.Comparison{
			A: c.Command.Command.Name, B: c.Reference.Command.Name, Metric: "wall", Statistic: "median",
			Ratio: c.Ratio, Lo: c.CI.Lo, Hi: c.CI.Hi, Confidence: c.CI.Confidence,
			Test: "mann-whitney-u", P: c.MannWhitney.P, Verdict: c.Verdict,
		})
	}
	return d
}

func metric(name, unit string, xs []float64, summarize bool) result.Metric {
	m := result.Metric{Name: name, Unit: unit, Values: xs}
	if m.Values == nil {
		m.Values = []float64{}
	}
	if summarize && len(xs) > 0 {
		s := stats.Summarize(xs)
		m.Summary = &s
	}
	return m
}

func (r *Report) measurement(a *Analysis) result.Measurement {
	res := a.Result
	m := result.Measurement{Name: res.Command.Name, Parameters: res.Command.Params, Primary: "wall",
		Warnings: a.Warnings, Incomplete: !res.Complete}
	wall := metric("wall", "ns", a.Wall, true)
	if len(a.Wall) > 0 {
		wall.PercentileMethod = string(PercentileMethod)
		wall.Percentiles = map[string]float64{
			stats.PercentileLabel(50): a.WallSummary.Median,
			stats.PercentileLabel(95): a.P95,
			stats.PercentileLabel(99): a.P99,
		}
	}
	m.Metrics = append(m.Metrics, wall,
		metric("user", "ns", a.User, true),
		metric("sys", "ns", a.Sys, true))
	_, _, _, sub := r.overheadMedians()
	if sub {
		m.Metrics = append(m.Metrics,
			metric("wall_raw", "ns", a.RawWall, true),
			metric("user_raw", "ns", a.RawUser, true),
			metric("sys_raw", "ns", a.RawSys, true))
	}
	details := map[string]any{
		"command_line": res.Command.Line,
		"argv":         res.Command.Argv,
		"runs":         len(res.Samples) + len(res.TimedOut),
		"failures":     a.Failures,
		"timeouts":     a.TimedOut,
		"order":        string(r.Order),
		"seed":         r.Seed,
	}
	if len(res.Samples) > 0 && res.Samples[0].MaxRSSBytes >= 0 {
		m.Metrics = append(m.Metrics,
			metric("max_rss", "bytes", series(res.Samples, func(s Sample) float64 { return float64(s.MaxRSSBytes) }), true),
			metric("minor_faults", "count", series(res.Samples, func(s Sample) float64 { return float64(s.MinorFaults) }), true),
			metric("major_faults", "count", series(res.Samples, func(s Sample) float64 { return float64(s.MajorFaults) }), true),
			metric("vol_cs", "count", series(res.Samples, func(s Sample) float64 { return float64(s.VolCS) }), true),
			metric("invol_cs", "count", series(res.Samples, func(s Sample) float64 { return float64(s.InvolCS) }), true))
	} else if usageUnavailable != "" {
		details["unavailable"] = map[string]string{"max_rss,minor_faults,major_faults,vol_cs,invol_cs": usageUnavailable}
	}
	m.Metrics = append(m.Metrics, metric("exit_code", "1", series(res.Samples, func(s Sample) float64 { return float64(s.ExitCode) }), false))
	// Probe figures (e.g. counters), one metric per name present in every run.
	if len(res.Samples) > 0 && len(res.Samples[0].Extra) > 0 {
		for _, name := range slices.Sorted(maps.Keys(res.Samples[0].Extra)) {
			xs := make([]float64, 0, len(res.Samples))
			for _, s := range res.Samples {
				if v, ok := s.Extra[name]; ok {
					xs = append(xs, v)
				}
			}
			if len(xs) == len(res.Samples) {
				m.Metrics = append(m.Metrics, metric(name, "count", xs, true))
			}
		}
	}
	if r.ParentPeakRSSBytes > 0 {
		details["parent_peak_rss_bytes"] = r.ParentPeakRSSBytes
	}
	if a.MedianCI != nil {
		details["median_ci"] = a.MedianCI
	}
	if len(a.Wall) >= 4 { // Tukey's fences need 4 values (NaN below)
		details["outliers"] = a.Outliers
	}
	if r.Options.Precision > 0 {
		details["precision"] = map[string]any{"target": r.Options.Precision, "reached": res.PrecisionReached}
	}
	if len(res.TimedOut) > 0 {
		var tos []map[string]any
		for _, s := range res.TimedOut {
			tos = append(tos, map[string]any{"iteration": s.Iteration, "wall_ns": float64(s.Wall)})
		}
		details["timed_out_runs"] = tos
		details["timeout_ns"] = float64(r.Options.Timeout)
	}
	if oa := r.AnalyzeOverhead(); oa != nil {
		details[oa.Kind+"_overhead"] = map[string]any{
			"command":        oa.Line,
			"runs":           oa.Wall.N,
			"subtracted":     oa.Subtracted,
			"wall_median_ns": oa.Wall.Median,
			"wall_mad_ns":    oa.Wall.MADScaled,
			"wall_min_ns":    oa.Wall.Min,
			"wall_max_ns":    oa.Wall.Max,
			"user_median_ns": oa.User.Median,
			"sys_median_ns":  oa.Sys.Median,
			"wall_values_ns": series(oa.Samples, func(s Sample) float64 { return float64(s.Wall) }),
			"mad_is_scaled":  true,
			"note":           overheadNote(oa.Overhead),
		}
	} else if r.Overhead != nil && r.Overhead.Unavailable != "" {
		details[r.Overhead.Kind+"_overhead"] = map[string]any{"unavailable": r.Overhead.Unavailable}
	}
	m.Details = details
	return m
}

func overheadNote(ov *Overhead) string {
	if ov.Kind == "shell" {
		return "median start-up time of the shell with an empty command, measured interleaved with the runs; subtracted from wall, user and sys (clamped at 0)"
	}
	var b strings.Builder
	b.WriteString("median time to start and reap a trivial program (true), measured interleaved with the runs; ")
	if ov.Subtracted {
		b.WriteString("subtracted from wall, user and sys (--subtract-spawn)")
	} else {
		b.WriteString("not subtracted (use --subtract-spawn)")
	}
	return b.String()
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
