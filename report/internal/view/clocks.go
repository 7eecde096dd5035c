package view

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(result.KindClocks, clocksView) }

// clocksView lays out a clocks document (chrono clocks): one row per clock
// with its nominal resolution, observed tick, read cost (median and p99
// of the timed batches, from the read_cost metric), backward steps and
// the cross-thread check; the clocks that cannot be read and why; the
// timestamp counter against the kernel's figure; the clocksource, the
// counters and the probe's duration; the recommendation; then the
// warnings and notes. A document without typed clock details (schema
// version 1) gets the generic view.
func clocksView(d *result.Document, o Options) (*View, error) {
	run := d.Run.Clocks
	typed := run != nil
	for _, m := range d.Measurements {
		typed = typed || m.Detail.Clock != nil
	}
	if !typed {
		return genericView(d, o)
	}
	v := &View{}
	t := &Table{Columns: []Column{{Name: "clock"}, {Name: "kind"}, {Name: "path"},
		{Name: "resolution", CSVName: "resolution_ns", Numeric: true}, {Name: "tick", CSVName: "tick_ns", Numeric: true},
		{Name: "cost", CSVName: "cost_median_ns", Numeric: true}, {Name: "p99", CSVName: "cost_p99_ns", Numeric: true},
		{Name: "back", CSVName: "backward_steps", Numeric: true}, {Name: "across threads", CSVName: "across_threads"}}}
	unavailable := &Table{Headless: true, Columns: []Column{{Name: "clock"}, {Name: "why"}}}
	for i := range d.Measurements {
		m := &d.Measurements[i]
		cd := m.Detail.Clock
		if cd == nil {
			continue
		}
		cost := m.Metric(m.Primary)
		if cd.Unavailable != "" || cost == nil || len(cost.Values) == 0 {
			why := cd.Unavailable
			if why == "" {
				why = "no read cost in the document"
			}
			unavailable.Rows = append(unavailable.Rows, []Cell{TextCell(m.Name), TextCell(why)})
			continue
		}
		res, tick := Missing, Missing
		if cd.NominalNs > 0 {
			res = FigureCell(cd.NominalNs, result.UnitNs, unit.Precision{Resolution: cd.NominalNs}, o.Unit)
		}
		back := Missing
		if st := cd.Steps; st != nil {
			tick = tickCell(st, cd.NominalNs, o)
			back = TextCell(strconv.Itoa(st.BackwardSteps))
		}
		cross := Missing
		if cd.Cross != nil {
			cross = TextCell(crossText(cd.Cross, cd.NominalNs))
		}
		s := o.Series(cost)
		t.Rows = append(t.Rows, []Cell{TextCell(m.Name), TextCell(string(cd.Kind)), TextCell(cd.Path), res, tick,
			s.Cell(s.Quantile(0.5), s.AtQuantile(0.5), o.Unit), s.Cell(s.Quantile(0.99), s.AtQuantile(0.99), o.Unit),
			back, cross})
	}
	check := "none was checked"
	if run != nil {
		switch run.PathCheck {
		case "counted":
			check = "the system calls of 1000 reads were counted"
		case "inferred":
			check = "system calls could not be counted, so the path was inferred from the costs"
		}
	}
	notes := []string{
		"tick: smallest step between changes of back-to-back reads: the clock's tick where it held its value",
		"between reads or stepped by its unit; ≤: it changed at every read, so its tick is finer than a read",
		"and the step (about one read) only bounds it; uncertain: too few changes seen free of preemption",
		"cost: per read, median and p99 (linear) over timed batches of back-to-back reads",
		"back: backward steps on one thread; path: vdso = a user-space read through the kernel's vDSO,",
		"syscall = a system call per read, instruction = a CPU instruction",
	}
	if run != nil && run.Windows != nil {
		notes = append(notes,
			"api = a Windows API call (kernel32, kernelbase), shared-data = a user-space read of KUSER_SHARED_DATA,",
			"which the kernel updates at each clock interrupt; batches timed with QueryPerformanceCounter")
	} else {
		notes = append(notes, "vDSO reads were checked for a fallback to the system call: "+check)
	}
	v.Blocks = append(v.Blocks, Block{Table: t, In: AllFormats | InCSV, Notes: notes})
	if len(unavailable.Rows) > 0 {
		v.Blocks = append(v.Blocks, Block{Heading: "Unavailable", Table: unavailable})
	}
	if run != nil {
		v.Blocks = append(v.Blocks, tscBlock(run))
		if w := run.Windows; w != nil {
			v.Blocks = append(v.Blocks, windowsBlock(w))
		}
		sys := &Table{Headless: true, Columns: []Column{{Name: "field"}, {Name: "value"}}}
		cs := "unknown: " + run.ClocksourceUnavailable
		if c := run.Clocksource; c != nil {
			cs = c.Current + " (available: " + strings.Join(c.Available, ", ") + ")"
		}
		ctr := "not recorded (the document holds no environment)"
		if d.Environment != nil && d.Environment.Counters != nil {
			ctr = d.Environment.Counters.Summary
		}
		if run.Windows == nil { // Windows has no clocksource to select
			sys.Rows = append(sys.Rows, []Cell{TextCell("clocksource"), TextCell(cs)})
		}
		sys.Rows = append(sys.Rows,
			[]Cell{TextCell("performance counters"), TextCell(ctr)},
			[]Cell{TextCell("probe took"), TextCell(unit.Duration(float64(run.Elapsed), unit.Precision{Resolution: 1e6}))})
		v.Blocks = append(v.Blocks, Block{Table: sys})
		rec := run.Recommendation
		b := Block{Heading: "No recommendation", Lines: []string{"  " + rec.Reason}}
		if rec.Clock != "" {
			b.Heading = "Recommended for elapsed time: " + rec.Clock
		}
		if rec.Counter != "" {
			b.Lines = append(b.Lines, "  counter: "+rec.Counter)
		}
		v.Blocks = append(v.Blocks, b)
	}
	v.Warnings = documentWarnings(d)
	return v, nil
}

