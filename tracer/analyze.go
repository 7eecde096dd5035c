package tracer

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// SpanStats is the distribution of one span name's durations.
type SpanStats struct {
	Name string
	// Durations holds every span's duration in ns, in the order the spans
	// started.
	Durations []int64
	// Total is the sum of Durations (ns); Share is Total over the trace's
	// wall time. Spans that overlap (on several lanes, or nested in each
	// other) are all counted, so shares can add up to more than 1.
	Total int64
	Share float64
}

// Gap is a stretch of a lane without any event (no span open, no instant
// or counter): a stall, or time the lane spent outside traced code.
type Gap struct {
	From, To int64 // ns since the trace's origin
}

// Dur is the gap's length in ns.
func (g Gap) Dur() int64 { return g.To - g.From }

// LaneGaps are the longest gaps of one lane, longest first.
type LaneGaps struct {
	Lane string
	Gaps []Gap
}

// Endpoint names one end of a Between measurement: the events named Name,
// at their start, or at their end when End is set (spans only).
type Endpoint struct {
	Name string
	End  bool
}

// ParseEndpoint reads "NAME" (the event's time; a span's start) or
// "NAME:end" (a span's end). A name that itself ends in ":end" is taken
// whole when the trace has events of that name.
func ParseEndpoint(tr *Trace, s string) (Endpoint, error) {
	if s == "" {
		return Endpoint{}, fmt.Errorf("tracer: empty event name: give a span, instant or counter name, optionally with :end")
	}
	has := func(n string) bool {
		return slices.ContainsFunc(tr.Events, func(e Event) bool { return e.Name == n })
	}
	if has(s) {
		return Endpoint{Name: s}, nil
	}
	if n, ok := strings.CutSuffix(s, ":end"); ok && has(n) {
		return Endpoint{Name: n, End: true}, nil
	}
	return Endpoint{}, fmt.Errorf("tracer: the trace has no event named %q: its names are %s", s, strings.Join(eventNames(tr), ", "))
}

func eventNames(tr *Trace) []string {
	seen := map[string]bool{}
	var ns []string
	for _, e := range tr.Events {
		if !seen[e.Name] {
			seen[e.Name] = true
			ns = append(ns, e.Name)
		}
	}
	slices.Sort(ns)
	if len(ns) > 20 {
		ns = append(ns[:20], "...")
	}
	return ns
}

func (p Endpoint) String() string {
	if p.End {
		return p.Name + ":end"
	}
	return p.Name
}

// Interval is one A→B pair of a Between measurement.
type Interval struct {
	From, To int64  // ns since the trace's origin: the A event's and the B event's time
	Flow     uint64 // the flow id both share (per-flow pairing), else 0
}

// Between is the distribution of the time from each event A to the next
// event B.
type Between struct {
	A, B    Endpoint
	PerFlow bool
	// Intervals in the order of the A events.
	Intervals []Interval
	// Unmatched counts A events with no B after them (with PerFlow: none
	// of the same flow, or A has no flow id).
	Unmatched int
}

// point is one endpoint occurrence.
type point struct {
	t    int64
	idx  int // event index
	flow uint64
}

func points(tr *Trace, p Endpoint) []point {
	var ps []point
	for i, e := range tr.Events {
		if e.Name != p.Name || (p.End && e.Kind != KindSpan) {
			continue
		}
		t := e.TS
		if p.End {
			t = e.End()
		}
		ps = append(ps, point{t, i, e.Flow})
	}
	slices.SortStableFunc(ps, func(a, b point) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.idx, b.idx)) })
	return ps
}

// MeasureBetween pairs each event A with the first event B at or after it
// (after A itself when A and B are the same endpoint; several A events may
// pair with the same B, and a span's own end counts for "X" → "X:end") and
// returns the intervals. With perFlow, A pairs only with a B of its own
// (nonzero) flow id: the latency of each request through a pipeline.
func MeasureBetween(tr *Trace, a, b Endpoint, perFlow bool) Between {
	res := Between{A: a, B: b, PerFlow: perFlow}
	bs := points(tr, b)
	byFlow := map[uint64][]point{}
	if perFlow {
		for _, p := range bs {
			if p.flow != 0 {
				byFlow[p.flow] = append(byFlow[p.flow], p)
			}
		}
	}
	same := a == b
	for _, pa := range points(tr, a) {
		cand := bs
		if perFlow {
			if pa.flow == 0 {
				res.Unmatched++
				continue
			}
			cand = byFlow[pa.flow]
		}
		// First B at or after A's time; when A and B are the same
		// endpoint, the first occurrence after A itself.
		k := sort.Search(len(cand), func(i int) bool {
			c := cand[i]
			if same {
				return c.t > pa.t || (c.t == pa.t && c.idx > pa.idx)
			}
			return c.t >= pa.t
		})
		if k == len(cand) {
			res.Unmatched++
			continue
		}
		iv := Interval{From: pa.t, To: cand[k].t}
		if perFlow {
			iv.Flow = pa.flow
		}
		res.Intervals = append(res.Intervals, iv)
	}
	return res
}

