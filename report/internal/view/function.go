package view

import (
	"fmt"
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

func init() { register(result.KindFunction, functionView) }

// functionView lays out a function document (package bench): a table with
// one row per benchmark (the median time per operation with its 95 %
// interval, percentiles of the per-sample means, the spread, allocations
// and bytes per operation, the thread's CPU time over wall time, the
// samples), then per benchmark the cost of measuring, where the samples
// ran, the counters and the latency, cold and parallel modes, then the
// verdicts of a comparison, the counters that could not be counted, the
// environment and every warning. Every statistic is recomputed from the
// samples (the interval with stats.PlacedMedianCI, a comparison with
// compare.PairedRounds), never copied from what the document stores.
// Documents of schema version 1 (no typed details) get the generic view.
func functionView(d *result.Document, o Options) (*View, error) {
	for _, m := range d.Measurements {
		if m.Detail.Function == nil {
			return genericView(d, o)
		}
	}
	v := &View{}
	// The benchmarks in the order of their batch measurements, with their
	// modes.
	var batches []*functionFigures
	modes := map[string][]*result.Measurement{}
	for i := range d.Measurements {
		m := &d.Measurements[i]
		fd := m.Detail.Function
		if fd.Mode != result.FunctionBatch {
			modes[fd.Benchmark] = append(modes[fd.Benchmark], m)
			continue
		}
		f, err := newFunctionFigures(m, o)
		if err != nil {
			return nil, err
		}
		batches = append(batches, f)
	}
	if len(batches) > 0 {
		text, csvT := functionTables(batches, o)
		v.Blocks = append(v.Blocks, Block{Table: text}, Block{Table: csvT, In: InCSV})
	}
	for _, f := range batches {
		// The text shows the samples' distribution and sequence first
		// (terminal charts); Markdown the lines alone.
		lines := f.lines(modes[f.fd.Benchmark], o)
		charts := ChartLines(f.m.Metric("wall"), "  ", o)
		v.Blocks = append(v.Blocks, Block{Heading: f.m.Name + ":", Lines: append(charts, lines...), In: InText},
			Block{Heading: f.m.Name + ":", Lines: lines, In: InMarkdown | InHTML})
		delete(modes, f.fd.Benchmark)
	}
	// Modes of benchmarks without batch samples (not written by bench,
	// but shown all the same).
	for i := range d.Measurements {
		m := &d.Measurements[i]
		if ms, ok := modes[m.Detail.Function.Benchmark]; ok {
			delete(modes, m.Detail.Function.Benchmark)
			var lines []string
			for _, mm := range ms {
				if mm.Detail.Function.Mode == result.FunctionInstructions {
					for _, l := range instructionLines(mm, o) {
						lines = append(lines, "  "+l)
					}
					continue
				}
				lines = append(lines, "  "+modeLine(mm, o))
			}
			v.Blocks = append(v.Blocks, Block{Heading: m.Detail.Function.Benchmark + ":", Lines: lines})
		}
	}
	if lines := compareLines(d, batches); len(lines) > 0 {
		v.Blocks = append(v.Blocks, Block{Lines: lines})
	}
	var tail []string
	tail = append(tail, unavailableLines(batches)...)
	if d.Environment != nil {
		tail = append(tail, "environment: "+brief(d.Environment))
	}
	if len(tail) > 0 {
		v.Blocks = append(v.Blocks, Block{Lines: tail})
	}
	v.Warnings = documentWarnings(d)
	return v, nil
}

// functionFigures are a batch measurement's figures, recomputed from its
// samples.
type functionFigures struct {
	m    *result.Measurement
	fd   *result.FunctionDetail
	o    Options // the Series of m's metrics come through it
	wall *Series
	// xs are the samples' ns/op in order, blocks their blocks and cpus
	// their CPUs (-1 where the thread changed CPU; nil when unknown).
	xs     []float64
	blocks []int
	cpus   []int
	placed stats.PlacedInterval
	ciErr  error
	// med is the precision of the median: the clock's tick per iteration
	// and the interval's half-width.
	med unit.Precision
}

// newFunctionFigures reads a batch measurement's samples and recomputes
// its interval. It fails when the document's blocks do not hold its
// samples.
func newFunctionFigures(m *result.Measurement, o Options) (*functionFigures, error) {
	f := &functionFigures{m: m, fd: m.Detail.Function, o: o}
	wm := m.Metric("wall")
	if wm == nil {
		return nil, fmt.Errorf("report: function measurement %q has no wall metric (ns/op per sample)", m.Name)
	}
	f.wall, f.xs = o.Series(wm), wm.Values
	n := len(f.xs)
	if pl := f.fd.Placement; pl != nil && len(pl.BlockSizes) > 0 {
		// Check the sizes before expanding them: a damaged document
		// could ask for any number of entries.
		held := 0
		for _, size := range pl.BlockSizes {
			if size < 0 || size > n-held {
				return nil, fmt.Errorf("report: function measurement %q: its block sizes do not add up to the %s of its metrics: the document is damaged", m.Name, plural.Count(n, "sample"))
			}
			held += size
		}
		for j, size := range pl.BlockSizes {
			for range size {
				f.blocks = append(f.blocks, j)
			}
		}
	} else {
		f.blocks = make([]int, n) // one block
	}
	if len(f.blocks) != n {
		return nil, fmt.Errorf("report: function measurement %q: its blocks hold %s, its metrics %d: the document is damaged", m.Name, plural.Count(len(f.blocks), "sample"), n)
	}
	// (A binned cpu metric has no per-sample values to read.)
	if c, ce := m.Metric("cpu"), m.Metric("cpu_end"); c != nil && ce != nil && len(c.Values) == n && len(ce.Values) == n {
		f.cpus = make([]int, n)
		for i := range f.cpus {
			f.cpus[i] = int(c.Values[i])
			if c.Values[i] != ce.Values[i] {
				f.cpus[i] = -1 // migrated during the sample
			}
		}
	}
	f.placed, f.ciErr = stats.PlacedMedianCI(f.xs, f.blocks, f.cpus, stats.Confidence)
	f.med = f.wall.AtQuantile(0.5)
	if f.ciErr == nil {
		f.med.Uncertainty = max(f.med.Uncertainty, (f.placed.CI.Hi-f.placed.CI.Lo)/2)
	}
	return f, nil
}

// dur is a duration cell (ns) with precision p.
func dur(v float64, p unit.Precision, o Options) Cell { return FigureCell(v, result.UnitNs, p, o.Unit) }

// functionTables returns the table of the benchmarks for people and for
// CSV.
func functionTables(fs []*functionFigures, o Options) (text, csvT *Table) {
	conf := unit.Percent(stats.Confidence) + " CI"
	var pcts []float64
	for _, p := range o.percentiles() {
		if p != 50 { // the median has its own column
			pcts = append(pcts, p)
		}
	}
	text = &Table{Columns: []Column{{Name: "name"}, {Name: "time/op", Numeric: true}, {Name: conf}}}
	csvT = &Table{Columns: []Column{{Name: "name"}, {Name: "samples"}, {Name: "iterations"}, {Name: "median_ns_per_op"},
		{Name: "ci_lo_ns_per_op"}, {Name: "ci_hi_ns_per_op"}}}
	for _, p := range pcts {
		l := stats.PercentileLabel(p)
		text.Columns = append(text.Columns, Column{Name: l, Numeric: true})
		csvT.Columns = append(csvT.Columns, Column{Name: l + "_ns_per_op"})
	}
	text.Columns = append(text.Columns, Column{Name: "CV", Numeric: true}, Column{Name: "allocs/op", Numeric: true},
		Column{Name: "B/op", Numeric: true}, Column{Name: "CPU/wall", Numeric: true}, Column{Name: "samples", Numeric: true})
	csvT.Columns = append(csvT.Columns, Column{Name: "cv"}, Column{Name: "allocs_per_op"}, Column{Name: "bytes_per_op"}, Column{Name: "cpu_per_wall"})
	for _, f := range fs {
		s := f.wall
		name := f.m.Name
		if f.m.Incomplete {
			name += " (incomplete)"
		}
		med := dur(s.Summary.Median, f.med, o)
		ci, lo, hi := Missing, Missing, Missing
		if f.ciErr == nil {
			lo, hi = dur(f.placed.CI.Lo, f.med, o), dur(f.placed.CI.Hi, f.med, o)
			ci = TextCell("[" + lo.Text + ", " + hi.Text + "]")
		}
		var iters uint64
		if c := f.fd.Calibration; c != nil {
			iters = c.Iterations
		}
		tr := []Cell{TextCell(name), med, ci}
		cr := []Cell{TextCell(f.m.Name), TextCell(strconv.Itoa(s.N())), TextCell(strconv.FormatUint(iters, 10)), med, lo, hi}
		for _, p := range pcts {
			c := dur(s.Quantile(p/100), s.AtQuantile(p/100), o)
			tr, cr = append(tr, c), append(cr, c)
		}
		cv := Missing
		if sum := s.Summary; sum.N >= 2 && sum.Mean != 0 {
			u := stats.StdDevUncertainty(sum) / math.Abs(sum.Mean)
			cv = Cell{Text: unit.Plain(100*sum.CV, unit.Precision{Uncertainty: 100 * u}) + "%", Raw: ExactNum(sum.CV)}
		}
		median := func(name string) Cell {
			met := f.m.Metric(name)
			if met == nil || len(met.Values) == 0 {
				return Missing
			}
			ms := o.Series(met)
			return FigureCell(ms.Summary.Median, result.UnitOne, countPrecision(ms), o.Unit)
		}
		cpuWall := Missing
		if r, ok := f.cpuPerWall(); ok {
			cpuWall = Cell{Text: unit.Plain(r, unit.Precision{Resolution: 0.01}), Raw: ExactNum(r)}
		}
		allocs, bytes := median("allocs"), median("bytes")
		tr = append(tr, cv, allocs, bytes, cpuWall, TextCell(fmt.Sprintf("%d×%d", s.N(), iters)))
		cr = append(cr, cv, allocs, bytes, cpuWall)
		text.Rows = append(text.Rows, tr)
		csvT.Rows = append(csvT.Rows, cr)
	}
	return text, csvT
}

// countPrecision is the precision of the median of a count per
// operation: the quantile's, or whole counts when the median is 0 (the
// Middle samples counted none: a zero that is exact, however many
// iterations it is spread over).
func countPrecision(s *Series) unit.Precision {
	if s.N() > 0 && s.Summary.Median == 0 {
		return unit.Precision{Resolution: 1}
	}
	return s.AtQuantile(0.5)
}

// cpuPerWall is the thread's CPU time over the wall time of all samples.
func (f *functionFigures) cpuPerWall() (float64, bool) {
	c, it := f.m.Metric("cpu_time"), f.m.Metric("iterations")
	if c == nil || it == nil || len(c.Values) != len(f.xs) || len(it.Values) != len(f.xs) {
		return 0, false
	}
	var cpu, wall float64
	for i, n := range it.Values {
		cpu += float64(c.Values[i] * n)
		wall += float64(f.xs[i] * n)
	}
	if wall <= 0 {
		return 0, false
	}
	return cpu / wall, true
}

// lines are the benchmark's lines under its heading: the cost of
// measuring, the placement, the counters, the warm-up, and its modes.
func (f *functionFigures) lines(modes []*result.Measurement, o Options) []string {
	fd := f.fd
	var ls []string
	res := unit.Precision{Resolution: f.wall.Resolution}
	if ov := fd.Overhead; ov != nil {
		cpuRead := "CPU time unavailable"
		if ov.CPUReadNs != nil {
			cpuRead = "CPU clock read " + unit.Duration(*ov.CPUReadNs, unit.Precision{Resolution: 1}) + " of CPU time per timed segment (subtracted)"
		}
		pair := unit.Precision{Resolution: fd.Clock.TickNs}
		ls = append(ls, fmt.Sprintf("overhead: empty loop %s–%s/op (two code placements), StopTimer+StartTimer %s (%s of it inside the timed region), %s; clock %s (tick %s, read %s)",
			unit.Duration(ov.LoopNsPerOp, res), unit.Duration(ov.LoopNsPerOpHigh, res),
			unit.Duration(ov.TimerPairNs, pair), unit.Duration(ov.TimerPairInsideNs, pair), cpuRead,
			fd.Clock.Name, unit.Duration(fd.Clock.TickNs, unit.Precision{}), unit.Duration(fd.Clock.ReadNs, unit.Precision{})))
	}
	if l := f.placementLine(); l != "" {
		ls = append(ls, l)
	}
	if ov := fd.Overhead; ov != nil && f.wall.N() > 0 {
		if med := f.wall.Summary.Median; med > 2*max(ov.LoopNsPerOp, ov.LoopNsPerOpHigh) {
			ls = append(ls, "net of loop overhead: "+unit.Duration(med-ov.LoopNsPerOp, f.med)+"/op")
		}
	}
	if l := f.countersLine(); l != "" {
		ls = append(ls, l)
	}
	if len(fd.Warmup) > 0 {
		var xs []float64
		for _, t := range fd.Warmup {
			if t.Iterations > 0 {
				xs = append(xs, t.WallNs/float64(t.Iterations))
			}
		}
		w := NewSeries(&result.Metric{Unit: result.UnitNsPerOp, Values: xs, Resolution: f.wall.Resolution})
		ls = append(ls, fmt.Sprintf("warm-up: %s, median %s/op (discarded)", plural.Count(len(fd.Warmup), "sample"), unit.Duration(w.Summary.Median, w.AtQuantile(0.5))))
	}
	for _, m := range modes {
		ls = append(ls, modeLine(m, o))
	}
	for i := range ls {
		ls[i] = "  " + ls[i]
	}
	return ls
}

// placementLine says where the samples ran, with the blocks' medians and
// each CPU's median.
func (f *functionFigures) placementLine() string {
	pl := f.fd.Placement
	if pl == nil {
		return ""
	}
	var l string
	switch {
	case pl.Pinned && len(pl.BlockCPUs) > 0:
		l = fmt.Sprintf("pinned to CPU %d (Options.Pin): the figures hold for that CPU", pl.BlockCPUs[0])
	case len(pl.BlockCPUs) == 0:
		l = "not pinned: the CPUs the process may run on are unknown here"
	case pl.Allowed == 1:
		l = fmt.Sprintf("on CPU %d, the only one the process may run on", pl.BlockCPUs[0])
	default:
		l = fmt.Sprintf("spread: %s over CPUs %s of the %d allowed", plural.Count(len(pl.BlockSizes), "block"), cpuList(pl.BlockCPUs), pl.Allowed)
	}
	l = "placement: " + l
	if bm := f.placed.BlockMedians; len(bm) > 1 {
		var bs []string
		for _, m := range bm {
			bs = append(bs, unit.Duration(m, f.med))
		}
		l += "; block medians " + strings.Join(bs, ", ")
	}
	if pc := f.placed.PerCPU; len(pc) > 1 {
		var cs []string
		for _, c := range pc {
			p := unit.Precision{Resolution: f.wall.Resolution, Uncertainty: (c.CI.Hi - c.CI.Lo) / 2}
			cs = append(cs, fmt.Sprintf("CPU %d %s (%d)", c.CPU, unit.Duration(c.Median, p), c.Samples))
		}
		l += "; per CPU (samples): " + strings.Join(cs, ", ")
	}
	return l
}

// cpuList formats CPU numbers as a sorted list with ranges ("0-3,6").
func cpuList(cpus []int) string {
	cs := slices.Compact(slices.Sorted(slices.Values(cpus)))
	var parts []string
	for i := 0; i < len(cs); {
		j := i
		for j+1 < len(cs) && cs[j+1] == cs[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", cs[i], cs[j]))
		} else {
			parts = append(parts, strconv.Itoa(cs[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// countersLine gives the median count per operation of every counted
// event, and the IPC.
func (f *functionFigures) countersLine() string {
	var parts []string
	for _, c := range f.fd.Counters {
		var s *Series
		extra := ""
		if met := f.m.Metric(c.Event); met != nil {
			s = f.o.Series(met)
		} else if len(c.PartialPerOp) > 0 {
			s = NewSeries(&result.Metric{Unit: result.UnitCountPerOp, Values: c.PartialPerOp})
			extra = fmt.Sprintf(" (in %d of %s)", len(c.PartialPerOp), plural.Count(len(f.xs), "sample"))
		}
		if s == nil || s.N() == 0 {
			continue
		}
		med, p := s.Summary.Median, countPrecision(s)
		v := unit.Plain(med, p)
		if c.Unit == "ns" {
			v = unit.Duration(med, p)
		}
		part := c.Event + " " + v + extra
		if c.Scaled {
			part += " (scaled)"
		}
		if c.Note != "" {
			part += " (" + c.Note + ")"
		}
		parts = append(parts, part)
	}
	if met := f.m.Metric("ipc"); met != nil && len(met.Values) > 0 {
		s := f.o.Series(met)
		parts = append(parts, "IPC "+unit.Plain(s.Summary.Median, s.AtQuantile(0.5)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "counters per op (median; net of an empty sample's counts): " + strings.Join(parts, ", ")
}

// modeLine is the line of a latency, cold or parallel measurement.
func modeLine(m *result.Measurement, o Options) string {
	fd := m.Detail.Function
	met := m.Metric(m.Primary)
	if met == nil {
		return fmt.Sprintf("%s: no samples", fd.Mode)
	}
	s := o.Series(met)
	if s.N() == 0 {
		return fmt.Sprintf("%s: no samples", fd.Mode)
	}
	q := func(p float64) string {
		return Figure(s.Quantile(p), result.UnitNs, s.AtQuantile(p), o.Unit)
	}
	maxs := Figure(s.Summary.Max, result.UnitNs, s.Observed(), o.Unit)
	switch fd.Mode {
	case result.FunctionLatency:
		head := fmt.Sprintf("latency (%d single ops", s.N())
		if l := fd.Latency; l != nil {
			head += ", read overhead " + unit.Duration(l.ReadOverheadNs, unit.Precision{Resolution: fd.Clock.TickNs}) + " subtracted"
		}
		return fmt.Sprintf("%s): p50 %s  p90 %s  p99 %s  p99.9 %s  max %s", head, q(0.5), q(0.9), q(0.99), q(0.999), maxs)
	case result.FunctionCold:
		return fmt.Sprintf("cold: first call of %d fresh invocations: median %s, max %s", s.N(), q(0.5), maxs)
	case result.FunctionParallel:
		workers := 0
		if p := fd.Parallel; p != nil {
			workers = p.Workers
		}
		// Throughput in operations per µs (Mop/s), known to the same
		// relative precision as the time per operation it inverts.
		mops := func(ns float64, p unit.Precision) string {
			if !(ns > 0) {
				return "–"
			}
			r := 1e3 / ns
			return unit.Plain(r, unit.Precision{Uncertainty: r * p.Uncertainty / ns, Resolution: r * p.Resolution / ns})
		}
		var all []float64 // every worker's every sample
		var per []string
		for j := 0; ; j++ {
			wm := m.Metric("worker" + strconv.Itoa(j))
			if wm == nil {
				break
			}
			w := o.Series(wm)
			per = append(per, mops(w.Summary.Median, w.AtQuantile(0.5)))
			all = append(all, wm.Values...)
		}
		line := fmt.Sprintf("parallel (%s): %s Mop/s aggregate (median)", plural.Count(workers, "worker"), mops(s.Summary.Median, s.AtQuantile(0.5)))
		if len(per) > 0 {
			a := NewSeries(&result.Metric{Unit: result.UnitNsPerOp, Values: all, Resolution: met.Resolution})
			line += fmt.Sprintf(", per worker %s Mop/s, %s/op per worker (median)", strings.Join(per, ", "),
				Figure(a.Summary.Median, result.UnitNs, a.AtQuantile(0.5), o.Unit))
		}
		return line
	}
	return fmt.Sprintf("%s: median %s, max %s", fd.Mode, q(0.5), maxs)
}

// compareLines recomputes the verdicts of a comparison (bench.Compare)
// from the rounds' samples: every case against the first.
func compareLines(d *result.Document, fs []*functionFigures) []string {
	if d.Run.Function == nil || d.Run.Function.Compare == nil {
		return nil
	}
	c := d.Run.Function.Compare
	byName := map[string]*functionFigures{}
	for _, f := range fs {
		byName[f.m.Name] = f
	}
	var lines []string
	for i := 1; i < len(c.Cases); i++ {
		a, b := byName[c.Cases[0]], byName[c.Cases[i]]
		if a == nil || b == nil {
			lines = append(lines, fmt.Sprintf("%s vs %s: not in the document", c.Cases[0], c.Cases[i]))
			continue
		}
		p := compare.PairedRounds(a.rounds(), b.rounds())
		lines = append(lines, fmt.Sprintf("%s vs %s: %s (%s of %s, median of paired ratios %s/%s)",
			a.m.Name, b.m.Name, p.Conclusion(), plural.Count(min(len(a.xs), len(b.xs)), "interleaved round"), plural.Count(int(c.Iterations), "iteration"), a.m.Name, b.m.Name))
	}
	return lines
}

// rounds are f's samples as the rounds of a comparison.
func (f *functionFigures) rounds() compare.Rounds {
	return compare.Rounds{Name: f.m.Name, NsPerOp: f.xs, Blocks: f.blocks, CPUs: f.cpus}
}

// FunctionRounds are the samples of a function document's batch
// measurement m as the rounds of a comparison (compare.PairedRounds), as
// its text view compares them; an error when its blocks do not hold its
// samples. The wall metric's Series comes through o.
func FunctionRounds(m *result.Measurement, o Options) (compare.Rounds, error) {
	f, err := newFunctionFigures(m, o)
	if err != nil {
		return compare.Rounds{}, err
	}
	return f.rounds(), nil
}

// unavailableLines lists the events that could not be counted, grouped
// by reason: "cycles, instructions: not available: <reason>".
func unavailableLines(fs []*functionFigures) []string {
	var reasons []string
	names := map[string][]string{}
	for _, f := range fs {
		for _, u := range f.fd.CountersUnavailable {
			if _, ok := names[u.Reason]; !ok {
				reasons = append(reasons, u.Reason)
			}
			if !slices.Contains(names[u.Reason], u.Event) {
				names[u.Reason] = append(names[u.Reason], u.Event)
			}
		}
	}
	var out []string
	for _, why := range reasons {
		out = append(out, "counters: "+strings.Join(names[why], ", ")+": not available: "+why)
	}
	return out
}
