//go:build linux

package delay

import (
	"errors"
	"runtime"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Injectable system calls (tests replace them to force EINTR or EPERM).
var (
	clockNanosleep = unix.ClockNanosleep
	prctl          = unix.Prctl
)

// eintrRetries counts clock_nanosleep calls interrupted by a signal and
// retried (for tests and diagnostics).
var eintrRetries atomic.Int64

// sleepAbs blocks the calling thread in clock_nanosleep(CLOCK_MONOTONIC,
// TIMER_ABSTIME) until abs, retrying on EINTR (the absolute deadline makes
// the retry exact: no remaining-time bookkeeping).
func sleepAbs(abs int64) error {
	ts := unix.NsecToTimespec(abs)
	for {
		err := clockNanosleep(unix.CLOCK_MONOTONIC, unix.TIMER_ABSTIME, &ts, nil)
		if err == nil {
			return nil
		}
		if errors.Is(err, unix.EINTR) {
			eintrRetries.Add(1)
			continue
		}
		return err
	}
}

// setTimerSlack sets the calling thread's timer slack (ns; ≥ 1).
func setTimerSlack(ns int) error {
	return prctl(unix.PR_SET_TIMERSLACK, uintptr(ns), 0, 0, 0)
}

// timerThread is a goroutine locked to its own OS thread for life, with
// timer slack 1 ns, serving wake-up requests: it receives an absolute
// CLOCK_MONOTONIC time on req, blocks until then and signals done.
type timerThread struct {
	req  chan int64
	done chan struct{}
}

// maxIdleTimerThreads bounds the idle timer threads kept for reuse; a
// thread finishing a request when the pool is full exits (locked, so the
// runtime destroys it with its settings).
const maxIdleTimerThreads = 8

var idleTimerThreads = make(chan *timerThread, maxIdleTimerThreads)

// timerThreadsStarted counts the timer threads ever started.
var timerThreadsStarted atomic.Int64

func newTimerThread() *timerThread {
	t := &timerThread{req: make(chan int64), done: make(chan struct{})}
	timerThreadsStarted.Add(1)
	go t.serve()
	return t
}

func (t *timerThread) serve() {
	// Never unlocked: the thread's timer slack differs from the default, so
	// it must not run other goroutines. When serve returns while locked,
	// the runtime terminates the thread.
	runtime.LockOSThread()
	// A failure (not expected: PR_SET_TIMERSLACK needs no privilege)
	// leaves the default 50 µs slack, which the adaptive margin absorbs.
	_ = setTimerSlack(1)
	for abs := range t.req {
		// sleepAbs fails only on a bad timespec; the caller's spin then
		// ends the wait.
		_ = sleepAbs(abs)
		t.done <- struct{}{}
	}
}

// linuxClock is the real clock: nanotime, and blocking through the pool
// of timer threads.
type linuxClock struct{}

var systemClock clockSource = linuxClock{}

func (linuxClock) now() int64 { return nanotime() }

func (linuxClock) block(abs int64) {
	var t *timerThread
	select {
	case t = <-idleTimerThreads:
	default:
		t = newTimerThread()
	}
	t.req <- abs
	<-t.done
	select {
	case idleTimerThreads <- t:
	default:
		close(t.req) // pool full: the thread exits locked
	}
}
