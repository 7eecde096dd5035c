package view

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(result.KindCommand, commandView) }

// The command view (chrono run) lays a command document out as hyperfine
// does, with chrono's figures:
//
//   - text: one block per command (wall median with its confidence
//     interval, mean ± σ, min … max and p95/p99, CPU times and max RSS,
//     counters, runs, per-CPU medians), the overhead, the comparisons with
//     the reference (ratio of medians, bootstrap interval, Mann-Whitney
//     p-value, verdict; per counter too), then the warnings;
//   - Markdown: hyperfine's table (Command, Mean, Min, Max, Relative) with
//     chrono's columns after it (Median, one per counter);
//   - CSV: hyperfine's columns in hyperfine's order (command, mean,
//     stddev, median, user, system, min, max in seconds, parameter_NAME),
//     then chrono's (median_ci_lo, median_ci_hi, p95, p99, max_rss_bytes,
//     runs, failures, timeouts, then NAME_median, NAME_mean, NAME_stddev
//     per counter, in the counter's unit).
//
// Every figure is recomputed from the samples, and every comparison too
// (compare.CommandDocument). One rule for samples too small for an
// interval holds in every format (compare.TooFewForCI): with fewer than
// stats.MinSamplesForMedianCI(stats.Confidence) runs (6) a median or a
// ratio has no interval, and a difference is never called significant.

// commandPercentiles are the percentiles of the text's min … max line and
// of the CSV unless Options.Percentiles names others (hyperfine's users
// look for p95 and p99).
var commandPercentiles = []float64{95, 99}

// cmdInfo is one command of a command document, with what the view shows.
type cmdInfo struct {
	idx  int // 1-based position in the document
	m    *result.Measurement
	det  result.CommandDetail
	wall *Series // nil without a timed run
	// ci is the median's interval (widened to every CPU's when the CPUs
	// differ); hasCI is false for too few runs.
	ci    stats.Interval
	hasCI bool
	// runs counts every timing run (timed out included); failed those
	// that exited non-zero; clamped those whose corrected wall time is 0.
	runs, failed, clamped int
	o                     Options // its Series cache
}

// median is the wall median, +Inf without a timed run (sorts last).
func (c *cmdInfo) median() float64 {
	if c.wall == nil {
		return math.Inf(1)
	}
	return c.wall.Summary.Median
}

// mean is the wall mean, +Inf without a timed run (sorts last).
func (c *cmdInfo) mean() float64 {
	if c.wall == nil {
		return math.Inf(1)
	}
	return c.wall.Summary.Mean
}

// byStatistic returns the statistic a sort order orders commands by
// (fastest first), or nil for the order they ran in: --sort mean-time
// orders by mean, median (and chrono report's fastest) by median, and
// hyperfine's default auto orders the comparison by chrono's statistic,
// the median.
func byStatistic(sort string, forTable bool) func(*cmdInfo) float64 {
	switch sort {
	case "mean-time":
		return (*cmdInfo).mean
	case "median", "fastest":
		return (*cmdInfo).median
	case "auto":
		if !forTable { // auto: the comparison by time, the table in command order
			return (*cmdInfo).median
		}
	}
	return nil
}

// sortComparisons orders comparisons with the reference as --sort says
// (infos: the document's commands).
func sortComparisons(cs []compare.CommandComparison, infos []*cmdInfo, sort string) {
	if stat := byStatistic(sort, false); stat != nil {
		slices.SortStableFunc(cs, func(a, b compare.CommandComparison) int {
			return cmpFloat(stat(infos[a.Command]), stat(infos[b.Command]))
		})
	}
}

// sortedForTable returns the commands in the order of the Markdown table.
func sortedForTable(cs []*cmdInfo, sort string) []*cmdInfo {
	stat := byStatistic(sort, true)
	if stat == nil {
		return cs
	}
	out := slices.Clone(cs)
	slices.SortStableFunc(out, func(a, b *cmdInfo) int { return cmpFloat(stat(a), stat(b)) })
	return out
}

// metricSeries returns the series of c's metric name, or nil when it has
// no values.
func (c *cmdInfo) metricSeries(name string) *Series {
	met := c.m.Metric(name)
	if met == nil || len(met.Values) == 0 {
		return nil
	}
	return c.o.Series(met)
}

// commandSettings are the presentation choices of a command document:
// the options' when given, else the ones recorded in the document.
type commandSettings struct {
	unit        unit.Unit
	reference   string
	sort        string
	style       string
	percentiles []float64
}

