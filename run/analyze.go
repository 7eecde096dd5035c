package run

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// Confidence is the level of every confidence interval reported.
const Confidence = 0.95

// overheadMedians returns the medians of the overhead runs' wall, user
// and system times in ns, and whether they are subtracted.
func (r *Report) overheadMedians() (wall, user, sys float64, subtract bool) {
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

// CorrectedWall returns the wall times of res in ns, minus the median
// overhead when it is subtracted (never below zero).
func (r *Report) CorrectedWall(res *Result) []float64 {
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

// Analysis holds the statistics of one command.
type Analysis struct {
	Result *Result
	// Wall, User and Sys are in ns, corrected for the overhead when it is
	// subtracted; Raw* are the measured values.
	Wall, User, Sys          []float64
	RawWall, RawUser, RawSys []float64
	WallSummary              stats.Summary
	UserSummary, SysSummary  stats.Summary
	// MedianCI is the confidence interval of the wall median (nil when
	// the sample is too small); when the CPUs differ (CPUsDiffer) it spans
	// every CPU's interval too.
	MedianCI *stats.Interval
	// PerCPU summarizes the wall times per CPU when the runs were pinned
	// to several CPUs (--pin with a list), and CPUsDiffer is set when the
	// medians of two CPUs with at least 3 runs each differ by more than
	// CPUDifferThreshold: the figure then depends on the CPU, and a
	// warning says so.
	PerCPU     []CPUWall
	CPUsDiffer bool
	// P95 and P99 of the wall time by PercentileMethod.
	P95, P99 float64
	// MaxRSS is the largest peak RSS of all runs and MedianRSS the median
	// of the runs' peaks, in bytes; -1 when unavailable.
	MaxRSS, MedianRSS float64
	Outliers          stats.Outliers
	Failures          int
	TimedOut          int
	// Clamped counts the runs whose wall time was not longer than the
	// subtracted overhead, so that their corrected time is 0.
	Clamped  int
	Warnings []string
	// Metrics are the probe figures (counters) recorded in every run, in
	// the order of Report.extraNames; Derived are figures derived from
	// their means (IPC, miss rates, CPUs utilized), as perf stat does.
	Metrics []*MetricAnalysis
	Derived []counters.Derived
}

// MetricAnalysis holds the statistics of one probe figure (a counter) of
// a command.
type MetricAnalysis struct {
	Name string
	// Unit is "ns" (task-clock, cpu-clock) or "count".
	Unit string
	// Values are the per-run values minus Overhead when Subtracted; Raw
	// the values measured.
	Values, Raw []float64
	Summary     stats.Summary
	// MedianCI is the confidence interval of the median (nil when the
	// sample is too small).
	MedianCI *stats.Interval
	// Overhead is the median of the overhead runs' values (the shell's own
	// counts); Subtracted says whether it was subtracted, as it is from
	// the times when the overhead is subtracted and every overhead run
	// has the figure.
	Overhead   float64
	Subtracted bool
	// Scaled is set when some run's value was extrapolated from part of
	// the run (multiplexed counters); MinRunningFraction is the smallest
	// fraction of a run measured (1 when none was scaled).
	Scaled             bool
	MinRunningFraction float64
}

// CPUWall is the wall time of the runs pinned to one CPU, in ns (corrected
// like Analysis.Wall): the median with its confidence interval (the
// order-statistic interval; the range of the runs with fewer than 6).
type CPUWall struct {
	CPU    int            `json:"cpu"`
	Runs   int            `json:"runs"`
	Median float64        `json:"median_ns"`
	CI     stats.Interval `json:"ci"`
}

// CPUDifferThreshold is how far apart (0.05 = 5 %) the wall medians of two
// CPUs may be before the analysis says that the CPUs differ.
const CPUDifferThreshold = 0.05

// perCPU fills a.PerCPU and a.CPUsDiffer from the runs' CPUs, and widens
// a.MedianCI to every CPU's interval when the CPUs differ.
func (a *Analysis) perCPU() {
	res := a.Result
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
		w := CPUWall{CPU: c, Runs: len(xs), Median: stats.Median(xs)}
		if iv, err := stats.MedianCI(xs, Confidence); err == nil {
			w.CI = iv
		} else {
			w.CI = stats.Interval{Lo: slices.Min(xs), Hi: slices.Max(xs), Confidence: Confidence, Method: "range of the runs (too few for order statistics)"}
		}
		a.PerCPU = append(a.PerCPU, w)
		if w.Runs >= 3 {
			lo, hi = min(lo, w.Median), max(hi, w.Median)
		}
	}
	if !(lo > 0 && hi/lo-1 > CPUDifferThreshold) {
		return
	}
	a.CPUsDiffer = true
	if a.MedianCI == nil {
		return
	}
	iv := *a.MedianCI
	for _, w := range a.PerCPU {
		if w.Runs >= 3 {
			iv.Lo, iv.Hi = min(iv.Lo, w.CI.Lo), max(iv.Hi, w.CI.Hi)
		}
	}
	iv.Method, iv.Coverage = iv.Method+", widened to every CPU's interval (the CPUs differ)", 0
	a.MedianCI = &iv
}

// perCPUText describes the per-CPU medians: "CPU 0 21.8 ms (15 runs), ...".
func (a *Analysis) perCPUText(u unit.Unit) string {
	u, res := a.wallFormat(u)
	var parts []string
	for _, w := range a.PerCPU {
		parts = append(parts, fmt.Sprintf("CPU %d %s (%d runs)", w.CPU, fd(w.Median, res, u), w.Runs))
	}
	return strings.Join(parts, ", ")
}

// Metric returns the analysis of the probe figure named name, or nil.
func (a *Analysis) Metric(name string) *MetricAnalysis {
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
func (r *Report) analyzeMetrics(a *Analysis, names []string) {
	res := a.Result
	if len(res.Samples) == 0 {
		return
	}
	_, _, _, sub := r.overheadMedians()
	for _, name := range names {
		m := &MetricAnalysis{Name: name, Unit: extraUnit(name), MinRunningFraction: 1}
		for _, s := range res.Samples {
			v, ok := s.Extra[name]
			if !ok {
				continue
			}
			m.Raw = append(m.Raw, v)
			if f, ok := s.ExtraRunning[name]; ok {
				m.Scaled = true
				m.MinRunningFraction = min(m.MinRunningFraction, f)
			}
		}
		if len(m.Raw) != len(res.Samples) {
			if len(m.Raw) > 0 {
				a.Warnings = append(a.Warnings, fmt.Sprintf("%s was counted in only %d of %d runs: not summarized", name, len(m.Raw), len(res.Samples)))
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
		if iv, err := stats.MedianCI(m.Values, Confidence); err == nil {
			m.MedianCI = &iv
		}
		a.Metrics = append(a.Metrics, m)
	}
	if len(a.Metrics) > 0 {
		a.Derived = counters.Derive(func(name string) (float64, bool) {
			if m := a.Metric(name); m != nil {
				return m.Summary.Mean, true
			}
			// cycles:u and instructions:u answer for cycles and
			// instructions (IPC of user space).
			for _, m := range a.Metrics {
				if base, _, _ := strings.Cut(m.Name, ":"); base == name {
					return m.Summary.Mean, true
				}
			}
			return 0, false
		}, durationOf(a.WallSummary.Mean))
	}
}

// PercentileMethod is the percentile definition of P95 and P99.
const PercentileMethod = stats.Linear

// OverheadAnalysis summarizes the overhead runs.
type OverheadAnalysis struct {
	*Overhead
	Wall, User, Sys stats.Summary
}

// AnalyzeOverhead summarizes the overhead runs, or returns nil.
func (r *Report) AnalyzeOverhead() *OverheadAnalysis {
	ov := r.Overhead
	if ov == nil || len(ov.Samples) == 0 {
		return nil
	}
	return &OverheadAnalysis{Overhead: ov,
		Wall: stats.Summarize(series(ov.Samples, func(s Sample) float64 { return float64(s.Wall) })),
		User: stats.Summarize(series(ov.Samples, func(s Sample) float64 { return float64(s.User) })),
		Sys:  stats.Summarize(series(ov.Samples, func(s Sample) float64 { return float64(s.Sys) })),
	}
}

// Analyze computes the statistics and warnings of res, with the figures
// in the warnings formatted as the text summary prints them with an
// automatic unit.
func (r *Report) Analyze(res *Result) *Analysis { return r.analyze(res, unit.Unit{}) }

// analyze is Analyze with the warnings' figures in unit u (the zero Unit:
// automatic), as WriteText prints the summary with TextOptions.Unit u.
func (r *Report) analyze(res *Result, u unit.Unit) *Analysis {
	a := &Analysis{Result: res, TimedOut: len(res.TimedOut), MaxRSS: -1, MedianRSS: -1}
	ow, ou, os_, sub := r.overheadMedians()
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
		rss := series(res.Samples, func(s Sample) float64 { return float64(s.MaxRSSBytes) })
		a.MaxRSS, a.MedianRSS = slices.Max(rss), stats.Median(rss)
	}
	n := len(a.Wall)
	if n == 0 {
		if a.TimedOut > 0 {
			a.Warnings = append(a.Warnings, fmt.Sprintf("no timing: all %d runs timed out after %s and were killed: raise --timeout", a.TimedOut, r.Options.Timeout))
		} else {
			a.Warnings = append(a.Warnings, "no completed runs: nothing to summarize")
		}
		return a
	}
	a.WallSummary = stats.Summarize(a.Wall)
	a.UserSummary = stats.Summarize(a.User)
	a.SysSummary = stats.Summarize(a.Sys)
	if iv, err := stats.MedianCI(a.Wall, Confidence); err == nil {
		a.MedianCI = &iv
	}
	a.perCPU()
	a.P95 = stats.Percentile(a.Wall, 95, PercentileMethod)
	a.P99 = stats.Percentile(a.Wall, 99, PercentileMethod)
	a.Outliers = stats.Tukey(a.Wall)
	a.Warnings = r.warnings(a, u)
	if a.CPUsDiffer {
		a.Warnings = append(a.Warnings, fmt.Sprintf("the CPUs differ: %s: the figure depends on the CPU a run lands on, so the interval spans them; pin one CPU (e.g. --pin %d) to measure it there; `chrono env` compares the CPUs' speeds",
			a.perCPUText(u), a.PerCPU[0].CPU))
	}
	r.analyzeMetrics(a, r.extraNames())
	return a
}

// wallFormat returns the unit and resolution (ns) with which the summary
// prints a's wall times, given the -u unit u (zero: automatic).
func (a *Analysis) wallFormat(u unit.Unit) (unit.Unit, float64) {
	s := a.WallSummary
	if u.Nanos == 0 {
		u = unitFor(s.Median, s.Mean, s.Max, stats.Median(a.RawWall)) // every run clamped to 0: the raw median's unit
	}
	spread := s.MADScaled
	if !(spread > 0) {
		spread = s.StdDevSample // most runs equal (e.g. clamped to 0): the stddev still shows the noise
	}
	res := resolution(spread)
	if a.MedianCI != nil && s.MADScaled > 0 {
		res = resolution(math.Min(s.MADScaled, a.MedianCI.Hi-a.MedianCI.Lo))
	}
	return u, res
}

// cpuRes returns the resolution (ns) with which the summary prints a's CPU
// times: rusage CPU times come in microseconds, no finer digit than that.
func (a *Analysis) cpuRes() float64 {
	return math.Max(1000, resolution(math.Max(a.UserSummary.MADScaled, a.SysSummary.MADScaled)))
}

// overheadText returns the overhead's median and scaled MAD as the
// summary's overhead line prints them (unit u, zero: automatic), and
// what the overhead is called.
func (r *Report) overheadText(u unit.Unit) (median, mad, what string) {
	oa := r.AnalyzeOverhead()
	if oa == nil {
		return "", "", ""
	}
	res := resolution(oa.Wall.MADScaled)
	what = "shell start-up overhead"
	if oa.Kind == "spawn" {
		what = "spawn overhead (start and reap `true`)"
	}
	return fd(oa.Wall.Median, res, u), fd(oa.Wall.MADScaled, res, u), what
}

// warnings returns the warnings of a; the figures they quote are those of
// the summary (corrected for the overhead when it is subtracted, in unit u
// and with the summary's digits).
func (r *Report) warnings(a *Analysis, u unit.Unit) []string {
	var w []string
	res, sum := a.Result, a.WallSummary
	wu, wres := a.wallFormat(u)
	wall := func(ns float64) string { return fd(ns, wres, wu) }
	if res.Samples != nil && !res.Complete {
		w = append(w, fmt.Sprintf("incomplete: only %d runs were made before the benchmark stopped", len(a.Wall)))
	}
	if a.MedianCI == nil {
		w = append(w, fmt.Sprintf("too few runs (%d) for a %.0f%% confidence interval of the median: use at least %d runs", len(a.Wall), Confidence*100, stats.MinSamplesForMedianCI(Confidence)))
	}
	if c := a.Outliers.Count(); c > 0 {
		first := slices.Contains(a.Outliers.HighMild, 0) || slices.Contains(a.Outliers.HighSevere, 0)
		slowest := slices.Index(a.Wall, slices.Max(a.Wall)) == 0
		msg := fmt.Sprintf("%d of %d runs are statistical outliers (Tukey fences: %d mild, %d severe)", c, len(a.Wall), c-a.Outliers.Severe(), a.Outliers.Severe())
		if first && slowest {
			msg += "; the first run was the slowest: consider --warmup (caches, page faults on first start)"
		} else {
			msg += ": other programs may have interfered; run on a quiet machine, use --pin, or more runs"
		}
		w = append(w, msg)
	}
	if sum.Median > 0 && sum.MADScaled/sum.Median > 0.1 {
		w = append(w, fmt.Sprintf("wide spread: the scaled MAD is %s%% of the median: close other programs, pin with --pin, or raise the run count (--precision)", unit.Sig(100*sum.MADScaled/sum.Median, 2)))
	}
	ov := r.Overhead
	if ov != nil && ov.Unavailable == "" && len(ov.Samples) > 0 {
		ovs := stats.Summarize(series(ov.Samples, func(s Sample) float64 { return float64(s.Wall) }))
		om, omad, what := r.overheadText(u)
		med := wall(sum.Median)
		if sum.Median == 0 {
			med = "clamped to 0"
		}
		clamped := ""
		if a.Clamped > 0 {
			clamped = fmt.Sprintf("; %d of %d runs were not longer than it and are clamped to 0 (raw median %s)", a.Clamped, len(a.Wall), wall(stats.Median(a.RawWall)))
		}
		switch {
		case ov.Subtracted && r.belowResolution("wall", sum.Median):
			// The corrected median is within the overhead's noise: the
			// command's own time cannot be told from the overhead's.
			fix := "use -N to run it without a shell"
			if ov.Kind == "spawn" {
				fix = "leave out --subtract-spawn, or batch more work into one run"
			}
			w = append(w, fmt.Sprintf("runs shorter than the %s resolution: the corrected median (%s) is within the spread of the %s subtracted from it (%s ± %s)%s: the figures cannot tell the command's own time from the overhead's; %s",
				strings.Fields(what)[0]+"-overhead", med, what, om, omad, clamped, fix))
		case ov.Kind == "shell" && sum.Median < 2*ovs.Median:
			w = append(w, fmt.Sprintf("the command takes %s, less than twice the shell start-up overhead subtracted from it (%s ± %s)%s: the figure is dominated by the correction; use -N to run it without a shell",
				wall(sum.Median), om, omad, clamped))
		case ov.Kind == "spawn" && !ov.Subtracted && sum.Median < 2*ovs.Median:
			w = append(w, fmt.Sprintf("the command takes %s, less than twice the time to start a trivial program (true: %s): the figure is mostly process start-up cost", wall(sum.Median), om))
		}
	}
	if cpu := stats.Median(a.RawUser) + stats.Median(a.RawSys); cpu < 4e6 && len(a.RawUser) > 0 {
		// Judged on the raw times: the kernel's apportioning applies to
		// what it measured, before any correction.
		w = append(w, "the split of short runs' CPU time into user and system time is apportioned by the kernel from scheduler-tick samples and is coarse (their sum is accurate): compare wall times")
	}
	if med, cpu := sum.Median, a.UserSummary.Median+a.SysSummary.Median; med > 10e6 && med > 3*cpu {
		cr := a.cpuRes()
		w = append(w, fmt.Sprintf("wall time (median %s) is much larger than CPU time (user %s + sys %s, medians): the command mostly waits (I/O, sleep, other processes), so its wall time measures the waits",
			wall(med), fd(a.UserSummary.Median, cr, wu), fd(a.SysSummary.Median, cr, wu)))
	}
	if p := r.ParentPeakRSSBytes; p > 0 && a.MedianRSS >= 0 && a.MedianRSS <= 1.05*float64(p) {
		w = append(w, fmt.Sprintf("max RSS (median %s) is not above chrono's own peak RSS (%s): Linux counts the parent's memory in the max RSS of a child started with vfork, so the command's own peak is at most this figure", unit.FormatBytes(a.MedianRSS), unit.FormatBytes(float64(p))))
	}
	if a.Failures > 0 {
		if r.Options.IgnoreFailure {
			w = append(w, fmt.Sprintf("%d of %d runs exited with a non-zero code (kept, with -i)", a.Failures, len(a.Wall)))
		} else {
			w = append(w, fmt.Sprintf("%d of %d runs exited with a non-zero code, which stopped the benchmark: its figures include the failed run; fix the command, or give -i to record failures and go on", a.Failures, len(a.Wall)))
		}
	}
	if a.TimedOut > 0 {
		w = append(w, fmt.Sprintf("%d runs timed out after %s, were killed and are left out of the statistics: raise --timeout if they should count", a.TimedOut, r.Options.Timeout))
	}
	if r.Options.Precision > 0 && !res.PrecisionReached && res.Complete {
		w = append(w, fmt.Sprintf("the requested precision (±%s%%) was not reached within the run limits: raise --max-runs or the time budget", unit.Sig(r.Options.Precision*100, 3)))
	}
	return w
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
func (r *Report) NoTiming() error {
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

// Comparison compares one command with the reference.
type Comparison struct {
	Command, Reference *Result
	// Metric is "wall" or the name of a probe figure (a counter).
	Metric string
	// Ratio is median(Command)/median(Reference) of the corrected wall
	// times (or of the metric), with its bootstrap confidence interval.
	Ratio float64
	CI    stats.Interval
	// MannWhitney is the two-sided test of the two samples; MWErr says
	// why it could not be made.
	MannWhitney stats.MannWhitneyResult
	MWErr       error
	Significant bool
	Verdict     string
}

// Alpha is the significance level of comparisons.
const Alpha = 0.05

// Compare compares every command with the reference: the command named
// ref (by name or command line), or the fastest by median when ref is "".
// It returns the index of the reference and the comparisons of the
// others.
func (r *Report) Compare(as []*Analysis, ref string) (int, []Comparison, error) {
	refIdx := -1
	if ref != "" {
		for i, a := range as {
			if a.Result.Command.Name == ref || a.Result.Command.Line == ref {
				refIdx = i
				break
			}
		}
		if refIdx < 0 {
			return -1, nil, fmt.Errorf("run: --reference %q is none of the benchmarked commands: give a command exactly as benchmarked", ref)
		}
	} else {
		for i, a := range as {
			if len(a.Wall) == 0 {
				continue
			}
			if refIdx < 0 || a.WallSummary.Median < as[refIdx].WallSummary.Median {
				refIdx = i
			}
		}
	}
	if refIdx < 0 || len(as[refIdx].Wall) == 0 {
		return refIdx, nil, nil
	}
	rf := as[refIdx]
	var out []Comparison
	for i, a := range as {
		if i == refIdx || len(a.Wall) == 0 {
			continue
		}
		out = append(out, r.compare(a.Result, rf.Result, "wall", a.Wall, rf.Wall, a.WallSummary.Median, rf.WallSummary.Median))
	}
	return refIdx, out, nil
}

// compare compares the sample xs of command a with the sample ys of the
// reference on one metric: ratio of medians (ma/mb) with its bootstrap
// interval, Mann-Whitney U test, verdict.
func (r *Report) compare(a, ref *Result, metric string, xs, ys []float64, ma, mb float64) Comparison {
	c := Comparison{Command: a, Reference: ref, Metric: metric}
	if low := r.belowResolution(metric, mb); low || r.belowResolution(metric, ma) {
		// A median clamped to 0, or lost in the noise of the overhead
		// subtracted from it: a ratio with it would be 0, +Inf or
		// arbitrary, with an interval reaching NaN.
		c.Ratio, c.CI = math.NaN(), stats.Interval{Lo: math.NaN(), Hi: math.NaN(), Confidence: Confidence}
		c.MannWhitney, c.MWErr = stats.MannWhitneyU(xs, ys)
		which := a
		if low {
			which = ref
		}
		c.Verdict = fmt.Sprintf("no ratio: the corrected median of %q is below the resolution of the overhead correction (see its warning); time both with -N to compare them", which.Command.Name)
		return c
	}
	mr, err := stats.CompareMedians(xs, ys, Confidence, Alpha, r.Seed)
	c.Ratio = ma / mb // the medians the summary shows (those of xs and ys)
	c.CI, c.MannWhitney, c.MWErr, c.Significant = mr.CI, mr.MannWhitney, err, mr.Significant
	c.Verdict = verdict(c)
	return c
}

// belowResolution reports whether a corrected median of the metric is
// not positive or, when the overhead is subtracted from wall times, within
// the spread (scaled MAD) of the overhead: too small to divide by.
func (r *Report) belowResolution(metric string, median float64) bool {
	if !(median > 0) {
		return true
	}
	if metric != "wall" {
		return false
	}
	oa := r.AnalyzeOverhead()
	return oa != nil && oa.Subtracted && oa.Unavailable == "" && median <= oa.Wall.MADScaled
}

// CompareMetrics compares the probe figures (counters) of every command
// with those of the reference command refIdx (as returned by Compare),
// metric by metric, in the order of the reference's metrics. A metric is
// compared when both commands have it and neither median is zero (a ratio
// with a zero says nothing, and rare events such as cpu-migrations or
// major-faults have zero medians).
func (r *Report) CompareMetrics(as []*Analysis, refIdx int) []Comparison {
	if refIdx < 0 || refIdx >= len(as) {
		return nil
	}
	rf := as[refIdx]
	var out []Comparison
	for _, rm := range rf.Metrics {
		if rm.Summary.Median == 0 {
			continue
		}
		for i, a := range as {
			m := a.Metric(rm.Name)
			if i == refIdx || m == nil || m.Summary.Median == 0 {
				continue
			}
			out = append(out, r.compare(a.Result, rf.Result, rm.Name, m.Values, rm.Values, m.Summary.Median, rm.Summary.Median))
		}
	}
	return out
}

func verdict(c Comparison) string {
	a, b := c.Command.Command.Name, c.Reference.Command.Name
	what := ""
	if c.Metric != "" && c.Metric != "wall" {
		what = " in " + c.Metric
	}
	if !c.Significant {
		if c.MWErr != nil {
			return fmt.Sprintf("not significant: %q and %q cannot be told apart%s (%v)", a, b, what, c.MWErr)
		}
		return fmt.Sprintf("not significant: no difference%s between %q and %q can be shown (p = %s)", what, a, b, unit.Sig(c.MannWhitney.P, 2))
	}
	if what != "" {
		more := "more"
		if c.Ratio < 1 {
			more = "fewer"
			if extraUnit(c.Metric) == "ns" {
				more = "less"
			}
		}
		return fmt.Sprintf("%q has %sx the %s of %q (%s)", a, unit.Sig(c.Ratio, 3), c.Metric, b, more)
	}
	if c.Ratio >= 1 {
		return fmt.Sprintf("%q is %sx as slow as %q", a, unit.Sig(c.Ratio, 3), b)
	}
	return fmt.Sprintf("%q is %sx as fast as %q", a, unit.Sig(1/c.Ratio, 3), b)
}

// durationOf converts ns to a Duration.
func durationOf(ns float64) time.Duration { return time.Duration(math.Round(ns)) }
