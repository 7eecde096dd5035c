package view

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(result.KindSleep, sleepView) }

// frugalShare is the CPU per wait, as a share of the requested duration,
// up to which a mechanism counts as frugal (the "+" mark).
const frugalShare = 0.1

// sleepCell is one measurement of a sleep document with the statistics
// its row shows, recomputed from the raw samples.
type sleepCell struct {
	m   *result.Measurement
	det *result.SleepDetail
	// ach, over and cpu are the series of the metrics (nil when absent).
	ach, over, cpu *Series
	best, frugal   bool
}

// overMedian and overP99 are the cell's ranking keys.
func (c *sleepCell) overMedian() float64 { return c.over.Quantile(0.5) }
func (c *sleepCell) overP99() float64    { return c.over.Quantile(0.99) }

// sleepView lays out a sleep document (chrono sleep) as one table per
// requested duration: per mechanism the samples, the median achieved
// duration, the overshoot (median, p99 by the linear definition, max),
// the relative error of the median and the median CPU time per wait,
// each with the digits its samples support. The most accurate mechanism
// of each duration is marked "*", the most accurate of those spending at
// most 10 % of the request in CPU "+"; the marks are recomputed from the
// samples, so a table cut short by an interruption keeps them. The CSV
// rendering is one table of every cell.
func sleepView(d *result.Document, o Options) (*View, error) {
	run := d.Run.Sleep
	var cells []*sleepCell
	for i := range d.Measurements {
		m := &d.Measurements[i]
		if m.Detail.Sleep == nil {
			continue
		}
		c := &sleepCell{m: m, det: m.Detail.Sleep}
		if met := m.Metric("achieved"); met != nil && len(met.Values) > 0 {
			c.ach = o.Series(met)
		}
		if met := m.Metric("overshoot"); met != nil && len(met.Values) > 0 {
			c.over = o.Series(met)
		}
		if met := m.Metric("cpu"); met != nil && len(met.Values) > 0 {
			c.cpu = o.Series(met)
		}
		cells = append(cells, c)
	}
	if run == nil || (len(cells) == 0 && len(d.Measurements) > 0) {
		return genericView(d, o) // a document of another writer (or version 1)
	}
	v := &View{Title: "Sleep accuracy (" + conditionsText(run.Conditions, "default scheduling, no pinning, no mlock, no PM-QoS request") + ")"}
	// Durations in the order studied, then any others the document holds.
	var order []int64
	byReq := map[int64][]*sleepCell{}
	for _, ns := range run.DurationsNs {
		if _, ok := byReq[ns]; !ok {
			order = append(order, ns)
			byReq[ns] = nil
		}
	}
	for _, c := range cells {
		ns := c.det.RequestedNs
		if _, ok := byReq[ns]; !ok {
			order = append(order, ns)
		}
		byReq[ns] = append(byReq[ns], c)
	}
	csvT := &Table{Columns: []Column{{Name: "mechanism"}, {Name: "requested_ns"}, {Name: "n"},
		{Name: "achieved_median_ns"}, {Name: "overshoot_median_ns"}, {Name: "overshoot_p99_ns"}, {Name: "overshoot_max_ns"},
		{Name: "error_pct"}, {Name: "cpu_per_wait_ns"}, {Name: "cpu_clock"}, {Name: "best"}, {Name: "best_frugal"},
		{Name: "unavailable"}, {Name: "failed"}, {Name: "failure"}}}
	for _, ns := range order {
		group := byReq[ns]
		if len(group) == 0 {
			continue // not reached before an interruption
		}
		markBest(group, float64(ns))
		t := &Table{Columns: []Column{{Name: ""}, {Name: "mechanism"}, {Name: "n", Numeric: true},
			{Name: "achieved", Numeric: true}, {Name: "over med", Numeric: true}, {Name: "over p99", Numeric: true},
			{Name: "over max", Numeric: true}, {Name: "error", Numeric: true}, {Name: "CPU/wait", Numeric: true}}}
		for _, c := range group {
			text, raw := sleepRow(c, float64(ns), o)
			t.Rows = append(t.Rows, text)
			csvT.Rows = append(csvT.Rows, raw)
		}
		v.Blocks = append(v.Blocks, Block{Heading: "requested " + time.Duration(ns).String(), Table: t})
	}
	v.Blocks = append(v.Blocks, Block{Table: csvT, In: InCSV})
	notes := []string{
		"* most accurate (smallest median overshoot)   + most accurate with CPU/wait ≤ 10 % of the request",
		"over p99: linear percentile of the overshoot; CPU/wait: median, thread CPU (own-thread mechanisms) or process CPU",
	}
	if run.SpinMarginNs != nil {
		notes = append(notes, "delay.Sleep spin margin at the end: "+unit.Duration(float64(*run.SpinMarginNs), unit.Exactly(float64(*run.SpinMarginNs), 1)))
	}
	if d.Incomplete {
		notes = append(notes, "interrupted: some cells have fewer samples than the budget allowed, or are missing")
	}
	v.Blocks = append(v.Blocks, Block{Lines: notes})
	v.Warnings = documentWarnings(d)
	return v, nil
}

