package tracer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
)

// fakeTracer returns a Tracer whose stamps are TSC ticks at hz, with its
// origin at stamp origin; tests write events with chosen stamps through
// put/putP, so no real clock is involved.
func fakeTracer(t *testing.T, events int, hz, origin uint64) *Tracer {
	t.Helper()
	clk := stampClock{tsc: true, info: clock.Info{Hz: hz, Source: "test"}, desc: "tsc: test"}
	tr, err := newTracer(Options{RingEvents: events}, clk)
	if err != nil {
		t.Fatal(err)
	}
	tr.origin = origin
	tr.wall = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return tr
}

var (
	nParse   = Intern("parse")
	nSend    = Intern("send")
	nRecv    = Intern("recv")
	nQueue   = Intern("queue")
	nOuter   = Intern("outer")
	nInner   = Intern("inner")
	nUnknown = Name(1 << 30)
)

func TestIntern(t *testing.T) {
	if Intern("parse") != nParse {
		t.Error("Intern of the same string gave a new Name")
	}
	if nParse.String() != "parse" {
		t.Errorf("String = %q", nParse.String())
	}
	if got := nUnknown.String(); got != fmt.Sprintf("name#%d", 1<<30) {
		t.Errorf("unknown name = %q", got)
	}
}

func TestRingWrapAround(t *testing.T) {
	r := newRing(5, 1) // rounded up to 8
	if len(r.buf) != 8 {
		t.Fatalf("ring of 5 has %d slots, want 8", len(r.buf))
	}
	for i := range uint64(20) {
		r.put(kindInstant, nParse, 100+i, i, 0)
	}
	got, keep := r.copyTo(nil)
	// 20 written into 8 slots: indices 12..19 are in the ring, and 12's
	// slot is the one a writer of index 20 would be overwriting, so a
	// copy that cannot stop the writer drops it.
	if keep != 13 {
		t.Errorf("first kept index = %d, want 13", keep)
	}
	if len(got) != 7 {
		t.Fatalf("copied %d events, want 7", len(got))
	}
	for i, s := range got {
		if want := uint64(13 + i); s.end != want || s.start != 100+want {
			t.Errorf("event %d: payload %d stamp %d, want %d and %d (oldest first)", i, s.end, s.start, want, 100+want)
		}
	}
	// Fewer events than slots: all kept, nothing lost.
	r2 := newRing(8, 1)
	r2.put(kindInstant, nParse, 1, 1, 0)
	got, keep = r2.copyTo(nil)
	if len(got) != 1 || keep != 0 {
		t.Errorf("one event: got %d events, first index %d", len(got), keep)
	}
}

func TestKeepFrom(t *testing.T) {
	for _, c := range []struct{ from, h1, h2, size, want uint64 }{
		{0, 5, 5, 8, 0},     // writer did not move, ring not full
		{12, 20, 20, 8, 13}, // full ring: the writer may be writing index 20 into 12's slot
		{12, 20, 21, 8, 14}, // the writer wrote index 20 and may be writing 21 into 13's slot
		{12, 20, 23, 8, 16},
		{12, 20, 40, 8, 20}, // writer lapped the copy: nothing is safe
		{0, 5, 9, 8, 2},
	} {
		if got := keepFrom(c.from, c.h1, c.h2, c.size); got != c.want {
			t.Errorf("keepFrom(%d, %d, %d, %d) = %d, want %d", c.from, c.h1, c.h2, c.size, got, c.want)
		}
	}
}

