package view

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(result.KindHistory, historyView) }

// historyView lays out a history document (chrono history) as the view
// that made it: list's table of what is stored; show's and export's
// table of runs per series; trend's series with a sparkline and the
// change points marked; check's changes per series and its summary line.
// The CSV of a series view holds every run of every series with export's
// columns (measurement, metric, unit, run, time, commit, branch, dirty,
// machine, median, n), list's CSV its table. Every figure comes by the
// digits rule: a run's median by its samples, a segment's median by the
// run medians it is the median of, a ratio by its interval.
func historyView(d *result.Document, o Options) (*View, error) {
	run := d.Run.History
	if run == nil {
		return genericView(d, o) // not written by chrono history
	}
	v := &View{Warnings: documentWarnings(d)}
	if run.View == result.HistoryViewList {
		v.Blocks = historyListBlocks(d, run)
		return v, nil
	}
	var csvRows [][]Cell
	for i := range d.Measurements {
		s, err := NewHistorySeries(&d.Measurements[i])
		if err != nil {
			return nil, err
		}
		switch run.View {
		case result.HistoryViewTrend:
			v.Blocks = append(v.Blocks, s.trendBlock(run, o))
		case result.HistoryViewCheck:
			if len(s.Det.Changes) > 0 {
				v.Blocks = append(v.Blocks, s.checkBlock(run, o))
				v.Blocks = append(v.Blocks, s.traceBlocks()...)
			}
		default:
			v.Blocks = append(v.Blocks, s.runsBlock(o))
		}
		csvRows = append(csvRows, s.csvRows()...)
	}
	if run.View == result.HistoryViewCheck {
		v.Blocks = append(v.Blocks, Block{Lines: []string{checkSummary(run)}})
	}
	v.Blocks = append(v.Blocks, Block{Table: &Table{Columns: historyCSVColumns, Rows: csvRows}, In: InCSV})
	return v, nil
}

// historyCSVColumns are the columns of a series view's CSV, one record per
// run (chrono history export --export-csv).
var historyCSVColumns = []Column{{Name: "measurement"}, {Name: "metric"}, {Name: "unit"}, {Name: "run"}, {Name: "time"}, {Name: "commit"},
	{Name: "branch"}, {Name: "dirty"}, {Name: "machine"}, {Name: "median"}, {Name: "n"}}

// historyListBlocks is the table of what the store holds, or the line
// that says it holds nothing.
func historyListBlocks(d *result.Document, run *result.HistoryRun) []Block {
	if len(d.Measurements) == 0 {
		return []Block{{Lines: []string{run.Store + " holds no results yet: add some with chrono history add FILE or --history"}}}
	}
	t := &Table{Columns: []Column{{Name: "measurement"}, {Name: "metric"}, {Name: "unit"}, {Name: "runs", Numeric: true},
		{Name: "machines", Numeric: true}, {Name: "first"}, {Name: "last"}}}
	for _, m := range d.Measurements {
		h := m.Detail.History
		st := h.Stored
		if st == nil {
			st = &result.HistoryStored{}
		}
		t.Rows = append(t.Rows, []Cell{TextCell(m.Name), TextCell(h.Metric), TextCell(h.Unit), TextCell(strconv.Itoa(st.Runs)),
			TextCell(strconv.Itoa(st.Machines)), timeCell(st.First), timeCell(st.Last)})
	}
	return []Block{{Table: t, In: AllFormats | InCSV}}
}

// HistorySeries is one series of a history document, with what its
// figures (and its plot) need.
type HistorySeries struct {
	M   *result.Measurement
	Det *result.HistoryDetail
	// Medians are the run medians (the metric's values), one per run.
	Medians []float64
}

// NewHistorySeries returns the series of measurement m of a history
// document, or an error when m is not one (its runs and medians differ in
// number).
func NewHistorySeries(m *result.Measurement) (*HistorySeries, error) {
	det, met := m.Detail.History, m.Metric(m.Primary)
	if det == nil || met == nil || len(met.Values) != len(det.Runs) {
		return nil, fmt.Errorf("report: measurement %q of the history document is not a series of runs: pass the document chrono history wrote", m.Name)
	}
	return &HistorySeries{M: m, Det: det, Medians: met.Values}, nil
}

// median is run i's median for people: with the digits its samples know
// it to (a binned run's, whose samples the store did not keep: at most
// unit.MaxSignificant).
func (s *HistorySeries) median(i int, o Options) Cell {
	p := unit.Precision{}
	if vals := s.Det.Runs[i].Values; len(vals) > 0 {
		p = NewSeries(&result.Metric{Unit: s.Det.Unit, Values: vals}).AtQuantile(0.5)
	}
	return FigureCell(s.Medians[i], s.Det.Unit, p, o.Unit)
}