// markBest marks the most accurate cell of one requested duration (the
// smallest |median overshoot|, then the smallest |p99 overshoot|) and the
// most accurate of those whose median CPU per wait is at most
// frugalShare of the request.
func markBest(cells []*sleepCell, req float64) {
	better := func(a, b *sleepCell) bool {
		ea, eb := math.Abs(a.overMedian()), math.Abs(b.overMedian())
		if ea != eb {
			return ea < eb
		}
		return math.Abs(a.overP99()) < math.Abs(b.overP99())
	}
	var best, frugal *sleepCell
	for _, c := range cells {
		if c.over == nil {
			continue
		}
		if best == nil || better(c, best) {
			best = c
		}
		if c.cpu != nil && c.cpu.Quantile(0.5) <= frugalShare*req && (frugal == nil || better(c, frugal)) {
			frugal = c
		}
	}
	if best != nil {
		best.best = true
	}
	if frugal != nil {
		frugal.frugal = true
	}
}

// sleepRow returns a cell's row in the text table and in the CSV table.
func sleepRow(c *sleepCell, req float64, o Options) (text, raw []Cell) {
	mark := ""
	if c.best {
		mark += "*"
	}
	if c.frugal {
		mark += "+"
	}
	name := c.det.Mechanism
	if c.m.Incomplete {
		name += " (incomplete)"
	}
	failure := ""
	if c.det.FailedWaits > 0 {
		failure = c.det.FailedError
	}
	tail := []Cell{TextCell(c.det.CPUClock), TextCell(strconv.FormatBool(c.best)), TextCell(strconv.FormatBool(c.frugal)),
		TextCell(c.det.Unavailable), TextCell(strconv.Itoa(c.det.FailedWaits)), TextCell(failure)}
	head := []Cell{TextCell(c.det.Mechanism), TextCell(strconv.FormatInt(c.det.RequestedNs, 10))}
	if c.ach == nil || c.over == nil {
		n := TextCell("0") // measured, but no wait completed
		if c.det.Unavailable != "" {
			n = Missing
		}
		text = []Cell{TextCell(mark), TextCell(name), n, Missing, Missing, Missing, Missing, Missing, Missing}
		raw = append(head, n, Missing, Missing, Missing, Missing, Missing, Missing)
		return text, append(raw, tail...)
	}
	med := c.ach.Cell(c.ach.Quantile(0.5), c.ach.AtQuantile(0.5), o.Unit)
	overMed := c.over.Cell(c.overMedian(), c.over.AtQuantile(0.5), o.Unit)
	overP99 := c.over.Cell(c.overP99(), c.over.AtQuantile(0.99), o.Unit)
	overMax := c.over.Cell(c.over.Summary.Max, c.over.Observed(), o.Unit)
	// The relative error of the median: the median overshoot over the
	// request, known as well as that median.
	pm := c.over.AtQuantile(0.5)
	errPct := 100 * c.overMedian() / req
	errCell := Cell{Text: unit.Plain(errPct, unit.Precision{Resolution: 100 * pm.Resolution / req, Uncertainty: 100 * pm.Uncertainty / req}) + " %",
		Raw: ExactNum(errPct)}
	cpu := Missing
	if c.cpu != nil {
		cpu = c.cpu.Cell(c.cpu.Quantile(0.5), c.cpu.AtQuantile(0.5), o.Unit)
	}
	n := TextCell(strconv.Itoa(c.ach.N()))
	text = []Cell{TextCell(mark), TextCell(name), n, med, overMed, overP99, overMax, errCell, cpu}
	raw = append(head, n, med, overMed, overP99, overMax, errCell, cpu)
	return text, append(raw, tail...)
}

// conditionsText says in a few words under which conditions a sleep or
// latency run measured; none is said when nothing was set.
func conditionsText(c result.WaitConditions, none string) string {
	var parts []string
	if c.Priority > 0 {
		parts = append(parts, "SCHED_FIFO "+strconv.Itoa(c.Priority))
	}
	if len(c.Pin) > 0 {
		parts = append(parts, "pinned to "+pinnedCPUs(c.Pin))
	}
	if c.MLocked {
		parts = append(parts, "mlockall")
	}
	if c.DMALatencyUs != nil {
		parts = append(parts, "cpu_dma_latency "+strconv.Itoa(*c.DMALatencyUs)+" µs")
	}
	if len(parts) == 0 {
		return none
	}
	return strings.Join(parts, ", ")
}

// pinnedCPUs names CPUs for people: "CPU 3", "CPUs 0-3,6".
func pinnedCPUs(cpus []int) string {
	if len(cpus) == 1 {
		return "CPU " + strconv.Itoa(cpus[0])
	}
	return "CPUs " + cpuList(cpus)
}