func TestStampConversion(t *testing.T) {
	const hz = 3_000_000_000 // 3 ticks per ns
	tr := fakeTracer(t, 16, hz, 3000)
	lane := tr.Lane("L")
	lane.r.put(kindSpan, nParse, 3000+300, 3000+300+3_000_000_000, 7) // 100 ns in, lasting 1 s
	lane.r.put(kindInstant, nSend, 2700, 42, 0)                       // 100 ns before the origin
	lane.r.put(kindCounter, nQueue, 3000+4, math.Float64bits(2.5), 0)
	snap, err := tr.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	want := []Event{
		{Kind: KindInstant, Name: "send", TS: -100, Payload: 42},
		{Kind: KindCounter, Name: "queue", TS: 1, Value: 2.5}, // 4 ticks = 1.33 ns, rounded down
		{Kind: KindSpan, Name: "parse", TS: 100, Dur: 1e9, Flow: 7},
	}
	if len(snap.Events) != len(want) {
		t.Fatalf("got %d events: %+v", len(snap.Events), snap.Events)
	}
	for i, w := range want {
		if snap.Events[i] != w {
			t.Errorf("event %d = %+v, want %+v", i, snap.Events[i], w)
		}
	}
	if snap.Clock != "tsc: test" || snap.Lanes[0].Name != "L" || snap.Lanes[0].ID != 1 {
		t.Errorf("clock %q lanes %+v", snap.Clock, snap.Lanes)
	}
	c := stampClock{tsc: true, info: clock.Info{Hz: hz}}
	if got := c.fromNanos(1000); got != 3000 {
		t.Errorf("fromNanos(1000) = %d ticks, want 3000", got)
	}
	if got := c.fromNanos(math.MaxUint64); got != math.MaxUint64 {
		t.Errorf("fromNanos saturates: got %d", got)
	}
	mono := stampClock{}
	if mono.toNanos(123) != 123 || mono.fromNanos(123) != 123 {
		t.Error("monotonic stamps are nanoseconds")
	}
}

func TestChooseClock(t *testing.T) {
	c, err := chooseClock(ClockMonotonic)
	if err != nil || c.tsc || !strings.HasPrefix(c.desc, "monotonic") {
		t.Errorf("ClockMonotonic: %+v, %v", c, err)
	}
	c, err = chooseClock(ClockAuto)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := clock.TSCAvailable(); !ok && c.tsc {
		t.Error("ClockAuto chose an unavailable TSC")
	}
	if !c.tsc && !strings.Contains(c.desc, "TSC not used") {
		t.Errorf("a monotonic fallback must say why: %q", c.desc)
	}
}

func TestNilTracerRecordsNothing(t *testing.T) {
	var tr *Tracer
	tr.Begin(nParse).End()
	tr.Instant(nParse, 1)
	tr.Counter(nQueue, 1)
	tr.Close()
	var l *Lane = tr.Lane("x")
	l.Begin(nParse).End()
	l.Instant(nParse, 1)
	l.Counter(nQueue, 1)
	if _, err := tr.Snapshot(); err == nil {
		t.Error("Snapshot of a nil Tracer succeeded")
	}
}

func TestOptionsErrors(t *testing.T) {
	for _, o := range []Options{
		{RingEvents: -1},
		{RingEvents: maxRingEvents + 1},
		{Trigger: &Trigger{Longer: 0, Handle: func(*Trace, TriggerInfo) {}}},
		{Trigger: &Trigger{Longer: time.Millisecond, Before: -1, Handle: func(*Trace, TriggerInfo) {}}},
		{Trigger: &Trigger{Longer: time.Millisecond}},
	} {
		if _, err := newTracer(o, stampClock{}); err == nil || !strings.HasPrefix(err.Error(), "tracer: ") {
			t.Errorf("%+v: err = %v, want a tracer: error", o, err)
		}
	}
}

// TestRealRecording records through the public API with the real clock
// and checks structure only (no timing bounds).
func TestRealRecording(t *testing.T) {
	tr, err := New(Options{RingEvents: 64, Clock: ClockMonotonic})
	if err != nil {
		t.Fatal(err)
	}
	lane := tr.Lane("worker")
	outer := lane.BeginFlow(nOuter, 9)
	lane.Begin(nInner).End()
	lane.Instant(nSend, 5)
	outer.End()
	tr.Begin(nParse).End()
	tr.Counter(nQueue, 3)
	tr.InstantFlow(nRecv, 9, 6)
	snap, err := tr.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range snap.Events {
		count[e.Name]++
		if e.Dur < 0 {
			t.Errorf("%s: negative duration", e.Name)
		}
	}
	for _, n := range []string{"outer", "inner", "send", "parse", "queue", "recv"} {
		if count[n] != 1 {
			t.Errorf("%d %q events, want 1", count[n], n)
		}
	}
	var o, in Event
	for _, e := range snap.Events {
		switch e.Name {
		case "outer":
			o = e
		case "inner":
			in = e
		}
	}
	if in.TS < o.TS || in.End() > o.End() || o.Flow != 9 || snap.Lanes[o.Lane].Name != "worker" || in.Lane != o.Lane {
		t.Errorf("inner %+v not nested in outer %+v on lane worker", in, o)
	}
}

