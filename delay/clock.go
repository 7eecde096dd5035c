package delay

import (
	"sync"
	"time"
	_ "unsafe" // for go:linkname
)

// nanotime is the Go runtime's monotonic clock in nanoseconds. On Linux it
// is CLOCK_MONOTONIC read through the vDSO (verified by TestNanotimeIsMonotonicClock);
// elsewhere it is the clock behind time.Time's monotonic readings.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

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
)

func initBase() {
	baseTime = time.Now()
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
// nanoseconds (CLOCK_MONOTONIC on Linux). It is cheap (~25 ns) and is the
// timebase of SleepUntilNano.
func Now() int64 { return nanotime() }
