package result

import "github.com/chronograph/chronograph/stats"

// NumbersRun holds how a numbers document (chrono stats) read its input
// and what it was asked to show: a renderer needs these to show the
// document as chrono stats did.
type NumbersRun struct {
	// Source names the input: a file name or "stdin" (also the name of
	// the one measurement).
	Source string `json:"source"`
	// Lines is the number of lines read.
	Lines int `json:"lines"`
	// TimeUnit is the unit given to bare numbers, in which durations are
	// also shown ("ns", "µs", "ms", "s"); absent when none was given
	// (durations are then shown in the unit that suits each figure).
	TimeUnit string `json:"time_unit,omitempty"`
	// SkippedTokens counts the tokens that were not numbers and were
	// skipped (--skip-invalid); FirstSkipped gives the position of the
	// first and quotes its start. Both absent when none was skipped.
	SkippedTokens int    `json:"skipped_tokens,omitempty"`
	FirstSkipped  string `json:"first_skipped,omitempty"`
	// PercentileMethod is the numpy name of the percentile definition
	// (e.g. "linear"); Percentiles the percentiles shown, each in [0,
	// 100], in the order asked.
	PercentileMethod string    `json:"percentile_method"`
	Percentiles      []float64 `json:"percentiles"`
	// Confidence is the level of the median's interval (0.95 = 95 %).
	Confidence float64 `json:"confidence"`
	// Bins is the number of histogram bins asked for; absent when no
	// histogram was asked for.
	Bins int `json:"bins,omitempty"`
}

// NumbersDetail holds what chrono stats found in the numbers besides the
// metric's summary and percentiles. Every figure is in the metric's unit
// ("ns" for durations, "1" for plain numbers); indexes point into the
// metric's values (0-based).
type NumbersDetail struct {
	// MedianCI is the median's distribution-free interval (order
	// statistics) at NumbersRun.Confidence; absent when the sample is too
	// small for that level (MedianCIUnavailable says why).
	MedianCI            *stats.Interval `json:"median_ci,omitempty"`
	MedianCIUnavailable string          `json:"median_ci_unavailable,omitempty"`
	// Tukey classifies the values by Tukey's fences; absent for fewer
	// than 4 values.
	Tukey *TukeyOutliers `json:"tukey,omitempty"`
	// ModifiedZ flags the values by their modified z-score.
	ModifiedZ ModifiedZOutliers `json:"modified_z"`
	// Histogram holds the values in NumbersRun.Bins equal-width bins (fewer
	// when the range holds fewer distinct bounds); absent without a
	// histogram.
	Histogram *Histogram `json:"histogram,omitempty"`
}

// TukeyOutliers are the values beyond Tukey's fences (from the linear
// quartiles Q1, Q3 and IQR = Q3 - Q1): mild beyond 1.5 IQR, severe beyond
// 3 IQR. Nothing is dropped from the figures.
type TukeyOutliers struct {
	// Indexes of the values in each class (empty lists are written).
	LowSevere  []int `json:"low_severe"`
	LowMild    []int `json:"low_mild"`
	HighMild   []int `json:"high_mild"`
	HighSevere []int `json:"high_severe"`
	// The fences Q1 - 3 IQR, Q1 - 1.5 IQR, Q3 + 1.5 IQR, Q3 + 3 IQR; each
	// absent when it is beyond the float64 range.
	LowSevereFence  *float64 `json:"low_severe_fence,omitempty"`
	LowMildFence    *float64 `json:"low_mild_fence,omitempty"`
	HighMildFence   *float64 `json:"high_mild_fence,omitempty"`
	HighSevereFence *float64 `json:"high_severe_fence,omitempty"`
}

// ModifiedZOutliers are the values whose modified z-score |0.6745 (x -
// median) / MAD| exceeds Threshold (Iglewicz and Hoaglin).
type ModifiedZOutliers struct {
	Threshold float64 `json:"threshold"`
	// Outliers holds the indexes of the flagged values (an empty list
	// when none is).
	Outliers []int `json:"outliers"`
	// Undefined says why no value could be flagged (the MAD is 0); absent
	// otherwise.
	Undefined string `json:"undefined,omitempty"`
}