// segment returns the run medians of the segment of change k's side
// (before or after it), up to the neighbouring changes.
func (s *HistorySeries) segment(k int, after bool) []float64 {
	chs := s.Det.Changes
	lo, hi := 0, chs[k].Index
	if k > 0 {
		lo = chs[k-1].Index
	}
	if after {
		lo, hi = chs[k].Index, len(s.Medians)
		if k+1 < len(chs) {
			hi = chs[k+1].Index
		}
	}
	return s.Medians[lo:hi]
}

// segmentMedian is the median v of run medians seg, with the digits they
// know it to.
func (s *HistorySeries) segmentMedian(v float64, seg []float64, o Options) string {
	p := NewSeries(&result.Metric{Unit: s.Det.Unit, Values: seg}).AtQuantile(0.5)
	return Figure(v, s.Det.Unit, p, o.Unit)
}

// machineText names the machine of the series.
func (s *HistorySeries) machineText() string {
	switch {
	case s.Det.Merged || s.Det.Machine == nil:
		return "every machine"
	case s.Det.Machine.Hash == "":
		return "an unknown machine (no environment recorded)"
	}
	return "machine " + s.Det.Machine.String()
}

// runsBlock is the table of every run of the series (show, export).
func (s *HistorySeries) runsBlock(o Options) Block {
	heading := fmt.Sprintf("%s, %s (%s): %s", s.M.Name, s.Det.Metric, s.Det.Unit, plural.Count(len(s.Det.Runs), "run"))
	if !s.Det.Merged {
		heading += " on " + s.machineText()
	}
	t := &Table{Columns: []Column{{Name: "run", Numeric: true}, {Name: "time"}, {Name: "commit"}, {Name: "branch"}, {Name: "machine"},
		{Name: "median", Numeric: true}, {Name: "n", Numeric: true}, {Name: "tags"}}}
	for i, r := range s.Det.Runs {
		t.Rows = append(t.Rows, []Cell{TextCell(strconv.FormatInt(r.Run, 10)), timeCell(r.Time), TextCell(commitText(r)), TextCell(orDash(r.Branch)),
			TextCell(orDash(r.Machine)), s.median(i, o), TextCell(strconv.Itoa(r.N)), TextCell(tagsText(r.Tags))})
	}
	return Block{Heading: heading, Table: t}
}

// trendRows is how many runs trend shows in full before it shortens the
// table to the runs around each change and the newest ones.
const trendRows = 40

// rowsToShow picks the rows of a trend table: all of n when they are few
// (or all is set), else the first run, the two runs on either side of
// each change and the newest 10 runs.
func rowsToShow(n int, chs []result.HistoryChange, all bool) []bool {
	show := make([]bool, n)
	if all || n <= trendRows {
		for i := range show {
			show[i] = true
		}
		return show
	}
	show[0] = true
	for _, c := range chs {
		for i := max(0, c.Index-2); i < min(n, c.Index+2); i++ {
			show[i] = true
		}
	}
	for i := max(0, n-10); i < n; i++ {
		show[i] = true
	}
	return show
}

// trendBlock is a series for trend: a heading, its sparkline with the
// smallest and largest run median, one row per run (the changes marked;
// only the runs around the changes and the newest when there are many,
// unless --all) and a note when there is no change.
func (s *HistorySeries) trendBlock(run *result.HistoryRun, o Options) Block {
	b := Block{Heading: fmt.Sprintf("%s, %s: %s on %s", s.M.Name, s.Det.Metric, plural.Count(len(s.Det.Runs), "run"), s.machineText())}
	if len(s.Medians) == 0 {
		b.Lines = []string{"  no runs (check --since and --machine)"}
		return b
	}
	lo, hi := argMin(s.Medians), argMax(s.Medians)
	b.Lines = []string{fmt.Sprintf("  %s  %s … %s (run medians in time order)", Sparkline(s.Medians, 60, o), s.median(lo, o).Text, s.median(hi, o).Text)}
	at := map[int]result.HistoryChange{}
	for _, c := range s.Det.Changes {
		at[c.Index] = c
	}
	t := &Table{Columns: []Column{{Name: ""}, {Name: "time"}, {Name: "commit"}, {Name: "median", Numeric: true}, {Name: "n", Numeric: true}, {Name: ""}}}
	show := rowsToShow(len(s.Det.Runs), s.Det.Changes, run.AllRuns)
	for i, r := range s.Det.Runs {
		if !show[i] {
			if i == 0 || show[i-1] {
				t.Rows = append(t.Rows, []Cell{TextCell(""), TextCell("…")})
			}
			continue
		}
		mark, note := " ", ""
		if c, ok := at[i]; ok {
			mark, note = "▶", fmt.Sprintf("change: %s× (p = %s)", unit.Ratio(c.Ratio, c.Lo, c.Hi), unit.PValue(c.P))
			if c.Exact {
				note = fmt.Sprintf("change: %s× (exact)", exactRatio(c.Ratio))
			}
		}
		t.Rows = append(t.Rows, []Cell{TextCell(mark), timeCell(r.Time), TextCell(commitText(r)), s.median(i, o), TextCell(strconv.Itoa(r.N)), TextCell(note)})
	}
	b.Table = t
	if len(s.Det.Changes) == 0 {
		b.Notes = []string{"  no change point (" + detectorText(run.Detector) + ")"}
	}
	return b
}