// tickCell shows a clock's observed tick as its basis says: the figure,
// "≤ figure" for an upper bound (the number alone in CSV), or
// "uncertain (N changes seen)"; a document without a basis (written
// before chrono gave one) shows its smallest step, or "none seen".
func tickCell(st *clock.Steps, nominalNs float64, o Options) Cell {
	p := unit.Precision{Resolution: nominalNs}
	switch {
	case st.TickBasis == clock.TickUncertain:
		return TextCell(clock.TickUncertainText(st.TickChanges))
	case st.TickNs <= 0:
		return Cell{Text: "none seen"}
	case st.TickBasis == clock.TickUpperBound:
		c := FigureCell(st.TickNs, result.UnitNs, p, o.Unit)
		c.Text = "≤ " + c.Text
		return c
	}
	return FigureCell(st.TickNs, result.UnitNs, p, o.Unit)
}

// tscBlock lays out the timestamp counter: its frequency and where it came
// from, the calibration, the kernel's figure and the agreement, and the
// invariant bit.
func tscBlock(run *clock.Host) Block {
	b := Block{Heading: "Timestamp counter"}
	t := run.TSC
	if t == nil {
		b.Lines = []string{"  unavailable: " + run.TSCUnavailable}
		return b
	}
	tab := &Table{Headless: true, Columns: []Column{{Name: "field"}, {Name: "value"}}}
	row := func(k, v string) { tab.Rows = append(tab.Rows, []Cell{TextCell(k), TextCell(v)}) }
	from := t.Source + ", exact"
	switch c := t.Calibration; {
	case c != nil:
		from = fmt.Sprintf("calibrated against %s over %s; error ≤ %s ppm", c.Reference,
			unit.Duration(float64(c.Window), unit.Precision{Resolution: 1e3}), bound(t.ErrorPPM))
	case t.ErrorPPM > 0:
		from = fmt.Sprintf("%s; error ≤ %s ppm", t.Source, bound(t.ErrorPPM))
	}
	row("frequency", mhz(t.Hz)+" ("+from+")")
	if c := t.Calibration; c != nil {
		row("calibration", fmt.Sprintf("%s: spread %s ppm; brackets %s", plural.Count(c.Segments, "segment"), bound(c.SpreadPPM), brackets(c.BracketNs)))
	}
	if t.CPUID16hMHz != 0 {
		row("CPUID 16h", fmt.Sprintf("%d MHz base frequency (whole MHz: a cross-check only)", t.CPUID16hMHz))
	}
	if k := run.KernelTSC; k != nil {
		row("kernel", fmt.Sprintf("%q (±%s ppm as printed), from %s", k.Line, bound(k.ResolutionPPM), k.From))
		if a := run.Agreement; a != nil {
			row("difference", agreementText(a))
		}
	} else {
		row("kernel", "unknown: "+run.KernelTSCUnavailable)
	}
	inv := "unknown (CPUID 0x80000007 not readable)"
	if t.Invariant != nil {
		inv = "no: the rate follows the CPU frequency"
		if *t.Invariant {
			inv = "yes"
		}
	}
	row("invariant", inv)
	b.Table = tab
	return b
}

