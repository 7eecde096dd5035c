package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

func (o Options) percentiles() []float64 {
	if len(o.Percentiles) == 0 {
		return []float64{50, 99}
	}
	return o.Percentiles
}

// Header is the first line of every view: the kind, the writer, when it
// ran, whether it is complete.
func Header(d *result.Document) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s document, written by %s", d.Kind, strings.TrimSpace(d.Tool.Name+" "+d.Tool.Version))
	if !d.Start.IsZero() {
		fmt.Fprintf(&b, " on %s", d.Start.Format("2006-01-02 15:04:05 MST"))
	}
	if d.Incomplete {
		b.WriteString(" (incomplete: the run was interrupted or failed part way)")
	}
	return b.String()
}

// genericView lays out any document as one table of its measurements'
// metrics (the primary ones, every one with o.All): n, median with its
// 95 % distribution-free interval, mean ± sample standard deviation, min
// … max and percentiles, each with the digits it is known to. Kinds with
// their own layout register a Viewer instead.
func genericView(d *result.Document, o Options) (*View, error) {
	v := &View{Title: Header(d)}
	if d.Environment != nil {
		v.Blocks = append(v.Blocks, Block{Lines: []string{"environment: " + env.Brief(d.Environment)}})
	}
	pcts := o.percentiles()
	text := &Table{Columns: []Column{{Name: "measurement"}, {Name: "metric"}, {Name: "n", Numeric: true},
		{Name: "median", Numeric: true}, {Name: "95% CI"}, {Name: "mean ± σ (n-1)", Numeric: true}, {Name: "min … max"}}}
	csvT := &Table{Columns: []Column{{Name: "measurement"}, {Name: "metric"}, {Name: "unit"}, {Name: "n"}, {Name: "median"},
		{Name: "ci_lo"}, {Name: "ci_hi"}, {Name: "mean"}, {Name: "stddev_sample"}, {Name: "min"}, {Name: "max"}}}
	for _, p := range pcts {
		text.Columns = append(text.Columns, Column{Name: stats.PercentileLabel(p), Numeric: true})
		csvT.Columns = append(csvT.Columns, Column{Name: stats.PercentileLabel(p)})
	}
	var noSamples []string
	for i := range d.Measurements {
		m := &d.Measurements[i]
		shown := 0
		for j := range m.Metrics {
			met := &m.Metrics[j]
			if !o.All && m.Primary != "" && met.Name != m.Primary {
				continue
			}
			s := NewSeries(met)
			if s.N() == 0 {
				continue
			}
			shown++
			name := m.Name
			if m.Incomplete {
				name += " (incomplete)"
			}
			sum := s.Summary
			f := func(x float64, p unit.Precision) Cell { return s.Cell(x, p, o.Unit) }
			med := f(sum.Median, s.AtQuantile(0.5))
			ci, lo, hi := Missing, Missing, Missing
			if iv, err := s.MedianCI(stats.Confidence); err == nil {
				lo, hi = f(iv.Lo, s.Observed()), f(iv.Hi, s.Observed())
				ci = TextCell("[" + lo.Text + ", " + hi.Text + "]")
			}
			mean, sd := f(sum.Mean, s.OfMean()), Missing
			if sum.N >= 2 {
				sd = f(sum.StdDevSample, s.OfStdDev())
			}
			mn, mx := f(sum.Min, s.Observed()), f(sum.Max, s.Observed())
			tr := []Cell{TextCell(name), TextCell(met.Name), TextCell(strconv.Itoa(sum.N)), med, ci,
				TextCell(mean.Text + " ± " + sd.Text), TextCell(mn.Text + " … " + mx.Text)}
			cr := []Cell{TextCell(m.Name), TextCell(met.Name), TextCell(met.Unit), TextCell(strconv.Itoa(sum.N)), med, lo, hi, mean, sd, mn, mx}
			for _, p := range pcts {
				c := f(s.Quantile(p/100), s.AtQuantile(p/100))
				tr = append(tr, c)
				cr = append(cr, c)
			}
			text.Rows = append(text.Rows, tr)
			csvT.Rows = append(csvT.Rows, cr)
		}
		if shown == 0 {
			noSamples = append(noSamples, m.Name)
		}
	}
	if len(text.Rows) > 0 {
		v.Blocks = append(v.Blocks,
			Block{Table: text, In: AllFormats, Notes: []string{"percentiles: linear definition (numpy's default); CI: distribution-free, from order statistics; digits: as far as each figure is known"}},
			Block{Table: csvT, In: InCSV})
		v.Blocks = append(v.Blocks, genericCharts(d, o)...)
	}
	if len(noSamples) > 0 {
		v.Blocks = append(v.Blocks, Block{Lines: []string{"without per-sample values: " + strings.Join(noSamples, ", ")}})
	}
	v.Warnings = documentWarnings(d)
	return v, nil
}

// genericCharts are the terminal charts (ChartLines) of every metric in
// the generic table, one text block per measurement and metric.
func genericCharts(d *result.Document, o Options) []Block {
	var bs []Block
	for i := range d.Measurements {
		m := &d.Measurements[i]
		for j := range m.Metrics {
			met := &m.Metrics[j]
			if !o.All && m.Primary != "" && met.Name != m.Primary {
				continue
			}
			if lines := ChartLines(met, "  ", o); len(lines) > 0 {
				bs = append(bs, Block{Heading: m.Name + " (" + met.Name + "):", Lines: lines, In: InText})
			}
		}
	}
	return bs
}

