package stats

import (
	"fmt"
	"math"
	"strings"

	"github.com/chronograph/chronograph/warn"
)

// Warning is a condition that weakens a result, kept as data (as
// golang.org/x/perf/benchmath does) so that every renderer can show it:
// chronograph's one warning type, warn.Warning (a stable code, a
// severity, what was seen and the next step).
type Warning = warn.Warning

// Warning codes set by this package.
const (
	WarnTooFewSamples  = "too-few-samples"
	WarnOutliers       = "outliers"
	WarnHighVariance   = "high-variance"
	WarnResolution     = "clock-resolution"
	WarnNaN            = "nan-values"
	WarnNoSignificance = "no-significance-possible"
	WarnOverflow       = "float64-overflow"
)

// Thresholds behind the summary's warnings.
const (
	// MinSamples is the sample size below which Summarize warns.
	MinSamples = 5
	// MaxCV is the coefficient of variation above which Summarize warns.
	MaxCV = 0.10
	// ResolutionFactor: CheckResolution warns when the median is less than
	// this many clock ticks.
	ResolutionFactor = 10
)

// warnf returns a warning of severity warn.Warn; the formatted text
// before " >> " is the message, the rest the next step.
func warnf(code, format string, args ...any) Warning {
	msg, next, _ := strings.Cut(fmt.Sprintf(format, args...), " >> ")
	return warn.New(code, msg, next)
}

// addWarnings derives the summary's own warnings from its figures; sorted is
// the sample the summary describes (no NaNs).
func (s *Summary) addWarnings(sorted []float64) {
	if s.N < MinSamples {
		s.Warnings = append(s.Warnings, warnf(WarnTooFewSamples,
			"only %d sample%s >> take at least %d (at least 6 for a 95%% confidence interval of the median)",
			s.N, plural(s.N), MinSamples))
	}
	if s.N >= 4 {
		o := tukeyFences(s.Q1, s.Q3)
		var low, high, severe int
		for _, x := range sorted {
			switch {
			case x < o.LowMildFence:
				low++
				if x < o.LowSevereFence {
					severe++
				}
			case x > o.HighMildFence:
				high++
				if x > o.HighSevereFence {
					severe++
				}
			}
		}
		if n := low + high; n > 0 {
			s.Warnings = append(s.Warnings, warnf(WarnOutliers,
				"%d of %d samples are outliers by Tukey's fences (%d low, %d high, %d severe), kept in the figures >> look for interference (other processes, frequency changes, GC)",
				n, s.N, low, high, severe))
		}
	}
	if s.N >= 2 && s.CV > MaxCV && !math.IsInf(s.CV, 0) {
		s.Warnings = append(s.Warnings, warnf(WarnHighVariance,
			"spread is large: CV %.1f%% > %.0f%%: results are noisy >> quiet the machine or take more samples",
			s.CV*100, MaxCV*100))
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
	s.Warnings = append(s.Warnings, warnf(WarnResolution,
		"values are at the clock's resolution: median %.4g is less than %d ticks of %.4g (same unit) >> batch more work into each sample",
		s.Median, ResolutionFactor, resolution))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
