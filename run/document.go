package run

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/internal/valgrind"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/warn"
)

// Document returns the result document of the benchmark with m's tool,
// arguments and environment: one Measurement per command with every
// run's raw figures (see result.CommandRun for the metrics), the
// overhead runs, the presentation choices of the options and the
// warnings, and the comparisons between the commands (package compare's,
// against the reference the options name, else the fastest), which
// readers recompute from the samples.
func (r *Benchmark) Document(m result.Meta) *result.Document {
	d, _ := r.DocumentContext(context.Background(), m)
	return d
}

// DocumentContext is Document, stopped when ctx is done: it checks ctx
// before the analysis of each command (the analysis, not the copying, is
// what costs; a scan has thousands of commands), and returns ctx's error
// and no document once it is done. chrono run builds its documents
// during the benchmark with the benchmark's context, so that a Ctrl-C
// or SIGTERM stops the building too.
func (r *Benchmark) DocumentContext(ctx context.Context, m result.Meta) (*result.Document, error) {
	d := result.New(result.KindCommand, m)
	d.Start, d.End = r.Start, r.End
	if d.End.IsZero() {
		d.End = d.Start
	}
	d.Incomplete = r.incomplete()
	// The environment's warnings are shown from it, not copied.
	run := r.kindRun()
	d.Run.Command = run
	if r.Err != nil {
		run.Error = r.Err.Error()
		d.Warnings = append(d.Warnings, warn.New("stopped", "the benchmark stopped on an error: "+firstLine(r.Err.Error()),
			"fix what the error names and run it again"))
	}
	if r.Interrupted {
		d.Warnings = append(d.Warnings, warn.New("interrupted", "interrupted: the measurements present are real but fewer than asked for",
			"run it again without interrupting for all the runs"))
	}
	if r.Options.Simulate {
		d.Warnings = append(d.Warnings, warn.New("simulated", "simulated: no command was run (--debug-mode); every time is the one its `sleep SECONDS` command names, on a simulated clock",
			"leave out --debug-mode to measure"))
	}
	d.Warnings = append(d.Warnings, r.Notes...)
	if w, ok := r.countersWarning(); ok {
		d.Warnings = append(d.Warnings, w)
	}
	if r.CPUUnavailable != "" {
		d.Warnings = append(d.Warnings, warn.NewNote("cpu-unavailable", r.CPUUnavailable, "measure on Windows itself for the user and system times"))
	}
	if usageUnavailable != "" {
		d.Warnings = append(d.Warnings, warn.NewNote("rusage-unavailable", usageUnavailable, "measure on Linux or macOS for per-run memory and context switches"))
	}
	results := r.Results
	if r.Interrupted || r.inProgress {
		// As hyperfine's export holds the benchmarks that ran, the
		// document of an interrupted benchmark, or of one in progress
		// (Snapshot), holds the commands that started (a scan
		// interrupted early has thousands that did not, and building
		// and rendering them took seconds): one interrupted in the
		// middle stays, marked incomplete.
		results = slices.DeleteFunc(slices.Clone(results), func(res *CommandRuns) bool { return !res.started() })
		if left := len(r.Results) - len(results); left > 0 {
			of := fmt.Sprintf("%d of the %s", left, plural.Count(len(r.Results), "command"))
			w := warn.New("not-started", of+" "+plural.Was(left)+" not started because of the interruption and "+plural.Is(left)+" left out",
				"run them again without interrupting (a scan: narrow -P/-L to the values left out)")
			if !r.Interrupted {
				w = warn.New("not-started", "in progress: "+of+" "+plural.Is(left)+" not started yet and "+plural.Is(left)+" left out",
					"let the benchmark run to its end")
			}
			d.Warnings = append(d.Warnings, w)
		}
	}
	w := r.whole()
	for _, res := range results {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d.Measurements = append(d.Measurements, r.measurement(r.analyzeIn(res, w)))
	}
	if c, err := compare.CommandDocument(d, ""); err == nil {
		d.Comparisons = c.Stored()
	}
	return d, nil
}

// Snapshot returns a copy of the benchmark as it is now, which the runs
// that follow leave as it is, so that another goroutine can make its
// document (DocumentContext) while the benchmark goes on or stops; that
// document holds the commands started so far (a not-started warning
// counts the others), as an interrupted benchmark's does. It
// costs a copy of each command's bookkeeping, not of its samples: a run
// only ever appends to them.
func (r *Benchmark) Snapshot() *Benchmark {
	s := *r
	s.inProgress = true
	s.Results = make([]*CommandRuns, len(r.Results))
	for i, res := range r.Results {
		c := *res
		s.Results[i] = &c
	}
	if r.Overhead != nil {
		ov := *r.Overhead
		s.Overhead = &ov
	}
	s.CountersUnavailable = slices.Clone(r.CountersUnavailable) // their Runs are counted in place
	s.Notes = slices.Clone(r.Notes)
	return &s
}

