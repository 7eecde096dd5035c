package run

import (
	"fmt"
	"math"
	"slices"
	"time"

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
	// the sample is too small).
	MedianCI *stats.Interval
	// P95 and P99 of the wall time by PercentileMethod.
	P95, P99 float64
	// MaxRSS is the largest peak RSS of all runs and MedianRSS the median
	// of the runs' peaks, in bytes; -1 when unavailable.
	MaxRSS, MedianRSS float64
	Outliers          stats.Outliers
	Failures          int
	TimedOut          int
	Warnings          []string
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

// Analyze computes the statistics and warnings of res.
func (r *Report) Analyze(res *Result) *Analysis {
	a := &Analysis{Result: res, TimedOut: len(res.TimedOut), MaxRSS: -1, MedianRSS: -1}
	ow, ou, os_, sub := r.overheadMedians()
	a.RawWall = series(res.Samples, func(s Sample) float64 { return float64(s.Wall) })
	a.RawUser = series(res.Samples, func(s Sample) float64 { return float64(s.User) })
	a.RawSys = series(res.Samples, func(s Sample) float64 { return float64(s.Sys) })
	a.Wall = correct(slices.Clone(a.RawWall), ow, sub)
	a.User = correct(slices.Clone(a.RawUser), ou, sub)
	a.Sys = correct(slices.Clone(a.RawSys), os_, sub)
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
		a.Warnings = append(a.Warnings, "no completed runs: nothing to summarize")
		if a.TimedOut > 0 {
			a.Warnings = append(a.Warnings, fmt.Sprintf("all %d runs timed out: raise --timeout", a.TimedOut))
		}
		return a
	}
	a.WallSummary = stats.Summarize(a.Wall)
	a.UserSummary = stats.Summarize(a.User)
	a.SysSummary = stats.Summarize(a.Sys)
	if iv, err := stats.MedianCI(a.Wall, Confidence); err == nil {
		a.MedianCI = &iv
	}
	a.P95 = stats.Percentile(a.Wall, 95, PercentileMethod)
	a.P99 = stats.Percentile(a.Wall, 99, PercentileMethod)
	a.Outliers = stats.Tukey(a.Wall)
	a.Warnings = r.warnings(a)
	return a
}

func (r *Report) warnings(a *Analysis) []string {
	var w []string
	res, sum := a.Result, a.WallSummary
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
		switch {
		case ov.Kind == "shell" && sum.Median < 2*ovs.Median:
			w = append(w, fmt.Sprintf("the command takes %s, less than twice the shell start-up overhead subtracted from it (%s ± %s): the figure is dominated by the correction; use -N to run it without a shell",
				unit.FormatDuration(sum.Median, 1000), unit.FormatDuration(ovs.Median, 1000), unit.FormatDuration(ovs.MADScaled, 1000)))
		case ov.Kind == "spawn" && !ov.Subtracted && sum.Median < 2*ovs.Median:
			w = append(w, fmt.Sprintf("the command takes %s, less than twice the time to start a trivial program (true: %s): the figure is mostly process start-up cost", unit.FormatDuration(sum.Median, 1000), unit.FormatDuration(ovs.Median, 1000)))
		}
	}
	cpu := stats.Median(a.RawUser) + stats.Median(a.RawSys)
	if cpu < 4e6 && len(a.RawUser) > 0 {
		w = append(w, "the split of short runs' CPU time into user and system time is apportioned by the kernel from scheduler-tick samples and is coarse (their sum is accurate): compare wall times")
	}
	if med := stats.Median(a.RawWall); med > 10e6 && med > 3*cpu {
		w = append(w, fmt.Sprintf("wall time (%s) is much larger than CPU time (%s): the command mostly waits (I/O, sleep, other processes), so its wall time measures the waits", unit.FormatDuration(med, med/1000), unit.FormatDuration(cpu, med/1000)))
	}
	if p := r.ParentPeakRSSBytes; p > 0 && a.MedianRSS >= 0 && a.MedianRSS <= 1.05*float64(p) {
		w = append(w, fmt.Sprintf("max RSS (median %s) is not above chrono's own peak RSS (%s): Linux counts the parent's memory in the max RSS of a child started with vfork, so the command's own peak is at most this figure", unit.FormatBytes(a.MedianRSS), unit.FormatBytes(float64(p))))
	}
	if a.Failures > 0 {
		w = append(w, fmt.Sprintf("%d of %d runs exited with a non-zero code (kept, with -i)", a.Failures, len(a.Wall)))
	}
	if a.TimedOut > 0 {
		w = append(w, fmt.Sprintf("%d runs timed out after %s, were killed and are left out of the statistics: raise --timeout if they should count", a.TimedOut, r.Options.Timeout))
	}
	if r.Options.Precision > 0 && !res.PrecisionReached && res.Complete {
		w = append(w, fmt.Sprintf("the requested precision (±%s%%) was not reached within the run limits: raise --max-runs or the time budget", unit.Sig(r.Options.Precision*100, 3)))
	}
	return w
}

// Comparison compares one command with the reference.
type Comparison struct {
	Command, Reference *Result
	// Ratio is median(Command)/median(Reference) of the corrected wall
	// times, with its bootstrap confidence interval.
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
		c := Comparison{Command: a.Result, Reference: rf.Result}
		c.Ratio = a.WallSummary.Median / rf.WallSummary.Median
		resamples := max(1000, min(stats.DefaultResamples, 4_000_000/(len(a.Wall)+len(rf.Wall))))
		c.CI = stats.BootstrapRatioCI(a.Wall, rf.Wall, stats.Median, Confidence, resamples, r.Seed)
		c.MannWhitney, c.MWErr = stats.MannWhitneyU(a.Wall, rf.Wall)
		c.Significant = c.MWErr == nil && c.MannWhitney.P < Alpha && !c.CI.Contains(1)
		c.Verdict = verdict(c)
		out = append(out, c)
	}
	return refIdx, out, nil
}

func verdict(c Comparison) string {
	a, b := c.Command.Command.Name, c.Reference.Command.Name
	if !c.Significant {
		if c.MWErr != nil {
			return fmt.Sprintf("not significant: %q and %q cannot be told apart (%v)", a, b, c.MWErr)
		}
		return fmt.Sprintf("not significant: no difference between %q and %q can be shown (p = %s)", a, b, unit.Sig(c.MannWhitney.P, 2))
	}
	if c.Ratio >= 1 {
		return fmt.Sprintf("%q is %sx as slow as %q", a, unit.Sig(c.Ratio, 3), b)
	}
	return fmt.Sprintf("%q is %sx as fast as %q", a, unit.Sig(1/c.Ratio, 3), b)
}

// durationOf converts ns to a Duration.
func durationOf(ns float64) time.Duration { return time.Duration(math.Round(ns)) }
