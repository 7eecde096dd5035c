package view

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(result.KindLatency, latencyView) }

// latencyPercentiles are the percentiles of the latency table.
var latencyPercentiles = []float64{50, 90, 99, 99.9, 99.99}

// latencyRow is one measurement of a latency document: a thread or the
// merge of all.
type latencyRow struct {
	m   *result.Measurement
	det *result.LatencyDetail
	s   *Series // nil when nothing was measured
	h   *result.Histogram
}

func (r latencyRow) label() string {
	if r.det.Thread == nil {
		return "all"
	}
	return strconv.Itoa(*r.det.Thread)
}

// latencyView lays out a latency document (chrono latency) as cyclictest
// would end its run, and more: a cyclictest line per thread, then per
// thread (and all threads) the count, exact min, percentiles read from
// the HDR histogram's bins, exact max and mean, overflows and overruns,
// each with the digits it is known to; the Go runtime's yields; the
// per-CPU split of threads that were not pinned; and the histogram (per
// µs up to cyclictest's -h limit when it was given, else 1-2-5 bins of
// all threads).
func latencyView(d *result.Document, o Options) (*View, error) {
	run := d.Run.Latency
	var threads []latencyRow
	var all *latencyRow
	for i := range d.Measurements {
		m := &d.Measurements[i]
		det := m.Detail.Latency
		if det == nil {
			continue
		}
		r := latencyRow{m: m, det: det}
		if met := m.Metric("latency"); met != nil && met.Histogram != nil && met.Histogram.Total() > 0 {
			r.s, r.h = o.Series(met), met.Histogram
		}
		if det.Thread == nil {
			all = &r
		} else {
			threads = append(threads, r)
		}
	}
	if run == nil || len(threads) == 0 {
		return genericView(d, o) // a document of another writer (or version 1)
	}
	v := &View{Title: fmt.Sprintf("Wake-up latency: %s, interval %s (every thread), %s", plural.Count(run.Threads, "thread"),
		time.Duration(run.IntervalNs), run.Wait)}
	v.Blocks = append(v.Blocks, Block{Lines: []string{"settings: " + latencySettings(run.Conditions, threads)}})
	var lines []string
	for _, r := range threads {
		l := CyclictestLine{Thread: *r.det.Thread, TID: r.det.TID, Priority: r.det.Priority, IntervalNs: run.IntervalNs}
		if r.h != nil {
			l.Count, l.MinNs, l.MaxNs, l.AvgNs = r.h.Total(), int64(r.h.Min), int64(r.h.Max), r.h.Mean
		}
		if r.det.LastNs != nil {
			l.ActNs = *r.det.LastNs
		}
		lines = append(lines, l.String())
	}
	v.Blocks = append(v.Blocks, Block{Lines: lines, In: InText}) // cyclictest's columns need a fixed-width font

	t := &Table{Columns: []Column{{Name: "thread"}, {Name: "count", Numeric: true}, {Name: "min", CSVName: "min_ns", Numeric: true}}}
	for _, p := range latencyPercentiles {
		l := stats.PercentileLabel(p)
		t.Columns = append(t.Columns, Column{Name: l, CSVName: l + "_ns", Numeric: true})
	}
	t.Columns = append(t.Columns, Column{Name: "max", CSVName: "max_ns", Numeric: true}, Column{Name: "mean", CSVName: "mean_ns", Numeric: true},
		Column{Name: "overflows", Numeric: true}, Column{Name: "overruns", Numeric: true})
	rows := threads
	if all != nil {
		rows = append(append([]latencyRow(nil), threads...), *all)
	}
	for _, r := range rows {
		row := []Cell{TextCell(r.label())}
		if r.s == nil {
			row = append(row, TextCell("0"), Missing)
			for range latencyPercentiles {
				row = append(row, Missing)
			}
			row = append(row, Missing, Missing)
		} else {
			s := r.s
			row = append(row, TextCell(strconv.FormatInt(r.h.Total(), 10)), s.Cell(r.h.Min, s.Observed(), o.Unit))
			for _, p := range latencyPercentiles {
				row = append(row, s.Cell(s.Quantile(p/100), s.AtQuantile(p/100), o.Unit))
			}
			row = append(row, s.Cell(r.h.Max, s.Observed(), o.Unit), s.Cell(r.h.Mean, s.OfMean(), o.Unit))
		}
		row = append(row, TextCell(strconv.FormatInt(r.det.Overflows, 10)), TextCell(strconv.FormatInt(r.det.Overruns, 10)))
		t.Rows = append(t.Rows, row)
	}
	var notes []string
	var yields []string
	for _, r := range threads {
		if r.det.RuntimeYields != nil && *r.det.RuntimeYields > 0 {
			y := fmt.Sprintf("thread %d: %d", *r.det.Thread, *r.det.RuntimeYields)
			if r.det.RuntimeYieldMaxNs != nil {
				res := 0.0
				if r.s != nil {
					res = r.s.Resolution
				}
				y += ", longest " + unit.Duration(float64(*r.det.RuntimeYieldMaxNs), unit.Precision{Resolution: res})
			}
			yields = append(yields, y)
		}
	}
	if len(yields) > 0 {
		notes = append(notes, "Go runtime yields (after a measurement, or at once when the deadline was far): "+strings.Join(yields, "; "))
	}
	notes = append(notes, fmt.Sprintf("percentiles: linear definition, the latencies around each rank read from the HDR histograms (%d significant digits); min, max and mean exact; digits: as far as each figure is known", run.SignificantDigits))
	if run.HistogramUs > 0 {
		notes = append(notes, fmt.Sprintf("overflows: latencies of %d µs or more (-h)", run.HistogramUs))
	} else {
		notes = append(notes, "overflows: latencies of "+time.Duration(run.OverflowNs).String()+" or more (beyond the histogram's range)")
	}
	v.Blocks = append(v.Blocks, Block{Table: t, Notes: notes, In: AllFormats | InCSV})

	if b, ok := perCPUBlock(threads, o); ok {
		v.Blocks = append(v.Blocks, b)
	}
	// A one-line chart of each thread's distribution (terminals only).
	var charts []string
	for _, r := range threads {
		if r.s != nil && r.s.N() > 0 {
			charts = append(charts, fmt.Sprintf("  T:%2d  %s", *r.det.Thread, HistogramLine(r.s, ChartWidth, o)))
		}
	}
	if len(charts) > 0 {
		v.Blocks = append(v.Blocks, Block{Heading: "distribution per thread:", Lines: charts, In: InText})
	}
	if run.HistogramUs > 0 {
		v.Blocks = append(v.Blocks, Block{Lines: microsecondHistogram(threads, run.HistogramUs), In: InText})
	} else {
		h := threads[0].h
		if all != nil {
			h = all.h
		}
		if h != nil {
			v.Blocks = append(v.Blocks, Block{Heading: "histogram (all threads, 1-2-5 bins):", Lines: decadeHistogram(h), In: InText})
		}
	}
	v.Warnings = documentWarnings(d)
	return v, nil
}

