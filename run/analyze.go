package run

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// overheadMedians returns the medians of the overhead runs' wall, user
// and system times in ns, and whether they are subtracted.
func (r *Benchmark) overheadMedians() (wall, user, sys float64, subtract bool) {
	ov := r.Overhead
	if ov == nil || len(ov.Samples) == 0 || ov.Unavailable != "" {
		return 0, 0, 0, false
	}
	w, u, s := series(ov.Samples, func(s Sample) float64 { return float64(s.Wall) }),
		series(ov.Samples, func(s Sample) float64 { return float64(s.User) }),
		series(ov.Samples, func(s Sample) float64 { return float64(s.Sys) })
	return stats.Median(w), stats.Median(u), stats.Median(s), ov.Subtracted
}

func series(ss []Sample, f func(Sample) float64) []float64 {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = f(s)
	}
	return xs
}

// correctedWall returns the wall times of res in ns, minus the median
// overhead when it is subtracted (never below zero).
func (r *Benchmark) correctedWall(res *CommandRuns) []float64 {
	w, _, _, sub := r.overheadMedians()
	return correct(series(res.Samples, func(s Sample) float64 { return float64(s.Wall) }), w, sub)
}

func correct(xs []float64, by float64, sub bool) []float64 {
	if !sub {
		return xs
	}
	for i := range xs {
		xs[i] = math.Max(0, xs[i]-by)
	}
	return xs
}

// analysis holds what the document of one command is made of: its runs'
// figures corrected for the overhead, the judgements made on them
// (warnings, whether the CPUs differ) and the counters' figures. Renderers
// recompute every statistic they show from the document's samples.
type analysis struct {
	CommandRuns *CommandRuns
	// Wall, User and Sys are in ns, corrected for the overhead when it is
	// subtracted; Raw* are the measured values.
	Wall, User, Sys          []float64
	RawWall, RawUser, RawSys []float64
	WallSummary              stats.Summary
	UserSummary, SysSummary  stats.Summary
	// PerCPU holds the wall times' median per CPU when the runs were
	// pinned to several CPUs (--pin with a list), and CPUsDiffer is set
	// when the medians of two CPUs with at least 3 runs each differ by
	// more than cpuDifferThreshold: the figure then depends on the CPU,
	// and a warning says so.
	PerCPU     []cpuWall
	CPUsDiffer bool
	// MedianRSS is the median of the runs' peak RSS in bytes; -1 when
	// unavailable.
	MedianRSS float64
	Failures  int
	TimedOut  int
	// Clamped counts the runs whose wall time was not longer than the
	// subtracted overhead, so that their corrected time is 0.
	Clamped  int
	Warnings []warn.Warning
	// Metrics are the probe figures (counters) recorded in every run, in
	// the order of Benchmark.extraNames; Derived are figures derived from
	// their means (IPC, miss rates, CPUs utilized), as perf stat does.
	Metrics []*metricAnalysis
	Derived []result.Derived
	// whole holds the figures of the whole benchmark it was made with.
	whole *whole
}

// metricAnalysis holds the figures of one probe figure (a counter) of a
// command.
type metricAnalysis struct {
	Name string
	// Unit is "ns" (task-clock, cpu-clock) or "count".
	Unit string
	// Values are the per-run values minus Overhead when Subtracted; Raw
	// the values measured.
	Values, Raw []float64
	Summary     stats.Summary
	// Overhead is the median of the overhead runs' values (the shell's own
	// counts); Subtracted says whether it was subtracted, as it is from
	// the times when the overhead is subtracted and every overhead run
	// has the figure.
	Overhead   float64
	Subtracted bool
	// Running holds, when some run's value was extrapolated from part of
	// the run (multiplexed counters), the fraction of each run the figure
	// was measured in (1 for the runs measured throughout); nil otherwise.
	Running []float64
}

// cpuWall is the median wall time of the runs pinned to one CPU, in ns
// (corrected like analysis.Wall).
type cpuWall struct {
	CPU    int
	Runs   int
	Median float64
}