// TestConcurrentWriters runs writers on the per-P rings and on their own
// lanes while snapshots are taken; under -race it checks the locking of
// the race build, without it the lock-free copy. Every snapshot must hold
// well-formed events, and each lane's sequence numbers must increase.
func TestConcurrentWriters(t *testing.T) {
	tr, err := newTracer(Options{RingEvents: 256}, stampClock{desc: "monotonic"})
	if err != nil {
		t.Fatal(err)
	}
	const writers, perWriter = 4, 5000
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lane := tr.Lane(fmt.Sprintf("w%d", w))
			for i := range uint64(perWriter) {
				lane.Instant(nSend, i)
				tr.Instant(nRecv, uint64(w)<<32|i)
				sp := tr.BeginFlow(nParse, i+1)
				sp.End()
			}
		}()
	}
	stop := make(chan struct{})
	var snaps sync.WaitGroup
	snaps.Add(1)
	go func() {
		defer snaps.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			s, err := tr.Snapshot()
			if err != nil {
				t.Error(err)
				return
			}
			checkWellFormed(t, s)
		}
	}()
	wg.Wait()
	close(stop)
	snaps.Wait()
	s, err := tr.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	checkWellFormed(t, s)
	lanes := 0
	for _, l := range s.Lanes {
		if strings.HasPrefix(l.Name, "w") {
			lanes++
		}
	}
	if lanes != writers {
		t.Errorf("%d writer lanes in the final snapshot, want %d", lanes, writers)
	}
}

func checkWellFormed(t *testing.T, s *Trace) {
	t.Helper()
	last := map[int]uint64{}
	for _, e := range s.Events {
		switch e.Name {
		case "send":
			if e.Kind != KindInstant || e.Payload >= 5000 {
				t.Fatalf("torn send event %+v", e)
			}
			if p, ok := last[e.Lane]; ok && e.Payload <= p {
				t.Fatalf("lane %d: payload %d after %d", e.Lane, e.Payload, p)
			}
			last[e.Lane] = e.Payload
		case "recv":
			if e.Kind != KindInstant || e.Payload>>32 >= 4 || e.Payload&0xffffffff >= 5000 {
				t.Fatalf("torn recv event %+v", e)
			}
		case "parse":
			if e.Kind != KindSpan || e.Flow == 0 || e.Flow > 5000 || e.Dur < 0 {
				t.Fatalf("torn parse event %+v", e)
			}
		default:
			t.Fatalf("unexpected event %+v", e)
		}
	}
}

func TestGrowWithGOMAXPROCS(t *testing.T) {
	tr := fakeTracer(t, 8, 1e9, 0)
	n := len(*tr.rings.Load())
	tr.grow(n + 2)
	rs := *tr.rings.Load()
	if len(rs) != n+3 || rs[n+2] == nil || rs[n+2].lane != int32(-1-(n+2)) {
		t.Fatalf("grow: %d rings", len(rs))
	}
	rs[n+2].put(kindInstant, nSend, 5, 1, 0)
	s, _ := tr.Snapshot()
	if len(s.Lanes) != 1 || s.Lanes[0].Name != fmt.Sprintf("P%d", n+2) || s.Lanes[0].ID != perPLane(n+2) {
		t.Errorf("lanes %+v", s.Lanes)
	}
}

