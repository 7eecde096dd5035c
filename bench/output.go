package bench

import (
	"fmt"
	"github.com/chronograph/chronograph/warn"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"text/tabwriter"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// resolution returns the finest digit worth printing for r's per-op
// figures, in ns: the clock's tick spread over the iterations, or a tenth
// of the confidence interval's width, whichever is coarser.
func (r *Result) resolution() float64 {
	res := r.Probe.TickNs / float64(max(r.Iterations, 1))
	if w := r.CI.Hi - r.CI.Lo; w > 0 {
		res = max(res, w/10)
	}
	return res
}

// WriteTable writes a terminal table of the results: the median time per
// operation with its 95 % confidence interval, the 99th percentile of the
// per-sample means, the coefficient of variation, allocations and bytes per
// operation, the thread's CPU time over wall time, then the modes' figures
// and every warning (environment warnings once, at the end).
func WriteTable(w io.Writer, results ...*Result) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "name\ttime/op\t95% CI\tp99\tCV\tallocs/op\tB/op\tCPU/wall\tsamples")
	for _, r := range results {
		res := r.resolution()
		ci := "-"
		if r.CI.Method != "" {
			ci = "[" + unit.FormatDuration(r.CI.Lo, res) + ", " + unit.FormatDuration(r.CI.Hi, res) + "]"
		}
		cpu := "n/a"
		if r.CPUPerWall >= 0 {
			cpu = unit.Sig(r.CPUPerWall, 2)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s%%\t%s\t%s\t%s\t%d×%d\n", r.Name,
			unit.FormatDuration(r.NsPerOp.Median, res), ci, unit.FormatDuration(r.P99, res),
			unit.Sig(100*r.NsPerOp.CV, 2), unit.Sig(r.AllocsPerOp, 3), unit.Sig(r.BytesPerOp, 3), cpu,
			len(r.Samples), r.Iterations)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	envw := map[string]bool{}
	for _, m := range envWarnings() {
		envw[m] = true
	}
	for _, r := range results {
		var lines []string
		cpuRead := "CPU time unavailable"
		if r.Overhead.CPUReadNs >= 0 {
			cpuRead = "CPU clock read " + unit.FormatDuration(r.Overhead.CPUReadNs, 1) + " of CPU time per timed segment (subtracted)"
		}
		lines = append(lines, fmt.Sprintf("overhead: empty loop %s–%s/op (two code placements), StopTimer+StartTimer %s (%s of it inside the timed region), %s; clock %s (tick %s, read %s)",
			unit.FormatDuration(r.Overhead.LoopNsPerOp, 0.001), unit.FormatDuration(r.Overhead.LoopNsPerOpHigh, 0.001),
			unit.FormatDuration(r.Overhead.TimerPairNs, 1), unit.FormatDuration(r.Overhead.TimerPairInsideNs, 1), cpuRead,
			r.Clock, unit.FormatDuration(r.Probe.TickNs, 0.1), unit.FormatDuration(r.Probe.ReadNs, 0.1)))
		if l := r.placementLine(); l != "" {
			lines = append(lines, l)
		}
		if r.Overhead.NetValid {
			lines = append(lines, fmt.Sprintf("net of loop overhead: %s/op", unit.FormatDuration(r.Overhead.NetNsPerOp, r.resolution())))
		}
		if l := r.countersLine(); l != "" {
			lines = append(lines, l)
		}
		if len(r.Warmup) > 0 {
			lines = append(lines, fmt.Sprintf("warm-up: %d samples, median %s/op (discarded)",
				len(r.Warmup), unit.FormatDuration(stats.Median(nsPerOps(r.Warmup)), r.resolution())))
		}
		if len(r.Cold) > 0 {
			xs := nsPerOps(r.Cold)
			lines = append(lines, fmt.Sprintf("cold: first call of %d fresh invocations: median %s, max %s",
				len(xs), unit.FormatDuration(stats.Median(xs), r.Probe.TickNs), unit.FormatDuration(stats.Summarize(xs).Max, r.Probe.TickNs)))
		}
		if l := r.Latency; l != nil {
			lines = append(lines, fmt.Sprintf("latency (%d single ops, read overhead %s subtracted): p50 %s  p90 %s  p99 %s  p99.9 %s  max %s",
				l.Ops, unit.FormatDuration(l.ReadOverheadNs, 1), unit.FormatDuration(l.P50, 1), unit.FormatDuration(l.P90, 1),
				unit.FormatDuration(l.P99, 1), unit.FormatDuration(l.P999, 1), unit.FormatDuration(l.Max, 1)))
			for _, m := range l.Warnings {
				lines = append(lines, "warning: latency: "+m)
			}
		}
		if p := r.Parallel; p != nil {
			var ws []string
			for _, t := range p.WorkerOpsPerSec {
				ws = append(ws, unit.Sig(t/1e6, 3))
			}
			lines = append(lines, fmt.Sprintf("parallel (%d workers): %s Mop/s aggregate (median), per worker %s Mop/s, %s/op per worker (median)",
				p.Workers, unit.Sig(p.Aggregate.Median/1e6, 3), strings.Join(ws, ", "), unit.FormatDuration(p.NsPerOp.Median, 0.01)))
		}
		for _, m := range r.Warnings {
			if !envw[m] {
				lines = append(lines, "warning: "+m)
			}
		}
		fmt.Fprintf(w, "%s:\n", r.Name)
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	var unavail []CounterUnavailable
	for _, r := range results {
		unavail = append(unavail, r.CountersUnavailable...)
	}
	for _, l := range unavailableLines(unavail) {
		fmt.Fprintf(w, "counters: %s\n", l)
	}
	for _, m := range envWarnings() {
		fmt.Fprintf(w, "environment: %s\n", m)
	}
	return nil
}

// placementLine describes where the samples ran and, with two CPUs or
// more, each CPU's median.
func (r *Result) placementLine() string {
	if r.Placement == "" {
		return ""
	}
	l := "placement: " + r.Placement
	if len(r.BlockMedians) > 1 {
		res := r.resolution()
		var bs []string
		for _, m := range r.BlockMedians {
			bs = append(bs, unit.FormatDuration(m, res))
		}
		l += "; block medians " + strings.Join(bs, ", ")
	}
	if len(r.PerCPU) > 1 {
		res := r.resolution()
		var cs []string
		for _, c := range r.PerCPU {
			cs = append(cs, fmt.Sprintf("CPU %d %s (%d)", c.CPU, unit.FormatDuration(c.Median, res), c.Samples))
		}
		l += "; per CPU (samples): " + strings.Join(cs, ", ")
	}
	return l
}

// WriteTable writes the comparison's results (see the function WriteTable)
// and its verdicts.
func (c *Comparison) WriteTable(w io.Writer) error {
	if err := WriteTable(w, c.Results...); err != nil {
		return err
	}
	for _, p := range c.Pairs {
		if _, err := fmt.Fprintf(w, "%s vs %s: %s (%d interleaved rounds of %d iterations, median of paired ratios %s/%s)\n",
			p.A, p.B, p.Verdict, len(p.Ratios), c.Iterations, p.A, p.B); err != nil {
			return err
		}
	}
	return nil
}

func tool() result.Tool {
	t := result.Tool{Name: "chronograph/bench", GoVersion: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		t.Version = bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				t.Revision = s.Value
			}
		}
	}
	return t
}

