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

func init() { register(result.KindCounters, countersView) }

// countersView lays a counters document (chrono stat) out as perf stat
// prints its counts: per event the mean ± sample standard deviation, the
// derived figure next to it (IPC, miss rate, CPUs utilized), the standard
// error of the mean in percent, whether the kernel multiplexed it, or why
// it was not counted; then the elapsed and CPU times. The CSV has one row
// per event and time with exact figures.
func countersView(d *result.Document, o Options) (*View, error) {
	v := &View{}
	run := d.Run.Counters
	if run == nil {
		run = &result.CountersRun{}
	}
	for i := range d.Measurements {
		v.Blocks = append(v.Blocks, countersBlocks(d, &d.Measurements[i], run, o)...)
		if i == 0 {
			v.Title = countersTitle(&d.Measurements[i], run)
		}
	}
	if run.Interrupted {
		n := 0
		if len(d.Measurements) > 0 {
			if w := d.Measurements[0].Metric("wall"); w != nil {
				n = len(w.Values)
			}
		}
		v.Blocks = append(v.Blocks, Block{Lines: []string{fmt.Sprintf("Interrupted: %d of %s finished.", n, plural.Count(run.Runs, "run"))}})
	}
	v.Warnings = documentWarnings(d)
	return v, nil
}

// countersTitle is perf stat's heading: "Counter stats for 'CMD' (N runs):".
func countersTitle(m *result.Measurement, run *result.CountersRun) string {
	what := "Counter stats"
	if run.Source == counterSourceCachegrind {
		what = "Simulated counts (valgrind cachegrind)"
	}
	n := 0
	if w := m.Metric("wall"); w != nil {
		n = len(w.Values)
	}
	runs := ""
	if n > 1 || run.Runs > 1 {
		runs = " (" + plural.Count(n, "run") + ")"
	}
	return fmt.Sprintf("%s for '%s'%s:", what, m.Name, runs)
}

// counterSourceCachegrind is counters.SourceCachegrind (package counters
// is not imported here).
const counterSourceCachegrind = "simulated (valgrind cachegrind)"

// exactIf marks p exact when the counts are deterministic (a simulator's).
func exactIf(p unit.Precision, deterministic bool) unit.Precision {
	p.Exact = p.Exact || deterministic
	return p
}

// counterValue formats a figure of s's unit: a duration (ns) in u or the
// unit that suits it, a count with its thousands separated.
func counterValue(s *Series, v float64, p unit.Precision, u unit.Unit) string {
	if s.Unit == result.UnitNs {
		return durIn(v, u, p)
	}
	return countText(v, p)
}

// stdErrText is perf's "( ± x% )": the standard error of the mean in
// percent of the mean, known as well as the standard deviation is.
func stdErrText(s *Series) string {
	sum := s.Summary
	if sum.N < 2 || sum.Mean == 0 {
		return ""
	}
	pct := 100 * sum.StdDevSample / math.Sqrt(float64(sum.N)) / math.Abs(sum.Mean)
	unc := 0.0
	if sum.StdDevSample > 0 {
		unc = pct * stats.StdDevUncertainty(sum) / sum.StdDevSample
	}
	return "( ± " + unit.Plain(pct, unit.Precision{Uncertainty: unc}) + "% )"
}