func settingsOf(d *result.Document, o Options) commandSettings {
	s := commandSettings{unit: o.Unit, reference: o.Reference, sort: o.Sort, percentiles: commandPercentiles}
	if len(o.Percentiles) > 0 {
		s.percentiles = o.Percentiles
	}
	if r := d.Run.Command; r != nil {
		if s.unit.Nanos == 0 && r.TimeUnit != "" {
			if u, err := unit.ParseUnit(r.TimeUnit); err == nil {
				s.unit = u
			}
		}
		if s.reference == "" {
			s.reference = r.Reference
		}
		if s.sort == "" {
			s.sort = r.Sort
		}
		s.style = r.Style
	}
	return s
}

// commandInfos reads the commands of d.
func commandInfos(d *result.Document, o Options) []*cmdInfo {
	var cs []*cmdInfo
	for i := range d.Measurements {
		m := &d.Measurements[i]
		c := &cmdInfo{idx: i + 1, m: m, o: o}
		if m.Detail.Command != nil {
			c.det = *m.Detail.Command
		}
		if c.det.CommandLine == "" {
			c.det.CommandLine = m.Name
		}
		c.runs = len(c.det.TimedOut)
		if met := m.Metric("wall"); met != nil && len(met.Values) > 0 {
			c.wall = o.Series(met)
			c.runs += len(met.Values)
			c.medianCI()
			if raw := m.Metric("wall_raw"); raw != nil && len(raw.Values) == len(met.Values) {
				for j, v := range met.Values {
					if v == 0 && raw.Values[j] > 0 {
						c.clamped++
					}
				}
			}
		}
		if ex := m.Metric("exit_code"); ex != nil {
			for _, v := range ex.Values {
				if v != 0 {
					c.failed++
				}
			}
		}
		cs = append(cs, c)
	}
	return cs
}

// medianCI sets c's median interval: the order-statistic interval of the
// wall times, widened to span every CPU's (each with 3 runs or more) when
// the document says the CPUs differ.
func (c *cmdInfo) medianCI() {
	iv, err := c.wall.MedianCI(stats.Confidence)
	if err != nil {
		return
	}
	c.ci, c.hasCI = iv, true
	if !c.det.CPUsDiffer {
		return
	}
	for _, p := range c.perCPU() {
		if len(p.values) < 3 {
			continue
		}
		lo, hi := slices.Min(p.values), slices.Max(p.values)
		if iv, err := stats.MedianCI(p.values, stats.Confidence); err == nil {
			lo, hi = iv.Lo, iv.Hi
		}
		c.ci.Lo, c.ci.Hi = min(c.ci.Lo, lo), max(c.ci.Hi, hi)
	}
	c.ci.Method += ", widened to every CPU's interval (the CPUs differ)"
	c.ci.Coverage = 0
}

// cpuWalls are the wall times of the runs pinned to one CPU.
type cpuWalls struct {
	cpu    int
	values []float64
}

// perCPU splits the wall times by the CPU of each run ("cpu" metric), in
// CPU order; nil unless the runs were on several CPUs.
func (c *cmdInfo) perCPU() []cpuWalls {
	cm, wm := c.m.Metric("cpu"), c.m.Metric("wall")
	if cm == nil || wm == nil || len(cm.Values) != len(wm.Values) {
		return nil
	}
	by := map[int][]float64{}
	for j, v := range cm.Values {
		by[int(v)] = append(by[int(v)], wm.Values[j])
	}
	if len(by) < 2 {
		return nil
	}
	var out []cpuWalls
	for _, cpu := range slices.Sorted(maps.Keys(by)) {
		out = append(out, cpuWalls{cpu: cpu, values: by[cpu]})
	}
	return out
}

// durIn formats ns with precision p in u (chosen for the figure when u is
// zero).
func durIn(ns float64, u unit.Unit, p unit.Precision) string {
	if u.Nanos == 0 {
		return unit.Duration(ns, p)
	}
	return inUnit(ns, u, p)
}

// inUnit formats ns in u with precision p. An exact zero (a run clamped
// to 0, a system time of 0 µs) is "0", not a zero with the decimals of
// the resolution ("0.000000 ms"): it is not a rounded figure.
func inUnit(ns float64, u unit.Unit, p unit.Precision) string {
	if ns == 0 {
		return "0 " + u.Name
	}
	return unit.DurationIn(ns, u, p)
}

// nearUnit formats ns with precision p in u, the unit of the figures
// around it (taken from a median), or in the unit that suits ns when u
// would show digits it does not know (unit.DurationNear); a zero is "0",
// as in inUnit.
func nearUnit(ns float64, u unit.Unit, p unit.Precision) string {
	if ns == 0 {
		return "0 " + u.Name
	}
	return unit.DurationNear(ns, u, p)
}

// numIn is inUnit without the unit's name, for table cells.
func numIn(ns float64, u unit.Unit, p unit.Precision) string {
	if ns == 0 {
		return "0"
	}
	return unit.NumberIn(ns, u, p)
}