// Document returns the chronograph result document (kind "function") of
// the results, with the environment and one measurement per result (see
// Result.Measurement). Write it with result.WriteFile.
func Document(results ...*Result) *result.Document {
	d := result.New("function", tool())
	d.Environment = env.Capture()
	for _, r := range results {
		d.Measurements = append(d.Measurements, r.Measurement())
	}
	return d
}

// Document returns the result document of the comparison: its results'
// measurements and one result.Comparison per pair.
func (c *Comparison) Document() *result.Document {
	d := Document(c.Results...)
	for _, p := range c.Pairs {
		rc := result.Comparison{
			A: p.A, B: p.B, Metric: "wall", Statistic: "median of paired ratios A/B",
			Ratio: p.Median, Lo: p.CI.Lo, Hi: p.CI.Hi, Confidence: p.CI.Confidence,
			Test: "mann-whitney-u", P: p.P, Verdict: p.Verdict,
		}
		d.Comparisons = append(d.Comparisons, rc)
	}
	return d
}

func metric(name, unitName string, xs []float64) result.Metric {
	s := stats.Summarize(xs)
	m := result.Metric{Name: name, Unit: unitName, Values: xs, Summary: &s}
	if len(xs) > 0 {
		m.Percentiles = map[string]float64{
			"p50": stats.Percentile(xs, 50, stats.Linear),
			"p99": stats.Percentile(xs, 99, stats.Linear),
		}
		m.PercentileMethod = string(stats.Linear)
	}
	return m
}

