package view

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// GateView lays out a gate's result (compare.GateDocuments): a summary
// line, then a table each of the regressions, the improvements, the
// undecided changes (why, and the runs that would decide them) and the
// unchanged metrics. Every line says so when the environments differ. Its
// Markdown rendering is a summary for a pull-request comment.
func GateView(g *compare.Gate, o Options) *View {
	baseline, newer := g.Baseline, g.Newer
	mark := ""
	if len(g.EnvDiffs) > 0 {
		mark = " [environments differ]"
	}
	count := map[compare.Verdict]int{}
	for _, c := range g.Changes {
		count[c.Verdict]++
	}
	thr := strconv.FormatFloat(100*g.Threshold, 'g', -1, 64) + "%"
	v := &View{Title: "chrono: performance against the baseline" + mark}
	head := fmt.Sprintf("%s, %s, %s, %s of %d compared (threshold %s; significance: Mann-Whitney U, p ≤ %s after Holm's correction over %s)%s",
		plural.Count(count[compare.Regression], "regression"), plural.Count(count[compare.Improvement], "improvement"),
		fmt.Sprintf("%d unchanged", count[compare.NoChange]), fmt.Sprintf("%d undecided", count[compare.Undecided]),
		len(g.Changes), thr, strconv.FormatFloat(stats.Alpha, 'g', -1, 64), plural.Count(testsOf(g), "test"), mark)
	if n := len(g.Changes) - testsOf(g) - untested(g); n > 0 {
		head = strings.TrimSuffix(head, ")"+mark) + fmt.Sprintf("; %d exact, compared without a test)", n) + mark
	}
	lines := []string{head, fmt.Sprintf("baseline: %s document of %s; new: %s document of %s%s", baseline.Kind, stamp(baseline), newer.Kind, stamp(newer), mark)}
	if len(g.EnvDiffs) > 0 {
		lines = append(lines, "the environments differ, compared anyway (--allow-env-mismatch): "+strings.Join(g.EnvDiffs, "; ")+mark)
	}
	v.Blocks = append(v.Blocks, Block{Lines: lines})
	table := func(verdict compare.Verdict, heading string, extra bool) {
		t := &Table{Columns: []Column{{Name: "measurement"}, {Name: "metric"}, {Name: "baseline", Numeric: true}, {Name: "new", Numeric: true},
			{Name: "change", Numeric: true}, {Name: unit.Percent(stats.Confidence) + " CI"}, {Name: "p (Holm)", Numeric: true}}}
		if extra {
			t.Columns = append(t.Columns, Column{Name: "why"}, Column{Name: "more runs to decide", Numeric: true})
		}
		if mark != "" {
			t.Columns = append(t.Columns, Column{Name: "note"})
		}
		for _, c := range g.Changes {
			if c.Verdict != verdict {
				continue
			}
			ch, ci, p := Missing, Missing, Missing
			switch {
			case c.Exact != "":
				ch, ci, p = TextCell(pctChange(c.Ratio, c.Ratio*(1-1e-4), c.Ratio*(1+1e-4))), TextCell("exact"), TextCell("no test")
			case c.Err == nil:
				ch = TextCell(pctChange(c.Ratio, c.CI.Lo, c.CI.Hi))
				ci = TextCell("[" + pctChange(c.CI.Lo, c.CI.Lo, c.CI.Hi) + ", " + pctChange(c.CI.Hi, c.CI.Lo, c.CI.Hi) + "]")
				p = TextCell(unit.PValue(c.PHolm))
			}
			row := []Cell{TextCell(c.Measurement), TextCell(c.Metric), medianCell(c.Old, c.OldMetric, o), medianCell(c.New, c.NewMetric, o), ch, ci, p}
			if extra {
				more := "–"
				switch {
				case c.MoreRuns > 0:
					more = "about " + strconv.Itoa(c.MoreRuns) + " more each"
				case c.MoreRuns == 0:
					more = "none: at the threshold"
				}
				row = append(row, TextCell(c.Why), TextCell(more))
			}
			if mark != "" {
				row = append(row, TextCell("environments differ"))
			}
			t.Rows = append(t.Rows, row)
		}
		if len(t.Rows) > 0 {
			v.Blocks = append(v.Blocks, Block{Heading: heading + mark, Table: t, In: AllFormats})
		}
	}
	table(compare.Regression, "Regressed (slower by more than "+thr+")", false)
	table(compare.Improvement, "Improved (faster by more than "+thr+")", false)
	table(compare.Undecided, "Could not be decided", true)
	table(compare.NoChange, "Unchanged (within "+thr+")", false)
	csvT := &Table{Columns: []Column{{Name: "measurement"}, {Name: "metric"}, {Name: "unit"}, {Name: "baseline_median"}, {Name: "new_median"},
		{Name: "ratio"}, {Name: "ci_lo"}, {Name: "ci_hi"}, {Name: "p"}, {Name: "p_holm"}, {Name: "verdict"}, {Name: "more_runs"}, {Name: "env_mismatch"}}}
	for _, c := range g.Changes {
		num := func(x float64) Cell {
			if math.IsNaN(x) || c.Err != nil {
				return Missing
			}
			return Cell{Text: ExactNum(x), Raw: ExactNum(x)}
		}
		more := Missing
		if c.MoreRuns >= 0 {
			more = TextCell(strconv.Itoa(c.MoreRuns))
		}
		csvT.Rows = append(csvT.Rows, []Cell{TextCell(c.Measurement), TextCell(c.Metric), TextCell(c.Unit), num(c.Old), num(c.New),
			num(c.Ratio), num(c.CI.Lo), num(c.CI.Hi), num(c.MannWhitney.P), num(c.PHolm), TextCell(string(c.Verdict)), more, TextCell(strconv.FormatBool(mark != ""))})
	}
	v.Blocks = append(v.Blocks, Block{Table: csvT, In: InCSV})
	var notes []string
	if len(g.OnlyOld) > 0 {
		notes = append(notes, "only in the baseline (not compared): "+strings.Join(g.OnlyOld, ", ")+mark)
	}
	if len(g.OnlyNew) > 0 {
		notes = append(notes, "only in the new document (not compared): "+strings.Join(g.OnlyNew, ", ")+mark)
	}
	if len(g.EnvUnchecked) > 0 {
		notes = append(notes, "not recorded in either environment, so not checked: "+strings.Join(g.EnvUnchecked, ", ")+mark)
	}
	notes = append(notes, "change: ratio of medians new/baseline − 1, with its "+unit.Percent(stats.Confidence)+" bootstrap interval, recomputed from the samples"+mark)
	for _, c := range g.Changes {
		if c.Exact != "" {
			notes = append(notes, "exact: deterministic metrics (marked exact, as instruction counts are, or with every sample identical on both sides) need no test: their exact ratio is held against the threshold, to the unit (--threshold 0% fails on one instruction more)"+mark)
			break
		}
	}
	v.Blocks = append(v.Blocks, Block{Notes: notes})
	v.Blocks = append(v.Blocks, ProfileTraceBlocks(g.Traces)...)
	return v
}

// testsOf is the number of tests the gate corrected for.
func testsOf(g *compare.Gate) int {
	n := 0
	for _, c := range g.Changes {
		if c.Err == nil && c.Exact == "" {
			n++
		}
	}
	return n
}

// untested is the number of changes the gate could not test.
func untested(g *compare.Gate) int {
	n := 0
	for _, c := range g.Changes {
		if c.Err != nil {
			n++
		}
	}
	return n
}

// pctChange formats ratio r as a signed percentage change ("+12.3%"),
// with the digits the interval [lo, hi] supports.
func pctChange(r, lo, hi float64) string {
	s := unit.Ratio(100*(r-1), 100*(lo-1), 100*(hi-1))
	if r >= 1 && !strings.HasPrefix(s, "+") {
		s = "+" + s
	}
	return s + "%"
}
