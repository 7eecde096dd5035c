package main

import (
	"fmt"
	"github.com/chronograph/chronograph/warn"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/internal/numbers"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(newStatsCmd) }

type statsFlags struct {
	method      string
	percentiles string
	unit        string
	histogram   bool
	bins        int
	json        bool
	skipInvalid bool
	confidence  float64
}

func newStatsCmd() *cobra.Command {
	var f statsFlags
	cmd := &cobra.Command{
		Use:   "stats [FILE|-]",
		Short: "Summarize numbers: summary, percentiles, outliers, histogram",
		Long: `Read numbers from FILE (or standard input when FILE is omitted or "-") and print
their summary, percentiles, outliers and, with --histogram, a terminal histogram.

Numbers are separated by whitespace or commas, one or more per line. A number
may carry a duration suffix (ns, us, µs, ms, s, m, h): then all numbers are
durations, and bare numbers must be given a unit with --unit. Without suffixes
and without --unit the numbers are plain and printed as plain numbers.

Percentiles are computed with one of the nine Hyndman-Fan definitions, named as
numpy names them (--method); every printed percentile says which one made it.
Figures are printed with no more digits than the input's own precision.`,
		Example: `  seq 1 1000 | chrono stats
  chrono stats latencies.txt -p 50,99,99.9 --method hazen
  chrono stats --unit us --histogram waits.txt
  printf '12.5ms\n13.1ms\n12.9ms\n' | chrono stats --json > summary.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runStats(cmd, args, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.method, "method", string(stats.DefaultMethod), "percentile definition (numpy name): "+methodNames())
	fl.StringVarP(&f.percentiles, "percentiles", "p", "50,90,99,99.9", "comma-separated percentiles to print, each in [0,100]")
	fl.StringVar(&f.unit, "unit", "", "unit of bare numbers, and the display unit: ns, us, ms or s")
	fl.BoolVar(&f.histogram, "histogram", false, "print a terminal histogram")
	fl.IntVar(&f.bins, "bins", 20, "number of histogram bins")
	fl.BoolVar(&f.json, "json", false, "print the summary as a result document (JSON) instead of text")
	fl.BoolVar(&f.skipInvalid, "skip-invalid", false, "count and skip tokens that are not numbers instead of failing")
	fl.Float64Var(&f.confidence, "confidence", 0.95, "confidence level of the median's interval, in (0,1)")
	return cmd
}

func methodNames() string {
	names := make([]string, len(stats.Methods))
	for i, m := range stats.Methods {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

func runStats(cmd *cobra.Command, args []string, f statsFlags) error {
	method, err := stats.ParseMethod(f.method)
	if err != nil {
		return usageError{err}
	}
	ps, err := stats.ParsePercentiles(f.percentiles)
	if err != nil {
		return usageError{err}
	}
	if f.bins < 1 {
		return usagef("--bins must be at least 1, got %d", f.bins)
	}
	if !(f.confidence > 0 && f.confidence < 1) {
		return usagef("--confidence must be between 0 and 1 (e.g. 0.95), got %g", f.confidence)
	}
	var opts numbers.Options
	var display *unit.Unit
	if f.unit != "" {
		u, err := unit.ParseUnit(f.unit)
		if err != nil {
			return usageError{err}
		}
		opts.BareUnit, display = &u, &u
	}
	opts.SkipInvalid = f.skipInvalid

	name, in := "stdin", io.Reader(cmd.InOrStdin())
	if len(args) == 1 && args[0] != "-" {
		file, err := os.Open(args[0])
		if err != nil {
			return fmt.Errorf("cannot read numbers: %w", err)
		}
		defer file.Close()
		name, in = args[0], file
	}
	start := time.Now()
	data, err := numbers.Read(in, name, opts)
	if err != nil {
		return err
	}
	if len(data.Values) == 0 {
		return fmt.Errorf("%s: %w", name, numbers.ErrEmpty)
	}
	d := describe(data, method, ps, f.confidence)
	if f.json {
		doc := result.New("numbers", toolInfo())
		doc.Start = start
		doc.Args = append([]string{"chrono"}, os.Args[1:]...)
		doc.Measurements = []result.Measurement{d.measurement(name)}
		doc.End = time.Now()
		return result.Encode(cmd.OutOrStdout(), doc)
	}
	return d.writeText(cmd.OutOrStdout(), name, display, f)
}

// description is everything chrono stats reports about a sample.
type description struct {
	data        *numbers.Data
	summary     stats.Summary
	method      stats.Method
	ps          []float64
	pvals       []float64
	medianCI    stats.Interval
	medianCIErr error
	tukey       stats.Outliers
	modZ        []int
	confidence  float64
}

func describe(data *numbers.Data, method stats.Method, ps []float64, confidence float64) *description {
	sorted := slices.Clone(data.Values)
	slices.Sort(sorted)
	d := &description{data: data, method: method, ps: ps, confidence: confidence}
	d.summary = stats.SummarizeSorted(sorted) // the sort above serves both
	if data.Durations && data.Quantum > 0 && d.summary.Median < stats.ResolutionFactor*data.Quantum {
		// The input's own precision is the resolution of these durations.
		d.summary.Warnings = append(d.summary.Warnings, stats.Warning{Code: stats.WarnResolution, Message: fmt.Sprintf(
			"values are close to the input's precision: the median %s is less than %d steps of %s (the last written digit), so rounding is part of the spread: record more digits",
			unit.FormatDuration(d.summary.Median, data.Quantum/10), stats.ResolutionFactor, unit.FormatDuration(data.Quantum, data.Quantum))})
	}
	d.pvals = make([]float64, len(ps))
	for i, p := range ps {
		d.pvals[i] = stats.Quantile(sorted, p/100, method)
	}
	d.medianCI, d.medianCIErr = stats.MedianCI(sorted, confidence)
	d.tukey = stats.Tukey(data.Values)
	d.modZ = stats.ModifiedZ(data.Values, stats.DefaultModifiedZThreshold)
	return d
}

func (d *description) measurement(name string) result.Measurement {
	u := "1"
	if d.data.Durations {
		u = "ns"
	}
	pm := make(map[string]float64, len(d.ps))
	for i, p := range d.ps {
		pm[stats.PercentileLabel(p)] = d.pvals[i]
	}
	details := map[string]any{
		"modified_z_outliers":  d.modZ,
		"modified_z_threshold": stats.DefaultModifiedZThreshold,
		"input_quantum":        d.data.Quantum,
		"lines":                d.data.Lines,
	}
	if d.summary.N >= 4 { // Tukey's fences need 4 values (NaN below, which JSON cannot hold)
		details["tukey_outliers"] = d.tukey
	}
	if d.medianCIErr == nil {
		details["median_ci"] = d.medianCI
	}
	if d.data.Skipped > 0 {
		details["skipped_tokens"] = d.data.Skipped
	}
	m := result.Measurement{
		Name:    name,
		Primary: "value",
		Metrics: []result.Metric{{
			Name: "value", Unit: u, Values: d.data.Values, Summary: &d.summary,
			Percentiles: pm, PercentileMethod: string(d.method),
		}},
		Details: details,
	}
	m.Warnings = append(m.Warnings, warn.LegacyAll("numbers", d.warnings())...)
	return m
}

// tooFewSaysCI reports whether the summary's too-few-samples warning
// already names the median interval's minimum (it does for 95 %).
func (d *description) tooFewSaysCI() bool {
	if d.confidence != 0.95 {
		return false
	}
	for _, w := range d.summary.Warnings {
		if w.Code == stats.WarnTooFewSamples {
			return true
		}
	}
	return false
}

// warnings collects the summary's warnings and chrono stats' own.
func (d *description) warnings() []string {
	var ws []string
	for _, w := range d.summary.Warnings {
		ws = append(ws, w.String())
	}
	if d.medianCIErr != nil && !d.tooFewSaysCI() {
		ws = append(ws, d.medianCIErr.Error())
	}
	if d.data.Skipped > 0 {
		ws = append(ws, fmt.Sprintf("%d invalid tokens were skipped (first at %s)", d.data.Skipped, d.data.FirstSkipped))
	}
	return ws
}

func (d *description) writeText(w io.Writer, name string, display *unit.Unit, f statsFlags) error {
	s := d.summary
	// Observed values (min, max, bin edges) are shown to the input's own
	// precision; derived figures (mean, interpolated percentiles, spread)
	// get one more digit, since averaging integers gives halves.
	formatRes := func(v, res float64) string {
		switch {
		case !d.data.Durations && res > 0 && res < 1e-9:
			// Finer than 9 decimals: significant digits, so that tiny
			// values never print as 0.000000000.
			return strconv.FormatFloat(v, 'g', 6, 64)
		case !d.data.Durations:
			return unit.Number(v, decimalsFor(res))
		case display != nil:
			return unit.FormatIn(v, *display, res)
		default:
			return unit.FormatDuration(v, res)
		}
	}
	exact := func(v float64) string { return formatRes(v, d.data.Quantum) }
	format := func(v float64) string { return formatRes(v, d.data.Quantum/10) }
	kind := "plain numbers"
	if d.data.Durations {
		kind = "durations"
	}
	var b strings.Builder
	row := func(label, value string) { fmt.Fprintf(&b, "%-13s %s\n", label, value) }
	if s.N == 1 {
		kind = strings.TrimSuffix(kind, "s")
	}
	row("n", fmt.Sprintf("%d %s from %s", s.N, kind, name))
	row("min", exact(s.Min))
	if d.medianCIErr == nil {
		row("median", fmt.Sprintf("%s  [%s, %s] %g%% CI (%s)", format(s.Median), format(d.medianCI.Lo), format(d.medianCI.Hi), d.medianCI.Confidence*100, d.medianCI.Method))
	} else {
		row("median", format(s.Median))
	}
	row("mean", format(s.Mean))
	row("max", exact(s.Max))
	if s.N < 2 {
		row("stddev", fmt.Sprintf("undefined (sample, n-1: one value)   %s (population, n)", format(s.StdDevPopulation)))
	} else {
		row("stddev", fmt.Sprintf("%s (sample, n-1)   %s (population, n)", format(s.StdDevSample), format(s.StdDevPopulation)))
	}
	row("MAD", fmt.Sprintf("%s (raw)   %s (scaled ×%g)", format(s.MAD), format(s.MADScaled), stats.MADScale))
	row("IQR", fmt.Sprintf("%s (Q1 %s, Q3 %s, linear)", format(s.IQR), format(s.Q1), format(s.Q3)))
	if s.Mean != 0 && s.N >= 2 {
		row("CV", unit.Sig(s.CV*100, 3)+" %")
	}
	fmt.Fprintf(&b, "percentiles (%s):\n", d.method)
	for i, p := range d.ps {
		fmt.Fprintf(&b, "  %-11s %s\n", stats.PercentileLabel(p), format(d.pvals[i]))
	}
	t := d.tukey
	modZ := fmt.Sprintf("%d by modified z-score > %g", len(d.modZ), stats.DefaultModifiedZThreshold)
	if s.MAD == 0 {
		modZ = "modified z-score undefined (the MAD is 0)"
	}
	if s.N >= 4 {
		fmt.Fprintf(&b, "outliers      %d by Tukey's fences (%d low severe, %d low mild, %d high mild, %d high severe); %s\n",
			t.Count(), len(t.LowSevere), len(t.LowMild), len(t.HighMild), len(t.HighSevere), modZ)
	} else {
		fmt.Fprintf(&b, "outliers      Tukey's fences need at least 4 values; %s\n", modZ)
	}
	if f.histogram {
		fmt.Fprintf(&b, "histogram (%d bins):\n", f.bins)
		writeBars(&b, stats.LinearBins(d.data.Values, f.bins), format)
	}
	if ws := d.warnings(); len(ws) > 0 {
		b.WriteString("warnings:\n")
		for _, w := range ws {
			fmt.Fprintf(&b, "  - %s\n", w)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// decimalsFor returns the decimals that show a plain number to quantum q.
func decimalsFor(q float64) int {
	d := 0
	for q > 0 && q < 0.999999 && d < 9 {
		q *= 10
		d++
	}
	return d
}

// writeBars draws a horizontal bar chart of bins.
func writeBars(b *strings.Builder, bins []stats.Bin, format func(float64) string) {
	const width = 40
	most := 0
	for _, bin := range bins {
		most = max(most, bin.Count)
	}
	labels := make([]string, len(bins))
	lw := 0
	for i, bin := range bins {
		labels[i] = format(bin.Lo) + " .. " + format(bin.Hi)
		lw = max(lw, len([]rune(labels[i])))
	}
	for i, bin := range bins {
		n := 0
		if most > 0 {
			n = (bin.Count*width + most - 1) / most
		}
		pad := strings.Repeat(" ", lw-len([]rune(labels[i])))
		fmt.Fprintf(b, "  %s%s │%s %d\n", labels[i], pad, strings.Repeat("█", n), bin.Count)
	}
}
