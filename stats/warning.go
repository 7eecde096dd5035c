package stats

import (
	"fmt"
	"math"
	"strings"

	"github.com/chronograph/chronograph/warn"
)

// Warning codes set by this package (they are in documents: the strings
// never change; docs/result-schema.md lists them).
const (
	WarnTooFewSamples  = "too-few-samples"
	warnOutliers       = "outliers"
	warnHighVariance   = "high-variance"
	warnResolution     = "clock-resolution"
	warnNaN            = "nan-values"
	warnNoSignificance = "no-significance-possible"
	warnOverflow       = "float64-overflow"
)

// Thresholds behind the summary's warnings.
const (
	// minSamples is the sample size below which Summarize warns.
	minSamples = 5
	// maxCV is the coefficient of variation above which Summarize warns.
	maxCV = 0.10
	// ResolutionFactor: CheckResolution warns when the median is less than
	// this many clock ticks.
	ResolutionFactor = 10
)

// warnf returns a warning of severity warn.Warn; the formatted text
// before " >> " is the message, the rest the next step.
func warnf(code, format string, args ...any) warn.Warning {
	msg, next, _ := strings.Cut(fmt.Sprintf(format, args...), " >> ")
	return warn.New(code, msg, next)
}

// addWarnings derives the summary's own warnings from its figures; sorted is
// the sample the summary describes (no NaNs).
func (s *Summary) addWarnings(sorted []float64) {
	if s.N < minSamples {
		s.Warnings = append(s.Warnings, warnf(WarnTooFewSamples,
			"only %d sample%s >> take at least %d (at least 6 for a 95%% confidence interval of the median)",
			s.N, plural(s.N), minSamples))
	}
	if s.N >= 4 {
		// Counted by bisection: the severe fences lie beyond the mild
		// ones, and the low mild fence below the high one.
		o := tukeyFences(s.Q1, s.Q3)
		low, high := countBelow(sorted, o.LowMildFence), countAbove(sorted, o.HighMildFence)
		severe := countBelow(sorted, o.LowSevereFence) + countAbove(sorted, o.HighSevereFence)
		if n := low + high; n > 0 {
			s.Warnings = append(s.Warnings, warnf(warnOutliers,
				"%d of %d samples are outliers by Tukey's fences (%d low, %d high, %d severe), kept in the figures >> look for interference (other processes, frequency changes, GC)",
				n, s.N, low, high, severe))
		}
	}
	if s.N >= 2 && s.CV > maxCV && !math.IsInf(s.CV, 0) {
		s.Warnings = append(s.Warnings, warnf(warnHighVariance,
			"spread is large: CV %.1f%% > %.0f%%: results are noisy >> quiet the machine or take more samples",
			s.CV*100, maxCV*100))
	}
}

// CheckResolution appends a warning to s when its values are within
// ResolutionFactor times resolution (the clock's observed tick, in the
// sample's unit): such values are quantized by the clock and their spread
// is mostly the clock's. A resolution that is not positive is ignored.
func (s *Summary) CheckResolution(resolution float64) {
	if !(resolution > 0) || s.N == 0 || !(s.Median < ResolutionFactor*resolution) {
		return
	}
	s.Warnings = append(s.Warnings, warnf(warnResolution,
		"values are at the clock's resolution: median %.4g is less than %d ticks of %.4g (same unit) >> batch more work into each sample",
		s.Median, ResolutionFactor, resolution))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
