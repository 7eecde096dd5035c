package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// GateOptions configure the regression gate (Gate).
type GateOptions struct {
	// Options choose the metrics compared (the primary ones, or all with
	// All) and the time unit of the figures.
	Options
	// Threshold is the smallest change that counts, as a fraction (0.05:
	// 5 %): a regression is slower by more than it, an improvement faster
	// by more than it (new/baseline below 1/(1+Threshold)).
	Threshold float64
	// AllowEnvMismatch compares documents from different machines or
	// configurations anyway (Gate refuses them otherwise); every line of
	// the verdict then says so.
	AllowEnvMismatch bool
}

// The verdicts of the gate.
const (
	VerdictRegression  = "regression"
	VerdictImprovement = "improvement"
	VerdictNoChange    = "no change"
	VerdictUndecided   = "undecided"
)

// GateChange is one compared metric with its verdict.
type GateChange struct {
	Change
	// Slowdown is the change as "how many times slower": New/Old, or
	// Old/New for metrics where more is better (units per second), with
	// its interval SlowLo..SlowHi.
	Slowdown, SlowLo, SlowHi float64
	// PHolm is the Mann-Whitney p-value after Holm's correction over every
	// compared metric of the gate (NaN without a test).
	PHolm float64
	// Verdict is VerdictRegression, VerdictImprovement, VerdictNoChange or
	// VerdictUndecided; Why says why an undecided one is undecided.
	Verdict, Why string
	// MoreRuns is how many runs of each side would likely decide an
	// undecided change (0: none would: the ratio sits at the threshold;
	// -1: not estimated).
	MoreRuns int
}

// GateResult is the outcome of Gate.
type GateResult struct {
	Changes []GateChange
	// OnlyOld and OnlyNew list the measurements in one document only.
	OnlyOld, OnlyNew []string
	// EnvDiffs lists how the environments differ (empty: they match on
	// everything both record); EnvUnchecked what neither records.
	EnvDiffs, EnvUnchecked []string
	Threshold              float64
}

// Regressed reports whether some metric regressed: the gate fails.
func (g *GateResult) Regressed() bool {
	for _, c := range g.Changes {
		if c.Verdict == VerdictRegression {
			return true
		}
	}
	return false
}

// EnvMismatchError is Gate's refusal to compare documents from different
// environments.
type EnvMismatchError struct{ Diffs []string }

func (e *EnvMismatchError) Error() string {
	return "report: the baseline and the new document come from different environments (" + strings.Join(e.Diffs, "; ") +
		"): a change may come from the machine, not the code; compare results from the same machine and configuration, or give --allow-env-mismatch to compare anyway"
}

