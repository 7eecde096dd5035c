package numbers

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/chronograph/chronograph/internal/radix"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// MetricValue names the metric of a numbers document: the numbers read.
const MetricValue = "value"

// Warning codes of a numbers document (besides the summary's, package
// stats).
const (
	WarnInputPrecision = "input-precision"
	WarnNoMedianCI     = "no-median-ci"
	WarnSkippedTokens  = "skipped-tokens"
)

// Summary says how Document summarizes the numbers: what the document
// records of its input and options, so that every renderer shows it as
// chrono stats did.
type Summary struct {
	// Source names the input ("stdin" or a file name).
	Source string
	// Method is the percentile definition, Percentiles the percentiles
	// to show (each in [0, 100]).
	Method      stats.Method
	Percentiles []float64
	// Confidence is the level of the median's interval, in (0, 1).
	Confidence float64
	// Bins is the number of histogram bins (0: no histogram; at most
	// stats.MaxLinearBins).
	Bins int
	// TimeUnit is the unit of bare numbers and of the durations shown
	// (nil: none given).
	TimeUnit *unit.Unit
}

// Document turns what Read found into a result document of kind
// "numbers" (docs/result-schema.md): one measurement named after the
// source, whose metric "value" holds every number in input order (unit
// "ns" for durations, "1" for plain numbers; resolution: the input's
// quantum) with its summary and percentiles; the median's interval, the
// outliers and the histogram in Detail.Numbers; how the input was read and
// the options in Run.Numbers. The summary's warnings and the document's
// own are the measurement's. m gives the tool, arguments and
// environment; callers set Start (when reading began). data must hold
// at least one value. It sorts one copy of the values, from which every
// order statistic, the MAD, the interval and the fences come.
func Document(data *Data, s Summary, m result.Meta) *result.Document {
	d := result.New(result.KindNumbers, m)
	run := &result.NumbersRun{Source: s.Source, Lines: data.Lines, SkippedTokens: data.Skipped, FirstSkipped: data.FirstSkipped,
		PercentileMethod: string(s.Method), Percentiles: slices.Clone(s.Percentiles), Confidence: s.Confidence, Bins: s.Bins}
	if s.TimeUnit != nil {
		run.TimeUnit = s.TimeUnit.Name
	}
	d.Run.Numbers = run

	sorted := slices.Clone(data.Values)
	radix.Sort(sorted)
	sum := stats.SummarizeSorted(sorted)
	ws := sum.Warnings
	sum.Warnings = nil // the measurement's, below: said once
	u := result.UnitOne
	if data.Durations {
		u = result.UnitNs
	}
	pm := make(map[string]float64, len(s.Percentiles))
	for _, p := range s.Percentiles {
		if v := stats.Quantile(sorted, p/100, s.Method); !math.IsNaN(v) {
			pm[stats.PercentileLabel(p)] = v
		}
	}
	nd := &result.NumbersDetail{ModifiedZ: result.ModifiedZOutliers{Threshold: stats.DefaultModifiedZThreshold, Outliers: []int{}}}
	if ci, err := stats.MedianCISorted(sorted, s.Confidence); err == nil {
		nd.MedianCI = &ci
	} else {
		nd.MedianCIUnavailable = fmt.Sprintf("%d values are too few for a %s confidence interval of the median: take at least %d",
			sum.N, percent(s.Confidence), stats.MinSamplesForMedianCI(s.Confidence))
		// At 95 % the summary's too-few warning already names this minimum.
		if !(s.Confidence == stats.Confidence && warn.Has(ws, stats.WarnTooFewSamples)) {
			ws = append(ws, warn.New(WarnNoMedianCI,
				fmt.Sprintf("%d values are too few for a %s confidence interval of the median", sum.N, percent(s.Confidence)),
				fmt.Sprintf("take at least %d, or lower --confidence", stats.MinSamplesForMedianCI(s.Confidence))))
		}
	}
	if sum.N >= 4 {
		nd.Tukey = tukey(stats.TukeySorted(data.Values, sorted))
	}
	if sum.MAD > 0 && !math.IsInf(sum.MAD, 0) {
		if o := stats.ModifiedZSorted(data.Values, sorted, stats.DefaultModifiedZThreshold); o != nil {
			nd.ModifiedZ.Outliers = o
		}
	} else {
		nd.ModifiedZ.Undefined = "the MAD is 0 (more than half the values are equal), so the modified z-score is undefined"
	}
	if s.Bins > 0 {
		nd.Histogram = Histogram(data.Values, s.Bins, sum)
	}
	if data.Durations && data.Quantum > 0 && sum.Median < stats.ResolutionFactor*data.Quantum {
		ws = append(ws, warn.New(WarnInputPrecision, fmt.Sprintf(
			"values are close to the input's precision: the median %s is less than %d steps of %s (the last written digit), so rounding is part of the spread",
			unit.Duration(sum.Median, unit.Precision{Resolution: data.Quantum / 10}), stats.ResolutionFactor,
			unit.Duration(data.Quantum, unit.Precision{Resolution: data.Quantum})), "record more digits"))
	}
	if data.Skipped > 0 {
		ws = append(ws, warn.New(WarnSkippedTokens,
			fmt.Sprintf("%d invalid tokens were skipped (first at %s)", data.Skipped, data.FirstSkipped),
			"check that they were meant to be left out"))
	}
	d.Measurements = []result.Measurement{{
		Name:    s.Source,
		Primary: MetricValue,
		Metrics: []result.Metric{{
			Name: MetricValue, Unit: u, Values: data.Values, Resolution: data.Quantum, Summary: &sum,
			Percentiles: pm, PercentileMethod: string(s.Method),
		}},
		Detail:   result.KindDetail{Numbers: nd},
		Warnings: ws,
	}}
	return d
}

