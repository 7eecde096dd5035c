package bench

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/chronograph/chronograph/profiles"
	"github.com/chronograph/chronograph/result"
)

// ProfileSource is the source the document records for bench's
// profiles (result.ProfileRef.Source).
const ProfileSource = "runtime/pprof"

// SaveProfiles writes the profiles of results (Options.Profile) beside
// the document d that will be written to docPath, one file per profiled
// measurement (profiles.BesidePath: bench.json's first measurement's is
// bench.0.pprof), and sets each measurement's Profile.File to it. Write
// d to docPath afterwards (result.WriteFile). Profiles are kept beside
// the document, not in it, so that go tool pprof and go build -pgo read
// them as they are and the document stays plain JSON.
func SaveProfiles(docPath string, d *result.Document, results ...*Benchmark) error {
	byName := map[string]*Benchmark{}
	for _, r := range results {
		if r.Profile != nil {
			byName[r.Name] = r
		}
	}
	for i := range d.Measurements {
		m := &d.Measurements[i]
		r := byName[m.Name]
		if m.Profile == nil || r == nil {
			continue
		}
		path := profiles.BesidePath(docPath, i)
		if err := profiles.Write(path, r.Profile); err != nil {
			return fmt.Errorf("bench: the profile of %s: %w", m.Name, err)
		}
		m.Profile.File = profiles.RefName(docPath, filepath.Clean(path))
	}
	return nil
}

// Document returns the chronograph result document (kind "function") of
// the results with m's tool, arguments and environment (bench's is
// result.ToolFromBuild("chronograph/bench"), the environment
// env.Capture) and, per result, one measurement of its samples (named as
// the result) and one per mode it ran ("NAME/latency", "NAME/cold",
// "NAME/parallel"): every sample's figures as metrics, the calibration,
// warm-up, overhead, placement, counters and modes in
// result.FunctionDetail. The schema is in docs/result-schema.md. Write it
// with result.WriteFile; package report renders it (report.Render: text,
// exactly what `chrono report` prints for the saved document, Markdown,
// CSV, the Go benchmark format).
func Document(m result.Meta, results ...*Benchmark) *result.Document {
	d := result.New(result.KindFunction, m)
	for i, r := range results {
		if i == 0 || r.Start.Before(d.Start) {
			d.Start = r.Start
		}
		if r.End.After(d.End) {
			d.End = r.End
		}
		d.Incomplete = d.Incomplete || r.Incomplete
		d.Measurements = append(d.Measurements, r.measurements()...)
	}
	return d
}

// Document returns the result document of the comparison with m's tool,
// arguments and environment (see Document): its results' measurements,
// the rounds (result.FunctionRun) and one result.Comparison per pair that
// has an interval and a test.
func (c *Comparison) Document(m result.Meta) *result.Document {
	d := Document(m, c.Results...)
	fc := &result.FunctionCompare{Iterations: c.Iterations, Order: c.Order}
	for _, r := range c.Results {
		fc.Cases = append(fc.Cases, r.Name)
	}
	d.Run.Function = &result.FunctionRun{Compare: fc}
	for _, p := range c.Pairs {
		if p.CIErr != "" || math.IsNaN(p.P) {
			continue // no figures to store; the view says why
		}
		d.Comparisons = append(d.Comparisons, result.Comparison{
			A: p.A, B: p.B, Metric: "wall", Statistic: "median of paired ratios A/B",
			Ratio: p.Median, Lo: p.CI.Lo, Hi: p.CI.Hi, Confidence: p.CI.Confidence,
			Test: "mann-whitney-u", P: p.P, Verdict: p.Verdict,
		})
	}
	return d
}

// metric returns a metric of the values, with their summary and p50 and
// p99 (linear definition).
func metric(name, unitName string, resolution float64, xs []float64) result.Metric {
	return result.SampleMetric(name, unitName, resolution, xs, 50, 99)
}

