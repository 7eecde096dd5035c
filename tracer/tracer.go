package tracer

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	rtrace "runtime/trace"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chronograph/chronograph/clock"
)

// ClockChoice selects the stamp source of a Tracer.
type ClockChoice int

const (
	// ClockAuto uses the TSC where it is available and invariant (its
	// frequency from clock.TSCInfo), else the monotonic clock.
	ClockAuto ClockChoice = iota
	// ClockTSC insists on the TSC: New fails where it is unavailable or
	// not known to be invariant.
	ClockTSC
	// ClockMonotonic uses Go's monotonic clock (clock.Mono, about
	// 25 ns a read on Linux) even where the TSC is usable.
	ClockMonotonic
)

// defaultRingEvents is the ring size per lane and per P when
// Options.RingEvents is zero: 32 KiB of memory (32 bytes an event).
const defaultRingEvents = 1024

// maxRingEvents bounds a ring: 2^24 events are 512 MiB.
const maxRingEvents = 1 << 24

// Options configure a Tracer. The zero value is valid.
type Options struct {
	// RingEvents is the number of events each ring keeps (rounded up to a
	// power of two; default 1024). There is one ring per P
	// (GOMAXPROCS) and one per Lane; each costs 32 bytes per event. When
	// a ring is full its oldest events are overwritten (a flight
	// recorder).
	RingEvents int
	// Clock selects the stamp source (default ClockAuto).
	Clock ClockChoice
	// RuntimeRegions also emits a runtime/trace region for every span, so
	// that `go tool trace` shows the same spans. Off by default: it adds
	// the cost of trace.StartRegion and Region.End to every span (a few ns
	// when no execution trace is running; while one runs, about a
	// microsecond and an allocation per region; measure with
	// BenchmarkRuntimeRegion).
	RuntimeRegions bool
	// Marker, when set, receives a line per span begin and end (see
	// OpenMarker): the spans then line up with the kernel's
	// scheduler events in perf or trace-cmd. Each marker line is a write
	// system call, about 1-3 µs.
	Marker *Marker
	// Trigger, when set, dumps the events around any span longer than a
	// threshold (see Trigger).
	Trigger *Trigger
}

// stampClock is how a Tracer reads and converts its stamps.
type stampClock struct {
	tsc  bool       // stamps are TSC ticks (else monotonic ns)
	info clock.Info // the TSC's frequency, when tsc
	desc string     // the source, named for the output
}

// toNanos converts a stamp difference to nanoseconds.
func (c *stampClock) toNanos(d uint64) uint64 {
	if !c.tsc {
		return d
	}
	return c.info.ToNanos(d)
}

// fromNanos converts nanoseconds to a stamp difference (rounding down,
// saturating).
func (c *stampClock) fromNanos(ns uint64) uint64 {
	if !c.tsc {
		return ns
	}
	hi, lo := bits.Mul64(ns, c.info.Hz)
	if hi >= 1e9 {
		return math.MaxUint64
	}
	q, _ := bits.Div64(hi, lo, 1e9)
	return q
}

// chooseClock decides the stamp source for choice.
func chooseClock(choice ClockChoice) (stampClock, error) {
	mono := stampClock{desc: "monotonic: Go's monotonic clock (time.Since), ns"}
	if choice == ClockMonotonic {
		return mono, nil
	}
	why := ""
	if ok, reason := clock.TSCAvailable(); !ok {
		why = reason
	} else if info, err := clock.TSCInfo(); err != nil {
		why = err.Error()
	} else if info.Invariant == nil || !*info.Invariant {
		why = "the TSC is not known to be invariant (CPUID 0x80000007 EDX[8])"
	} else {
		return stampClock{tsc: true, info: info,
			desc: fmt.Sprintf("tsc: invariant timestamp counter at %.6f MHz (%s, ±%.2g ppm)", float64(info.Hz)/1e6, info.Source, info.ErrorPPM)}, nil
	}
	if choice == ClockTSC {
		return stampClock{}, fmt.Errorf("tracer: the TSC cannot be used: %s (use ClockAuto or ClockMonotonic)", why)
	}
	mono.desc += " (TSC not used: " + why + ")"
	return mono, nil
}

// Tracer records spans, instants and counters into fixed-size rings: one
// per P for the methods of Tracer itself, one per Lane for a Lane's
// methods. Recording never allocates, never locks (outside -race builds)
// and never blocks. A nil *Tracer records nothing, so tracing can be
// switched off by leaving it nil.
type Tracer struct {
	clk      stampClock
	origin   uint64    // stamp at New
	wall     time.Time // wall clock at New
	events   int       // ring size requested
	rings    atomic.Pointer[[]*ring]
	regions  bool
	marker   *Marker
	extras   bool // regions or marker: Begin and End take the slow path
	trig     *trigger
	mu       sync.Mutex // guards lanes and growing rings
	lanes    []*Lane
	nextLane int32
}

