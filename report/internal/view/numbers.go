package view

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(result.KindNumbers, numbersView) }

// numbersDefaults are what a numbers document without its run details
// (schema version 1) is shown with.
var numbersDefaults = result.NumbersRun{PercentileMethod: string(stats.Linear), Percentiles: []float64{50, 90, 99, 99.9}, Confidence: stats.Confidence}

// barWidth is the length of the longest bar of a histogram, in characters.
const barWidth = 40

// numbersView lays out a numbers document (chrono stats): per measurement
// the summary (n, min, median with its distribution-free interval, mean,
// max, both standard deviations, MAD, IQR, CV), the outliers by Tukey's
// fences and the modified z-score, the percentiles by the document's
// method and, when the document asks for one, a histogram of equal-width
// bins; the CSV holds one row of exact figures per measurement. Every
// figure is recomputed from the raw values with the document's options
// (o.Percentiles and o.Unit override them), with the digits it is known
// to.
func numbersView(d *result.Document, o Options) (*View, error) {
	run := numbersDefaults
	if r := d.Run.Numbers; r != nil {
		run = *r
	}
	if run.PercentileMethod == "" {
		run.PercentileMethod = numbersDefaults.PercentileMethod
	}
	if len(run.Percentiles) == 0 {
		run.Percentiles = numbersDefaults.Percentiles
	}
	if len(o.Percentiles) > 0 {
		run.Percentiles = o.Percentiles
	}
	method, err := stats.ParseMethod(run.PercentileMethod)
	if err != nil {
		return nil, fmt.Errorf("report: numbers document: %w", err)
	}
	if !(run.Confidence > 0 && run.Confidence < 1) {
		return nil, fmt.Errorf("report: numbers document: confidence %v is not between 0 and 1", run.Confidence)
	}
	if run.Bins < 0 || run.Bins > stats.MaxLinearBins {
		return nil, fmt.Errorf("report: numbers document asks for %d histogram bins: at most %d are shown", run.Bins, stats.MaxLinearBins)
	}
	du := o.Unit
	if du.Nanos == 0 && run.TimeUnit != "" {
		if du, err = unit.ParseUnit(run.TimeUnit); err != nil {
			return nil, fmt.Errorf("report: numbers document: %w", err)
		}
	}
	v := &View{}
	csvT := &Table{Columns: []Column{{Name: "source"}, {Name: "unit"}, {Name: "n"}, {Name: "min"}, {Name: "median"}, {Name: "ci_lo"},
		{Name: "ci_hi"}, {Name: "ci_confidence"}, {Name: "mean"}, {Name: "max"}, {Name: "stddev_sample"}, {Name: "stddev_population"},
		{Name: "mad"}, {Name: "mad_scaled"}, {Name: "q1"}, {Name: "q3"}, {Name: "iqr"}, {Name: "cv"},
		{Name: "tukey_outliers"}, {Name: "modified_z_outliers"}}}
	for _, p := range run.Percentiles {
		csvT.Columns = append(csvT.Columns, Column{Name: stats.PercentileLabel(p)})
	}
	for i := range d.Measurements {
		m := &d.Measurements[i]
		met := m.Metric(m.Primary)
		if met == nil || len(met.Values) == 0 {
			v.Blocks = append(v.Blocks, Block{Lines: []string{m.Name + ": no values"}})
			continue
		}
		heading := ""
		if len(d.Measurements) > 1 {
			heading = m.Name
		}
		blocks, row := numbersBlocks(m, met, o.Series(met), run, method, du, heading)
		v.Blocks = append(v.Blocks, blocks...)
		csvT.Rows = append(csvT.Rows, row)
	}
	v.Blocks = append(v.Blocks, Block{Table: csvT, In: InCSV})
	v.Warnings = documentWarnings(d)
	return v, nil
}