// kindRun returns the kind-level details of the benchmark's document.
func (r *Benchmark) kindRun() *result.CommandRun {
	opts := r.Options
	run := &result.CommandRun{Order: string(r.Order), Seed: r.Seed, Runs: opts.Runs, MinRuns: opts.MinRuns, MaxRuns: opts.MaxRuns,
		Warmup: opts.Warmup, TimeBudgetNs: opts.Budget.Nanoseconds(), TimeoutNs: opts.Timeout.Nanoseconds(), Precision: opts.Precision,
		Pin: opts.Pin, IgnoreFailure: opts.IgnoreFailure, IgnoreExitCodes: opts.IgnoreExitCodes, Reference: opts.Reference, Sort: opts.Sort,
		TimeUnit: opts.TimeUnit, Style: opts.Style, Simulated: opts.Simulate, Interrupted: r.Interrupted}
	if shell, err := shellWords(opts); err == nil {
		run.Shell = shell
	}
	if ov := r.Overhead; ov != nil {
		o := &result.CommandOverhead{Kind: ov.Kind, Command: ov.Line, Subtracted: ov.Subtracted, Unavailable: ov.Unavailable}
		if len(ov.Samples) > 0 {
			o.Metrics = []result.Metric{metric("wall", result.UnitNs, 1, series(ov.Samples, func(s Sample) float64 { return float64(s.Wall) }))}
			if r.CPUUnavailable == "" {
				o.Metrics = append(o.Metrics,
					metric("user", result.UnitNs, float64(cpuTimeResolution), series(ov.Samples, func(s Sample) float64 { return float64(s.User) })),
					metric("sys", result.UnitNs, float64(cpuTimeResolution), series(ov.Samples, func(s Sample) float64 { return float64(s.Sys) })))
			}
			for _, name := range r.extraNames() {
				xs := make([]float64, 0, len(ov.Samples))
				for _, s := range ov.Samples {
					if v, ok := s.Extra[name]; ok {
						xs = append(xs, v)
					}
				}
				if len(xs) == len(ov.Samples) {
					o.Metrics = append(o.Metrics, metric(name, extraUnit(name), 1, xs))
				}
			}
		}
		run.Overhead = o
	}
	if opts.Instructions {
		run.Counters = simulatedCounters()
	}
	if len(opts.Counters) > 0 {
		c := &result.CommandCounters{Source: counters.SourcePerf + " (the command and its descendants, from execve to exit)"}
		for _, e := range opts.Counters {
			c.Events = append(c.Events, e.Name)
		}
		run.Counters = c
		counted := map[string]bool{}
		for _, n := range r.extraNames() {
			counted[n] = true
		}
		for _, u := range r.CountersUnavailable {
			if !counted[u.Name] {
				u.Runs = 0 // counted in no run: the document's "every run"
			}
			run.Unavailable = append(run.Unavailable, u)
		}
	}
	if r.CPUUnavailable != "" {
		for _, n := range []string{"user", "sys"} {
			run.Unavailable = append(run.Unavailable, result.Unavailable{Name: n, Reason: r.CPUUnavailable})
		}
	}
	if usageUnavailable != "" {
		for _, n := range []string{"max_rss", "minor_faults", "major_faults", "vol_cs", "invol_cs"} {
			run.Unavailable = append(run.Unavailable, result.Unavailable{Name: n, Reason: usageUnavailable})
		}
	}
	if r.Processes > 0 && r.OwnCPU >= 0 {
		run.OwnCPU = &result.OwnCPU{Ns: r.OwnCPU.Nanoseconds(), Processes: r.Processes}
	}
	if r.ParentPeakRSSBytes > 0 {
		run.ParentPeakRSSBytes = r.ParentPeakRSSBytes
	}
	return run
}

// metric is the metric of values xs (result.SampleMetric), without a
// summary when there are none.
func metric(name, unit string, resolution float64, xs []float64) result.Metric {
	m := result.SampleMetric(name, unit, resolution, xs)
	if len(xs) == 0 {
		m.Summary = nil
	}
	return m
}

