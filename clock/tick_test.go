package clock

import (
	"testing"
	"time"
)

// fakeTicking is a clock read on a simulated timeline: each read takes
// readNs of it and returns the time floored to the clock's tick (in
// units of unitNs, the clock's own unit), after whatever delay jump asks
// for (a preemption of the reader, in ns); the probe's now reads the same
// timeline, taking nowNs.
type fakeTicking struct {
	t             int64 // ns
	tick, unitNs  int64
	readNs, nowNs int64
	jump          func(t int64) int64
}

func (f *fakeTicking) Name() string { return "fake" }
func (f *fakeTicking) Props() Props { return Props{Name: "fake", Unit: "ns"} }
func (f *fakeTicking) Now() int64 {
	f.t += f.readNs
	if f.jump != nil {
		f.t += f.jump(f.t)
	}
	return f.t / f.tick * f.tick / f.unitNs
}
func (f *fakeTicking) now() time.Duration {
	f.t += f.nowNs
	return time.Duration(f.t)
}

// TestProbeTick runs probeTick on simulated clocks, with the probe's time
// bound on the same simulated timeline: a coarse clock's tick from
// MinTickChanges changes; a preemption that makes one step 36 ms (the
// issue's loaded machine) does not count; a reader preempted at every
// tick, or a bound that passes after two changes, gives an uncertain tick
// instead of a step seen too few times; a fine clock bounds its tick by
// one read, unless it stepped by one unit of its own.
func TestProbeTick(t *testing.T) {
	const ms = int64(time.Millisecond)
	tests := []struct {
		name  string
		clk   fakeTicking
		reads int
		wait  time.Duration
		unit  int64 // the clock's own unit in its readings (readingUnit); 0 is 1
		// want: Steps fields
		tick        float64
		basis       string
		changes     int
		tickChanges int
		wantReads   int
	}{
		{name: "coarse clock, quiet", clk: fakeTicking{t: 1 * ms, tick: 4 * ms, unitNs: 1, readNs: 7, nowNs: 25},
			reads: 1000, wait: 250 * time.Millisecond, tick: 4e6, basis: TickObserved, changes: 5, tickChanges: 5, wantReads: 594531},
		{name: "coarse clock, reader preempted 36 ms once", clk: fakeTicking{t: 1 * ms, tick: 4 * ms, unitNs: 1, readNs: 7, nowNs: 25,
			jump: func() func(int64) int64 {
				done := false
				return func(t int64) int64 {
					if !done && t >= 2*ms {
						done = true
						return 36 * ms
					}
					return 0
				}
			}()},
			reads: 1000, wait: 250 * time.Millisecond, tick: 4e6, basis: TickObserved, changes: 6, tickChanges: 5, wantReads: 594531},
		{name: "coarse clock, reader preempted across every tick", clk: fakeTicking{t: 1 * ms, tick: 4 * ms, unitNs: 1, readNs: 7, nowNs: 25,
			// A read that a tick boundary passed before is preempted for 6 ms:
			// every step the reader sees is 8 ms (two ticks), and the
			// smallest step, today's tick, would read 8 ms.
			jump: func() func(int64) int64 {
				last := int64(0)
				return func(t int64) int64 {
					crossed := last > 0 && last/(4*ms) != t/(4*ms)
					if last = t; crossed {
						last += 6 * ms
						return 6 * ms
					}
					return 0
				}
			}()},
			reads: 1000, wait: 250 * time.Millisecond, basis: TickUncertain, changes: 31, tickChanges: 0, wantReads: 2000781},
		{name: "coarse clock, bound after two changes", clk: fakeTicking{t: 1 * ms, tick: 4 * ms, unitNs: 1, readNs: 7, nowNs: 25},
			reads: 1000, wait: 10 * time.Millisecond, basis: TickUncertain, changes: 2, tickChanges: 2, wantReads: 313281},
		{name: "fine clock: every read changes", clk: fakeTicking{t: 1 * ms, tick: 1, unitNs: 1, readNs: 23},
			reads: 1000, wait: 250 * time.Millisecond, tick: 23, basis: TickUpperBound, changes: 1000, tickChanges: 1000, wantReads: 1000},
		{name: "clock ticking a little slower than a read", clk: fakeTicking{t: 1 * ms, tick: 30, unitNs: 1, readNs: 20},
			reads: 1000, wait: 250 * time.Millisecond, tick: 30, basis: TickObserved, changes: 666, tickChanges: 666, wantReads: 1000},
		{name: "counter stepping by its unit", clk: fakeTicking{t: 1 * ms, tick: 1, unitNs: 1, readNs: 1},
			reads: 1000, wait: 250 * time.Millisecond, tick: 1, basis: TickObserved, changes: 1000, tickChanges: 1000, wantReads: 1000},
		// QueryPerformanceCounter at 10 MHz, read in ns at 119 ns a read (Wine's
		// cost): every read changes, by 100 or 200 ns; a step of 100 ns is one
		// unit of its own, so its tick; not knowing the unit, only a bound.
		{name: "100 ns clock stepping by its unit", clk: fakeTicking{t: 1 * ms, tick: 100, unitNs: 1, readNs: 119},
			reads: 1000, unit: 100, wait: 250 * time.Millisecond, tick: 100, basis: TickObserved, changes: 1000, tickChanges: 1000, wantReads: 1000},
		{name: "100 ns clock, unit unknown", clk: fakeTicking{t: 1 * ms, tick: 100, unitNs: 1, readNs: 119},
			reads: 1000, wait: 250 * time.Millisecond, tick: 100, basis: TickUpperBound, changes: 1000, tickChanges: 1000, wantReads: 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := tt.clk
			var r Steps
			unit := max(tt.unit, 1)
			probeTick(&clk, &r, func(d float64) float64 { return d }, unit, ProbeOptions{Reads: tt.reads, CoarseWait: tt.wait}, clk.now)
			if r.TickNs != tt.tick || r.TickBasis != tt.basis || r.Changes != tt.changes || r.TickChanges != tt.tickChanges || r.Reads != tt.wantReads {
				t.Errorf("tick %v ns (%s), %d changes, %d counted, %d reads; want %v ns (%s), %d, %d, %d",
					r.TickNs, r.TickBasis, r.Changes, r.TickChanges, r.Reads, tt.tick, tt.basis, tt.changes, tt.tickChanges, tt.wantReads)
			}
			if r.BackwardSteps != 0 {
				t.Errorf("%d backward steps", r.BackwardSteps)
			}
		})
	}
}

// TestReadingUnit: one unit of a clock's own in its readings.
func TestReadingUnit(t *testing.T) {
	tests := []struct {
		unit    string
		nominal float64
		want    int64
	}{
		{"ns", 1, 1}, {"ns", 100, 100}, {"ns", 1e6, 1e6}, {"ns", 0, 1},
		{"ns", 0.4, 1}, {"ns", 69.84, 1}, {"ticks", 100, 1}, {"ns", 4e9, 1},
	}
	for _, tt := range tests {
		if got := readingUnit(Props{Unit: tt.unit}, tt.nominal); got != tt.want {
			t.Errorf("readingUnit(%s, %v) = %d, want %d", tt.unit, tt.nominal, got, tt.want)
		}
	}
}
