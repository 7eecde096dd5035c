//go:build linux

package delay

import (
	"runtime"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// runThread is one cyclictest thread: locked to its OS thread for life
// (its scheduling settings die with it), it applies its settings, reports
// readiness, waits for the common start, then loops
//
//	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next); lat = now - next; next += interval
//
// skipping (and counting) whole intervals when a wake-up is later than
// the following deadline, as cyclictest does.
func (t *LatencyTest) runThread(th *latThread, ready chan<- error, start <-chan struct{}, stop *atomic.Bool) {
	runtime.LockOSThread() // never unlocked
	th.tid.Store(int64(unix.Gettid()))
	set := ThreadSettings{Priority: th.Priority}
	if th.CPU >= 0 {
		set.Pin, set.CPU = true, th.CPU
	}
	err := set.apply()
	ready <- err
	<-start
	if err != nil || stop.Load() {
		return
	}
	interval := int64(th.Interval)
	next := nanotime() + interval
	for n := int64(0); t.opts.Loops == 0 || n < t.opts.Loops; n++ {
		if stop.Load() {
			return
		}
		if sleepAbs(next) != nil {
			return
		}
		now := nanotime()
		th.record(now - next)
		next += interval
		if now > next {
			th.overruns.Add(1)
			for now > next {
				next += interval
			}
		}
	}
}