// New returns a Tracer. With ClockAuto or ClockTSC its first call in the
// process may take about 100 ms to calibrate the TSC (clock.TSCInfo).
func New(o Options) (*Tracer, error) {
	clk, err := chooseClock(o.Clock)
	if err != nil {
		return nil, err
	}
	return newTracer(o, clk)
}

func newTracer(o Options, clk stampClock) (*Tracer, error) {
	if o.RingEvents < 0 || o.RingEvents > maxRingEvents {
		return nil, fmt.Errorf("tracer: RingEvents %d is out of range: use 1 to %d (0 means %d)", o.RingEvents, maxRingEvents, defaultRingEvents)
	}
	if o.RingEvents == 0 {
		o.RingEvents = defaultRingEvents
	}
	t := &Tracer{clk: clk, events: o.RingEvents, regions: o.RuntimeRegions, marker: o.Marker}
	t.extras = t.regions || t.marker != nil
	t.wall = time.Now()
	t.origin = t.now()
	rs := make([]*ring, runtime.GOMAXPROCS(0))
	for i := range rs {
		rs[i] = newRing(o.RingEvents, int32(-1-i))
	}
	t.rings.Store(&rs)
	if o.Trigger != nil {
		tg, err := newTrigger(t, *o.Trigger)
		if err != nil {
			return nil, err
		}
		t.trig = tg
	}
	return t, nil
}

// Close stops the trigger's goroutine, if any. The Tracer's events stay
// readable with Snapshot. Close does not close the Marker.
func (t *Tracer) Close() {
	if t != nil && t.trig != nil {
		t.trig.stop()
	}
}

// Clock names the stamp source, as written into dumps.
func (t *Tracer) Clock() string { return t.clk.desc }

// now reads a stamp: RDTSC (about 10 ns) or the monotonic clock (about
// 25 ns).
func (t *Tracer) now() uint64 {
	if t.clk.tsc {
		return clock.TSC()
	}
	return monoNow()
}

// monoNow is kept out of line so that now stays small enough to inline.
//
//go:noinline
func monoNow() uint64 { return uint64(int64(clock.Mono())) }

// putP records an event into the ring of the calling goroutine's P,
// reading the stamp while pinned, so each per-P ring is in stamp order.
// (Instant, Counter and Span.End repeat its body to save a call.)
func (t *Tracer) putP(kind uint32, name Name, end, flow uint64) {
	pid := procPin()
	if rs := *t.rings.Load(); uint(pid) < uint(len(rs)) {
		rs[pid].put(kind, name, t.now(), end, flow)
		procUnpin(pid)
		return
	}
	procUnpin(pid)
	t.putGrow(kind, name, t.now(), end, flow)
}

// putGrow is putP's slow path, after GOMAXPROCS grew since New.
func (t *Tracer) putGrow(kind uint32, name Name, start, end, flow uint64) {
	for {
		pid := procPin()
		rs := *t.rings.Load()
		if pid < len(rs) {
			rs[pid].put(kind, name, start, end, flow)
			procUnpin(pid)
			return
		}
		procUnpin(pid)
		t.grow(pid)
	}
}

// grow adds per-P rings up to index pid.
func (t *Tracer) grow(pid int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	old := *t.rings.Load()
	if pid < len(old) {
		return
	}
	rs := make([]*ring, pid+1)
	copy(rs, old)
	for i := len(old); i < len(rs); i++ {
		rs[i] = newRing(t.events, int32(-1-i))
	}
	t.rings.Store(&rs)
}

// Span is an open span returned by Begin; End records it. A Span is a
// value: it does not allocate.
type Span struct {
	t      *Tracer
	r      *ring // the Lane's ring, or nil for the per-P rings
	region *rtrace.Region
	start  uint64
	flow   uint64
	name   Name
}

// Begin opens a span named n on the calling P's ring; the span is
// recorded when End is called, as one event holding both stamps (so a
// span still open at a dump is not in it). Cost: one stamp read (about
// 10 ns with the TSC); Begin+End together cost about 30-40 ns here.
func (t *Tracer) Begin(n Name) Span { return t.BeginFlow(n, 0) }

// BeginFlow is Begin for a span that belongs to flow id flow (0: none).
// Events with the same flow id are linked in the dump (a request passing
// through a pipeline of goroutines).
func (t *Tracer) BeginFlow(n Name, flow uint64) Span {
	if t == nil || n == 0 {
		return Span{}
	}
	if t.extras {
		return t.beginExtras(nil, n, flow)
	}
	return Span{t: t, name: n, flow: flow, start: t.now()}
}