// Measurement returns r as a measurement of the result document: every
// measured sample as metrics (iterations, wall ns/op, thread cpu ns/op
// when available, allocs/op, bytes/op, GC cycles, context switches and page
// faults; "<counter>/op" for Options.Counters), and in Details every
// measured sample as recorded (iterations, wall ns, clock ticks, thread
// CPU ns, allocations, bytes, GC cycles, context switches, page faults,
// StopTimer calls, raw counter counts: Sample), the calibration, warm-up,
// overhead, clock and modes.
func (r *Result) Measurement() result.Measurement {
	m := result.Measurement{Name: r.Name, Parameters: r.Params, Primary: "wall", Incomplete: r.Incomplete}
	col := func(f func(Sample) float64) []float64 {
		xs := make([]float64, len(r.Samples))
		for i, s := range r.Samples {
			xs[i] = f(s)
		}
		return xs
	}
	m.Metrics = append(m.Metrics,
		metric("iterations", "count", col(func(s Sample) float64 { return float64(s.Iterations) })),
		metric("wall", "ns/op", col(Sample.NsPerOp)))
	cpuOK := len(r.Samples) > 0
	usageOK := len(r.Samples) > 0
	for _, s := range r.Samples {
		cpuOK = cpuOK && s.CPUNs >= 0
		usageOK = usageOK && s.InvolCtxSw >= 0
	}
	if cpuOK {
		m.Metrics = append(m.Metrics, metric("cpu", "ns/op", col(Sample.CPUNsPerOp)))
	}
	m.Metrics = append(m.Metrics,
		metric("allocs", "allocs/op", col(Sample.AllocsPerOp)),
		metric("bytes", "bytes/op", col(Sample.BytesPerOp)),
		metric("gc_cycles", "count", col(func(s Sample) float64 { return float64(s.GCs) })))
	if usageOK {
		m.Metrics = append(m.Metrics,
			metric("vol_ctx_switches", "count", col(func(s Sample) float64 { return float64(s.VolCtxSw) })),
			metric("invol_ctx_switches", "count", col(func(s Sample) float64 { return float64(s.InvolCtxSw) })),
			metric("minor_faults", "count", col(func(s Sample) float64 { return float64(s.MinFlt) })),
			metric("major_faults", "count", col(func(s Sample) float64 { return float64(s.MajFlt) })))
	}
	// Counters: net per op in every sample that counted them (a sample
	// that did not count an event has no value: the metric then has
	// fewer values than samples, never a 0 for it).
	for _, c := range r.Counters {
		var xs []float64
		for _, smp := range r.Samples {
			if v, ok := netPerOp(smp, c.Name, c.OverheadPerSample); ok {
				xs = append(xs, v)
			}
		}
		u := c.Name + "/op"
		if c.Unit == "ns" {
			u = "ns/op"
		}
		m.Metrics = append(m.Metrics, metric(c.Name, u, xs))
	}
	if r.IPC != nil {
		var xs []float64
		for _, smp := range r.Samples {
			in, ok1 := netPerOp(smp, "instructions", r.counterOverhead("instructions"))
			cy, ok2 := netPerOp(smp, "cycles", r.counterOverhead("cycles"))
			if ok1 && ok2 && cy > 0 {
				xs = append(xs, in/cy)
			}
		}
		m.Metrics = append(m.Metrics, metric("ipc", "instructions/cycle", xs))
	}
	d := map[string]any{
		"clock":          r.Clock,
		"clock_tick_ns":  r.Probe.TickNs,
		"clock_read_ns":  r.Probe.ReadNs,
		"goal_ns":        r.GoalNs,
		"iterations":     r.Iterations,
		"jitter":         "0-20% more iterations per sample, uniform",
		"samples":        r.Samples,
		"calibration":    r.Calibration,
		"warmup":         r.Warmup,
		"overhead":       r.Overhead,
		"median_ci":      r.CI,
		"block_medians":  r.BlockMedians,
		"placement":      r.Placement,
		"per_cpu":        r.PerCPU,
		"cpus_differ":    r.CPUsDiffer,
		"migrations":     r.Migrations,
		"cpu_per_wall":   r.CPUPerWall,
		"overhead_note":  "ns/op is not corrected for the loop overhead; net_ns_per_op is given only where net_valid",
		"allocs_scope":   "heap allocations of the whole process in the timed region (runtime/metrics)",
		"cpu_time_scope": "CPU time of the benchmark's locked thread (CLOCK_THREAD_CPUTIME_ID), net of the CPU clock's own reads (overhead.cpu_read_ns per timed segment; each sample's cpu_read_subtracted_ns)",
	}
	if len(r.Counters) > 0 || len(r.CountersUnavailable) > 0 {
		d["counters"] = r.Counters
		d["counters_unavailable"] = r.CountersUnavailable
		d["counters_note"] = "counted per sample on the benchmark's thread (perf_event_open, group enabled once, read at both sample boundaries); per-op values are net of the smallest counts of empty samples of the same shape (overhead_per_sample), clamped at 0"
	}
	if len(r.Cold) > 0 {
		d["cold"] = r.Cold
	}
	if r.Latency != nil {
		d["latency"] = r.Latency
	}
	if r.Parallel != nil {
		d["parallel"] = r.Parallel
	}
	m.Details = d
	m.Warnings = warn.LegacyAll("bench", r.Warnings)
	return m
}
