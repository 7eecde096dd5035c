package tracer

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"
)

// Kind is the kind of a recorded event.
type Kind string

// Event kinds of a Trace.
const (
	KindSpan    Kind = "span"    // a timed region: TS is its start, Dur its duration
	KindInstant Kind = "instant" // a point in time with a Payload
	KindCounter Kind = "counter" // a counter's Value at TS
)

// Event is one event of a Trace, with times in nanoseconds since the
// trace's origin.
type Event struct {
	Kind Kind
	Name string
	// Lane is the index of the event's lane in Trace.Lanes.
	Lane int
	// TS is the time of the event (a span's start), in ns since
	// Trace.Start; Dur is a span's duration in ns (0 for other kinds).
	TS, Dur int64
	// Flow links events across lanes (0: none).
	Flow uint64
	// Payload is an instant's payload; Value a counter's value.
	Payload uint64
	Value   float64
}

// End is the end of the event in ns since the trace's origin (TS for
// events without a duration).
func (e Event) End() int64 { return e.TS + e.Dur }

// LaneInfo describes one lane of a Trace.
type LaneInfo struct {
	// ID is the lane's thread id in the trace-event JSON: a Lane's
	// number (1, 2, ...) or 1000+P for the per-P rings.
	ID int
	// Name is the Lane's name, or "P3" for a per-P ring.
	Name string
}

// Trace is a dump: the events of every ring, in time order.
type Trace struct {
	// Clock names the stamp source (see Tracer.Clock).
	Clock string
	// Start is the wall-clock time of the trace's origin (TS 0).
	Start time.Time
	// Lanes lists the lanes; Event.Lane indexes it.
	Lanes []LaneInfo
	// Events are sorted by TS (then by lane, then longer spans first).
	Events []Event
	// Overwritten counts events lost to the rings' wrap-around (the
	// oldest ones) before the dump; RingEvents is the size of each ring.
	Overwritten uint64
	RingEvents  int
}

// perPLane is the lane ID of P p's ring.
func perPLane(p int) int { return 1000 + p }

// Snapshot copies every event still in the rings into a Trace, without
// stopping the writers. Events written while it copies may or may not be
// in it; a slot the writer may have been overwriting is left out (and
// counted in Overwritten). It allocates the Trace.
func (t *Tracer) Snapshot() (*Trace, error) {
	if t == nil {
		return nil, errNilTracer
	}
	tr := &Trace{Clock: t.clk.desc, Start: t.wall, RingEvents: t.events}
	t.mu.Lock()
	lanes := slices.Clone(t.lanes)
	t.mu.Unlock()
	var buf []slot
	add := func(r *ring, info LaneInfo) {
		var lost uint64
		buf, lost = r.copyTo(buf[:0])
		tr.Overwritten += lost
		if len(buf) == 0 {
			return
		}
		idx := len(tr.Lanes)
		tr.Lanes = append(tr.Lanes, info)
		for _, s := range buf {
			tr.Events = append(tr.Events, t.convert(s, idx))
		}
	}
	for _, l := range lanes {
		add(l.r, LaneInfo{ID: int(l.r.lane), Name: l.name})
	}
	for p, r := range *t.rings.Load() {
		add(r, LaneInfo{ID: perPLane(p), Name: fmt.Sprintf("P%d", p)})
	}
	sortEvents(tr.Events)
	return tr, nil
}

// sortEvents orders events by time, then lane, then longer spans first
// (so that a parent precedes the children that start with it).
func sortEvents(es []Event) {
	slices.SortStableFunc(es, func(a, b Event) int {
		return cmp.Or(cmp.Compare(a.TS, b.TS), cmp.Compare(a.Lane, b.Lane), cmp.Compare(b.Dur, a.Dur))
	})
}

// convert turns a ring slot into an Event of lane index lane.
func (t *Tracer) convert(s slot, lane int) Event {
	e := Event{Name: Name(s.name).String(), Lane: lane, Flow: s.flow, TS: t.sinceOrigin(s.start)}
	switch s.kind {
	case kindSpan:
		e.Kind = KindSpan
		if s.end > s.start {
			e.Dur = int64(min(t.clk.toNanos(s.end-s.start), math.MaxInt64))
		}
	case kindInstant:
		e.Kind, e.Payload = KindInstant, s.end
	case kindCounter:
		e.Kind, e.Value = KindCounter, math.Float64frombits(s.end)
	}
	return e
}

// sinceOrigin converts a stamp to signed ns since the tracer's origin.
// Stamps read on other CPUs just before New may precede it.
func (t *Tracer) sinceOrigin(stamp uint64) int64 {
	if stamp >= t.origin {
		return int64(min(t.clk.toNanos(stamp-t.origin), math.MaxInt64))
	}
	return -int64(min(t.clk.toNanos(t.origin-stamp), math.MaxInt64))
}