func TestTriggerWindow(t *testing.T) {
	old := triggerSleep
	triggerSleep = func(time.Duration) {}
	t.Cleanup(func() { triggerSleep = old })
	type dump struct {
		tr   *Trace
		info TriggerInfo
	}
	got := make(chan dump, 4)
	clk := stampClock{tsc: true, info: clock.Info{Hz: 1e9}, desc: "tsc: test"} // 1 tick = 1 ns
	tr, err := newTracer(Options{RingEvents: 64, Trigger: &Trigger{
		Name: nParse, Longer: 100, Before: 50, After: 20,
		Handle: func(tr *Trace, info TriggerInfo) { got <- dump{tr, info} },
	}}, clk)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.origin = 0
	if tr.trig.ticks != 100 {
		t.Fatalf("threshold = %d ticks, want 100", tr.trig.ticks)
	}
	lane := tr.Lane("L")
	other := tr.Lane("M")
	lane.r.put(kindInstant, nSend, 100, 1, 0)   // before the window [950, 1020]: dropped
	other.r.put(kindSpan, nRecv, 900, 960, 0)   // overlaps the window's start: kept
	lane.r.put(kindSpan, nParse, 800, 1000, 3)  // the slow span (200 ns), ends at 1000
	other.r.put(kindInstant, nSend, 1010, 2, 0) // inside: kept
	lane.r.put(kindCounter, nQueue, 1021, 0, 0) // after: dropped
	tr.trig.fire(nSend, 1000)                   // another name: ignored
	tr.trig.fire(nParse, 1000)
	var d dump
	select {
	case d = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the trigger did not dump (no timing is asserted: this waits for the goroutine only)")
	}
	if d.info.Name != "parse" || d.info.Dur != 200 || d.info.End != 1000 {
		t.Errorf("info = %+v", d.info)
	}
	var names []string
	for _, e := range d.tr.Events {
		names = append(names, fmt.Sprintf("%s@%d", e.Name, e.TS))
	}
	if want := "parse@800 recv@900 send@1010"; strings.Join(names, " ") != want {
		t.Errorf("window events = %s, want %s", strings.Join(names, " "), want)
	}
	if len(d.tr.Lanes) != 2 {
		t.Errorf("window lanes = %+v", d.tr.Lanes)
	}
	// While a dump is pending, further firings are only counted.
	tr.trig.pending.Store(true)
	tr.trig.fire(nParse, 1000)
	tr.trig.fire(nParse, 1000)
	if n := tr.trig.skipped.Load(); n != 2 {
		t.Errorf("skipped = %d, want 2", n)
	}
}

func TestSpanEndFiresTrigger(t *testing.T) {
	old := triggerSleep
	triggerSleep = func(time.Duration) {}
	t.Cleanup(func() { triggerSleep = old })
	got := make(chan TriggerInfo, 1)
	// A 1 ns threshold on the monotonic clock: any span of two distinct
	// reads exceeds it; the test only checks that End reaches the trigger.
	tr, err := newTracer(Options{Trigger: &Trigger{Longer: 1, Handle: func(_ *Trace, i TriggerInfo) {
		select {
		case got <- i:
		default:
		}
	}}}, stampClock{desc: "monotonic"})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for {
		sp := tr.Begin(nOuter)
		sp.start -= 10 // make the span at least 10 ns long whatever the clock
		sp.End()
		select {
		case i := <-got:
			if i.Name != "outer" || i.Dur < 10 {
				t.Errorf("info = %+v", i)
			}
			return
		case <-time.After(time.Millisecond):
		}
	}
}

// constructed is a two-lane trace with known answers.
func constructed() *Trace {
	return &Trace{
		Clock: "tsc: test", Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), RingEvents: 8,
		Lanes: []LaneInfo{{ID: 1, Name: "reader"}, {ID: 1003, Name: "P3"}},
		Events: []Event{
			{Kind: KindInstant, Name: "irq", Lane: 0, TS: 0, Payload: 1},
			{Kind: KindSpan, Name: "task", Lane: 1, TS: 5, Dur: 10, Flow: 1},
			{Kind: KindInstant, Name: "irq", Lane: 0, TS: 10, Flow: 2, Payload: 2},
			{Kind: KindSpan, Name: "task", Lane: 1, TS: 12, Dur: 1, Flow: 2},
			{Kind: KindInstant, Name: "irq", Lane: 0, TS: 20, Flow: 1, Payload: 3},
			{Kind: KindCounter, Name: "queue", Lane: 1, TS: 22, Value: 1.5},
			{Kind: KindSpan, Name: "task", Lane: 1, TS: 25, Dur: 1000, Flow: 1},
			{Kind: KindInstant, Name: "irq", Lane: 0, TS: 2000, Payload: 4},
		},
	}
}

