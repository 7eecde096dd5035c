package view

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(result.KindTrace, traceView) }

// tracePercentiles are the percentiles of the span and between tables.
var tracePercentiles = []float64{50, 90, 99}

// traceView lays out a trace document: the trace's extent and clock, per
// span name the count, percentiles, max, total and share of wall time, the
// A → B intervals, and the longest gaps of each lane.
func traceView(d *result.Document, o Options) (*View, error) {
	v := &View{}
	if r := d.Run.Trace; r != nil {
		wall := float64(r.ToNs - r.FromNs)
		clock := r.Clock
		if clock == "" {
			clock = "not stated in the trace"
		}
		lines := []string{
			fmt.Sprintf("trace: %s on %s over %s", plural.Count(int(r.Events), "event"), plural.Count(r.Lanes, "lane"), unit.Duration(wall, unit.Precision{Resolution: 1})),
			"clock: " + clock,
		}
		if r.Overwritten > 0 {
			lines = append(lines, fmt.Sprintf("the rings (%s each) overwrote or dropped %s before the dump", plural.Count(int(r.RingEvents), "event"), plural.Count(int(r.Overwritten), "oldest event")))
		}
		v.Blocks = append(v.Blocks, Block{Lines: lines})
	}
	var spans, betweens, gaps []*result.Measurement
	for i := range d.Measurements {
		m := &d.Measurements[i]
		td := m.Detail.Trace
		if td == nil {
			continue
		}
		switch td.Role {
		case "span":
			spans = append(spans, m)
		case "between":
			betweens = append(betweens, m)
		case "gaps":
			gaps = append(gaps, m)
		}
	}
	dist := func(first string, ms []*result.Measurement, label func(*result.Measurement) string, extraCols []Column, extra func(*result.Measurement) []Cell) *Table {
		t := &Table{Columns: []Column{{Name: first}, {Name: "count", Numeric: true}}}
		for _, p := range tracePercentiles {
			l := "p" + strconv.FormatFloat(p, 'f', -1, 64)
			t.Columns = append(t.Columns, Column{Name: l, CSVName: l + "_ns", Numeric: true})
		}
		t.Columns = append(t.Columns, Column{Name: "max", CSVName: "max_ns", Numeric: true})
		t.Columns = append(t.Columns, extraCols...)
		for _, m := range ms {
			row := []Cell{TextCell(label(m))}
			met := m.Metric(m.Primary)
			if met == nil || len(met.Values) == 0 {
				row = append(row, TextCell("0"))
				for range len(tracePercentiles) + 1 {
					row = append(row, Missing)
				}
			} else {
				s := o.Series(met)
				row = append(row, TextCell(strconv.Itoa(s.N())))
				for _, p := range tracePercentiles {
					row = append(row, s.Cell(s.Quantile(p/100), s.AtQuantile(p/100), o.Unit))
				}
				row = append(row, s.Cell(s.Summary.Max, s.Observed(), o.Unit))
			}
			t.Rows = append(t.Rows, append(row, extra(m)...))
		}
		return t
	}
	formats := AllFormats | InCSV
	if len(spans) > 0 {
		t := dist("span", spans, func(m *result.Measurement) string { return m.Detail.Trace.Span },
			[]Column{{Name: "total", CSVName: "total_ns", Numeric: true}, {Name: "share of wall", CSVName: "wall_share", Numeric: true}},
			func(m *result.Measurement) []Cell {
				td := m.Detail.Trace
				return []Cell{FigureCell(float64(td.TotalNs), result.UnitNs, unit.Precision{Resolution: 1}, o.Unit),
					{Text: unit.Plain(100*td.WallShare, unit.Precision{Resolution: 0.1}) + " %", Raw: ExactNum(td.WallShare)}}
			})
		v.Blocks = append(v.Blocks, Block{Table: t, In: formats})
		formats = AllFormats
	}
	if len(betweens) > 0 {
		t := dist("between", betweens, func(m *result.Measurement) string { return m.Name },
			[]Column{{Name: "unmatched", Numeric: true}},
			func(m *result.Measurement) []Cell {
				return []Cell{TextCell(strconv.FormatInt(m.Detail.Trace.Unmatched, 10))}
			})
		v.Blocks = append(v.Blocks, Block{Table: t, In: formats})
	}
	if len(spans)+len(betweens) > 0 {
		v.Blocks = append(v.Blocks, Block{Lines: []string{"percentiles: linear definition, over every event of the dump"}})
	}
	if len(gaps) > 0 {
		t := &Table{Headless: true, Columns: []Column{{Name: "lane"}, {Name: "longest gaps"}}}
		for _, m := range gaps {
			td := m.Detail.Trace
			var parts []string
			if met := m.Metric("gap"); met != nil {
				for i, g := range met.Values {
					s := unit.Duration(g, unit.Precision{Resolution: 1})
					if i < len(td.GapFromNs) {
						s += " at " + unit.Duration(float64(td.GapFromNs[i]), unit.Precision{Resolution: 1})
					}
					parts = append(parts, s)
				}
			}
			t.Rows = append(t.Rows, []Cell{TextCell(td.Lane), TextCell(strings.Join(parts, ", "))})
		}
		v.Blocks = append(v.Blocks, Block{Heading: "longest gaps without events, per lane:", Table: t})
	}
	v.Warnings = documentWarnings(d)
	return v, nil
}