// column returns f of every sample.
func column(ss []Sample, f func(Sample) float64) []float64 {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = f(s)
	}
	return xs
}

// all reports whether f holds for every sample (and there is one).
func all(ss []Sample, f func(Sample) bool) bool {
	for _, s := range ss {
		if !f(s) {
			return false
		}
	}
	return len(ss) > 0
}

// perOpMetrics returns the per-iteration metrics that every mode's
// samples have: wall time (unit ns/op, resolution tick over the fewest
// iterations of a sample), thread CPU time when it was read in every
// sample (resolution one unit of the CPU clock, cpuUnitNs, over the
// fewest iterations; 0 is taken as 1 ns), allocations and bytes.
func perOpMetrics(ss []Sample, tickNs, cpuUnitNs float64) []result.Metric {
	fewest := uint64(math.MaxUint64)
	for _, s := range ss {
		fewest = min(fewest, max(s.Iterations, 1))
	}
	perOp := 1 / float64(fewest) // one count in the shortest sample
	ms := []result.Metric{metric("wall", result.UnitNsPerOp, tickNs*perOp, column(ss, Sample.NsPerOp))}
	if all(ss, func(s Sample) bool { return s.CPUNs >= 0 }) {
		// One unit of the thread CPU clock in the shortest sample (100 ns
		// on Windows, where GetThreadTimes counts in 100 ns units).
		ms = append(ms, metric("cpu_time", result.UnitNsPerOp, max(cpuUnitNs, 1)*perOp, column(ss, Sample.cpuNsPerOp)))
	}
	return append(ms,
		metric("allocs", result.UnitCountPerOp, perOp, column(ss, Sample.allocsPerOp)),
		metric("bytes", result.UnitBytesPerOp, perOp, column(ss, Sample.bytesPerOp)))
}

// measurements returns r as measurements of the result document: its
// samples, then its modes.
func (r *Benchmark) measurements() []result.Measurement {
	clk := result.FunctionClock{Name: r.Clock, TickNs: r.Probe.TickNs, ReadNs: r.Probe.ReadNs}
	if r.Instructions != nil {
		return []result.Measurement{r.instructionsMeasurement(clk)}
	}
	ms := []result.Measurement{r.batchMeasurement(clk)}
	if l := r.Latency; l != nil {
		ms = append(ms, r.latencyMeasurement(clk, l))
	}
	if len(r.Cold) > 0 {
		ms = append(ms, result.Measurement{
			Name: r.Name + "/" + result.FunctionCold, Parameters: r.Params, Primary: "wall",
			Metrics: perOpMetrics(r.Cold, r.Probe.TickNs, r.CPUClock.UnitNs),
			Detail:  result.KindDetail{Function: &result.FunctionDetail{Mode: result.FunctionCold, Benchmark: r.Name, Clock: clk}},
		})
	}
	if p := r.Parallel; p != nil {
		ms = append(ms, r.parallelMeasurement(clk, p))
	}
	return ms
}