// Gate compares newer with baseline as a regression gate for CI. Every
// metric in both (see Diff: recomputed from the raw samples) gets the
// ratio of medians with its bootstrap interval and the Mann-Whitney p,
// and the p-values are corrected for the number of comparisons with
// Holm's method (HolmAdjust). A metric
//
//   - regressed when its interval lies above 1+Threshold (slower by
//     more than the threshold, however the noise falls) and its corrected
//     p is at most stats.Alpha;
//   - improved when its interval lies below 1/(1+Threshold) and its
//     corrected p is at most stats.Alpha;
//   - did not change when its interval lies within [1/(1+Threshold),
//     1+Threshold];
//   - is undecided otherwise (too few samples, or an interval across a
//     threshold), with an estimate of the runs that would decide it.
//
// Metrics where more is better (units per second) count their inverse
// ratio as the slowdown. Gate refuses (EnvMismatchError) documents whose
// environments differ in the CPU model, the kernel, GOMAXPROCS or the CPU
// speed profile (frequency driver, governors, boost, maximum
// frequencies), unless o.AllowEnvMismatch.
func Gate(baseline, newer *result.Document, o GateOptions) (*GateResult, error) {
	g := &GateResult{Threshold: o.Threshold}
	g.EnvDiffs, g.EnvUnchecked = EnvDiffs(baseline.Environment, newer.Environment)
	if len(g.EnvDiffs) > 0 && !o.AllowEnvMismatch {
		return nil, &EnvMismatchError{Diffs: g.EnvDiffs}
	}
	changes, onlyOld, onlyNew := Diff(baseline, newer, o.Options)
	g.OnlyOld, g.OnlyNew = onlyOld, onlyNew
	var ps []float64
	for _, c := range changes {
		if c.Err == nil {
			ps = append(ps, c.MannWhitney.P)
		}
	}
	adj := HolmAdjust(ps)
	up, down := 1+o.Threshold, 1/(1+o.Threshold)
	k := 0
	for _, c := range changes {
		gc := GateChange{Change: c, PHolm: math.NaN(), MoreRuns: -1}
		gc.Slowdown, gc.SlowLo, gc.SlowHi = c.Ratio, c.CI.Lo, c.CI.Hi
		if higherIsBetter(c.Unit) {
			gc.Slowdown, gc.SlowLo, gc.SlowHi = 1/c.Ratio, 1/c.CI.Hi, 1/c.CI.Lo
		}
		na, nb := len(metricValues(newer, c)), len(metricValues(baseline, c))
		switch {
		case c.Err != nil:
			gc.Verdict, gc.Why = VerdictUndecided, "no test: "+c.Err.Error()
		default:
			gc.PHolm = adj[k]
			k++
			sig := gc.PHolm <= stats.Alpha
			switch {
			case gc.SlowLo > up && sig:
				gc.Verdict = VerdictRegression
			case gc.SlowHi < down && sig:
				gc.Verdict = VerdictImprovement
			case gc.SlowLo >= down && gc.SlowHi <= up:
				gc.Verdict = VerdictNoChange
			default:
				gc.Verdict = VerdictUndecided
				gc.Why = undecidedWhy(gc, up, down, na, nb)
				gc.MoreRuns = moreRuns(gc, up, down, min(na, nb), len(ps))
			}
		}
		g.Changes = append(g.Changes, gc)
	}
	return g, nil
}

// higherIsBetter reports whether more of a unit is better (a rate: units
// per second, such as Go benchmarks' B/s).
func higherIsBetter(u string) bool { return strings.HasSuffix(u, "/s") }

// undecidedWhy says why a change is undecided.
func undecidedWhy(c GateChange, up, down float64, na, nb int) string {
	if stats.MinPValue(na, nb) > stats.Alpha {
		return fmt.Sprintf("too few samples (%d and %d): no test of them can reach p ≤ %s", nb, na, strconv.FormatFloat(stats.Alpha, 'g', -1, 64))
	}
	switch {
	case c.SlowLo > up || c.SlowHi < down:
		return fmt.Sprintf("beyond the threshold, but p = %s after Holm's correction", PValue(c.PHolm))
	case c.SlowHi > up:
		return "the interval reaches beyond the threshold of a regression"
	case c.SlowLo < down:
		return "the interval reaches beyond the threshold of an improvement"
	}
	return "the interval and the test disagree"
}

// moreRuns estimates the runs of each side that would decide a change:
// an interval's width shrinks as 1/√n, so n runs become n·(w/d)², where
// w is the interval's half-width in log ratio and d the distance from
// the ratio to the nearest threshold; and at least enough for the test
// to reach stats.Alpha after Holm's correction over m tests (the
// smallest p of n and n values, times m, at most alpha). It returns 0
// when the ratio sits on a threshold (no number of runs decides), -1
// when n is unknown.
func moreRuns(c GateChange, up, down float64, n, m int) int {
	if n <= 0 || !(c.Slowdown > 0) || !(c.SlowLo > 0) || !(c.SlowHi > 0) {
		return -1
	}
	lr := math.Log(c.Slowdown)
	w := math.Max(lr-math.Log(c.SlowLo), math.Log(c.SlowHi)-lr)
	d := math.Min(math.Abs(lr-math.Log(up)), math.Abs(lr-math.Log(down)))
	if d < 1e-3 {
		return 0
	}
	need := float64(n) * (w / d) * (w / d)
	sig := 1
	for stats.MinPValue(sig, sig)*float64(max(1, m)) > stats.Alpha {
		sig++
	}
	need = math.Max(need, float64(sig))
	if need > 1e9 {
		return 0
	}
	return max(1, int(math.Ceil(need))-n)
}