// numbersBlocks lays out one measurement of a numbers document, its
// metric met of Series s, and its CSV row.
func numbersBlocks(m *result.Measurement, met *result.Metric, s *Series, run result.NumbersRun, method stats.Method, du unit.Unit, heading string) ([]Block, []Cell) {
	sum := s.Summary
	cell := func(x float64, p unit.Precision) Cell {
		if math.IsInf(x, 0) {
			return Cell{Text: "beyond the float64 range"}
		}
		return s.Cell(x, p, du)
	}
	// A linear quantile (the median, the quartiles) weighs the two
	// observations around its rank: it is finer than their resolution
	// when they differ (the median of 1 and 2 is 1.5), on their grid when
	// they are equal (the median of six 5s is 5): Series.AtQuantile says
	// which. A spread read from such quantiles (IQR) is known as well as
	// they are, on their grid when all of them are.
	linear := func(qs ...float64) unit.Precision {
		p := s.AtQuantile(qs[0])
		for _, q := range qs[1:] {
			a := s.AtQuantile(q)
			p.Uncertainty = max(p.Uncertainty, a.Uncertainty)
			if a.Resolution == 0 {
				p.Resolution = 0
			}
		}
		return p
	}
	// The MAD, a median of distances from the median, and a quantile of
	// the other interpolating definitions have their uncertainty alone.
	interp := func(qs ...float64) unit.Precision { return unit.Precision{Uncertainty: linear(qs...).Uncertainty} }
	kind := "plain numbers"
	if met.Unit == result.UnitNs {
		kind = "durations"
	}
	if sum.N == 1 {
		kind = strings.TrimSuffix(kind, "s")
	}
	t := &Table{Headless: true, Columns: []Column{{Name: "statistic"}, {Name: "value"}}}
	row := func(k, v string) { t.Rows = append(t.Rows, []Cell{TextCell(k), TextCell(v)}) }
	row("n", fmt.Sprintf("%d %s from %s", sum.N, kind, m.Name))
	mn, mx := cell(sum.Min, s.Observed()), cell(sum.Max, s.Observed())
	med := cell(sum.Median, linear(0.5))
	row("min", mn.Text)
	ci, ciErr := s.MedianCI(run.Confidence)
	lo, hi, conf := Missing, Missing, Missing
	if ciErr == nil {
		lo, hi = cell(ci.Lo, s.Observed()), cell(ci.Hi, s.Observed())
		conf = Cell{Text: unit.Percent(ci.Confidence), Raw: ExactNum(ci.Confidence)}
		row("median", fmt.Sprintf("%s  [%s, %s] %s CI (%s)", med.Text, lo.Text, hi.Text, unit.Percent(ci.Confidence), ci.Method))
	} else {
		row("median", med.Text)
	}
	mean := cell(sum.Mean, s.OfMean())
	row("mean", mean.Text)
	row("max", mx.Text)
	sdS, sdP := Missing, cell(sum.StdDevPopulation, s.OfStdDev())
	if sum.N < 2 {
		row("stddev", "undefined (sample, n-1: one value)   "+sdP.Text+" (population, n)")
	} else {
		sdS = cell(sum.StdDevSample, s.OfStdDev())
		row("stddev", sdS.Text+" (sample, n-1)   "+sdP.Text+" (population, n)")
	}
	mad, madS := cell(sum.MAD, interp(0.5)), cell(sum.MADScaled, interp(0.5))
	row("MAD", fmt.Sprintf("%s (raw)   %s (scaled ×%s)", mad.Text, madS.Text, strconv.FormatFloat(stats.MADScale, 'f', -1, 64)))
	q1, q3, iqr := cell(sum.Q1, linear(0.25)), cell(sum.Q3, linear(0.75)), cell(sum.IQR, linear(0.25, 0.75))
	row("IQR", fmt.Sprintf("%s (Q1 %s, Q3 %s, linear)", iqr.Text, q1.Text, q3.Text))
	cv := Missing
	if sum.Mean != 0 && sum.N >= 2 && !math.IsInf(sum.CV, 0) {
		pct := 100 * sum.CV
		cv = Cell{Text: unit.Plain(pct, unit.Precision{Uncertainty: pct * 1.959963984540054 / math.Sqrt(2*float64(sum.N-1))}) + " %", Raw: ExactNum(sum.CV)}
		row("CV", cv.Text)
	}
	tk := stats.TukeySorted(met.Values, s.Sorted)
	threshold := stats.DefaultModifiedZThreshold
	if nd := m.Detail.Numbers; nd != nil && nd.ModifiedZ.Threshold > 0 {
		threshold = nd.ModifiedZ.Threshold
	}
	tukeyN, modZN := Missing, Missing
	modZ := "modified z-score undefined (the MAD is 0)"
	if sum.MAD > 0 && !math.IsInf(sum.MAD, 0) {
		n := len(stats.ModifiedZSorted(met.Values, s.Sorted, threshold))
		modZN = TextCell(strconv.Itoa(n))
		modZ = fmt.Sprintf("%d by modified z-score > %s", n, strconv.FormatFloat(threshold, 'f', -1, 64))
	}
	if sum.N >= 4 {
		tukeyN = TextCell(strconv.Itoa(tk.Count()))
		row("outliers", fmt.Sprintf("%d by Tukey's fences (%d low severe, %d low mild, %d high mild, %d high severe); %s",
			tk.Count(), len(tk.LowSevere), len(tk.LowMild), len(tk.HighMild), len(tk.HighSevere), modZ))
	} else {
		row("outliers", "Tukey's fences need at least 4 values; "+modZ)
	}
	blocks := []Block{{Heading: heading, Table: t, In: AllFormats}}

	pt := &Table{Headless: true, Columns: []Column{{Name: "percentile"}, {Name: "value"}}}
	csvRow := []Cell{TextCell(m.Name), TextCell(met.Unit), TextCell(strconv.Itoa(sum.N)), mn, med, lo, hi, conf, mean, mx, sdS, sdP,
		mad, madS, q1, q3, iqr, cv, tukeyN, modZN}
	for _, p := range run.Percentiles {
		prec := interp(p / 100)
		switch method {
		case stats.Linear:
			prec = linear(p / 100)
		case stats.InvertedCDF, stats.ClosestObservation:
			prec = unit.Precision{Resolution: s.Resolution, Uncertainty: s.AtQuantile(p / 100).Uncertainty} // an observation: its resolution holds
		}
		c := cell(stats.Quantile(s.Sorted, p/100, method), prec)
		pt.Rows = append(pt.Rows, []Cell{TextCell(stats.PercentileLabel(p)), c})
		csvRow = append(csvRow, c)
	}
	blocks = append(blocks, Block{Heading: "percentiles (" + string(method) + ")", Table: pt, In: AllFormats})

	if run.Bins > 0 {
		if bins := stats.LinearBins(met.Values, run.Bins); len(bins) > 0 {
			blocks = append(blocks, Block{Heading: "histogram (" + plural.Count(run.Bins, "bin") + ")", Table: barTable(bins, s, du), In: AllFormats})
		}
	}
	return blocks, csvRow
}