// batchMeasurement returns the measurement of r's samples (see
// result.FunctionDetail for its metrics).
func (r *Benchmark) batchMeasurement(clk result.FunctionClock) result.Measurement {
	ss := r.Samples
	m := result.Measurement{Name: r.Name, Parameters: r.Params, Primary: "wall", Incomplete: r.Incomplete,
		Warnings: r.Warnings}
	if r.Profile != nil {
		n, _ := profiles.Samples(r.Profile) // runtime/pprof's profiles always have a count
		m.Profile = &result.ProfileRef{Source: ProfileSource, Samples: n, Iterations: r.ProfileIterations(), Per: "iteration"}
	}
	m.Metrics = perOpMetrics(ss, r.Probe.TickNs, r.CPUClock.UnitNs)
	count := func(name string, f func(Sample) float64) result.Metric {
		return metric(name, result.UnitCount, 1, column(ss, f))
	}
	m.Metrics = append(m.Metrics,
		count("iterations", func(s Sample) float64 { return float64(s.Iterations) }),
		count("ticks", func(s Sample) float64 { return float64(s.Ticks) }),
		count("gc_cycles", func(s Sample) float64 { return float64(s.GCs) }))
	if all(ss, func(s Sample) bool { return s.CPUNs >= 0 }) {
		m.Metrics = append(m.Metrics, metric("cpu_read_subtracted", result.UnitNs, 0, column(ss, func(s Sample) float64 { return s.CPUReadNs })))
	}
	if all(ss, func(s Sample) bool { return s.VolCtxSw >= 0 && s.InvolCtxSw >= 0 && s.MinFlt >= 0 && s.MajFlt >= 0 }) {
		m.Metrics = append(m.Metrics,
			count("vol_ctx_switches", func(s Sample) float64 { return float64(s.VolCtxSw) }),
			count("invol_ctx_switches", func(s Sample) float64 { return float64(s.InvolCtxSw) }),
			count("minor_faults", func(s Sample) float64 { return float64(s.MinFlt) }),
			count("major_faults", func(s Sample) float64 { return float64(s.MajFlt) }))
	}
	if !all(ss, func(s Sample) bool { return s.TimerStops == 0 }) {
		m.Metrics = append(m.Metrics, count("timer_stops", func(s Sample) float64 { return float64(s.TimerStops) }))
	}
	if all(ss, func(s Sample) bool { return s.CPU >= 0 && s.CPUEnd >= 0 }) {
		m.Metrics = append(m.Metrics,
			metric("cpu", result.UnitCPU, 1, column(ss, func(s Sample) float64 { return float64(s.CPU) })),
			metric("cpu_end", result.UnitCPU, 1, column(ss, func(s Sample) float64 { return float64(s.CPUEnd) })))
	}

	fd := &result.FunctionDetail{Mode: result.FunctionBatch, Benchmark: r.Name, Clock: clk,
		Calibration: &result.FunctionCalibration{TargetNs: float64(r.Target), GoalNs: r.GoalNs, Iterations: r.Iterations,
			JitterMax: jitterMax, Trials: trials(r.Calibration)},
		Warmup:                trials(r.Warmup),
		PossiblyOptimizedAway: r.PossiblyOptimizedAway,
	}
	o := r.Overhead
	fd.Overhead, fd.NetNsPerOp = &o, r.NetNsPerOp
	pl := r.Placement
	fd.Placement = &pl
	if r.CI.Method != "" {
		ci := r.CI
		fd.MedianCI = &ci
	}

	// Counters: net per op in every sample that counted them.
	var cms []result.Metric
	cms, fd.Counters = r.counterMetrics(ss)
	m.Metrics = append(m.Metrics, cms...)
	if r.IPC != nil {
		var xs []float64
		for _, smp := range ss {
			in, ok1 := netPerOp(smp, "instructions", r.counterOverhead("instructions"))
			cy, ok2 := netPerOp(smp, "cycles", r.counterOverhead("cycles"))
			if ok1 && ok2 && cy > 0 {
				xs = append(xs, in/cy)
			}
		}
		if len(xs) == len(ss) {
			m.Metrics = append(m.Metrics, metric("ipc", result.UnitOne, 0, xs))
		}
	}
	fd.CountersUnavailable = r.CountersUnavailable
	m.Detail.Function = fd
	return m
}

// counterMetrics returns the metrics of r.Counters over the samples ss
// (of r.Iterations iterations each): net per op in every sample that
// counted them. An event that some sample did not count has no metric (a
// metric holds one value per sample, and a sample that did not count has
// no value, never a 0): its values are in the detail with their samples.
func (r *Benchmark) counterMetrics(ss []Sample) ([]result.Metric, []result.FunctionCounter) {
	var ms []result.Metric
	var fcs []result.FunctionCounter
	perOp := 1 / float64(max(r.Iterations, 1))
	for _, c := range r.Counters {
		fcs = append(fcs, c.FunctionCounter)
		if c.PartialSamples != nil {
			continue // its values are in the detail, with their samples
		}
		u := result.UnitCountPerOp
		if c.Unit == "ns" {
			u = result.UnitNsPerOp
		}
		ms = append(ms, metric(c.Event, u, perOp, column(ss, func(s Sample) float64 {
			v, _ := netPerOp(s, c.Event, c.OverheadPerSample)
			return v
		})))
	}
	return ms, fcs
}

