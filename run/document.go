package run

import (
	"github.com/chronograph/chronograph/warn"
	"math"
	"strings"

	"github.com/chronograph/chronograph/counters"
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
	d.Environment = host // its warnings are shown from there, not copied
	if r.Err != nil {
		d.Warnings = append(d.Warnings, warn.Legacy("error", "stopped by an error: "+r.Err.Error()))
	}
	if r.Interrupted {
		d.Warnings = append(d.Warnings, warn.Legacy("interrupted", "interrupted: the measurements present are real but fewer than asked for"))
	}
	d.Warnings = append(d.Warnings, warn.LegacyAll("run", r.Notes)...)
	if n := r.countersNote(); n != "" {
		d.Warnings = append(d.Warnings, warn.Legacy("counters", n))
	}
	var as []*Analysis
	for _, res := range r.Results {
		a := r.Analyze(res)
		as = append(as, a)
		d.Measurements = append(d.Measurements, r.measurement(a))
	}
	refIdx, cmps, _ := r.Compare(as, ref)
	cmps = append(cmps, r.CompareMetrics(as, refIdx)...)
	for _, c := range cmps {
		if !finite(c.Ratio, c.CI.Lo, c.CI.Hi, c.MannWhitney.P) {
			what := ""
			if c.Metric != "wall" {
				what = " in " + c.Metric
			}
			d.Warnings = append(d.Warnings, warn.Legacy("no-comparison", "no comparison of "+c.Command.Command.Name+what+": "+c.Verdict))
			continue
		}
		d.Comparisons = append(d.Comparisons, result.Comparison{
			A: c.Command.Command.Name, B: c.Reference.Command.Name, Metric: c.Metric, Statistic: "median",
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
		Warnings: warn.LegacyAll("run", a.Warnings), Incomplete: !res.Complete || res.noTiming()}
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
	// Probe figures (counters), one metric per figure present in every
	// run, corrected like the times (see MetricAnalysis).
	var names []string
	running := map[string]float64{}
	overhead := map[string]float64{}
	for _, ma := range a.Metrics {
		names = append(names, ma.Name)
		m.Metrics = append(m.Metrics, metric(ma.Name, ma.Unit, ma.Values, true))
		if ma.Subtracted {
			m.Metrics = append(m.Metrics, metric(ma.Name+"_raw", ma.Unit, ma.Raw, true))
			overhead[ma.Name] = ma.Overhead
		}
		if ma.Scaled {
			running[ma.Name] = ma.MinRunningFraction
		}
	}
	if len(names) > 0 {
		details["counters"] = names
		if len(overhead) > 0 {
			details["counters_overhead_subtracted"] = overhead
		}
		if len(running) > 0 {
			details["counters_min_running_fraction"] = running
			details["counters_scaling"] = "multiplexed counters: each run's count is scaled by enabled/running time; the fraction is the smallest running/enabled of the runs"
		}
		if len(a.Derived) > 0 {
			details["counters_derived"] = a.Derived
		}
		if r.Counters != nil {
			details["counters_source"] = counters.SourcePerf + " (the child and its descendants, from execve to exit)"
		}
	}
	if r.ParentPeakRSSBytes > 0 {
		details["parent_peak_rss_bytes"] = r.ParentPeakRSSBytes
	}
	if r.Processes > 0 && r.OwnCPU >= 0 {
		details["own_cpu"] = map[string]any{
			"ns": float64(r.OwnCPU), "processes": r.Processes,
			"per_process_ns": float64(r.OwnCPU) / float64(r.Processes),
			"note":           "chrono's own CPU time (user+system of all its threads, getrusage RUSAGE_SELF) from the first process started to the last reaped, for all commands together; children excluded",
		}
	}
	if a.MedianCI != nil {
		details["median_ci"] = a.MedianCI
	}
	if len(res.CPUs) > 0 {
		details["run_cpus"] = res.CPUs
		details["pin_note"] = "each timing run was pinned to the CPU at its index (the run's iteration) in run_cpus"
	}
	if len(a.PerCPU) > 0 {
		details["per_cpu"] = a.PerCPU
		details["cpus_differ"] = a.CPUsDiffer
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
			"note":           overheadNote(oa.Overhead, len(a.Metrics) > 0 && a.Metrics[0].Subtracted),
		}
	} else if r.Overhead != nil && r.Overhead.Unavailable != "" {
		details[r.Overhead.Kind+"_overhead"] = map[string]any{"unavailable": r.Overhead.Unavailable}
	}
	m.Details = details
	return m
}

func overheadNote(ov *Overhead, counters bool) string {
	if ov.Kind == "shell" {
		if counters {
			return "median start-up time and counts of the shell with an empty command, measured interleaved with the runs; subtracted from wall, user, sys and the counters (clamped at 0)"
		}
		return "median start-up time of the shell with an empty command, measured interleaved with the runs; subtracted from wall, user and sys (clamped at 0)"
	}
	var b strings.Builder
	b.WriteString("median time to start and reap a trivial program (true), measured interleaved with the runs; ")
	if ov.Subtracted && counters {
		b.WriteString("subtracted from wall, user, sys and the counters (--subtract-spawn)")
	} else if ov.Subtracted {
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