// windowsBlock lays out what Windows says of its timers: the QPC
// frequency and its relation to the TSC, the timer resolution and the
// system time adjustment, each figure or why it is unavailable (under
// Wine, with what Wine answered).
func windowsBlock(w *clock.Windows) Block {
	b := Block{Heading: "Windows timers"}
	tab := &Table{Headless: true, Columns: []Column{{Name: "field"}, {Name: "value"}}}
	row := func(k, v string) { tab.Rows = append(tab.Rows, []Cell{TextCell(k), TextCell(v)}) }
	if w.Wine != "" {
		row("Wine", w.Wine+": these are Wine's figures, not Windows's")
	}
	// ms shows a period stated exactly in 100 ns units, every digit.
	ms := func(d time.Duration) string { return unit.Duration(float64(d), unit.Exactly(float64(d), 100)) }
	if w.QPCHz > 0 {
		row("QPC frequency", fmt.Sprintf("%d Hz (QueryPerformanceFrequency; a tick is %s)", w.QPCHz,
			unit.Duration(1e9/float64(w.QPCHz), unit.Precision{Resolution: 1e9 / float64(w.QPCHz)})))
	} else {
		row("QPC frequency", "unavailable: "+w.QPCUnavailable)
	}
	if q := w.QPCvsTSC; q != nil {
		p := unit.Precision{Resolution: 1e-6} // the ratio of exact frequencies
		if q.ErrorPPM > 0 {
			p = unit.Precision{Uncertainty: q.Ratio * q.ErrorPPM * 1e-6}
		}
		row("QPC vs TSC", fmt.Sprintf("%s TSC ticks per QPC tick (TSC %s, %s, error ≤ %s ppm): %s",
			unit.Plain(q.Ratio, p), mhz(q.TSCHz), q.TSCSource, bound(q.ErrorPPM), q.Reading))
	} else {
		row("QPC vs TSC", "unavailable: "+w.QPCvsTSCUnavailable)
	}
	if r := w.Timer; r != nil {
		row("timer resolution", fmt.Sprintf("current %s, finest %s, coarsest %s (NtQueryTimerResolution)", ms(r.Current), ms(r.Finest), ms(r.Coarsest)))
	} else {
		row("timer resolution", "unavailable: "+w.TimerUnavailable)
	}
	if a := w.Adjustment; a != nil {
		state := "enabled"
		if a.Disabled {
			state = "disabled"
		}
		row("time adjustment", fmt.Sprintf("increment %s per clock interrupt, adjustment %s, %s (GetSystemTimeAdjustment)", ms(a.Increment), ms(a.Adjustment), state))
	} else {
		row("time adjustment", "unavailable: "+w.AdjustmentUnavailable)
	}
	b.Table = tab
	return b
}

// mhz writes a frequency of whole Hz in MHz, exactly (every digit of Hz).
func mhz(hz uint64) string { return fmt.Sprintf("%d.%06d MHz", hz/1e6, hz%1e6) }

// bound formats an error bound or a spread (itself an uncertainty): two
// significant digits, or one where the Particle Data Group's rule allows.
func bound(x float64) string { return unit.Plain(x, unit.Precision{Uncertainty: x}) }

// agreementText states the TSC-vs-kernel difference with its error bound
// and what it shows: agreement within the limit only when the difference
// plus the bound is within it, and otherwise what a calibration would
// need to decide.
func agreementText(a *clock.Agreement) string {
	limit := unit.Plain(a.LimitPPM, unit.Precision{Resolution: 1})
	head := fmt.Sprintf("%s ppm ± %s ppm", unit.Plain(a.DiffPPM, unit.Precision{Uncertainty: a.BoundPPM}), bound(a.BoundPPM))
	switch a.Verdict {
	case "agrees":
		return fmt.Sprintf("%s: agrees within %s ppm", head, limit)
	case "disagrees":
		return fmt.Sprintf("%s: DISAGREES by more than %s ppm", head, limit)
	}
	s := fmt.Sprintf("%s: cannot tell whether it is within %s ppm: %s", head, limit, a.Reason)
	if a.SettleWindow > 0 {
		s += fmt.Sprintf(" (chrono clocks --calibrate %v)", a.SettleWindow)
	}
	return s
}

// brackets says how wide the calibration's reference brackets were.
func brackets(ns []float64) string {
	if len(ns) == 0 {
		return "none"
	}
	lo, hi := ns[0], ns[0]
	for _, v := range ns {
		lo, hi = min(lo, v), max(hi, v)
	}
	p := unit.Precision{Resolution: 1}
	return unit.Duration(lo, p) + " to " + unit.Duration(hi, p) + " wide"
}

// crossText summarizes a cross-thread check of a clock whose nominal
// resolution is nominalNs.
func crossText(c *clock.Cross, nominalNs float64) string {
	s := fmt.Sprintf("%d back of %d", c.BackwardSteps, c.Comparisons)
	if c.BackwardSteps > 0 {
		s += " (max " + unit.Duration(c.MaxBackwardNs, unit.Precision{Resolution: max(nominalNs, 1)}) + ")"
	}
	where := plural.Count(c.Threads, "thread")
	if c.Mode == "migrating-thread" {
		where = "1 thread migrating"
	}
	if c.Pinned {
		cpus := make([]string, len(c.CPUs))
		for i, x := range c.CPUs {
			cpus[i] = strconv.Itoa(x)
		}
		where += ", CPUs " + strings.Join(cpus, ",")
	} else {
		where += ", not pinned"
	}
	return s + ", " + where
}
