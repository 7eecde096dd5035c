//go:build linux

package delay

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// runThread is one cyclictest thread: locked to its OS thread for life
// (its scheduling settings die with it), it applies its settings, reports
// readiness, waits for the common start, then loops
//
//	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next); lat = now - next; next += interval
//
// The sleep is a raw system call (see rawSleepAbs), so that the Go
// runtime's system-call bookkeeping is not part of the measured latency.
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
		if rawSleepAbs(next) != nil {
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

// rawClockNanosleep is clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) as a
// raw system call (tests replace it).
var rawClockNanosleep = func(ts *unix.Timespec) unix.Errno {
	_, _, e := unix.RawSyscall6(unix.SYS_CLOCK_NANOSLEEP, unix.CLOCK_MONOTONIC, unix.TIMER_ABSTIME, uintptr(unsafe.Pointer(ts)), 0, 0, 0)
	return e
}

// rawSleepAbs sleeps until abs (CLOCK_MONOTONIC) like sleepAbs, but with a
// raw system call: the Go scheduler is not told, so the thread keeps its P
// while it sleeps and wakes straight into the measuring code, as a C
// program such as cyclictest does. (With the ordinary system call the
// wake-up path goes through the runtime's exitsyscall; measured on a 2-CPU
// KVM guest with -p 80 -i 1000 -l 2000, that raised the average latency
// from 28-38 µs to 39-53 µs, against cyclictest's 34-46 µs in the same
// session.) The runtime reaches a thread in a raw system call only with a
// signal: garbage collection and sysmon preempt with SIGURG, which ends
// clock_nanosleep with EINTR (it is never restarted, whatever SA_RESTART
// says); the loop then yields, so that a stop-the-world waits at most one
// signal, before sleeping again to the same absolute deadline.
func rawSleepAbs(abs int64) error {
	ts := unix.NsecToTimespec(abs)
	for {
		switch e := rawClockNanosleep(&ts); e {
		case 0:
			return nil
		case unix.EINTR:
			eintrRetries.Add(1)
			runtime.Gosched()
		default:
			return e
		}
	}
}