// firstPositive returns the unit for the first positive figure of xs (a
// median clamped to 0 by the overhead correction must not make every
// figure print in ns).
func firstPositive(xs ...float64) unit.Unit {
	for _, x := range xs {
		if x > 0 {
			return unit.For(x)
		}
	}
	return unit.Nanosecond
}

// commandView lays out a command document (see the comment above). A
// document of kind command that has none of its shape (no wall times, no
// command details: written by another tool) gets the generic view.
func commandView(d *result.Document, o Options) (*View, error) {
	if !commandShaped(d) {
		return genericView(d, o)
	}
	st := settingsOf(d, o)
	cs := commandInfos(d, o)
	cmp, err := compare.CommandDocument(d, st.reference)
	if err != nil {
		return nil, err
	}
	var ref *cmdInfo
	if cmp.Reference >= 0 {
		ref = cs[cmp.Reference]
	}
	walls, cnts := cmp.Wall, cmp.Counters
	// As in hyperfine, the commands' blocks come in the order they ran;
	// --sort orders the comparison and the Markdown table.
	sortComparisons(walls, cs, st.sort)
	v := &View{}
	for _, c := range cs {
		figures := commandLines(d, c, st.unit, st.percentiles)
		lines := figures
		if st.style != "hyperfine" { // hyperfine's layout, line for line
			lines = append(slices.Clip(figures), ChartLines(c.m.Metric("wall"), "  ", o)...)
		}
		heading := fmt.Sprintf("Command %d: %s", c.idx, c.m.Name)
		// The page has the figures without the terminal's charts (its
		// plots show them).
		v.Blocks = append(v.Blocks, Block{Heading: heading, Lines: figures, In: InHTML}, Block{Heading: heading, Lines: lines, In: InText})
	}
	if lines := overheadLines(d, st.unit); len(lines) > 0 {
		v.Blocks = append(v.Blocks, Block{Lines: lines, In: InText})
	}
	if ref != nil && len(walls) > 0 {
		how := "the fastest"
		if cmp.RankedBy != "wall" {
			how = "the one with the fewest " + cmp.RankedBy
		}
		if st.reference != "" {
			how = "the reference"
		}
		v.Blocks = append(v.Blocks, Block{In: InText | InHTML,
			Heading: fmt.Sprintf("Comparison with %s, %q (ratio of medians with %s bootstrap CI; two-sided Mann-Whitney U p-value):", how, ref.m.Name, unit.Percent(stats.Confidence)),
			Table:   comparisonTable(walls, false)})
		if st.style == "hyperfine" {
			v.Blocks = append(v.Blocks, hyperfineSummary(cs, ref, st))
		}
		if len(cnts) > 0 {
			v.Blocks = append(v.Blocks, Block{In: InText | InHTML,
				Heading: fmt.Sprintf("Counters compared with %q (ratio of medians with %s bootstrap CI; two-sided Mann-Whitney U p-value):", ref.m.Name, unit.Percent(stats.Confidence)),
				Table:   comparisonTable(cnts, true)})
		}
	}
	v.Blocks = append(v.Blocks, markdownBlock(d, sortedForTable(cs, st.sort), ref, walls, st), csvBlock(d, cs, st.percentiles))
	if r := d.Run.Command; r != nil && r.Interrupted {
		v.Blocks = append(v.Blocks, Block{Lines: []string{"Interrupted: the figures above are from the runs made before the interrupt."}})
	}
	v.Warnings = documentWarnings(d)
	return v, nil
}