// latencySettings names every setting the measuring threads ran with,
// as the document records it, held or not: the scheduling policy, the
// pinning, memory locking, the PM-QoS request (and its refusal) and the
// threads' timer slack.
func latencySettings(c result.WaitConditions, threads []latencyRow) string {
	policy := "SCHED_OTHER"
	if c.Priority > 0 {
		policy = "SCHED_FIFO " + strconv.Itoa(c.Priority)
	}
	parts := []string{policy, "not pinned", "memory not locked", "/dev/cpu_dma_latency not held"}
	if len(c.Pin) > 0 {
		parts[1] = "pinned to " + pinnedCPUs(c.Pin)
		if len(c.Pin) > 1 {
			parts[1] += " (thread i on the i-th in turn)"
		}
	}
	if c.MLocked {
		parts[2] = "mlockall"
	}
	if c.DMALatencyUs != nil {
		parts[3] = "/dev/cpu_dma_latency " + strconv.Itoa(*c.DMALatencyUs) + " µs"
	} else {
		for _, r := range c.Refused {
			if strings.HasPrefix(r, "/dev/cpu_dma_latency") {
				parts[3] = r + " not held (see the warnings)"
			}
		}
	}
	return strings.Join(append(parts, timerSlackText(threads, c.Priority > 0)), ", ")
}