// HolmAdjust returns Holm's step-down adjusted p-values of ps (in their
// order): with the p-values sorted increasing, p(1) ≤ … ≤ p(m), the
// adjusted p(i) is max over j ≤ i of min(1, (m−j+1)·p(j)). Rejecting the
// hypotheses whose adjusted p is at most alpha keeps the chance of any
// false rejection among all m at most alpha (Holm 1979). NaNs stay NaN
// and count in m.
func HolmAdjust(ps []float64) []float64 {
	m := len(ps)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		pa, pb := ps[a], ps[b]
		switch {
		case math.IsNaN(pa) && math.IsNaN(pb):
			return 0
		case math.IsNaN(pa):
			return 1
		case math.IsNaN(pb):
			return -1
		case pa < pb:
			return -1
		case pa > pb:
			return 1
		}
		return 0
	})
	out := make([]float64, m)
	run := 0.0
	for r, i := range idx {
		if math.IsNaN(ps[i]) {
			out[i] = math.NaN()
			continue
		}
		run = math.Max(run, math.Min(1, float64(m-r)*ps[i]))
		out[i] = run
	}
	return out
}

// EnvDiffs compares two environments on what decides whether their
// figures are comparable: the CPU model, the kernel release, GOMAXPROCS
// and the CPU speed profile (frequency driver, governors, boost, each
// CPU's maximum frequency). A field known in one environment only
// differs ("unknown in the baseline"); one known in neither is listed in
// unchecked. A missing environment knows nothing.
func EnvDiffs(old, cur *env.Host) (diffs, unchecked []string) {
	get := func(h *env.Host, f func(*env.Host) string) string {
		if h == nil {
			return ""
		}
		return f(h)
	}
	for _, f := range []struct {
		name string
		f    func(*env.Host) string
	}{
		{"CPU model", func(h *env.Host) string { return h.CPU.Model }},
		{"kernel", func(h *env.Host) string { return h.System.KernelRelease }},
		{"GOMAXPROCS", func(h *env.Host) string {
			if h.Go.GOMAXPROCS == 0 {
				return ""
			}
			return strconv.Itoa(h.Go.GOMAXPROCS)
		}},
		{"CPU speed profile", (*env.Host).SpeedProfile},
	} {
		a, b := get(old, f.f), get(cur, f.f)
		switch {
		case a == "" && b == "":
			unchecked = append(unchecked, f.name)
		case a == "":
			diffs = append(diffs, f.name+" unknown in the baseline, "+quoteEnv(b)+" in the new document")
		case b == "":
			diffs = append(diffs, f.name+" "+quoteEnv(a)+" in the baseline, unknown in the new document")
		case a != b:
			diffs = append(diffs, f.name+" "+quoteEnv(a)+" in the baseline, "+quoteEnv(b)+" in the new document")
		}
	}
	return diffs, unchecked
}

func quoteEnv(s string) string { return strconv.Quote(s) }