// cpuDifferThreshold is how far apart (0.05 = 5 %) the wall medians of two
// CPUs may be before the analysis says that the CPUs differ.
const cpuDifferThreshold = 0.05

// perCPU fills a.PerCPU and a.CPUsDiffer from the runs' CPUs.
func (a *analysis) perCPU() {
	res := a.CommandRuns
	byCPU := map[int][]float64{}
	for j, s := range res.Samples {
		if s.Iteration < len(res.CPUs) && j < len(a.Wall) {
			c := res.CPUs[s.Iteration]
			byCPU[c] = append(byCPU[c], a.Wall[j])
		}
	}
	if len(byCPU) < 2 {
		return
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range slices.Sorted(maps.Keys(byCPU)) {
		xs := byCPU[c]
		w := cpuWall{CPU: c, Runs: len(xs), Median: stats.Median(xs)}
		a.PerCPU = append(a.PerCPU, w)
		if w.Runs >= 3 {
			lo, hi = min(lo, w.Median), max(hi, w.Median)
		}
	}
	a.CPUsDiffer = lo > 0 && hi/lo-1 > cpuDifferThreshold
}

// perCPUText describes the per-CPU medians for a warning: "CPU 0 21.8 ms
// (15 runs), ...".
func (a *analysis) perCPUText() string {
	byCPU := map[int][]float64{}
	for j, s := range a.CommandRuns.Samples {
		if s.Iteration < len(a.CommandRuns.CPUs) && j < len(a.Wall) {
			byCPU[a.CommandRuns.CPUs[s.Iteration]] = append(byCPU[a.CommandRuns.CPUs[s.Iteration]], a.Wall[j])
		}
	}
	var parts []string
	for _, w := range a.PerCPU {
		parts = append(parts, fmt.Sprintf("CPU %d %s (%s)", w.CPU, medianText(byCPU[w.CPU], 1), plural.Count(w.Runs, "run")))
	}
	return strings.Join(parts, ", ")
}

// Metric returns the analysis of the probe figure named name, or nil.
func (a *analysis) Metric(name string) *metricAnalysis {
	for _, m := range a.Metrics {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// analyzeMetrics fills a.Metrics and a.Derived from the runs' probe
// figures. A figure missing from some runs is not summarized (its values
// would not line up with the runs), and a warning says so.
func (r *Benchmark) analyzeMetrics(a *analysis, names []string) {
	res := a.CommandRuns
	if len(res.Samples) == 0 {
		return
	}
	sub := a.whole.sub
	for _, name := range names {
		m := &metricAnalysis{Name: name, Unit: extraUnit(name)}
		scaled := false
		for _, s := range res.Samples {
			v, ok := s.Extra[name]
			if !ok {
				continue
			}
			m.Raw = append(m.Raw, v)
			f, ok := s.ExtraRunning[name]
			if !ok {
				f = 1
			}
			scaled = scaled || f < 1
			m.Running = append(m.Running, f)
		}
		if !scaled {
			m.Running = nil
		}
		if len(m.Raw) != len(res.Samples) {
			if len(m.Raw) > 0 {
				a.Warnings = append(a.Warnings, warn.New("counter-partly-counted",
					fmt.Sprintf("%s was counted in only %d of %s and is left out", name, len(m.Raw), plural.Count(len(res.Samples), "run")),
					"count fewer events at once, so that the kernel need not multiplex them"))
			}
			continue
		}
		if ov := r.Overhead; sub && ov != nil && len(ov.Samples) > 0 {
			xs := make([]float64, 0, len(ov.Samples))
			for _, s := range ov.Samples {
				if v, ok := s.Extra[name]; ok {
					xs = append(xs, v)
				}
			}
			if len(xs) == len(ov.Samples) {
				m.Overhead, m.Subtracted = stats.Median(xs), true
			}
		}
		m.Values = correct(slices.Clone(m.Raw), m.Overhead, m.Subtracted)
		m.Summary = stats.Summarize(m.Values)
		a.Metrics = append(a.Metrics, m)
	}
	if len(a.Metrics) > 0 {
		mean := func(m *metricAnalysis) (float64, float64, bool) {
			return m.Summary.Mean, stats.MeanUncertainty(m.Summary), true
		}
		a.Derived = counters.Derive(func(name string) (float64, float64, bool) {
			if m := a.Metric(name); m != nil {
				return mean(m)
			}
			// cycles:u and instructions:u answer for cycles and
			// instructions (IPC of user space).
			for _, m := range a.Metrics {
				if base, _, _ := strings.Cut(m.Name, ":"); base == name {
					return mean(m)
				}
			}
			return 0, 0, false
		}, a.WallSummary.Mean, stats.MeanUncertainty(a.WallSummary))
	}
}

// overheadAnalysis summarizes the overhead runs.
type overheadAnalysis struct {
	*Overhead
	Wall, User, Sys stats.Summary
}

// analyzeOverhead summarizes the overhead runs, or returns nil.
func (r *Benchmark) analyzeOverhead() *overheadAnalysis {
	ov := r.Overhead
	if ov == nil || len(ov.Samples) == 0 {
		return nil
	}
	return &overheadAnalysis{Overhead: ov,
		Wall: stats.Summarize(series(ov.Samples, func(s Sample) float64 { return float64(s.Wall) })),
		User: stats.Summarize(series(ov.Samples, func(s Sample) float64 { return float64(s.User) })),
		Sys:  stats.Summarize(series(ov.Samples, func(s Sample) float64 { return float64(s.Sys) })),
	}
}

// whole holds what the analysis of each command needs of the whole
// benchmark, computed once for all of them (a scan has thousands of
// commands, and these figures go over every overhead run, or every run).
type whole struct {
	// names are the probe figures (extraNames).
	names []string
	// ow, ou and os are the overhead's medians and sub whether they are
	// subtracted (overheadMedians); ov its summaries (analyzeOverhead).
	ow, ou, os float64
	sub        bool
	ov         *overheadAnalysis
	// ovMedian, ovMAD and ovWhat are the overhead as the warnings quote
	// it (overheadText).
	ovMedian, ovMAD, ovWhat string
}

// whole computes the figures of the whole benchmark that every
// command's analysis needs.
func (r *Benchmark) whole() *whole {
	w := &whole{names: r.extraNames(), ov: r.analyzeOverhead()}
	w.ow, w.ou, w.os, w.sub = r.overheadMedians()
	w.ovMedian, w.ovMAD, w.ovWhat = overheadText(w.ov)
	return w
}

// analyze corrects the figures of res for the overhead, judges them
// (warnings) and analyzes its counters.
func (r *Benchmark) analyze(res *CommandRuns) *analysis { return r.analyzeIn(res, r.whole()) }

// analyzeIn is analyze with the figures of the whole benchmark w.
func (r *Benchmark) analyzeIn(res *CommandRuns, w *whole) *analysis {
	a := &analysis{CommandRuns: res, TimedOut: len(res.TimedOut), MedianRSS: -1, whole: w}
	ow, ou, os_, sub := w.ow, w.ou, w.os, w.sub
	a.RawWall = series(res.Samples, func(s Sample) float64 { return float64(s.Wall) })
	a.RawUser = series(res.Samples, func(s Sample) float64 { return float64(s.User) })
	a.RawSys = series(res.Samples, func(s Sample) float64 { return float64(s.Sys) })
	a.Wall = correct(slices.Clone(a.RawWall), ow, sub)
	a.User = correct(slices.Clone(a.RawUser), ou, sub)
	a.Sys = correct(slices.Clone(a.RawSys), os_, sub)
	for i, w := range a.Wall {
		if sub && w == 0 && a.RawWall[i] > 0 {
			a.Clamped++
		}
	}
	for _, s := range res.Samples {
		if s.ExitCode != 0 {
			a.Failures++
		}
	}
	if len(res.Samples) > 0 && res.Samples[0].MaxRSSBytes >= 0 {
		a.MedianRSS = stats.Median(series(res.Samples, func(s Sample) float64 { return float64(s.MaxRSSBytes) }))
	}
	if len(a.Wall) == 0 {
		if a.TimedOut > 0 {
			a.Warnings = append(a.Warnings, warn.New("no-timing",
				fmt.Sprintf("no timing: all %s timed out after %s and %s killed", plural.Count(a.TimedOut, "run"), r.Options.Timeout, plural.Was(a.TimedOut)),
				"raise --timeout above the command's run time"))
		} else {
			a.Warnings = append(a.Warnings, warn.New("no-runs", "no run completed: nothing to summarize",
				"let the benchmark run to its end (or fix the failure that stopped it)"))
		}
		return a
	}
	a.WallSummary = stats.Summarize(a.Wall)
	a.UserSummary = stats.Summarize(a.User)
	a.SysSummary = stats.Summarize(a.Sys)
	a.perCPU()
	a.Warnings = append(a.Warnings, r.warnings(a)...)
	if a.CPUsDiffer {
		a.Warnings = append(a.Warnings, warn.New("cpus-differ",
			fmt.Sprintf("the CPUs differ: %s: the figure depends on the CPU a run lands on, so the median's interval spans them", a.perCPUText()),
			fmt.Sprintf("pin one CPU (e.g. --pin %d) to measure it there; `chrono env` compares the CPUs' speeds", a.PerCPU[0].CPU)))
	}
	r.analyzeMetrics(a, w.names)
	return a
}

// medianPrecision is the precision of the median of xs (ns) measured with
// resolution res: the digits rule of the renderers (report.Series), for
// which the median of runs that all agreed is their value, exactly.
func medianPrecision(xs []float64, res float64) unit.Precision {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) >= 2 && s[0] == s[len(s)-1] {
		return unit.Exactly(s[0], res)
	}
	return unit.Precision{Resolution: res, Uncertainty: stats.QuantileUncertainty(s, 0.5)}
}

// medianText is the median of xs (ns) as the summary prints it.
func medianText(xs []float64, res float64) string {
	return unit.Duration(stats.Median(xs), medianPrecision(xs, res))
}

// overheadText returns the overhead's median and scaled MAD as the
// summary's overhead line prints them, and what the overhead is called.
func overheadText(oa *overheadAnalysis) (median, mad, what string) {
	if oa == nil {
		return "", "", ""
	}
	w := series(oa.Samples, func(s Sample) float64 { return float64(s.Wall) })
	what = "shell start-up overhead"
	if oa.Kind == "spawn" {
		what = "spawn overhead (start and reap `true`)"
	}
	return medianText(w, 1), unit.Duration(oa.Wall.MADScaled, unit.Precision{Uncertainty: stats.StdDevUncertainty(oa.Wall)}), what
}

// warnings returns the judgements on a's figures; the figures they quote
// are those of the summary (corrected for the overhead when it is
// subtracted, with the summary's digits).
func (r *Benchmark) warnings(a *analysis) []warn.Warning {
	var w []warn.Warning
	res, sum := a.CommandRuns, a.WallSummary
	med := medianText(a.Wall, 1)
	cpuRes := float64(cpuTimeResolution)
	if res.Samples != nil && !res.Complete {
		w = append(w, warn.New("incomplete", fmt.Sprintf("incomplete: only %s made before the benchmark stopped", plural.Count(len(a.Wall), "run")+" "+plural.Was(len(a.Wall))),
			"run it to its end for the runs asked for"))
	}
	if need := stats.MinSamplesForMedianCI(stats.Confidence); len(a.Wall) < need {
		w = append(w, warn.New("too-few-runs", fmt.Sprintf("too few runs (%d) for a %s confidence interval of the median", len(a.Wall), percent(stats.Confidence)),
			fmt.Sprintf("use at least %d runs (-r %d)", need, need)))
	}
	if len(a.Wall) >= 4 { // Tukey's fences need 4 values
		o := stats.Tukey(a.Wall)
		if c := o.Count(); c > 0 {
			first := slices.Contains(o.HighMild, 0) || slices.Contains(o.HighSevere, 0)
			slowest := slices.Index(a.Wall, slices.Max(a.Wall)) == 0
			what := "are statistical outliers"
			if c == 1 {
				what = "is a statistical outlier"
			}
			msg := fmt.Sprintf("%d of %s %s (Tukey fences: %d mild, %d severe)", c, plural.Count(len(a.Wall), "run"), what, c-o.Severe(), o.Severe())
			if first && slowest {
				w = append(w, warn.New("outliers", msg+"; the first run was the slowest", "consider --warmup (caches, page faults on first start)"))
			} else {
				w = append(w, warn.New("outliers", msg+": other programs may have interfered", "run on a quiet machine, use --pin, or more runs"))
			}
		}
	}
	if sum.Median > 0 && sum.MADScaled/sum.Median > 0.1 {
		w = append(w, warn.New("wide-spread", fmt.Sprintf("wide spread: the scaled MAD is %s%% of the median", unit.Plain(100*sum.MADScaled/sum.Median, unit.Precision{Resolution: 1})),
			"close other programs, pin with --pin, or raise the run count (--precision)"))
	}
	ov := r.Overhead
	if ov != nil && ov.Unavailable == "" && len(ov.Samples) > 0 {
		ovs := a.whole.ov.Wall
		om, omad, what := a.whole.ovMedian, a.whole.ovMAD, a.whole.ovWhat
		shown := med
		if sum.Median == 0 {
			shown = "clamped to 0"
		}
		clamped := ""
		if a.Clamped > 0 {
			clamped = fmt.Sprintf("; %d of %s %s not longer than it and %s clamped to 0 (raw median %s)", a.Clamped, plural.Count(len(a.Wall), "run"), plural.Was(a.Clamped), plural.Is(a.Clamped), medianText(a.RawWall, 1))
		}
		switch {
		case ov.Subtracted && a.whole.belowResolution(sum.Median):
			// The corrected median is within the overhead's noise: the
			// command's own time cannot be told from the overhead's.
			fix := "use -N to run it without a shell"
			if ov.Kind == "spawn" {
				fix = "leave out --subtract-spawn, or batch more work into one run"
			}
			w = append(w, warn.New("below-overhead-resolution", fmt.Sprintf("runs shorter than the %s resolution: the corrected median (%s) is within the spread of the %s subtracted from it (%s ± %s)%s: the figures cannot tell the command's own time from the overhead's",
				strings.Fields(what)[0]+"-overhead", shown, what, om, omad, clamped), fix))
		case ov.Kind == "shell" && sum.Median < 2*ovs.Median:
			w = append(w, warn.New("overhead-dominates", fmt.Sprintf("the command takes %s, less than twice the shell start-up overhead subtracted from it (%s ± %s)%s: the figure is dominated by the correction",
				shown, om, omad, clamped), "use -N to run it without a shell"))
		case ov.Kind == "spawn" && !ov.Subtracted && sum.Median < 2*ovs.Median:
			w = append(w, warn.New("spawn-dominates", fmt.Sprintf("the command takes %s, less than twice the time to start a trivial program (true: %s): the figure is mostly process start-up cost", shown, om),
				"batch more work into one run, or --subtract-spawn to take the start-up off"))
		}
	}
	if cpu := stats.Median(a.RawUser) + stats.Median(a.RawSys); cpu < 4e6 && len(a.RawUser) > 0 {
		// Judged on the raw times: the kernel's apportioning applies to
		// what it measured, before any correction.
		w = append(w, warn.NewNote("cpu-split-coarse", "the split of short runs' CPU time into user and system time is apportioned by the kernel from scheduler-tick samples and is coarse (their sum is accurate)",
			"compare wall times"))
	}
	if med0, cpu := sum.Median, a.UserSummary.Median+a.SysSummary.Median; med0 > 10e6 && med0 > 3*cpu {
		w = append(w, warn.NewNote("mostly-waiting", fmt.Sprintf("wall time (median %s) is much larger than CPU time (user %s + sys %s, medians): the command mostly waits (I/O, sleep, other processes), so its wall time measures the waits",
			med, medianText(a.User, cpuRes), medianText(a.Sys, cpuRes)), "time CPU work with --counters=task-clock when the waits are not what you mean to measure"))
	}
	if p := r.ParentPeakRSSBytes; p > 0 && a.MedianRSS >= 0 && a.MedianRSS <= 1.05*float64(p) {
		w = append(w, warn.NewNote("rss-parent", fmt.Sprintf("max RSS (median %s) is not above chrono's own peak RSS (%s): Linux counts the parent's memory in the max RSS of a child started with vfork, so the command's own peak is at most this figure",
			unit.FormatBytes(a.MedianRSS), unit.FormatBytes(float64(p))), "measure a small command's memory with a tool that forks a small process (e.g. /usr/bin/time -v)"))
	}
	if a.Failures > 0 {
		if r.Options.IgnoreFailure || len(r.Options.IgnoreExitCodes) > 0 {
			how := "with -i"
			if !r.Options.IgnoreFailure {
				how = "--ignore-failure=" + joinInts(r.Options.IgnoreExitCodes)
			}
			w = append(w, warn.NewNote("failed-runs", fmt.Sprintf("%d of %s exited with a non-zero code (kept, %s)", a.Failures, plural.Count(len(a.Wall), "run"), how), ""))
		} else {
			w = append(w, warn.New("failed-runs", fmt.Sprintf("%d of %s exited with a non-zero code, which stopped the benchmark: its figures include the failed run", a.Failures, plural.Count(len(a.Wall), "run")),
				"fix the command, or give -i to record failures and go on"))
		}
	}
	if a.TimedOut > 0 {
		w = append(w, warn.New("timed-out", fmt.Sprintf("%s timed out after %s, %s killed and %s left out of the statistics", plural.Count(a.TimedOut, "run"), r.Options.Timeout, plural.Was(a.TimedOut), plural.Is(a.TimedOut)),
			"raise --timeout if they should count"))
	}
	if r.Options.Precision > 0 && !res.PrecisionReached && res.Complete {
		w = append(w, warn.New("precision-not-reached", fmt.Sprintf("the requested precision (±%s%%) was not reached within the run limits", unit.Plain(r.Options.Precision*100, unit.Precision{})),
			"raise --max-runs or the time budget"))
	}
	return w
}

// joinInts joins exit codes with commas ("1,2,3").
func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

// percent formats a fraction (0.95) as a percentage ("95%"), exactly: it
// is a level, not a measured figure.
func percent(f float64) string { return strconv.FormatFloat(100*f, 'g', -1, 64) + "%" }

// belowResolution reports whether a corrected wall median is not positive
// or, when the overhead is subtracted, within the spread (scaled MAD) of
// the overhead: too small to tell from the overhead.
func (w *whole) belowResolution(median float64) bool {
	if !(median > 0) {
		return true
	}
	oa := w.ov
	return oa != nil && oa.Subtracted && oa.Unavailable == "" && median <= oa.Wall.MADScaled
}

// NoTimingError reports the commands of which no run gave a timing: every
// run timed out. It is a failure of the benchmark even though the
// summary and the exports hold what was measured.
type NoTimingError struct {
	// Lines holds one message per such command.
	Lines []string
}

func (e *NoTimingError) Error() string { return strings.Join(e.Lines, "\n") }

// NoTiming returns a *NoTimingError naming every command that ran but has
// no timed run (all its runs timed out), or nil. Runs that exited with a
// non-zero code under -i are timed runs: they count. An interrupted or
// failed benchmark is not judged (its own error says what happened).
func (r *Benchmark) NoTiming() error {
	if r.Interrupted || r.Err != nil {
		return nil
	}
	var lines []string
	for _, res := range r.Results {
		if res.noTiming() {
			lines = append(lines, fmt.Sprintf("run: %q has no timing: all %d of its runs timed out after %s and were killed; raise --timeout above the command's run time (the summary and exports hold the timeouts)",
				res.Command.Name, len(res.TimedOut), r.Options.Timeout))
		}
	}
	if lines == nil {
		return nil
	}
	return &NoTimingError{Lines: lines}
}