// detectorText names the detection and its level.
func detectorText(det *result.HistoryDetector) string {
	level := 0.05
	if det != nil && det.Significance > 0 {
		level = det.Significance
	}
	return "E-divisive means, permutation test at p ≤ " + strconv.FormatFloat(level, 'g', -1, 64)
}

// checkBlock is a series with changes for check: a heading and a row per
// change (its commit range, the segments' medians and run counts, the
// ratio with its interval, p and the verdict).
func (s *HistorySeries) checkBlock(run *result.HistoryRun, o Options) Block {
	conf := 0.95
	if run.Detector != nil && run.Detector.Confidence > 0 {
		conf = run.Detector.Confidence
	}
	t := &Table{Columns: []Column{{Name: "commits"}, {Name: "before"}, {Name: "after"}, {Name: "ratio"}, {Name: unit.Percent(conf) + " CI"}, {Name: "p"}, {Name: "verdict"}}}
	for k, c := range s.Det.Changes {
		t.Rows = append(t.Rows, []Cell{
			TextCell(ShortCommit(c.BeforeCommit) + ".." + ShortCommit(c.AfterCommit)),
			TextCell(s.segmentMedian(c.MedianBefore, s.segment(k, false), o) + " (" + plural.Count(c.RunsBefore, "run") + ")"),
			TextCell(s.segmentMedian(c.MedianAfter, s.segment(k, true), o) + " (" + plural.Count(c.RunsAfter, "run") + ")"),
			TextCell(unit.Ratio(c.Ratio, c.Lo, c.Hi)),
			TextCell("[" + unit.Ratio(c.Lo, c.Lo, c.Hi) + ", " + unit.Ratio(c.Hi, c.Lo, c.Hi) + "]"),
			TextCell(unit.PValue(c.P)), TextCell(c.Verdict)})
		if c.Exact {
			r := t.Rows[len(t.Rows)-1]
			r[3], r[4], r[5] = TextCell(exactRatio(c.Ratio)), TextCell("exact"), TextCell("no test")
		}
	}
	return Block{Heading: fmt.Sprintf("%s, %s on %s: %s, %s", s.M.Name, s.Det.Metric, s.machineText(), plural.Count(len(s.Det.Runs), "run"),
		plural.Count(len(s.Det.Changes), "change")), Table: t}
}

// traceBlocks are where the time of each regression of the series went
// (result.HistoryChange.Trace): its differential profile, laid out as
// chrono report --baseline lays out one (ProfileTraceBlock), or the one
// line that says why there is none.
func (s *HistorySeries) traceBlocks() []Block {
	var out []Block
	for _, c := range s.Det.Changes {
		if c.Trace == nil {
			continue
		}
		head := "where the time went: " + s.M.Name + ", " + s.Det.Metric + " (" + ShortCommit(c.BeforeCommit) + ".." + ShortCommit(c.AfterCommit) + ")"
		if c.Trace.Total == nil {
			out = append(out, Block{Lines: []string{head + ": " + c.Trace.Note}})
			continue
		}
		out = append(out, ProfileTraceBlock(head, c.Trace))
	}
	return out
}

// checkSummary is check's last line: what was checked and found.
func checkSummary(run *result.HistoryRun) string {
	c := run.Check
	if c == nil {
		c = &result.HistoryCheck{}
	}
	det := run.Detector
	if det == nil {
		det = &result.HistoryDetector{}
	}
	return fmt.Sprintf("%d series checked, %d with changes, %d whose newest change is a regression beyond %s%% (%s, %d permutations, segments of at least %s)",
		c.Checked, c.Changed, c.Regressed, strconv.FormatFloat(c.Threshold*100, 'g', -1, 64), detectorText(det), det.Permutations, plural.Count(det.MinSegment, "run"))
}