// commandShaped reports whether d has what the command view shows: the
// kind's details or a measurement with wall times.
func commandShaped(d *result.Document) bool {
	if d.Run.Command != nil {
		return true
	}
	for i := range d.Measurements {
		if d.Measurements[i].Detail.Command != nil || d.Measurements[i].Metric("wall") != nil {
			return true
		}
	}
	return false
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// commandLines are the lines of one command's block.
func commandLines(d *result.Document, c *cmdInfo, u unit.Unit, pcts []float64) []string {
	var ls []string
	add := func(label, text string) { ls = append(ls, fmt.Sprintf("  %-15s%s", label+":", text)) }
	if c.det.CommandLine != c.m.Name {
		add("command line", c.det.CommandLine)
	}
	_, noCI := compare.TooFewForCI(0, 0)
	if s := c.wall; s != nil {
		sum := s.Summary
		raw := c.metricSeries("wall_raw")
		in := inUnit // the unit the user chose
		if u.Nanos == 0 {
			xs := []float64{sum.Median, sum.Mean, sum.Max}
			if raw != nil {
				xs = append(xs, raw.Summary.Median)
			}
			u = firstPositive(xs...) // every run clamped to 0: the raw median's unit
			in = nearUnit
		}
		f := func(v float64, p unit.Precision) string { return in(v, u, p) }
		ci := "   " + noCI
		if c.clamped == sum.N {
			ci = "" // every run clamped to 0: an interval of zeros says nothing
		} else if c.hasCI {
			ci = fmt.Sprintf("   %s CI [%s, %s]", unit.Percent(stats.Confidence), f(c.ci.Lo, s.Observed()), f(c.ci.Hi, s.Observed()))
		}
		median := f(sum.Median, s.AtQuantile(0.5))
		if sum.Median == 0 && c.clamped > 0 && raw != nil {
			// A bare 0 would read as a measured zero: say where it
			// comes from.
			om, what := overheadMedianText(d, u)
			median = fmt.Sprintf("0 (clamped: raw median %s minus the %s %s; see the warnings)", f(raw.Summary.Median, raw.AtQuantile(0.5)), what, om)
		}
		add("wall median", median+ci)
		if c.clamped < sum.N { // all clamped: nothing but zeros to show
			sd := "undefined (one run)"
			if sum.N >= 2 {
				sd = f(sum.StdDevSample, s.OfStdDev())
			}
			add("mean ± σ", fmt.Sprintf("%s ± %s   (σ = sample stddev, n-1)", f(sum.Mean, s.OfMean()), sd))
			lo := f(sum.Min, s.Observed())
			if sum.Min == 0 && c.clamped > 0 {
				lo = fmt.Sprintf("0 (%d clamped)", c.clamped)
			}
			var ps []string
			for _, p := range pcts {
				ps = append(ps, stats.PercentileLabel(p)+" "+f(s.Quantile(p/100), s.AtQuantile(p/100)))
			}
			add("min … max", fmt.Sprintf("%s … %s   %s (%s)", lo, f(sum.Max, s.Observed()), strings.Join(ps, ", "), stats.Linear))
		}
		cpu := "–"
		if us, ss := c.metricSeries("user"), c.metricSeries("sys"); us != nil && ss != nil {
			cpu = fmt.Sprintf("user %s, sys %s (medians)", f(us.Summary.Median, us.AtQuantile(0.5)), f(ss.Summary.Median, ss.AtQuantile(0.5)))
		}
		if rss := c.metricSeries("max_rss"); rss != nil {
			cpu += fmt.Sprintf("   max RSS %s (median %s)", unit.FormatBytes(rss.Summary.Max), unit.FormatBytes(rss.Summary.Median))
		}
		add("CPU", cpu)
	}
	ls = append(ls, probeLines(c, u, noCI)...)
	add("runs", fmt.Sprintf("%d (%d failed, %d timed out)", c.runs, c.failed, len(c.det.TimedOut)))
	if pcs := c.perCPU(); len(pcs) > 1 {
		var parts []string
		for _, p := range pcs {
			met := result.Metric{Unit: result.UnitNs, Values: p.values, Resolution: c.m.Metric("wall").Resolution}
			s := NewSeries(&met)
			parts = append(parts, fmt.Sprintf("CPU %d %s (%s)", p.cpu, durIn(s.Summary.Median, u, s.AtQuantile(0.5)), plural.Count(len(p.values), "run")))
		}
		add("per CPU", strings.Join(parts, ", ")+" (medians; --pin runs each run on one CPU in turn)")
	}
	return ls
}

// probeLines are the counters of a command: median with its confidence
// interval, mean ± σ, then the derived figures.
func probeLines(c *cmdInfo, u unit.Unit, noCI string) []string {
	type row struct {
		name string
		s    *Series
	}
	var rows []row
	subtracted := false
	for _, name := range c.det.Probes {
		if s := c.metricSeries(name); s != nil {
			rows = append(rows, row{name, s})
			subtracted = subtracted || c.m.Metric(name+"_raw") != nil
		}
	}
	if len(rows) == 0 {
		return nil
	}
	how := "median [" + unit.Percent(stats.Confidence) + " CI], mean ± σ"
	if subtracted {
		how += "; the overhead runs' median counts subtracted"
	}
	ls := []string{fmt.Sprintf("  %-15s%s", "counters:", how)}
	w := 0
	for _, r := range rows {
		w = max(w, len(r.name))
	}
	for _, x := range c.det.Derived {
		w = max(w, len(x.Name))
	}
	for _, r := range rows {
		s, sum := r.s, r.s.Summary
		f := func(v float64, p unit.Precision) string { return countText(v, p) }
		if s.Unit == result.UnitNs {
			mu, in := u, inUnit
			if mu.Nanos == 0 {
				mu, in = firstPositive(sum.Median, sum.Mean, sum.Max), nearUnit
			}
			f = func(v float64, p unit.Precision) string { return in(v, mu, p) }
		}
		ci := "[" + noCI + "]"
		if iv, err := s.MedianCI(stats.Confidence); err == nil {
			ci = "[" + f(iv.Lo, s.Observed()) + ", " + f(iv.Hi, s.Observed()) + "]"
		}
		sd := "undefined (one run)"
		if sum.N >= 2 {
			sd = f(sum.StdDevSample, s.OfStdDev())
		}
		line := fmt.Sprintf("    %-*s  %s %s   %s ± %s", w, r.name, f(sum.Median, s.AtQuantile(0.5)), ci, f(sum.Mean, s.OfMean()), sd)
		if run := c.m.Metric(r.name + "_running"); run != nil && len(run.Values) > 0 {
			line += fmt.Sprintf("   (scaled: multiplexed, counted at least %s%% of each run)", unit.Plain(100*slices.Min(run.Values), unit.Precision{Resolution: 1}))
		}
		ls = append(ls, line)
	}
	for _, x := range c.det.Derived {
		ls = append(ls, fmt.Sprintf("    %-*s  %s (from the means)", w, x.Name, derivedText(x)))
	}
	return ls
}

// derivedText is a derived figure with its label: "1.23 insn per cycle",
// "2.5% of all branches".
func derivedText(x result.Derived) string {
	p := unit.Precision{Uncertainty: x.Uncertainty}
	if x.Unit == "fraction" {
		p.Uncertainty *= 100
		return unit.Plain(100*x.Value, p) + "% " + x.Label
	}
	if x.Unit == "GHz" {
		return unit.Plain(x.Value, p) + " GHz"
	}
	return unit.Plain(x.Value, p) + " " + x.Label
}

// countText formats a count with the digits p allows, with thousands
// separated ("47,580,000") as perf stat prints counts.
func countText(v float64, p unit.Precision) string { return groupThousands(unit.Plain(v, p)) }

// groupThousands puts commas between the thousands of the integer part of
// a plain number ("-12345.6" → "-12,345.6").
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	if len(intPart) < 4 || strings.Trim(intPart, "0123456789") != "" {
		return sign + s
	}
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return sign + b.String()
}