// GateView lays out a gate's result: a summary line, then a table each of
// the regressions, the improvements, the undecided changes (why, and the
// runs that would decide them) and the unchanged metrics. Every line says
// so when the environments differ. Its Markdown rendering is a summary
// for a pull-request comment.
func GateView(baseline, newer *result.Document, g *GateResult, o Options) *View {
	mark := ""
	if len(g.EnvDiffs) > 0 {
		mark = " [environments differ]"
	}
	count := map[string]int{}
	for _, c := range g.Changes {
		count[c.Verdict]++
	}
	thr := strconv.FormatFloat(100*g.Threshold, 'g', -1, 64) + "%"
	v := &View{Title: "chrono: performance against the baseline" + mark}
	head := fmt.Sprintf("%s, %s, %s, %s of %d compared (threshold %s; significance: Mann-Whitney U, p ≤ %s after Holm's correction over %s)%s",
		plural.Count(count[VerdictRegression], "regression"), plural.Count(count[VerdictImprovement], "improvement"),
		fmt.Sprintf("%d unchanged", count[VerdictNoChange]), fmt.Sprintf("%d undecided", count[VerdictUndecided]),
		len(g.Changes), thr, strconv.FormatFloat(stats.Alpha, 'g', -1, 64), plural.Count(testsOf(g), "test"), mark)
	lines := []string{head, fmt.Sprintf("baseline: %s document of %s; new: %s document of %s%s", baseline.Kind, stamp(baseline), newer.Kind, stamp(newer), mark)}
	if len(g.EnvDiffs) > 0 {
		lines = append(lines, "the environments differ, compared anyway (--allow-env-mismatch): "+strings.Join(g.EnvDiffs, "; ")+mark)
	}
	v.Blocks = append(v.Blocks, Block{Lines: lines})
	table := func(verdict, heading string, extra bool) {
		t := &Table{Columns: []Column{{Name: "measurement"}, {Name: "metric"}, {Name: "baseline", Numeric: true}, {Name: "new", Numeric: true},
			{Name: "change", Numeric: true}, {Name: Percent(stats.Confidence) + " CI"}, {Name: "p (Holm)", Numeric: true}}}
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
			if c.Err == nil {
				ch = TextCell(pctChange(c.Ratio, c.CI.Lo, c.CI.Hi))
				ci = TextCell("[" + pctChange(c.CI.Lo, c.CI.Lo, c.CI.Hi) + ", " + pctChange(c.CI.Hi, c.CI.Lo, c.CI.Hi) + "]")
				p = TextCell(PValue(c.PHolm))
			}
			row := []Cell{TextCell(c.Measurement), TextCell(c.Metric), FigureCell(c.Old, c.Unit, c.OldPrec, o.Unit), FigureCell(c.New, c.Unit, c.NewPrec, o.Unit), ch, ci, p}
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
	table(VerdictRegression, "Regressed (slower by more than "+thr+")", false)
	table(VerdictImprovement, "Improved (faster by more than "+thr+")", false)
	table(VerdictUndecided, "Could not be decided", true)
	table(VerdictNoChange, "Unchanged (within "+thr+")", false)
	csvT := &Table{Columns: []Column{{Name: "measurement"}, {Name: "metric"}, {Name: "unit"}, {Name: "baseline_median"}, {Name: "new_median"},
		{Name: "ratio"}, {Name: "ci_lo"}, {Name: "ci_hi"}, {Name: "p"}, {Name: "p_holm"}, {Name: "verdict"}, {Name: "more_runs"}, {Name: "env_mismatch"}}}
	for _, c := range g.Changes {
		num := func(x float64) Cell {
			if math.IsNaN(x) || c.Err != nil {
				return Missing
			}
			return Cell{Text: exactNum(x), Raw: exactNum(x)}
		}
		more := Missing
		if c.MoreRuns >= 0 {
			more = TextCell(strconv.Itoa(c.MoreRuns))
		}
		csvT.Rows = append(csvT.Rows, []Cell{TextCell(c.Measurement), TextCell(c.Metric), TextCell(c.Unit), num(c.Old), num(c.New),
			num(c.Ratio), num(c.CI.Lo), num(c.CI.Hi), num(c.MannWhitney.P), num(c.PHolm), TextCell(c.Verdict), more, TextCell(strconv.FormatBool(mark != ""))})
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
	notes = append(notes, "change: ratio of medians new/baseline − 1, with its "+Percent(stats.Confidence)+" bootstrap interval, recomputed from the samples"+mark)
	v.Blocks = append(v.Blocks, Block{Notes: notes})
	return v
}

// testsOf is the number of tests the gate corrected for.
func testsOf(g *GateResult) int {
	n := 0
	for _, c := range g.Changes {
		if c.Err == nil {
			n++
		}
	}
	return n
}

// pctChange formats ratio r as a signed percentage change ("+12.3%"),
// with the digits the interval [lo, hi] supports.
func pctChange(r, lo, hi float64) string {
	s := Ratio(100*(r-1), 100*(lo-1), 100*(hi-1))
	if r >= 1 && !strings.HasPrefix(s, "+") {
		s = "+" + s
	}
	return s + "%"
}

// RenderGate writes a gate's result in format f (text, markdown or csv).
func RenderGate(w io.Writer, baseline, newer *result.Document, g *GateResult, f Format, o Options) error {
	v := GateView(baseline, newer, g, o)
	switch f {
	case Text:
		return writeText(w, v, o)
	case Markdown:
		return writeMarkdown(w, v)
	case CSV:
		return writeCSV(w, v, "gate")
	}
	return fmt.Errorf("report: a regression gate is written as text, markdown or csv, not %s", f)
}