// timerSlackText says the threads' timer slack: one figure when they
// share it, else each thread's; fifo notes that the kernel applies none
// to SCHED_FIFO threads.
func timerSlackText(threads []latencyRow, fifo bool) string {
	var each []string
	seen := map[int64]bool{}
	for _, r := range threads {
		v := "unknown"
		if ns := r.det.TimerSlackNs; ns != nil {
			v = time.Duration(*ns).String() // a setting, exact
			seen[*ns] = true
		} else {
			seen[-1] = true
		}
		each = append(each, fmt.Sprintf("%s (thread %d)", v, *r.det.Thread))
	}
	s := "timer slack " + strings.Join(each, ", ")
	if len(seen) == 1 {
		s = "timer slack " + strings.TrimSuffix(each[0], fmt.Sprintf(" (thread %d)", *threads[0].det.Thread))
	}
	if fifo {
		s += " (not applied to SCHED_FIFO threads)"
	}
	return s
}

// perCPUBlock splits the latencies of each thread that was not pinned
// and woke on more than one CPU by that CPU, since the CPUs of one
// machine can differ (a busy sibling, other load, hybrid cores).
func perCPUBlock(threads []latencyRow, o Options) (Block, bool) {
	t := &Table{Columns: []Column{{Name: "thread", Numeric: true}, {Name: "cpu", Numeric: true}, {Name: "count", Numeric: true},
		{Name: "min", CSVName: "min_ns", Numeric: true}, {Name: "mean", CSVName: "mean_ns", Numeric: true}, {Name: "max", CSVName: "max_ns", Numeric: true}}}
	for _, r := range threads {
		if len(r.det.PerCPU) < 2 || r.s == nil {
			continue
		}
		obs := r.s.Observed()
		for _, c := range r.det.PerCPU {
			sum := stats.Summary{N: int(c.Count)}
			if c.Count > 1 {
				sum.StdDevSample = c.StdDevNs * math.Sqrt(float64(c.Count)/float64(c.Count-1))
			}
			mean := unit.Precision{Uncertainty: stats.MeanUncertainty(sum)}
			t.Rows = append(t.Rows, []Cell{TextCell(strconv.Itoa(*r.det.Thread)), TextCell(strconv.Itoa(c.CPU)),
				TextCell(strconv.FormatInt(c.Count, 10)), r.s.Cell(float64(c.MinNs), obs, o.Unit),
				r.s.Cell(c.MeanNs, mean, o.Unit), r.s.Cell(float64(c.MaxNs), obs, o.Unit)})
		}
	}
	if len(t.Rows) == 0 {
		return Block{}, false
	}
	return Block{Heading: "per CPU (threads not pinned, by the CPU each wake-up ran on):", Table: t}, true
}