func (r *Benchmark) measurement(a *analysis) result.Measurement {
	res := a.CommandRuns
	m := result.Measurement{Name: res.Command.Name, Parameters: res.Command.Params, Primary: "wall",
		Warnings: a.Warnings, Incomplete: !res.Complete || res.noTiming()}
	if r.Options.Instructions && a.Metric(valgrind.FigureInstructions) != nil {
		m.Primary = valgrind.FigureInstructions // the commands are ranked by it
	}
	cpuRes := float64(cpuTimeResolution)
	m.Metrics = append(m.Metrics, metric("wall", result.UnitNs, 1, a.Wall))
	if r.CPUUnavailable == "" {
		m.Metrics = append(m.Metrics, metric("user", result.UnitNs, cpuRes, a.User), metric("sys", result.UnitNs, cpuRes, a.Sys))
	}
	if a.whole.sub {
		m.Metrics = append(m.Metrics, metric("wall_raw", result.UnitNs, 1, a.RawWall))
		if r.CPUUnavailable == "" {
			m.Metrics = append(m.Metrics, metric("user_raw", result.UnitNs, cpuRes, a.RawUser), metric("sys_raw", result.UnitNs, cpuRes, a.RawSys))
		}
	}
	if len(res.Samples) > 0 && res.Samples[0].MaxRSSBytes >= 0 {
		m.Metrics = append(m.Metrics,
			metric("max_rss", result.UnitBytes, maxRSSUnit, series(res.Samples, func(s Sample) float64 { return float64(s.MaxRSSBytes) })),
			metric("minor_faults", result.UnitCount, 1, series(res.Samples, func(s Sample) float64 { return float64(s.MinorFaults) })),
			metric("major_faults", result.UnitCount, 1, series(res.Samples, func(s Sample) float64 { return float64(s.MajorFaults) })),
			metric("vol_cs", result.UnitCount, 1, series(res.Samples, func(s Sample) float64 { return float64(s.VolCS) })),
			metric("invol_cs", result.UnitCount, 1, series(res.Samples, func(s Sample) float64 { return float64(s.InvolCS) })))
	}
	exit := metric("exit_code", result.UnitOne, 1, series(res.Samples, func(s Sample) float64 { return float64(s.ExitCode) }))
	exit.Summary = nil // a code, not a quantity
	m.Metrics = append(m.Metrics, exit)
	if slices.ContainsFunc(res.Samples, func(s Sample) bool { return s.SignalNumber > 0 }) {
		sig := metric("signal", result.UnitOne, 1, series(res.Samples, func(s Sample) float64 { return float64(s.SignalNumber) }))
		sig.Summary = nil // a signal number, not a quantity
		m.Metrics = append(m.Metrics, sig)
	}
	if len(res.CPUs) > 0 {
		cpus := series(res.Samples, func(s Sample) float64 {
			if s.Iteration < len(res.CPUs) {
				return float64(res.CPUs[s.Iteration])
			}
			return -1
		})
		if !slices.Contains(cpus, -1) {
			c := metric("cpu", result.UnitCPU, 1, cpus)
			c.Summary = nil // a CPU number, not a quantity
			m.Metrics = append(m.Metrics, c)
		}
	}
	detail := &result.CommandDetail{CommandLine: res.Command.Line, Argv: res.Command.Argv, UnusedParameters: res.Command.Unused,
		Complete: res.Complete, CPUsDiffer: a.CPUsDiffer, Derived: a.Derived}
	// Probe figures (counters), one metric per figure present in every
	// run, corrected like the times (see metricAnalysis).
	for _, ma := range a.Metrics {
		detail.Probes = append(detail.Probes, ma.Name)
		m.Metrics = append(m.Metrics, metric(ma.Name, ma.Unit, 1, ma.Values))
		if ma.Subtracted {
			m.Metrics = append(m.Metrics, metric(ma.Name+"_raw", ma.Unit, 1, ma.Raw))
		}
		if ma.Running != nil {
			m.Metrics = append(m.Metrics, metric(ma.Name+"_running", result.UnitOne, 0, ma.Running))
		}
	}

	if r.Options.Precision > 0 {
		reached := res.PrecisionReached
		detail.PrecisionReached = &reached
	}
	for _, s := range res.TimedOut {
		detail.TimedOut = append(detail.TimedOut, result.TimedOutRun{Iteration: s.Iteration, WallNs: s.Wall.Nanoseconds()})
	}
	m.Detail.Command = detail
	return m
}

// countersWarning is the warning that names the events that were not
// counted, with the reasons, once for the whole benchmark.
func (r *Benchmark) countersWarning() (warn.Warning, bool) {
	if len(r.CountersUnavailable) == 0 {
		return warn.Warning{}, false
	}
	counted := map[string]bool{}
	for _, n := range r.extraNames() {
		counted[n] = true
	}
	// Group the names that share a reason.
	var reasons []string
	names := map[string][]string{}
	for _, u := range r.CountersUnavailable {
		if counted[u.Name] {
			u.Name += " (in " + plural.Count(u.Runs, "run") + ")"
		}
		if _, ok := names[u.Reason]; !ok {
			reasons = append(reasons, u.Reason)
		}
		names[u.Reason] = append(names[u.Reason], u.Name)
	}
	var parts []string
	for _, reason := range reasons {
		parts = append(parts, strings.Join(names[reason], ", ")+": "+reason)
	}
	return warn.New("counters-unavailable", "counters not counted (their values are not reported, never as 0): "+strings.Join(parts, "; "),
		"count them where the reason above allows (bare metal for hardware events), or leave them out of --counters"), true
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSuffix(line, "; the end of its stderr:")
}