// overheadWhat names the overhead of a command document.
func overheadWhat(ov *result.CommandOverhead) string {
	if ov.Kind == "spawn" {
		return "spawn overhead (start and reap `true`)"
	}
	return "shell start-up overhead"
}

// overheadMedianText is the overhead's wall median as the overhead line
// prints it (in u when set), and what the overhead is called.
func overheadMedianText(d *result.Document, u unit.Unit) (string, string) {
	r := d.Run.Command
	if r == nil || r.Overhead == nil {
		return "–", "overhead"
	}
	w := r.Overhead.Metric("wall")
	if w == nil || len(w.Values) == 0 {
		return "–", overheadWhat(r.Overhead)
	}
	s := NewSeries(w)
	return durIn(s.Summary.Median, u, s.AtQuantile(0.5)), overheadWhat(r.Overhead)
}

// overheadLines are the overhead's line and chrono's own CPU time.
func overheadLines(d *result.Document, u unit.Unit) []string {
	r := d.Run.Command
	if r == nil {
		return nil
	}
	var ls []string
	if ov := r.Overhead; ov != nil {
		w := ov.Metric("wall")
		switch {
		case w != nil && len(w.Values) > 0:
			s := NewSeries(w)
			sum := s.Summary
			what, sub := "Shell start-up overhead ("+ov.Command+")", "subtracted from every run"
			if ov.Kind == "spawn" {
				what = "Spawn overhead (start and reap `true`)"
				sub = "not subtracted (--subtract-spawn subtracts it)"
				if ov.Subtracted {
					sub = "subtracted from every run (--subtract-spawn)"
				}
			}
			ls = append(ls, fmt.Sprintf("%s: %s ± %s (median ± scaled MAD of %s, range %s … %s), %s", what,
				durIn(sum.Median, u, s.AtQuantile(0.5)), durIn(sum.MADScaled, u, s.OfStdDev()), plural.Count(sum.N, "run"),
				durIn(sum.Min, u, s.Observed()), durIn(sum.Max, u, s.Observed()), sub))
		case ov.Unavailable != "":
			ls = append(ls, fmt.Sprintf("%s overhead: unavailable (%s)", ov.Kind, ov.Unavailable))
		}
	}
	if oc := r.OwnCPU; oc != nil && oc.Processes > 0 {
		per := float64(oc.Ns) / float64(oc.Processes)
		// getrusage gives microseconds: the total is known to 1 µs.
		ls = append(ls, fmt.Sprintf("chrono's own CPU time: %s per process started (%s; user+system of all its threads, children excluded)",
			durIn(per, u, unit.Precision{Resolution: 1000 / float64(oc.Processes)}), plural.Count(oc.Processes, "process")))
	}
	return ls
}