func countersBlocks(d *result.Document, m *result.Measurement, run *result.CountersRun, o Options) []Block {
	det := m.Detail.Counters
	if det == nil {
		det = &result.CountersDetail{}
	}
	n := 0
	if w := m.Metric("wall"); w != nil {
		n = len(w.Values)
	}
	derivedOf := map[string][]result.Derived{}
	for _, x := range det.Derived {
		derivedOf[x.Of] = append(derivedOf[x.Of], x)
	}
	cols := []Column{{Name: "value", Numeric: true}, {Name: "± σ"}, {Name: "event"}, {Name: "notes"}}
	events := &Table{Headless: true, Columns: cols}
	csvT := &Table{Columns: []Column{{Name: "event"}, {Name: "unit"}, {Name: "state"}, {Name: "runs"}, {Name: "mean"}, {Name: "stddev"},
		{Name: "stderr_percent"}, {Name: "median"}, {Name: "min"}, {Name: "max"}, {Name: "running_fraction"}, {Name: "reason"}}}
	raw := func(s string) Cell { return Cell{Text: s, Raw: s} }
	num := func(v float64) Cell { return raw(ExactNum(v)) }
	// csvRow adds a CSV row; runs is the number of runs that counted it.
	csvRow := func(name, state, reason string, counted int, s *Series, running *Series) {
		row := []Cell{raw(name), raw(""), raw(state), raw(strconv.Itoa(counted))}
		if s == nil {
			row = append(row, raw(""), raw(""), raw(""), raw(""), raw(""), raw(""), raw(""), raw(reason))
			csvT.Rows = append(csvT.Rows, row)
			return
		}
		sum := s.Summary
		row[1], row[3] = raw(s.Unit), raw(strconv.Itoa(sum.N))
		sd, se := raw(""), raw("")
		if sum.N >= 2 {
			sd = num(sum.StdDevSample)
			if sum.Mean != 0 {
				se = num(100 * sum.StdDevSample / math.Sqrt(float64(sum.N)) / math.Abs(sum.Mean))
			}
		}
		fr := raw("")
		if running != nil {
			fr = num(running.Summary.Mean)
		}
		row = append(row, num(sum.Mean), sd, se, num(sum.Median), num(sum.Min), num(sum.Max), fr, raw(reason))
		csvT.Rows = append(csvT.Rows, row)
	}
	shown := map[string]bool{} // reasons already given
	derivedShown := map[string]bool{}
	for _, e := range det.Events {
		met := m.Metric(e.Name)
		if e.State != result.CounterCounted || met == nil || len(met.Values) == 0 {
			marker := "<" + e.State + ">"
			reason := e.Reason
			if e.State == result.CounterPartly {
				marker = "<not counted>"
				reason += ": left out (its values would not line up with the runs)"
			}
			csvRow(e.Name, e.State, e.Reason, e.CountedRuns, nil, nil)
			if shown[reason] {
				reason = "(as above)"
			}
			shown[e.Reason] = true
			events.Rows = append(events.Rows, []Cell{TextCell(marker), TextCell(""), TextCell(e.Name), TextCell(reason)})
			continue
		}
		s := o.Series(met)
		var running *Series
		if rm := m.Metric(e.Name + "_running"); rm != nil && len(rm.Values) > 0 {
			running = o.Series(rm)
		}
		csvRow(e.Name, e.State, e.Reason, e.CountedRuns, s, running)
		sum := s.Summary
		sd := ""
		if sum.N >= 2 {
			sd = "± " + counterValue(s, sum.StdDevSample, s.OfStdDev(), o.Unit)
		}
		var notes []string
		// Derived figures are named by base event (IPC from cycles:u and
		// instructions:u is shown once, next to the first of them).
		base, _, _ := strings.Cut(e.Name, ":")
		if !derivedShown[base] {
			derivedShown[base] = true
			for _, x := range derivedOf[base] {
				notes = append(notes, "# "+derivedText(x))
			}
		}
		if se := stdErrText(s); se != "" {
			notes = append(notes, se)
		}
		if running != nil {
			notes = append(notes, "[scaled: counted "+unit.Plain(100*running.Summary.Mean, unit.Precision{Resolution: 0.1})+"% of the time]")
		}
		if e.UserOnly {
			notes = append(notes, "[user space only]")
		}
		if e.Description != "" {
			notes = append(notes, "("+e.Description+")")
		}
		events.Rows = append(events.Rows, []Cell{TextCell(counterValue(s, sum.Mean, exactIf(s.OfMean(), run.Source == counterSourceCachegrind), o.Unit)), TextCell(sd), TextCell(e.Name), TextCell(strings.Join(notes, "  "))})
	}
	times := &Table{Headless: true, Columns: cols}
	elapsed := "time elapsed"
	if run.Source == counterSourceCachegrind {
		elapsed = "time elapsed (under valgrind)"
	}
	for _, t := range []struct{ metric, label string }{{"wall", elapsed}, {"user", "user (rusage)"}, {"sys", "sys (rusage)"}} {
		met := m.Metric(t.metric)
		if met == nil || len(met.Values) == 0 {
			continue
		}
		s := o.Series(met)
		csvRow(t.metric, result.CounterCounted, "", s.N(), s, nil)
		sd, se := "", ""
		if t.metric == "wall" && s.N() >= 2 {
			sd = "± " + durIn(s.Summary.StdDevSample, o.Unit, s.OfStdDev())
			se = stdErrText(s)
		}
		times.Rows = append(times.Rows, []Cell{TextCell(durIn(s.Summary.Mean, o.Unit, s.OfMean())), TextCell(sd), TextCell(t.label), TextCell(se)})
	}
	var lines []string
	if n > 1 {
		lines = append(lines, fmt.Sprintf("Mean ± sample stddev (n-1) over %s; ( ± x%% ) is the standard error of the mean, as perf stat -r prints it.", plural.Count(n, "run")))
	}
	switch {
	case run.Source == counterSourceCachegrind:
		lines = append(lines, "Counts are simulated by valgrind cachegrind: deterministic, of a simulated CPU and caches, for the command and every process it starts.")
	case run.ReadCostNs > 0:
		rd := "not available (" + run.UserReadReason + ")"
		if run.UserRead {
			rd = run.UserReadReason
		}
		lines = append(lines, fmt.Sprintf("Counts read with read(2): %s per group read; user-space rdpmc read: %s.", unit.Duration(run.ReadCostNs, unit.Precision{Resolution: 1}), rd))
	}
	bs := []Block{{Table: events}, {Table: times}}
	if len(lines) > 0 {
		bs = append(bs, Block{Lines: lines})
	}
	return append(bs, Block{Table: csvT, In: InCSV})
}
