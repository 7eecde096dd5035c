//go:build linux

package delay

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/chronograph/chronograph/clock"
)

// What the latency loop needs from the system; tests replace them.
var (
	// rawClockNanosleep is clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)
	// as a raw system call.
	rawClockNanosleep = func(ts *unix.Timespec) unix.Errno {
		_, _, e := unix.RawSyscall6(unix.SYS_CLOCK_NANOSLEEP, unix.CLOCK_MONOTONIC, unix.TIMER_ABSTIME, uintptr(unsafe.Pointer(ts)), 0, 0, 0)
		return e
	}
	latencyNow   = nanotime
	latencyYield = runtime.Gosched
	latencyCPU   = clock.CPU
	// interruptThread ends a sleep of thread tid of this process with
	// EINTR. SIGURG is the signal the Go runtime itself uses to preempt
	// goroutines: its handler ignores it when no preemption is pending, so
	// no other code sees it.
	interruptThread = func(tid int) { _ = unix.Tgkill(unix.Getpid(), tid, unix.SIGURG) }
)

// deferYieldWithin: a preemption signal (see rawSleepAbs) that interrupts
// a sleep this close to its deadline is served right after the
// measurement rather than at once, so that the handoff to another thread
// that a yield costs a locked goroutine cannot make the wake-up late.
// Farther from the deadline it is served at once, so that a
// stop-the-world never waits long for this thread.
const deferYieldWithin = 2 * time.Millisecond

// runThread is one cyclictest thread: locked to its OS thread for life
// (its scheduling settings die with it), it applies its settings, reports
// readiness, waits for the common start, then loops
//
//	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next); lat = now - next; next += interval
//
// skipping (and counting) whole intervals when a wake-up is later than
// the following deadline, as cyclictest does. The sleep is a raw system
// call (see rawSleepAbs). A thread that is not pinned also reads its CPU
// after each measurement, for the per-CPU split (a vDSO read or a
// getcpu(2) call, after the clock read: not part of the latency).
func (t *LatencyTest) runThread(th *latThread, ready chan<- error, start <-chan struct{}, stop *atomic.Bool) {
	runtime.LockOSThread() // never unlocked
	th.tid.Store(int64(unix.Gettid()))
	set := ThreadSettings{Priority: th.Priority}
	if th.CPU >= 0 {
		set.CPUs = []int{th.CPU}
	}
	err := set.apply()
	if slack, serr := ownTimerSlack(); serr == nil {
		th.slack = slack
	}
	ready <- err
	<-start
	if err != nil || stop.Load() {
		return
	}
	trackCPU := th.CPU < 0
	if trackCPU {
		th.perCPU = make([]cpuLatency, 0, runtime.NumCPU())
	}
	interval := int64(th.Interval)
	next := latencyNow() + interval
	for n := int64(0); t.opts.Loops == 0 || n < t.opts.Loops; n++ {
		if stop.Load() {
			return
		}
		owed, err := rawSleepAbs(next, stop, th)
		if err != nil {
			if err != errStopped {
				th.err = fmt.Errorf("clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME): %w", err)
			}
			return
		}
		now := latencyNow()
		cpu := -1
		if trackCPU {
			cpu = latencyCPU()
		}
		th.record(now-next, cpu)
		next += interval
		if now > next {
			th.overruns.Add(1)
			for now > next {
				next += interval
			}
		}
		if owed {
			th.yield()
		}
	}
}

// rawSleepAbs sleeps until abs (CLOCK_MONOTONIC) with a raw system call:
// the Go scheduler is not told, so the thread keeps its P while it sleeps
// and wakes straight into the measuring code, as a C program such as
// cyclictest does. (Through the ordinary system call, the runtime's sysmon
// takes the P of a goroutine that sleeps 10 ms on one scheduling tick and
// then polls every 20 µs, briefly holding the sleeping goroutine at each
// poll; under a load of many runnable threads, with sysmon itself
// preempted, that doubled the average latency against cyclictest's.)
//
// The runtime reaches a thread in a raw system call only with a signal:
// sysmon asks a goroutine that ran 10 ms on one scheduling tick to yield
// with SIGURG (about every 20 ms here, as the loop never reschedules by
// itself), and so does a stop-the-world; the signal ends clock_nanosleep
// with EINTR (it is never restarted, whatever SA_RESTART says). A yield of
// a goroutine locked to its thread hands the P to another thread and waits
// for it to hand it back: two thread wake-ups, which under CPU load took
// from 30 µs to 26 ms here. Made at once, at a random point of the
// interval, it often outlasted the deadline. So when the deadline is
// within deferYieldWithin the sleep resumes at once, to the same absolute
// deadline, and owed tells the caller to yield right after its
// measurement, when a whole interval lies ahead; otherwise it yields at
// once. A stop request (stop set, then a signal from Run) returns
// errStopped; another error is returned as it is.
func rawSleepAbs(abs int64, stop *atomic.Bool, th *latThread) (owed bool, err error) {
	ts := unix.NsecToTimespec(abs)
	for {
		switch e := rawClockNanosleep(&ts); e {
		case 0:
			return owed, nil
		case unix.EINTR:
			eintrRetries.Add(1)
			if stop.Load() {
				return owed, errStopped
			}
			if abs-latencyNow() <= int64(deferYieldWithin) {
				owed = true
				continue
			}
			th.yield()
		default:
			return owed, e
		}
	}
}

// yield yields to the Go scheduler and accounts for how long it took.
func (th *latThread) yield() {
	t0 := latencyNow()
	latencyYield()
	d := latencyNow() - t0
	th.yields.Add(1)
	if d > th.yieldMax.Load() {
		th.yieldMax.Store(d)
	}
}