// Histogram bins values into n equal-width bins (stats.LinearBins) as a
// result.Histogram, with the exact extremes and mean of sum.
func Histogram(values []float64, n int, sum stats.Summary) *result.Histogram {
	bins := stats.LinearBins(values, n)
	if len(bins) == 0 {
		return nil
	}
	h := &result.Histogram{Min: sum.Min, Max: sum.Max, Mean: sum.Mean}
	for _, b := range bins {
		h.Bounds = append(h.Bounds, b.Lo)
		h.Counts = append(h.Counts, int64(b.Count))
	}
	h.Bounds = append(h.Bounds, bins[len(bins)-1].Hi)
	if len(bins) == 1 && bins[0].Lo == bins[0].Hi {
		// One distinct value: a bin of zero width, which a histogram's
		// increasing bounds cannot hold; give it its value's width.
		if hi := math.Nextafter(h.Bounds[0], math.Inf(1)); !math.IsInf(hi, 0) {
			h.Bounds[1] = hi
		} else {
			h.Bounds[0] = math.Nextafter(h.Bounds[1], math.Inf(-1))
		}
	}
	return h
}

// tukey is stats' classification as the document holds it.
func tukey(o stats.Outliers) *result.TukeyOutliers {
	fence := func(x float64) *float64 {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil
		}
		return &x
	}
	list := func(xs []int) []int {
		if xs == nil {
			return []int{} // none: an empty list, not null
		}
		return xs
	}
	return &result.TukeyOutliers{LowSevere: list(o.LowSevere), LowMild: list(o.LowMild), HighMild: list(o.HighMild), HighSevere: list(o.HighSevere),
		LowSevereFence: fence(o.LowSevereFence), LowMildFence: fence(o.LowMildFence),
		HighMildFence: fence(o.HighMildFence), HighSevereFence: fence(o.HighSevereFence)}
}

// percent writes a confidence level (0.95) as a percentage ("95%").
func percent(c float64) string { return strconv.FormatFloat(c*100, 'g', 6, 64) + "%" }