// Summary is what `chrono trace` reports about a Trace.
type Summary struct {
	Clock string
	Start time.Time
	// From and To bound the trace's events (ns since the origin); Wall is
	// To - From.
	From, To, Wall int64
	Events         int
	Lanes          int
	Overwritten    uint64
	RingEvents     int
	// Spans, largest Total first.
	Spans []SpanStats
	// Gaps holds the longest gaps of each lane with at least two events.
	Gaps []LaneGaps
	// Between holds the requested A→B measurements.
	Between []Between
}

// SummaryOptions configure Summarize.
type SummaryOptions struct {
	// Gaps is the number of longest gaps kept per lane (default 3; < 0:
	// none).
	Gaps int
	// Between lists the A→B measurements to make.
	Between []Between
}

// Summarize computes the per-span distributions, the longest gaps of each
// lane, and the Between measurements (only A, B and PerFlow of each
// SummaryOptions.Between entry are read). It fails on an empty trace.
func Summarize(tr *Trace, o SummaryOptions) (Summary, error) {
	if len(tr.Events) == 0 {
		return Summary{}, fmt.Errorf("tracer: the trace has no events")
	}
	if o.Gaps == 0 {
		o.Gaps = 3
	}
	s := Summary{Clock: tr.Clock, Start: tr.Start, Events: len(tr.Events), Lanes: len(tr.Lanes), Overwritten: tr.Overwritten, RingEvents: tr.RingEvents}
	s.From, s.To = tr.Events[0].TS, tr.Events[0].End()
	byName := map[string]*SpanStats{}
	for _, e := range tr.Events {
		s.From, s.To = min(s.From, e.TS), max(s.To, e.End())
		if e.Kind != KindSpan {
			continue
		}
		st := byName[e.Name]
		if st == nil {
			st = &SpanStats{Name: e.Name}
			byName[e.Name] = st
		}
		st.Durations = append(st.Durations, e.Dur)
		st.Total += e.Dur
	}
	s.Wall = s.To - s.From
	for _, st := range byName {
		if s.Wall > 0 {
			st.Share = float64(st.Total) / float64(s.Wall)
		}
		s.Spans = append(s.Spans, *st)
	}
	slices.SortFunc(s.Spans, func(a, b SpanStats) int { return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(a.Name, b.Name)) })
	if o.Gaps > 0 {
		s.Gaps = longestGaps(tr, o.Gaps)
	}
	for _, b := range o.Between {
		s.Between = append(s.Between, MeasureBetween(tr, b.A, b.B, b.PerFlow))
	}
	return s, nil
}

// longestGaps returns the n longest gaps of each lane.
func longestGaps(tr *Trace, n int) []LaneGaps {
	perLane := make([][]Event, len(tr.Lanes))
	for _, e := range tr.Events {
		if e.Lane >= 0 && e.Lane < len(perLane) {
			perLane[e.Lane] = append(perLane[e.Lane], e)
		}
	}
	var out []LaneGaps
	for l, es := range perLane {
		if len(es) < 2 {
			continue
		}
		// es is in TS order (tr.Events is sorted); covered is the end of
		// the union of the events so far.
		var gaps []Gap
		covered := es[0].End()
		for _, e := range es[1:] {
			if e.TS > covered {
				gaps = append(gaps, Gap{covered, e.TS})
			}
			covered = max(covered, e.End())
		}
		slices.SortStableFunc(gaps, func(a, b Gap) int { return cmp.Or(cmp.Compare(b.Dur(), a.Dur()), cmp.Compare(a.From, b.From)) })
		if len(gaps) > n {
			gaps = gaps[:n]
		}
		if len(gaps) > 0 {
			out = append(out, LaneGaps{Lane: tr.Lanes[l].Name, Gaps: gaps})
		}
	}
	return out
}