// comparisonTable lays out comparisons: (metric,) command, ratio, its
// interval, p-value, verdict.
func comparisonTable(cs []compare.CommandComparison, metric bool) *Table {
	t := &Table{Headless: true}
	if metric {
		t.Columns = append(t.Columns, Column{Name: "metric"})
	}
	t.Columns = append(t.Columns, Column{Name: "command"}, Column{Name: "ratio", Numeric: true}, Column{Name: "CI"}, Column{Name: "p"}, Column{Name: "verdict"})
	for _, c := range cs {
		var row []Cell
		if metric {
			row = append(row, TextCell(c.Metric))
		}
		row = append(row, TextCell(strconv.Quote(c.A)))
		p := "p = " + unit.PValue(c.MannWhitney.P)
		if c.Err != nil {
			p = "p = n/a"
		}
		if c.NoRatio {
			row = append(row, Missing, TextCell(""), TextCell(p))
		} else {
			row = append(row, TextCell(c.RatioText()+"x"), TextCell(c.CIText()), TextCell(p))
		}
		t.Rows = append(t.Rows, append(row, TextCell(c.Conclusion())))
	}
	return t
}

// tableUnit is the time unit of the Markdown table: the chosen one, else
// the one of the fastest command's median (or mean, or maximum, when the
// overhead correction clamped the median to 0).
func tableUnit(cs []*cmdInfo, u unit.Unit) unit.Unit {
	if u.Nanos > 0 {
		return u
	}
	fastest := -1.0
	for _, c := range cs {
		if c.wall == nil {
			continue
		}
		s := c.wall.Summary
		v := s.Median
		if v <= 0 {
			v = s.Mean
		}
		if v <= 0 {
			v = s.Max
		}
		if v > 0 && (fastest < 0 || v < fastest) {
			fastest = v
		}
	}
	return unit.For(max(fastest, 1))
}