// csvRows are the series' runs as export's CSV records: exact medians,
// times in RFC 3339 (UTC, to the nanosecond), dirty as true, false or
// empty when unknown.
func (s *HistorySeries) csvRows() [][]Cell {
	var rows [][]Cell
	for i, r := range s.Det.Runs {
		dirty := ""
		if r.Dirty != nil {
			dirty = strconv.FormatBool(*r.Dirty)
		}
		rows = append(rows, []Cell{TextCell(s.M.Name), TextCell(s.Det.Metric), TextCell(s.Det.Unit), TextCell(strconv.FormatInt(r.Run, 10)),
			timeCell(r.Time), TextCell(r.Commit), TextCell(r.Branch), TextCell(dirty), TextCell(r.Machine),
			{Text: ExactNum(s.Medians[i]), Raw: ExactNum(s.Medians[i])}, TextCell(strconv.Itoa(r.N))})
	}
	return rows
}

// timeCell is a run's time: to the second in UTC for people, RFC 3339 to
// the nanosecond for machines.
func timeCell(t time.Time) Cell {
	return Cell{Text: t.UTC().Format("2006-01-02 15:04:05Z"), Raw: t.UTC().Format(time.RFC3339Nano)}
}

// ShortCommit is a commit's first 10 hex digits, or "-" when unknown.
func ShortCommit(commit string) string {
	if commit == "" {
		return "-"
	}
	if len(commit) > 10 {
		return commit[:10]
	}
	return commit
}

func commitText(r result.HistoryPoint) string {
	c := ShortCommit(r.Commit)
	if r.Dirty != nil && *r.Dirty {
		c += "+dirty"
	}
	return c
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func tagsText(t map[string]string) string {
	var kv []string
	for k, v := range t {
		kv = append(kv, k+"="+v)
	}
	slices.Sort(kv)
	if len(kv) == 0 {
		return "-"
	}
	return strings.Join(kv, ",")
}

// argMin and argMax return the index of the first smallest and largest
// value of xs (not empty; NaNs are skipped).
func argMin(xs []float64) int {
	k := 0
	for i, x := range xs {
		if x < xs[k] || math.IsNaN(xs[k]) {
			k = i
		}
	}
	return k
}

func argMax(xs []float64) int {
	k := 0
	for i, x := range xs {
		if x > xs[k] || math.IsNaN(xs[k]) {
			k = i
		}
	}
	return k
}

// PageBlocks are what a series' plot on the HTML page needs beside it:
// the table of its changes (commits, the segments' medians, the ratio
// with its interval, p, the verdict), the differential profile of each
// regression (traceBlocks), and the runs around each change
// (every run when they are few), dated and with their commits.
func (s *HistorySeries) PageBlocks(run *result.HistoryRun, o Options) []Block {
	var bs []Block
	if len(s.Det.Changes) > 0 {
		b := s.checkBlock(run, o)
		b.Heading = "change points of " + s.M.Name + ", " + s.Det.Metric + " (" + detectorText(run.Detector) + ")"
		bs = append(bs, b)
		bs = append(bs, s.traceBlocks()...)
	}
	const around, few = 3, 20
	show := make([]bool, len(s.Det.Runs))
	for i := range show {
		show[i] = len(show) <= few
	}
	for _, c := range s.Det.Changes {
		for i := max(0, c.Index-around); i < min(len(show), c.Index+around); i++ {
			show[i] = true
		}
	}
	at := map[int]result.HistoryChange{}
	for _, c := range s.Det.Changes {
		at[c.Index] = c
	}
	t := &Table{Columns: []Column{{Name: "run", Numeric: true}, {Name: "time"}, {Name: "commit"}, {Name: "median", Numeric: true}, {Name: "n", Numeric: true}, {Name: ""}}}
	for i, r := range s.Det.Runs {
		if !show[i] {
			if i > 0 && show[i-1] {
				t.Rows = append(t.Rows, []Cell{TextCell("…")})
			}
			continue
		}
		note := ""
		if c, ok := at[i]; ok {
			note = fmt.Sprintf("▶ change: %s× (p = %s)", unit.Ratio(c.Ratio, c.Lo, c.Hi), unit.PValue(c.P))
			if c.Exact {
				note = fmt.Sprintf("▶ change: %s× (exact)", exactRatio(c.Ratio))
			}
		}
		t.Rows = append(t.Rows, []Cell{TextCell(strconv.Itoa(i + 1)), timeCell(r.Time), TextCell(commitText(r)), s.median(i, o), TextCell(strconv.Itoa(r.N)), TextCell(note)})
	}
	heading := "runs of " + s.M.Name + ", " + s.Det.Metric
	if len(show) > few {
		heading += " around each change"
	}
	return append(bs, Block{Heading: heading, Table: t})
}

// exactRatio is an exact ratio to four decimals, which show a change of
// a hundredth of a percent (1.0097).
func exactRatio(r float64) string { return unit.Plain(r, unit.Precision{Resolution: 1e-4}) }
