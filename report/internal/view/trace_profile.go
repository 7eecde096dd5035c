package view

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

// ProfileTraceBlocks lays out the differential profiles of the
// measurements that got slower (compare.Diff.Traces), each as
// ProfileTraceBlock does.
func ProfileTraceBlocks(traces []compare.Trace) []Block {
	var out []Block
	for _, tr := range traces {
		out = append(out, ProfileTraceBlock("where the time went: "+tr.Measurement, tr.Record()))
	}
	return out
}

// ProfileTraceBlock lays out one differential profile under heading:
// the functions whose time per iteration changed most (at most
// compare.TraceTop; flat time first, as pprof -diff_base's top), with
// their time before and after, the change, its share of the whole
// change and the cumulative change; or why there is no such table.
func ProfileTraceBlock(heading string, tr *result.ProfileTrace) Block {
	if tr.Total == nil {
		note := tr.Note
		if note == "" {
			note = "no differential profile"
		}
		return Block{Heading: heading, Lines: []string{"no differential profile: " + note}}
	}
	per := tr.Per
	if per == "" {
		per = "iteration"
	}
	fig := func(v float64) string { return plainFigure(v, tr.Resolution) }
	if tr.Unit == "nanoseconds" {
		fig = func(v float64) string { return signedDuration(v, tr.Resolution) }
	}
	t := &Table{Columns: []Column{{Name: "function"}, {Name: "flat before", Numeric: true}, {Name: "flat after", Numeric: true},
		{Name: "flat change", Numeric: true}, {Name: "share of change", Numeric: true}, {Name: "cum change", Numeric: true}}}
	for i, f := range tr.Funcs {
		if i == compare.TraceTop {
			break
		}
		t.Rows = append(t.Rows, []Cell{TextCell(f.Name), TextCell(fig(f.Flat.Before)), TextCell(fig(f.Flat.After)),
			TextCell(sign(f.Flat.Delta) + fig(math.Abs(f.Flat.Delta))), TextCell(sharePct(f.Flat.Share, tr.Total.Delta)),
			TextCell(sign(f.Cum.Delta) + fig(math.Abs(f.Cum.Delta)))})
	}
	from := ""
	if len(tr.BaseRuns) > 0 && len(tr.NewRuns) > 0 {
		// The history's runs (documents), apart from the runs or
		// iterations profiled in them.
		from = " of history " + runList(tr.BaseRuns) + " against " + strings.TrimPrefix(strings.TrimPrefix(runList(tr.NewRuns), "runs "), "run ")
	}
	lines := []string{fmt.Sprintf("CPU profiles%s, new − baseline per %s (%s profiled before, %d after): %s → %s per %s",
		from, per, plural.Count(int(tr.BaseIterations), per), int(tr.NewIterations),
		fig(tr.Total.Before), fig(tr.Total.After), per)}
	notes := []string{"flat: time in the function itself; cum: in it and what it calls; share: of the whole profile's change (pprof -diff_base, each side divided by its iterations)"}
	if len(tr.BaseRuns) > 1 || len(tr.NewRuns) > 1 {
		notes = append(notes, "each side merges its runs' profiles, every run weighted equally per "+per)
	}
	b := Block{Heading: heading, Lines: lines, Notes: notes}
	if len(t.Rows) > 0 {
		b.Table = t
	} else {
		b.Lines = append(b.Lines, "no function's time changed")
	}
	if n := tr.MoreFuncs + max(0, len(tr.Funcs)-compare.TraceTop); n > 0 {
		b.Notes = append(b.Notes, fmt.Sprintf("%s more changed (go tool pprof -diff_base shows them all)", plural.Count(n, "function")))
	}
	return b
}

// runList names a history's runs: "run 4", "runs 4, 5, 6".
func runList(runs []int64) string {
	ids := make([]string, len(runs))
	for i, r := range runs {
		ids[i] = strconv.FormatInt(r, 10)
	}
	if len(ids) == 1 {
		return "run " + ids[0]
	}
	return "runs " + strings.Join(ids, ", ")
}

// signedDuration is a duration figure whose last digit is no finer than
// step ns (a profiler sample's worth per iteration).
func signedDuration(ns, step float64) string {
	if ns < 0 {
		return "−" + unit.Duration(-ns, unit.Precision{Resolution: step})
	}
	return unit.Duration(ns, unit.Precision{Resolution: step})
}

// plainFigure is a sample count per iteration to the digits of step.
func plainFigure(v, step float64) string {
	if v < 0 {
		return "−" + unit.Plain(-v, unit.Precision{Resolution: step}) + " samples"
	}
	return unit.Plain(v, unit.Precision{Resolution: step}) + " samples"
}

// sign is the sign a change is written with: − or +.
func sign(v float64) string {
	if v < 0 {
		return "−"
	}
	return "+"
}

// sharePct is a function's share of the change in percent, "–" when the
// total did not change.
func sharePct(share, total float64) string {
	if total == 0 {
		return "–"
	}
	return sign(share) + unit.Plain(math.Abs(100*share), unit.Precision{Resolution: 1}) + "%"
}