// beginExtras is Begin with runtime/trace regions or a marker.
func (t *Tracer) beginExtras(r *ring, n Name, flow uint64) Span {
	s := Span{t: t, r: r, name: n, flow: flow}
	if t.regions {
		s.region = rtrace.StartRegion(context.Background(), n.String())
	}
	if t.marker != nil {
		t.marker.begin(n)
	}
	s.start = t.now()
	return s
}

// End records the span: one stamp read and one ring store (the per-event
// cost that BenchmarkEvent measures; see the package doc). End on a zero
// Span does nothing.
func (s Span) End() {
	t := s.t
	if t == nil {
		return
	}
	var end uint64
	if s.r != nil {
		end = t.now()
		s.r.put(kindSpan, s.name, s.start, end, s.flow)
	} else {
		pid := procPin()
		end = t.now()
		if rs := *t.rings.Load(); uint(pid) < uint(len(rs)) {
			rs[pid].put(kindSpan, s.name, s.start, end, s.flow)
			procUnpin(pid)
		} else {
			procUnpin(pid)
			t.putGrow(kindSpan, s.name, s.start, end, s.flow)
		}
	}
	if t.extras {
		s.endExtras()
	}
	if t.trig != nil && end-s.start > t.trig.ticks {
		t.trig.fire(s.name, end)
	}
}

// endExtras ends the span's runtime/trace region and marker.
func (s Span) endExtras() {
	if s.region != nil {
		s.region.End()
	}
	if s.t.marker != nil {
		s.t.marker.end(s.name)
	}
}

// Instant records an instant event named n with a payload (any 64-bit
// value the program chooses: a size, an id, a status) on the calling P's
// ring: one stamp read and one ring store while the goroutine is pinned to
// its P (about 10-12 ns with the TSC here; no allocation, no lock).
func (t *Tracer) Instant(n Name, payload uint64) { t.InstantFlow(n, 0, payload) }

// InstantFlow is Instant for an event of flow id flow.
func (t *Tracer) InstantFlow(n Name, flow, payload uint64) {
	if t == nil || n == 0 {
		return
	}
	pid := procPin()
	if rs := *t.rings.Load(); uint(pid) < uint(len(rs)) {
		rs[pid].put(kindInstant, n, t.now(), payload, flow)
		procUnpin(pid)
		return
	}
	procUnpin(pid)
	t.putGrow(kindInstant, n, t.now(), payload, flow)
}

// Counter records the value of counter n (a queue length, bytes in use)
// on the calling P's ring; it costs what Instant costs.
func (t *Tracer) Counter(n Name, value float64) {
	if t == nil || n == 0 {
		return
	}
	t.putP(kindCounter, n, math.Float64bits(value), 0)
}

// Lane is a ring owned by one goroutine at a time, shown as its own lane
// (thread) in the dump: spans recorded through a Lane nest exactly, where
// spans recorded through the Tracer's per-P rings are shown per P. A Lane
// is not safe for concurrent use: give each goroutine its own (or hand a
// Lane from one goroutine to the next with a synchronizing operation).
type Lane struct {
	t    *Tracer
	r    *ring
	name string
}

// Lane returns a new Lane named name with its own ring of
// Options.RingEvents events. It allocates the ring: make lanes once per
// long-lived goroutine, not per request. A nil Tracer returns a nil Lane,
// which records nothing.
func (t *Tracer) Lane(name string) *Lane {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.nextLane++
	l := &Lane{t: t, r: newRing(t.events, t.nextLane), name: name}
	t.lanes = append(t.lanes, l)
	return l
}

// Begin opens a span on the lane (see Tracer.Begin).
func (l *Lane) Begin(n Name) Span { return l.BeginFlow(n, 0) }

// BeginFlow opens a span of flow id flow on the lane.
func (l *Lane) BeginFlow(n Name, flow uint64) Span {
	if l == nil || n == 0 {
		return Span{}
	}
	t := l.t
	if t.extras {
		return t.beginExtras(l.r, n, flow)
	}
	return Span{t: t, r: l.r, name: n, flow: flow, start: t.now()}
}

// Instant records an instant event with a payload on the lane: one stamp
// read and one ring store (about 10 ns with the TSC here).
func (l *Lane) Instant(n Name, payload uint64) { l.InstantFlow(n, 0, payload) }

// InstantFlow records an instant event of flow id flow on the lane.
func (l *Lane) InstantFlow(n Name, flow, payload uint64) {
	if l == nil || n == 0 {
		return
	}
	l.r.put(kindInstant, n, l.t.now(), payload, flow)
}

// Counter records a counter value on the lane (the cost of Instant).
func (l *Lane) Counter(n Name, value float64) {
	if l == nil || n == 0 {
		return
	}
	l.r.put(kindCounter, n, l.t.now(), math.Float64bits(value), 0)
}

// errNilTracer is returned by the dump functions of a nil Tracer.
var errNilTracer = errors.New("tracer: nil Tracer: create one with tracer.New")