// microsecondHistogram is cyclictest's -h view: one line per µs below
// maxUS with a non-zero count, a column per thread, then each thread's
// overflows (latencies of maxUS µs or more). A bin goes to the µs of its
// lower bound (the HDR bins are narrower than 1 µs up to about 1 ms).
func microsecondHistogram(threads []latencyRow, maxUS int) []string {
	// Only the microseconds that hold a latency are kept (at most the
	// histograms' bins), so the limit may be as large as the document
	// says without costing memory or time in proportion to it.
	counts := map[int64][]int64{}
	for i, r := range threads {
		if r.h == nil {
			continue
		}
		for j, c := range r.h.Counts {
			us := int64(r.h.Bounds[j]) / 1000
			if us < 0 || us >= int64(maxUS) || c == 0 {
				continue
			}
			row := counts[us]
			if row == nil {
				row = make([]int64, len(threads))
				counts[us] = row
			}
			row[i] += c
		}
	}
	lines := []string{"# Histogram (µs, count per thread)"}
	for _, us := range slices.Sorted(maps.Keys(counts)) {
		var b strings.Builder
		fmt.Fprintf(&b, "%06d", us)
		for _, c := range counts[us] {
			fmt.Fprintf(&b, " %06d", c)
		}
		lines = append(lines, b.String())
	}
	var b strings.Builder
	b.WriteString("# Histogram Overflows:")
	for _, r := range threads {
		fmt.Fprintf(&b, " %05d", r.det.Overflows)
	}
	return append(lines, b.String())
}

// decadeHistogram draws h in bins bounded by 1-2-5 steps (… 10 µs,
// 20 µs, 50 µs, 100 µs …): one line per non-empty bin with its upper
// bound, its count and a bar. A bin of h goes to the step above its
// lower bound.
func decadeHistogram(h *result.Histogram) []string {
	type bin struct {
		hi    float64
		count int64
	}
	var bins []bin
	add := func(lo float64, n int64) {
		if n == 0 {
			return
		}
		hi := step125Above(lo)
		if len(bins) == 0 || bins[len(bins)-1].hi != hi {
			bins = append(bins, bin{hi: hi})
		}
		bins[len(bins)-1].count += n
	}
	if h.Underflow > 0 {
		add(math.Min(h.Min, 0), h.Underflow)
	}
	for i, c := range h.Counts {
		add(h.Bounds[i], c)
	}
	if h.Overflow > 0 {
		add(h.Max, h.Overflow)
	}
	var maxC int64
	for _, b := range bins {
		maxC = max(maxC, b.count)
	}
	labels := make([]string, len(bins))
	lw, cw := 0, 0
	for i, b := range bins {
		labels[i] = "< " + unit.Duration(b.hi, unit.Precision{Resolution: b.hi})
		lw = max(lw, utf8.RuneCountInString(labels[i]))
		cw = max(cw, len(strconv.FormatInt(b.count, 10)))
	}
	var lines []string
	for i, b := range bins {
		bar := strings.Repeat("█", int(math.Ceil(40*float64(b.count)/float64(maxC))))
		pad := strings.Repeat(" ", lw-utf8.RuneCountInString(labels[i]))
		lines = append(lines, fmt.Sprintf("  %s%s  %*d  %s", labels[i], pad, cw, b.count, bar))
	}
	return lines
}

// step125Above returns the smallest value of the series 1, 2, 5, 10, 20,
// 50, … (in ns) above v.
func step125Above(v float64) float64 {
	if v < 1 {
		return 1
	}
	dec := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if s := m * dec; s > v {
			return s
		}
	}
	return 10 * dec
}

// CyclictestLine is one thread's state as cyclictest prints it, in whole
// µs (cyclictest's format, truncated as it truncates):
//
//	T: 0 ( 4523) P: 0 I:1000 C:    2000 Min:     24 Act:    112 Avg:    162 Max:    6647
//
// The live display of chrono latency (package report's LiveLatency) and
// the summary of a latency document both print it.
type CyclictestLine struct {
	Thread, TID, Priority int
	IntervalNs, Count     int64
	MinNs, ActNs, MaxNs   int64
	AvgNs                 float64
}

func (l CyclictestLine) String() string {
	us := func(ns int64) int64 { return ns / 1000 }
	return fmt.Sprintf("T:%2d (%6d) P:%2d I:%d C:%8d Min:%7d Act:%7d Avg:%7d Max:%8d",
		l.Thread, l.TID, l.Priority, us(l.IntervalNs), l.Count, us(l.MinNs), us(l.ActNs), us(int64(l.AvgNs)), us(l.MaxNs))
}
