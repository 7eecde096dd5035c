package view

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// medianCell is the cell of a change's median v of metric m, with the
// digits the median of m's samples is known to.
func medianCell(v float64, m *result.Metric, o Options) Cell {
	return FigureCell(v, m.Unit, o.Series(m).AtQuantile(0.5), o.Unit)
}

// DiffView lays out a diff (compare.Documents): one row per compared
// metric with both medians, the ratio new/baseline with its interval, the
// p-value and the conclusion; then the measurements in one document only,
// and a warning when the environments differ.
func DiffView(d *compare.Diff, o Options) *View {
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
				ratio = Cell{Text: unit.Ratio(c.Ratio, c.Ratio, c.Ratio), Raw: ExactNum(c.Ratio)}
				ci = Cell{Text: "[" + c.NoCI + "]"}
				pv = Cell{Text: unit.PValue(c.MannWhitney.P), Raw: ExactNum(c.MannWhitney.P)}
			case c.Err == nil:
				ratio = Cell{Text: unit.Ratio(c.Ratio, c.CI.Lo, c.CI.Hi), Raw: ExactNum(c.Ratio)}
				ci = Cell{Text: "[" + unit.Ratio(c.CI.Lo, c.CI.Lo, c.CI.Hi) + ", " + unit.Ratio(c.CI.Hi, c.CI.Lo, c.CI.Hi) + "]", Raw: ExactNum(c.CI.Lo) + " " + ExactNum(c.CI.Hi)}
				pv = Cell{Text: unit.PValue(c.MannWhitney.P), Raw: ExactNum(c.MannWhitney.P)}
			}
			t.Rows = append(t.Rows, []Cell{TextCell(c.Measurement), TextCell(c.Metric),
				medianCell(c.Old, c.OldMetric, o), medianCell(c.New, c.NewMetric, o), ratio, ci, pv, TextCell(c.Conclusion())})
		}
		v.Blocks = append(v.Blocks, Block{Table: t, In: AllFormats | InCSV, Notes: []string{fmt.Sprintf(
			"ratio of medians with a %s bootstrap interval; significant when the two-sided Mann-Whitney U test gives p <= %s and the interval excludes 1",
			unit.Percent(stats.Confidence), strconv.FormatFloat(stats.Alpha, 'g', -1, 64))}})
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
	v.Blocks = append(v.Blocks, ProfileTraceBlocks(d.Traces)...)
	if baseline.Environment != nil && newer.Environment != nil {
		if ob, nb := brief(baseline.Environment), brief(newer.Environment); ob != nb {
			v.Warnings = append(v.Warnings, warn.New("environments-differ",
				"the environments differ, so a change may come from the machine, not the code (baseline: "+ob+"; new: "+nb+")",
				"compare results measured on the same machine and configuration"))
		}
	}
	return v
}