func TestBetweenKnownAnswers(t *testing.T) {
	tr := constructed()
	ep := func(s string) Endpoint {
		p, err := ParseEndpoint(tr, s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		a, b      string
		perFlow   bool
		want      []int64
		unmatched int
	}{
		// irq at 0,10,20,2000; task starts at 5,12,25.
		{"irq", "task", false, []int64{5, 2, 5}, 1},
		// task ends at 15,13,1025: sorted 13,15,1025.
		{"irq", "task:end", false, []int64{13, 3, 1005}, 1},
		// per flow: irq@10 (flow 2) → task@12 (flow 2); irq@20 (flow 1) → task@25 (flow 1); irq@0, irq@2000 have no flow.
		{"irq", "task", true, []int64{2, 5}, 2},
		// the same endpoint: the period of irq.
		{"irq", "irq", false, []int64{10, 10, 1980}, 1},
		{"task", "task:end", false, []int64{8, 1, 1000}, 0},
	} {
		b := MeasureBetween(tr, ep(c.a), ep(c.b), c.perFlow)
		var got []int64
		for _, iv := range b.Intervals {
			got = append(got, iv.To-iv.From)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) || b.Unmatched != c.unmatched {
			t.Errorf("%s → %s (per flow %v): intervals %v unmatched %d, want %v and %d", c.a, c.b, c.perFlow, got, b.Unmatched, c.want, c.unmatched)
		}
	}
	if _, err := ParseEndpoint(tr, "nope"); err == nil || !strings.Contains(err.Error(), "irq, queue, task") {
		t.Errorf("unknown name: %v", err)
	}
}

func TestSummarize(t *testing.T) {
	tr := constructed()
	s, err := Summarize(tr, SummaryOptions{Gaps: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.From != 0 || s.To != 2000 || s.Wall != 2000 || s.Events != 8 || s.Lanes != 2 {
		t.Errorf("summary bounds %+v", s)
	}
	if len(s.Spans) != 1 || s.Spans[0].Name != "task" || s.Spans[0].Total != 1011 || fmt.Sprint(s.Spans[0].Durations) != "[10 1 1000]" ||
		s.Spans[0].Share != 1011.0/2000 {
		t.Errorf("spans %+v", s.Spans)
	}
	// reader: instants at 0,10,20,2000 → gaps 10,10,1980; P3: task 5-15, 12-13, counter 22, task 25-1025 → gaps 15-22, 22-25.
	want := "[{reader [{20 2000} {0 10}]} {P3 [{15 22} {22 25}]}]"
	if got := fmt.Sprint(s.Gaps); got != want {
		t.Errorf("gaps = %s, want %s", got, want)
	}
	if _, err := Summarize(&Trace{}, SummaryOptions{}); err == nil {
		t.Error("empty trace: no error")
	}
}

func TestChromeJSONFieldByField(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteChrome(&buf, constructed()); err != nil {
		t.Fatal(err)
	}
	var file struct {
		TraceEvents     []map[string]any `json:"traceEvents"`
		DisplayTimeUnit string           `json:"displayTimeUnit"`
		OtherData       map[string]any   `json:"otherData"`
	}
	dec := json.NewDecoder(&buf)
	dec.UseNumber()
	if err := dec.Decode(&file); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, buf.String())
	}
	if file.DisplayTimeUnit != "ns" {
		t.Errorf("displayTimeUnit = %q", file.DisplayTimeUnit)
	}
	od := file.OtherData
	if od["clock"] != "tsc: test" || od["start"] != "2026-01-02T03:04:05Z" || od["ring_events"] != json.Number("8") || od["overwritten"] != json.Number("0") || od["writer"] != "chronograph tracer" {
		t.Errorf("otherData = %v", od)
	}
	pid := json.Number(fmt.Sprint(os.Getpid()))
	type ev = map[string]any
	want := []ev{
		{"name": "process_name", "ph": "M", "ts": json.Number("0"), "pid": pid, "tid": json.Number("0"), "args": ev{"name": "chronograph tracer"}},
		{"name": "thread_name", "ph": "M", "ts": json.Number("0"), "pid": pid, "tid": json.Number("1"), "args": ev{"name": "reader"}},
		{"name": "thread_sort_index", "ph": "M", "ts": json.Number("0"), "pid": pid, "tid": json.Number("1"), "args": ev{"sort_index": json.Number("0")}},
		{"name": "thread_name", "ph": "M", "ts": json.Number("0"), "pid": pid, "tid": json.Number("1003"), "args": ev{"name": "P3"}},
		{"name": "thread_sort_index", "ph": "M", "ts": json.Number("0"), "pid": pid, "tid": json.Number("1003"), "args": ev{"sort_index": json.Number("1")}},
		{"name": "irq", "cat": "instant", "ph": "i", "s": "t", "ts": json.Number("0.000"), "pid": pid, "tid": json.Number("1"), "args": ev{"payload": json.Number("1")}},
		{"name": "task", "cat": "span", "ph": "X", "ts": json.Number("0.005"), "dur": json.Number("0.010"), "pid": pid, "tid": json.Number("1003"), "args": ev{"flow": "0x1"}},
		{"name": "flow", "cat": "flow", "ph": "s", "id": "0x1", "ts": json.Number("0.005"), "pid": pid, "tid": json.Number("1003")},
		{"name": "irq", "cat": "instant", "ph": "i", "s": "t", "ts": json.Number("0.010"), "pid": pid, "tid": json.Number("1"), "args": ev{"payload": json.Number("2"), "flow": "0x2"}},
		{"name": "flow", "cat": "flow", "ph": "s", "id": "0x2", "ts": json.Number("0.010"), "pid": pid, "tid": json.Number("1")},
		{"name": "task", "cat": "span", "ph": "X", "ts": json.Number("0.012"), "dur": json.Number("0.001"), "pid": pid, "tid": json.Number("1003"), "args": ev{"flow": "0x2"}},
		{"name": "flow", "cat": "flow", "ph": "f", "bp": "e", "id": "0x2", "ts": json.Number("0.012"), "pid": pid, "tid": json.Number("1003")},
		{"name": "irq", "cat": "instant", "ph": "i", "s": "t", "ts": json.Number("0.020"), "pid": pid, "tid": json.Number("1"), "args": ev{"payload": json.Number("3"), "flow": "0x1"}},
		{"name": "flow", "cat": "flow", "ph": "t", "id": "0x1", "ts": json.Number("0.020"), "pid": pid, "tid": json.Number("1")},
		{"name": "queue", "cat": "counter", "ph": "C", "ts": json.Number("0.022"), "pid": pid, "tid": json.Number("1003"), "args": ev{"value": json.Number("1.5")}},
		{"name": "task", "cat": "span", "ph": "X", "ts": json.Number("0.025"), "dur": json.Number("1.000"), "pid": pid, "tid": json.Number("1003"), "args": ev{"flow": "0x1"}},
		{"name": "flow", "cat": "flow", "ph": "f", "bp": "e", "id": "0x1", "ts": json.Number("0.025"), "pid": pid, "tid": json.Number("1003")},
		{"name": "irq", "cat": "instant", "ph": "i", "s": "t", "ts": json.Number("2.000"), "pid": pid, "tid": json.Number("1"), "args": ev{"payload": json.Number("4")}},
	}
	if len(file.TraceEvents) != len(want) {
		t.Fatalf("%d events, want %d:\n%s", len(file.TraceEvents), len(want), buf.String())
	}
	for i, w := range want {
		g := file.TraceEvents[i]
		if fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("event %d:\n got  %v\n want %v", i, g, w)
		}
	}
}