// probeNames are the counters of the document's commands, in the order
// of their first appearance.
func probeNames(cs []*cmdInfo) []string {
	var names []string
	for _, c := range cs {
		for _, n := range c.det.Probes {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// probeUnit is the unit of the counter name in the document.
func probeUnit(cs []*cmdInfo, name string) string {
	for _, c := range cs {
		if m := c.m.Metric(name); m != nil {
			return m.Unit
		}
	}
	return ""
}

// markdownBlock is hyperfine's Markdown table with chrono's columns after
// it: Command | Mean | Min | Max | Relative | Median | one per counter.
func markdownBlock(d *result.Document, cs []*cmdInfo, ref *cmdInfo, walls []compare.CommandComparison, st commandSettings) Block {
	u := tableUnit(cs, st.unit)
	probes := probeNames(cs)
	t := &Table{Columns: []Column{{Name: "Command"}, {Name: "Mean [" + u.Name + "]", Numeric: true}, {Name: "Min [" + u.Name + "]", Numeric: true},
		{Name: "Max [" + u.Name + "]", Numeric: true}, {Name: "Relative", Numeric: true}, {Name: "Median [" + u.Name + "]", Numeric: true}}}
	for _, p := range probes {
		name := p
		if probeUnit(cs, p) == result.UnitNs {
			name += " [" + u.Name + "]"
		}
		t.Columns = append(t.Columns, Column{Name: name, Numeric: true})
	}
	rel := map[int]compare.CommandComparison{} // by the command's index in d
	ratios := false                            // some command has a ratio to the reference
	for _, c := range walls {
		rel[c.Command] = c
		ratios = ratios || !c.NoRatio
	}
	num := func(v float64, p unit.Precision) string { return numIn(v, u, p) }
	for _, c := range cs {
		row := []Cell{TextCell("`" + c.m.Name + "`")}
		if c.wall == nil {
			for range 5 + len(probes) {
				row = append(row, Missing)
			}
			t.Rows = append(t.Rows, row)
			continue
		}
		s := c.wall
		sum := s.Summary
		sd := "–"
		if sum.N >= 2 {
			sd = num(sum.StdDevSample, s.OfStdDev())
		}
		relative := Missing // not compared (e.g. a median lost in the overhead correction: the warnings say why)
		if cmp, ok := rel[c.idx-1]; ok && !cmp.NoRatio {
			text := cmp.RatioText()
			if cmp.HasCI {
				text += " " + cmp.CIText()
			} else {
				text += " (" + strings.Trim(cmp.CIText(), "[]") + ")"
			}
			relative = TextCell(text)
		} else if c == ref && (ratios || len(cs) == 1) {
			relative = TextCell(unit.Ratio(1, 1, 1))
		}
		row = append(row, TextCell(num(sum.Mean, s.OfMean())+" ± "+sd), TextCell(num(sum.Min, s.Observed())), TextCell(num(sum.Max, s.Observed())),
			relative, TextCell(num(sum.Median, s.AtQuantile(0.5))))
		for _, p := range probes {
			ps := c.metricSeries(p)
			switch {
			case ps == nil || !slices.Contains(c.det.Probes, p):
				row = append(row, Missing)
			case ps.Unit == result.UnitNs:
				row = append(row, TextCell(num(ps.Summary.Median, ps.AtQuantile(0.5))))
			default:
				row = append(row, TextCell(countText(ps.Summary.Median, ps.AtQuantile(0.5))))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	var notes []string
	if ref != nil && len(walls) > 0 {
		note := fmt.Sprintf("Relative: ratio of medians to %q with its %s bootstrap interval (hyperfine: ratio of means)", ref.m.Name, unit.Percent(stats.Confidence))
		for _, c := range walls {
			if !c.HasCI && !c.NoRatio {
				note += fmt.Sprintf("; with fewer than %d runs a ratio has none", stats.MinSamplesForMedianCI(stats.Confidence))
				break
			}
		}
		notes = append(notes, note)
	}
	return Block{Table: t, In: InMarkdown | InHTML, Notes: notes}
}

// csvBlock is hyperfine's CSV table with chrono's columns after it.
func csvBlock(d *result.Document, cs []*cmdInfo, pcts []float64) Block {
	params := paramNames(d)
	probes := probeNames(cs)
	var cols []Column
	for _, n := range []string{"command", "mean", "stddev", "median", "user", "system", "min", "max"} {
		cols = append(cols, Column{Name: n})
	}
	for _, p := range params {
		cols = append(cols, Column{Name: "parameter_" + p})
	}
	for _, n := range []string{"median_ci_lo", "median_ci_hi"} {
		cols = append(cols, Column{Name: n})
	}
	for _, p := range pcts {
		cols = append(cols, Column{Name: stats.PercentileLabel(p)})
	}
	for _, n := range []string{"max_rss_bytes", "runs", "failures", "timeouts"} {
		cols = append(cols, Column{Name: n})
	}
	for _, p := range probes {
		cols = append(cols, Column{Name: p + "_median"}, Column{Name: p + "_mean"}, Column{Name: p + "_stddev"})
	}
	t := &Table{Columns: cols}
	raw := func(s string) Cell { return Cell{Text: s, Raw: s} }
	sec := func(ns float64) Cell { return raw(strconv.FormatFloat(ns/1e9, 'g', -1, 64)) }
	empty := raw("")
	for _, c := range cs {
		row := []Cell{raw(HyperfineName(c.m))} // as hyperfine: the values of unused parameters are in their columns
		if s := c.wall; s != nil {
			sum := s.Summary
			sd := empty
			if sum.N >= 2 {
				sd = sec(sum.StdDevSample)
			}
			// user and system are means, as in hyperfine.
			user, sys := empty, empty
			if us := c.metricSeries("user"); us != nil {
				user = sec(us.Summary.Mean)
			}
			if ss := c.metricSeries("sys"); ss != nil {
				sys = sec(ss.Summary.Mean)
			}
			row = append(row, sec(sum.Mean), sd, sec(sum.Median), user, sys, sec(sum.Min), sec(sum.Max))
		} else {
			for range 7 {
				row = append(row, empty)
			}
		}
		for _, p := range params {
			row = append(row, raw(c.m.Parameters[p]))
		}
		if c.hasCI {
			row = append(row, sec(c.ci.Lo), sec(c.ci.Hi))
		} else {
			row = append(row, empty, empty)
		}
		for _, p := range pcts {
			if c.wall != nil {
				row = append(row, sec(c.wall.Quantile(p/100)))
			} else {
				row = append(row, empty)
			}
		}
		if rss := c.metricSeries("max_rss"); rss != nil {
			row = append(row, raw(strconv.FormatFloat(rss.Summary.Max, 'f', -1, 64)))
		} else {
			row = append(row, empty)
		}
		row = append(row, raw(strconv.Itoa(c.runs)), raw(strconv.Itoa(c.failed)), raw(strconv.Itoa(len(c.det.TimedOut))))
		for _, p := range probes {
			ps := c.metricSeries(p)
			if ps == nil || !slices.Contains(c.det.Probes, p) {
				row = append(row, empty, empty, empty)
				continue
			}
			sd := empty
			if ps.Summary.N >= 2 {
				sd = raw(ExactNum(ps.Summary.StdDevSample))
			}
			row = append(row, raw(ExactNum(ps.Summary.Median)), raw(ExactNum(ps.Summary.Mean)), sd)
		}
		t.Rows = append(t.Rows, row)
	}
	return Block{Table: t, In: InCSV}
}

// paramNames returns the parameter names of the document's measurements,
// sorted.
func paramNames(d *result.Document) []string {
	set := map[string]bool{}
	for _, m := range d.Measurements {
		for k := range m.Parameters {
			set[k] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// hyperfineSummary is hyperfine's summary of the comparison, which chrono
// run --style hyperfine prints after chrono's own so that scripts that
// read hyperfine's words ("2.00 ± 0.05 times faster than") keep working.
// It is hyperfine's arithmetic, not chrono's: ratios of means against the
// --reference command (ref, when the document names one) or the fastest
// by mean, with the standard deviation of the ratio propagated from the
// two samples' (relative errors added in quadrature, as if independent),
// in hyperfine's layout and with its two decimals; --sort command gives
// its "Relative speed comparison" table instead. chrono's comparison
// above it (ratio of medians, bootstrap interval, p-value) is the one to
// judge a difference by.
func hyperfineSummary(cs []*cmdInfo, ref *cmdInfo, st commandSettings) Block {
	var timed []*cmdInfo
	for _, c := range cs {
		if c.wall != nil {
			timed = append(timed, c)
		}
	}
	if st.reference == "" {
		ref = nil
		for _, c := range timed {
			if ref == nil || c.mean() < ref.mean() {
				ref = c
			}
		}
	}
	blk := Block{Heading: "Summary", In: InText}
	if ref == nil || ref.wall == nil || len(timed) < 2 {
		return blk
	}
	fastest := slices.MinFunc(timed, func(a, b *cmdInfo) int { return cmpFloat(a.mean(), b.mean()) })
	if ref.mean() == 0 || fastest.mean() == 0 {
		blk.Lines = []string{"  (hyperfine's summary cannot be computed: a mean time is 0, see the warnings)"}
		return blk
	}
	// Two decimals, as hyperfine prints ratios.
	two := func(x float64) string { return unit.Plain(x, unit.Precision{Resolution: 0.01, Exact: true}) }
	type item struct {
		c          *cmdInfo
		ratio, sd  float64
		hasSD, ref bool
		order      int // the command against the reference: -1 faster, 0 as fast, 1 slower
	}
	var items []item
	for _, c := range timed {
		it := item{c: c, ratio: 1, ref: c == ref, order: cmpFloat(c.mean(), ref.mean())}
		switch it.order {
		case -1:
			it.ratio = ref.mean() / c.mean()
		case 1:
			it.ratio = c.mean() / ref.mean()
		}
		a, b := c.wall.Summary, ref.wall.Summary
		if a.N >= 2 && b.N >= 2 {
			it.sd = it.ratio * math.Sqrt(math.Pow(a.StdDevSample/a.Mean, 2)+math.Pow(b.StdDevSample/b.Mean, 2))
			it.hasSD = true
		}
		items = append(items, it)
	}
	if st.sort == "command" {
		blk.Heading = "Relative speed comparison"
		for _, it := range items {
			sd := strings.Repeat(" ", 8)
			if !it.ref && it.hasSD {
				sd = fmt.Sprintf(" ± %5s", two(it.sd))
			}
			blk.Lines = append(blk.Lines, fmt.Sprintf("  %10s%s  %s", two(it.ratio), sd, it.c.m.Name))
		}
		return blk
	}
	slices.SortStableFunc(items, func(x, y item) int { return cmpFloat(x.c.mean(), y.c.mean()) })
	blk.Lines = append(blk.Lines, "  "+ref.m.Name+" ran")
	for _, it := range items {
		if it.ref {
			continue
		}
		sd := ""
		if it.hasSD {
			sd = " ± " + two(it.sd)
		}
		// The sentence is the reference's: it ran N times faster than a
		// slower command, N times slower than a faster one.
		switch it.order {
		case -1:
			blk.Lines = append(blk.Lines, fmt.Sprintf("%8s%s times slower than %s", two(it.ratio), sd, it.c.m.Name))
		case 1:
			blk.Lines = append(blk.Lines, fmt.Sprintf("%8s%s times faster than %s", two(it.ratio), sd, it.c.m.Name))
		default:
			blk.Lines = append(blk.Lines, fmt.Sprintf("    As fast (%s%s) as %s", two(it.ratio), sd, it.c.m.Name))
		}
	}
	return blk
}

// HyperfineName is a measurement's name as hyperfine's export gives it:
// without the values of the parameters its command line does not use,
// which chrono (as hyperfine's text does) adds to the name.
func HyperfineName(m *result.Measurement) string {
	det := m.Detail.Command
	if det == nil || len(det.UnusedParameters) == 0 {
		return m.Name
	}
	var parts []string
	for _, p := range det.UnusedParameters {
		parts = append(parts, p+" = "+m.Parameters[p])
	}
	return strings.TrimSuffix(m.Name, " ("+strings.Join(parts, ", ")+")")
}