// barTable draws bins as horizontal bars: each bin's range, then a bar as
// long as its count relative to the largest (barWidth characters).
func barTable(bins []stats.Bin, s *Series, du unit.Unit) *Table {
	most := 0
	for _, b := range bins {
		most = max(most, b.Count)
	}
	// Bounds are not observations: they get two digits finer than the
	// bins' width (never finer than a tenth of the input's step), so
	// that neighbouring bounds differ.
	p := unit.Precision{Resolution: s.Resolution / 10}
	if w := bins[0].Hi - bins[0].Lo; w > 0 && !math.IsInf(w, 0) {
		p.Resolution = max(p.Resolution, math.Pow(10, math.Floor(math.Log10(w))-2))
	}
	t := &Table{Headless: true, Columns: []Column{{Name: "range"}, {Name: "count"}}}
	for _, b := range bins {
		n := 0
		if most > 0 {
			n = (b.Count*barWidth + most - 1) / most
		}
		label := s.Cell(b.Lo, p, du).Text + " .. " + s.Cell(b.Hi, p, du).Text
		t.Rows = append(t.Rows, []Cell{TextCell(label), {Text: "│" + strings.Repeat("█", n) + " " + strconv.Itoa(b.Count), Raw: strconv.Itoa(b.Count)}})
	}
	return t
}
