package tracer

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Trigger dumps the events around a slow span: when a span (of any name,
// or of Name) lasts longer than Longer, the tracer waits After, takes a
// Snapshot, keeps the events that overlap [span end - Before, span end +
// After] (and the slow span itself), and hands them to Handle. One dump is
// in progress at a time: slow spans that end while one is pending are
// counted in the next dump's TriggerInfo.Skipped.
type Trigger struct {
	// Name restricts the trigger to spans of this Name (0: any span).
	Name Name
	// Longer is the duration a span must exceed (> 0).
	Longer time.Duration
	// Before and After set the window kept around the end of the slow
	// span (Before ≥ 0, After ≥ 0; together at least the span itself is
	// kept). Events are only as old as the rings hold: size them for
	// Before.
	Before, After time.Duration
	// Handle receives each window, on the trigger's own goroutine (write
	// it to a file with WriteChromeFile, for example). Required.
	Handle func(*Trace, TriggerInfo)
}

// TriggerInfo says why a window was dumped.
type TriggerInfo struct {
	// Name and Dur are the slow span's name and duration (ns); End is its
	// end in ns since the trace's origin.
	Name string
	Dur  time.Duration
	End  int64
	// Skipped counts slow spans that ended while the previous dump was
	// pending and were not dumped on their own.
	Skipped uint64
}

// triggerSleep waits a Trigger's After; tests replace it.
var triggerSleep = time.Sleep

// trigger is the running state of a Trigger.
type trigger struct {
	t       *Tracer
	cfg     Trigger
	ticks   uint64 // Longer in stamp units
	pending atomic.Bool
	skipped atomic.Uint64
	ch      chan firing
	done    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
	sleep   func(time.Duration)
}

type firing struct {
	name Name
	end  uint64
}

func newTrigger(t *Tracer, c Trigger) (*trigger, error) {
	switch {
	case c.Longer <= 0:
		return nil, fmt.Errorf("tracer: Trigger.Longer is %v: give the span duration that triggers a dump (> 0)", c.Longer)
	case c.Before < 0 || c.After < 0:
		return nil, fmt.Errorf("tracer: Trigger.Before (%v) and After (%v) must not be negative", c.Before, c.After)
	case c.Handle == nil:
		return nil, errors.New("tracer: Trigger.Handle is nil: give the function that receives the dumped window")
	}
	g := &trigger{t: t, cfg: c, ticks: t.clk.fromNanos(uint64(c.Longer)), ch: make(chan firing, 1), done: make(chan struct{}), sleep: triggerSleep}
	g.wg.Add(1)
	go g.loop()
	return g, nil
}

// fire is called by Span.End for a span longer than the threshold. It
// never blocks: a firing while one is pending is only counted.
func (g *trigger) fire(n Name, end uint64) {
	if g.cfg.Name != 0 && n != g.cfg.Name {
		return
	}
	if !g.pending.CompareAndSwap(false, true) {
		g.skipped.Add(1)
		return
	}
	select {
	case g.ch <- firing{n, end}:
	default:
		g.pending.Store(false)
	}
}

func (g *trigger) loop() {
	defer g.wg.Done()
	for {
		select {
		case <-g.done:
			return
		case f := <-g.ch:
			g.sleep(g.cfg.After)
			if tr, err := g.t.Snapshot(); err == nil {
				end := g.t.sinceOrigin(f.end)
				info := TriggerInfo{Name: f.name.String(), End: end, Skipped: g.skipped.Swap(0)}
				w := Window(tr, end-int64(g.cfg.Before), end+int64(g.cfg.After))
				for _, e := range w.Events {
					if e.Kind == KindSpan && e.End() == end && e.Name == info.Name {
						info.Dur = time.Duration(e.Dur)
					}
				}
				g.cfg.Handle(w, info)
			}
			g.pending.Store(false)
		}
	}
}

func (g *trigger) stop() {
	g.once.Do(func() { close(g.done) })
	g.wg.Wait()
}

// Window returns a copy of tr with only the events that overlap [from, to]
// (ns since the trace's origin): spans that end at or after from and start
// at or before to, and other events inside it. Lanes without events are
// dropped.
func Window(tr *Trace, from, to int64) *Trace {
	out := &Trace{Clock: tr.Clock, Start: tr.Start, Overwritten: tr.Overwritten, RingEvents: tr.RingEvents}
	remap := map[int]int{}
	for _, e := range tr.Events {
		if e.End() < from || e.TS > to {
			continue
		}
		l, ok := remap[e.Lane]
		if !ok {
			l = len(out.Lanes)
			remap[e.Lane] = l
			out.Lanes = append(out.Lanes, tr.Lanes[e.Lane])
		}
		e.Lane = l
		out.Events = append(out.Events, e)
	}
	return out
}
