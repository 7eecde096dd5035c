package view

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// Header is the first line of every view: the kind, the writer, when it
// ran, whether it is complete.
func Header(d *result.Document) string {
	var b strings.Builder
	b.WriteString(d.Kind + " document")
	if w := strings.TrimSpace(d.Tool.Name + " " + d.Tool.Version); w != "" {
		b.WriteString(", written by " + w) // a document without its tool says none
	}
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
// their own layout register a viewer instead.
func genericView(d *result.Document, o Options) (*View, error) {
	return genericViewWith(d, o, nil)
}

// cellRule formats figure x of series s (of metric met) with precision p
// in a kind's own way: see genericViewWith.
type cellRule func(met *result.Metric, s *Series, x float64, p unit.Precision, u unit.Unit) Cell

// genericViewWith is genericView with every figure of the table formatted
// by rule (nil: Series.Cell), so that a kind may print its figures no
// finer than its instrument (pulsesCell).
func genericViewWith(d *result.Document, o Options, rule cellRule) (*View, error) {
	v := &View{Title: Header(d)}
	if d.Environment != nil {
		v.Blocks = append(v.Blocks, Block{Lines: []string{"environment: " + brief(d.Environment)}})
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
			s := o.Series(met)
			if s.N() == 0 {
				continue
			}
			shown++
			name := m.Name
			if m.Incomplete {
				name += " (incomplete)"
			}
			sum := s.Summary
			f := func(x float64, p unit.Precision) Cell {
				if rule != nil {
					return rule(met, s, x, p, o.Unit)
				}
				return s.Cell(x, p, o.Unit)
			}
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

func stamp(d *result.Document) string {
	if d.Start.IsZero() {
		return "unknown time"
	}
	return d.Start.Format("2006-01-02 15:04:05")
}

// ExactNum is v in the shortest form that reads back exactly (the Raw of
// a figure's Cell).
func ExactNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