// Diff compares every metric of newer that has a counterpart in
// baseline: the primary metrics, or all with o.All (compare.Documents,
// recomputed from the samples). Measurements present in only one
// document are listed in onlyOld and onlyNew.
func Diff(baseline, newer *result.Document, o Options) (changes []compare.Change, onlyOld, onlyNew []string) {
	d := compare.Documents(baseline, newer, o.All)
	return d.Changes, d.OnlyOld, d.OnlyNew
}

// metricValues returns the values of c's metric in d (the benchstat
// agreement test reads them).
func metricValues(d *result.Document, c compare.Change) []float64 {
	for i := range d.Measurements {
		if m := &d.Measurements[i]; m.Name == c.Measurement {
			if met := m.Metric(c.Metric); met != nil {
				return met.Values
			}
		}
	}
	return nil
}

// DiffView lays out the changes from baseline to newer (compare.Documents).
func DiffView(baseline, newer *result.Document, o Options) *View {
	return diffView(compare.Documents(baseline, newer, o.All), o)
}

// medianCell is the cell of a change's median v of metric m, with the
// digits the median of m's samples is known to.
func medianCell(v float64, m *result.Metric, o Options) Cell {
	return FigureCell(v, m.Unit, NewSeries(m).AtQuantile(0.5), o.Unit)
}

// diffView lays out a diff: one row per compared metric with both
// medians, the ratio new/baseline with its interval, the p-value and the
// conclusion.
func diffView(d *compare.Diff, o Options) *View {
	baseline, newer := d.Baseline, d.Newer
	v := &View{Title: fmt.Sprintf("baseline: %s document of %s; new: %s document of %s", baseline.Kind, stamp(baseline), newer.Kind, stamp(newer))}
	if len(d.Changes) == 0 {
		v.Blocks = append(v.Blocks, Block{Lines: []string{"no measurement is in both documents with the same name and metric"}})
	} else {
		t := &Table{Columns: []Column{{Name: "measurement"}, {Name: "metric"}, {Name: "baseline median", CSVName: "baseline_median", Numeric: true},
			{Name: "new median", CSVName: "new_median", Numeric: true}, {Name: "new/baseline", CSVName: "ratio", Numeric: true},
			{Name: "95% CI", CSVName: "ci"}, {Name: "p", Numeric: true}, {Name: "verdict"}}}
		for _, c := range d.Changes {
			ratio, ci, pv := Missing, Missing, Missing
			switch {
			case c.Err == nil && c.NoCI != "":
				ratio = Cell{Text: Ratio(c.Ratio, c.Ratio, c.Ratio), Raw: exactNum(c.Ratio)}
				ci = Cell{Text: "[" + c.NoCI + "]"}
				pv = Cell{Text: PValue(c.MannWhitney.P), Raw: exactNum(c.MannWhitney.P)}
			case c.Err == nil:
				ratio = Cell{Text: Ratio(c.Ratio, c.CI.Lo, c.CI.Hi), Raw: exactNum(c.Ratio)}
				ci = Cell{Text: "[" + Ratio(c.CI.Lo, c.CI.Lo, c.CI.Hi) + ", " + Ratio(c.CI.Hi, c.CI.Lo, c.CI.Hi) + "]", Raw: exactNum(c.CI.Lo) + " " + exactNum(c.CI.Hi)}
				pv = Cell{Text: PValue(c.MannWhitney.P), Raw: exactNum(c.MannWhitney.P)}
			}
			t.Rows = append(t.Rows, []Cell{TextCell(c.Measurement), TextCell(c.Metric),
				medianCell(c.Old, c.OldMetric, o), medianCell(c.New, c.NewMetric, o), ratio, ci, pv, TextCell(c.Conclusion())})
		}
		v.Blocks = append(v.Blocks, Block{Table: t, In: AllFormats | InCSV, Notes: []string{fmt.Sprintf(
			"ratio of medians with a %s bootstrap interval; significant when the two-sided Mann-Whitney U test gives p <= %s and the interval excludes 1",
			Percent(stats.Confidence), strconv.FormatFloat(stats.Alpha, 'g', -1, 64))}})
	}
	var lines []string
	if len(d.OnlyOld) > 0 {
		lines = append(lines, "only in the baseline: "+strings.Join(d.OnlyOld, ", "))
	}
	if len(d.OnlyNew) > 0 {
		lines = append(lines, "only in the new document: "+strings.Join(d.OnlyNew, ", "))
	}
	if len(lines) > 0 {
		v.Blocks = append(v.Blocks, Block{Lines: lines})
	}
	if baseline.Environment != nil && newer.Environment != nil {
		if ob, nb := env.Brief(baseline.Environment), env.Brief(newer.Environment); ob != nb {
			v.Warnings = append(v.Warnings, warn.New("environments-differ",
				"the environments differ, so a change may come from the machine, not the code (baseline: "+ob+"; new: "+nb+")",
				"compare results measured on the same machine and configuration"))
		}
	}
	return v
}

// RenderDiff writes the comparison of newer with baseline in format f.
func RenderDiff(w io.Writer, baseline, newer *result.Document, f Format, o Options) error {
	v := DiffView(baseline, newer, o)
	switch f {
	case Text:
		return writeText(w, v, o)
	case Markdown:
		return writeMarkdown(w, v)
	case CSV:
		return writeCSV(w, v, "comparison")
	}
	return fmt.Errorf("report: a comparison with a baseline is written as text, markdown or csv, not %s", f)
}

func stamp(d *result.Document) string {
	if d.Start.IsZero() {
		return "unknown time"
	}
	return d.Start.Format("2006-01-02 15:04:05")
}

// exactNum is v in the shortest form that reads back exactly.
func exactNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
