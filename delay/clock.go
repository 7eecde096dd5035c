package delay

import (
	"sync"
	"time"
)

// clockSource is what the waiting code needs from the world: a monotonic
// clock in nanoseconds and a way to block until an absolute time on it.
// Tests replace it with a fake.
type clockSource interface {
	now() int64
	// block blocks until about abs (same timebase as now) without
	// spinning. An error means it could not wait (it may have returned
	// at once).
	block(abs int64) error
	// yield lets the Go scheduler run other goroutines (runtime.Gosched).
	yield()
}

// holder is a clockSource that can also block in a system call on the
// calling goroutine's own thread, so that the goroutine resumes on the
// thread the kernel wakes, with no netpoller and, unless the runtime
// gave its P away meanwhile, no scheduling in between.
type holder interface {
	// hold blocks until about abs (the now timebase) on the calling
	// thread. An error means it could not wait.
	hold(abs int64) error
}

// base ties time.Time values to the nanotime timebase: baseTime was read at
// about nanotime() == baseNano (within half of the narrowest bracket found).
var (
	baseOnce sync.Once
	baseTime time.Time
	baseNano int64
	// baseErr bounds the error of baseNano: half the narrowest bracket,
	// rounded up.
	baseErr int64
	// baseStep is how far behind nanotime time.Now's monotonic reading
	// may lag where that reading is coarse (the step it was seen to take,
	// windows); 0 where it is read when asked.
	baseStep int64
)

func initBase() {
	baseTime = time.Now()
	if coarseNow {
		initCoarseBase()
		return
	}
	// Bracket time.Now between two nanotime reads and keep the narrowest
	// bracket: time.Now's monotonic reading and nanotime are the same clock
	// up to a constant, so the midpoint of the bracket, moved back by
	// t.Sub(baseTime), estimates baseNano to within half the bracket
	// (~25 ns on the machines measured).
	best := int64(1 << 62)
	for i := 0; i < 64; i++ {
		n1 := nanotime()
		t := time.Now()
		n2 := nanotime()
		if w := n2 - n1; w < best {
			best = w
			baseNano = n1 + w/2 - int64(t.Sub(baseTime))
		}
	}
	baseErr = best/2 + 1
}

// maxCoarseBase bounds initCoarseBase's search for the steps of
// time.Now's monotonic reading (ns): two steps of the coarsest timer
// period, 15.6 ms, and room for a loaded host.
const maxCoarseBase = 100 * int64(time.Millisecond)

// initCoarseBase ties the bases where time.Now's monotonic reading is a
// clock that steps (windows' interrupt time, every timer period, 0.5 to
// 15.6 ms) and nanotime is another (QueryPerformanceCounter), both
// counting from the same boot: the reading is the time of its last
// step, so a bracket of one read says little. At a step, though, the
// new value is the time the step happened, and that happened after the
// previous read of time.Now began and before this one ended: the bracket
// from the previous pair's first nanotime read to this pair's last. It
// watches for two steps (the second's bracket is kept if narrower; the
// distance between them is baseStep), for at most maxCoarseBase; a
// clock that never stepped meanwhile leaves the whole wait as the error.
func initCoarseBase() {
	start := nanotime()
	prevN1, prev := start, time.Duration(0)
	best, steps, lastStep := int64(1<<62), 0, int64(0)
	for steps < 2 {
		n1 := nanotime()
		t := time.Now()
		n2 := nanotime()
		if el := t.Sub(baseTime); el != prev {
			if steps > 0 {
				baseStep = int64(el) - lastStep
			}
			steps++
			lastStep = int64(el)
			if w := n2 - prevN1; w < best {
				best = w
				baseNano = prevN1 + w/2 - int64(el)
			}
			prev = el
		}
		prevN1 = n1
		if n2-start > maxCoarseBase {
			if steps == 0 {
				best = n2 - start
				baseNano = start + best/2
			}
			if steps < 2 {
				baseStep = n2 - start // the step is at least what was waited for
			}
			break
		}
	}
	baseErr = best/2 + 1
}

// monoOf returns t as nanoseconds on the nanotime timebase. A t without a
// monotonic reading (e.g. from time.Unix) is converted through the wall
// clock at the moment of the call.
func monoOf(t time.Time) int64 {
	baseOnce.Do(initBase)
	return baseNano + int64(t.Sub(baseTime))
}

// timeOf is the inverse of monoOf.
func timeOf(mono int64) time.Time {
	baseOnce.Do(initBase)
	return baseTime.Add(time.Duration(mono - baseNano))
}

// spinUntil busy-waits on now until abs and returns the time read last.
func spinUntil(c clockSource, abs int64) int64 {
	for {
		if t := c.now(); t >= abs {
			return t
		}
	}
}

// Now returns the current reading of the monotonic clock delay uses, in
// nanoseconds (CLOCK_MONOTONIC on Linux, QueryPerformanceCounter on
// windows). It is cheap (~25 ns on Linux) and is the timebase of
// SleepUntilNano.
func Now() int64 { return nanotime() }