func TestChromeRoundTrip(t *testing.T) {
	orig := constructed()
	var buf bytes.Buffer
	if err := WriteChrome(&buf, orig); err != nil {
		t.Fatal(err)
	}
	back, err := ReadChrome(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if back.Clock != orig.Clock || !back.Start.Equal(orig.Start) || back.RingEvents != 8 || fmt.Sprint(back.Lanes) != fmt.Sprint(orig.Lanes) {
		t.Errorf("header: %+v", back)
	}
	if fmt.Sprint(back.Events) != fmt.Sprint(orig.Events) {
		t.Errorf("events differ:\n got  %v\n want %v", back.Events, orig.Events)
	}
}

func TestReadChromeOtherWriters(t *testing.T) {
	// A bare array with B/E pairs, a two-argument counter and a flow
	// bound to the enclosing slice, as other tools write them.
	in := `[
 {"name":"thread_name","ph":"M","pid":1,"tid":7,"args":{"name":"main"}},
 {"name":"outer","ph":"B","pid":1,"tid":7,"ts":10},
 {"name":"inner","ph":"B","pid":1,"tid":7,"ts":11.5},
 {"name":"link","ph":"s","id":5,"pid":1,"tid":7,"ts":12},
 {"name":"inner","ph":"E","pid":1,"tid":7,"ts":13},
 {"name":"outer","ph":"E","pid":1,"tid":7,"ts":20},
 {"name":"mem","ph":"C","pid":1,"tid":7,"ts":21,"args":{"heap":3,"stack":"4"}},
 {"name":"other","ph":"X","pid":1,"tid":8,"ts":30,"dur":2},
 {"name":"link","ph":"f","bp":"e","id":"0x5","pid":1,"tid":8,"ts":31},
 {"name":"ignored","ph":"b","pid":1,"tid":8,"ts":31}
]`
	tr, err := ReadChrome(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := "[{span outer 0 10000 10000 0 0 0} {span inner 0 11500 1500 5 0 0} {counter mem.heap 0 21000 0 0 0 3} {counter mem.stack 0 21000 0 0 0 4} {span other 1 30000 2000 5 0 0}]"
	if got := fmt.Sprint(tr.Events); got != want {
		t.Errorf("events\n got  %s\n want %s", got, want)
	}
	if fmt.Sprint(tr.Lanes) != "[{7 main} {8 tid 8}]" {
		t.Errorf("lanes %v", tr.Lanes)
	}
	for _, bad := range []struct{ in, want string }{
		{`{"foo":1}`, `no "traceEvents"`},
		{`not json`, "not trace-event JSON"},
		{`[{"name":"x","ph":"E","pid":1,"tid":1,"ts":1}]`, "without a begin"},
		{`[{"name":"x","ph":"B","pid":1,"tid":1,"ts":1}]`, "has no end"},
		{`[{"name":"x","ph":"X","pid":1,"tid":1}]`, "has no ts"},
		{`[{"name":"x","ph":"X","pid":1,"tid":1,"ts":1,"args":{"flow":"zz"}}]`, "not a flow id"},
	} {
		_, err := ReadChrome(strings.NewReader(bad.in))
		if err == nil || !strings.Contains(err.Error(), bad.want) || !strings.HasPrefix(err.Error(), "tracer: ") {
			t.Errorf("%s: err = %v, want one containing %q", bad.in, err, bad.want)
		}
	}
}

func TestDumpAndFiles(t *testing.T) {
	tr := fakeTracer(t, 8, 1e9, 0)
	tr.Lane("a").r.put(kindInstant, nSend, 5, 1, 0)
	dir := crosstest.TempDir(t)
	path, docPath, err := tr.Dump(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := result.ReadFile(docPath)
	if err != nil || d.Kind != "trace" || d.Run.Trace == nil || d.Run.Trace.Events != 1 || d.Environment == nil || !strings.HasSuffix(d.Tool.Name, "(chronograph tracer)") {
		t.Errorf("result document %s: %v %+v", docPath, err, d)
	}
	back, err := ReadChromeFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Events) != 1 || back.Events[0].Name != "send" || back.Events[0].TS != 5 {
		t.Errorf("dumped %+v", back.Events)
	}
	if _, _, err := tr.Dump(filepath.Join(dir, "missing")); err == nil {
		t.Error("dump into a missing directory succeeded")
	}
	if _, err := tr.DumpOnSignal(filepath.Join(dir, "missing"), nil, os.Interrupt); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("DumpOnSignal into a missing directory: %v", err)
	}
	if _, err := tr.DumpOnSignal(dir, nil); err == nil {
		t.Error("DumpOnSignal without signals succeeded")
	}
}

func TestMarker(t *testing.T) {
	path := filepath.Join(crosstest.TempDir(t), "trace_marker")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := OpenMarkerFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := newTracer(Options{Marker: m}, stampClock{desc: "monotonic"})
	if err != nil {
		t.Fatal(err)
	}
	tr.Begin(nParse).End()
	m.Close()
	got, _ := os.ReadFile(path)
	pid := os.Getpid()
	if want := fmt.Sprintf("B|%d|parse\nE|%d\n", pid, pid); string(got) != want {
		t.Errorf("marker wrote %q, want %q", got, want)
	}
	_, err = OpenMarkerFile(filepath.Join(crosstest.TempDir(t), "none", "trace_marker"))
	if err == nil || !strings.Contains(err.Error(), "tracefs is not mounted") {
		t.Errorf("missing tracefs: %v", err)
	}
	if _, err := openMarker(nil); err == nil {
		t.Error("no paths: no error")
	}
}