// trials returns discarded samples as the document keeps them.
func trials(ss []Sample) []result.FunctionTrial {
	var out []result.FunctionTrial
	for _, s := range ss {
		out = append(out, result.FunctionTrial{Iterations: s.Iterations, WallNs: s.WallNs})
	}
	return out
}

// latencyMeasurement returns the latency mode's measurement: the
// durations of single operations binned as the HDR histogram kept them,
// with the exact extremes, mean and standard deviation.
func (r *Benchmark) latencyMeasurement(clk result.FunctionClock, l *Latency) result.Measurement {
	m := result.Measurement{
		Name: r.Name + "/" + result.FunctionLatency, Parameters: r.Params,
		Warnings: l.Warnings,
		Detail: result.KindDetail{Function: &result.FunctionDetail{Mode: result.FunctionLatency, Benchmark: r.Name, Clock: clk,
			Latency: &result.FunctionLatencyMode{Ops: l.Ops, OpsPerSample: l.OpsPerSample, ReadOverheadNs: l.ReadOverheadNs,
				SignificantDigits: latencyDigits}}},
	}
	bounds, counts := l.Histogram.Bins()
	if len(counts) == 0 {
		return m // nothing recorded: no metric
	}
	sd := l.StdDev
	met := result.Metric{Name: "latency", Unit: result.UnitNs, Resolution: max(1, r.Probe.TickNs),
		Histogram: &result.Histogram{Bounds: bounds, Counts: counts,
			Underflow: l.Histogram.Underflows(), Overflow: l.Histogram.Overflows(),
			Min: l.Min, Max: l.Max, Mean: l.Mean, StdDev: &sd},
		Percentiles:      map[string]float64{"p50": l.P50, "p90": l.P90, "p99": l.P99, "p99.9": l.P999},
		PercentileMethod: "hdr-upper",
	}
	m.Primary, m.Metrics = met.Name, []result.Metric{met}
	return m
}

// parallelMeasurement returns the parallel mode's measurement (see
// result.FunctionDetail for its metrics).
func (r *Benchmark) parallelMeasurement(clk result.FunctionClock, p *Parallel) result.Measurement {
	n := len(p.WallNs)
	ops := make([]float64, n)
	for _, ws := range p.PerWorker {
		for i := 0; i < n && i < len(ws); i++ {
			ops[i] += float64(ws[i].Iterations)
		}
	}
	perOp := make([]float64, n)
	fewest := math.Inf(1)
	for i, w := range p.WallNs {
		if ops[i] > 0 {
			perOp[i] = w / ops[i]
			fewest = min(fewest, ops[i])
		}
	}
	tick := r.Probe.TickNs
	ms := []result.Metric{
		metric("wall", result.UnitNsPerOp, tick/fewest, perOp),
		metric("elapsed", result.UnitNs, tick, p.WallNs),
	}
	for j, ws := range p.PerWorker {
		ms = append(ms, metric("worker"+strconv.Itoa(j), result.UnitNsPerOp, tick/float64(max(p.Iterations, 1)), nsPerOps(ws)))
	}
	return result.Measurement{
		Name: r.Name + "/" + result.FunctionParallel, Parameters: r.Params, Primary: "wall", Metrics: ms,
		Detail: result.KindDetail{Function: &result.FunctionDetail{Mode: result.FunctionParallel, Benchmark: r.Name, Clock: clk,
			Parallel: &result.FunctionParallelMode{Workers: p.Workers, Iterations: p.Iterations}}},
	}
}
