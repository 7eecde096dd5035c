//go:build linux

package delay

import (
	"errors"
	"fmt"
	"os"
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
// the retry exact: no remaining-time bookkeeping). When stopped is not nil
// and reports true after an EINTR, it returns errStopped instead.
func sleepAbs(abs int64, stopped func() bool) error {
	ts := unix.NsecToTimespec(abs)
	for {
		err := clockNanosleep(unix.CLOCK_MONOTONIC, unix.TIMER_ABSTIME, &ts, nil)
		if err == nil {
			return nil
		}
		if errors.Is(err, unix.EINTR) {
			eintrRetries.Add(1)
			if stopped != nil && stopped() {
				return errStopped
			}
			continue
		}
		return err
	}
}

// setTimerSlack sets the calling thread's timer slack (ns; ≥ 1).
func setTimerSlack(ns int) error {
	return prctl(unix.PR_SET_TIMERSLACK, uintptr(ns), 0, 0, 0)
}

// ownTimerSlack returns the calling thread's timer slack in ns (prctl
// PR_GET_TIMERSLACK); call it on a locked thread.
func ownTimerSlack() (int64, error) {
	v, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err != nil {
		return -1, fmt.Errorf("delay: prctl(PR_GET_TIMERSLACK): %w", err)
	}
	return int64(v), nil
}

// timerFile is a timerfd (CLOCK_MONOTONIC, non-blocking) registered with
// the Go netpoller through os.File. A goroutine reading it parks without
// holding a P or a thread; when the timer expires the kernel wakes the
// thread blocked in epoll_wait, which runs the goroutine at once. timerfd
// timers ignore the thread's timer slack (the kernel arms them with zero
// slack), so no thread setting is changed anywhere.
type timerFile struct {
	fd int
	f  *os.File
}

// maxIdleTimerFiles bounds the idle timerfds kept for reuse (one is in use
// per concurrent waiter; extra ones are closed after their wait).
const maxIdleTimerFiles = 8

var idleTimerFiles = make(chan *timerFile, maxIdleTimerFiles)

// Injectable for tests (to force the fallback).
var timerfdCreate = unix.TimerfdCreate

func newTimerFile() (*timerFile, error) {
	fd, err := timerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_CLOEXEC|unix.TFD_NONBLOCK)
	if err != nil {
		return nil, err
	}
	return &timerFile{fd: fd, f: os.NewFile(uintptr(fd), "timerfd")}, nil
}

// wait blocks the calling goroutine until abs (CLOCK_MONOTONIC ns, ≥ 1).
func (t *timerFile) wait(abs int64) error {
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(abs)}
	if err := unix.TimerfdSettime(t.fd, unix.TFD_TIMER_ABSTIME, &spec, nil); err != nil {
		return err
	}
	var buf [8]byte // the expiration count; os.File retries EINTR and EAGAIN
	_, err := t.f.Read(buf[:])
	return err
}

// linuxClock is the real clock: nanotime, and blocking on a pooled timerfd
// through the netpoller.
type linuxClock struct{}

var systemClock clockSource = linuxClock{}

func (linuxClock) now() int64 { return nanotime() }

func (linuxClock) yield() { runtime.Gosched() }

// timerFileFallbacks counts waits that could not use a timerfd and slept
// in clock_nanosleep on the caller's thread instead (default timer slack;
// the adaptive margin absorbs it).
var timerFileFallbacks atomic.Int64

func (linuxClock) block(abs int64) error {
	if abs < 1 {
		return nil // a zero it_value would disarm the timer, and abs is past anyway
	}
	var t *timerFile
	select {
	case t = <-idleTimerFiles:
	default:
		var err error
		if t, err = newTimerFile(); err != nil {
			timerFileFallbacks.Add(1)
			if err2 := sleepAbs(abs, nil); err2 != nil {
				return fmt.Errorf("delay: timerfd_create: %w; clock_nanosleep: %w", err, err2)
			}
			return nil
		}
	}
	if err := t.wait(abs); err != nil {
		// Not expected; the timer's state is unknown, so drop it.
		t.f.Close()
		timerFileFallbacks.Add(1)
		if err2 := sleepAbs(abs, nil); err2 != nil {
			return fmt.Errorf("delay: waiting on a timerfd: %w; clock_nanosleep: %w", err, err2)
		}
		return nil
	}
	select {
	case idleTimerFiles <- t:
	default:
		t.f.Close()
	}
	return nil
}

// ppoll is unix.Ppoll (tests replace it to force EINTR and failures).
var ppoll = unix.Ppoll

// idleHoldFDs are idle timerfds for hold, kept apart from the netpoller's
// timerFiles: these are never registered with the runtime's epoll, whose
// thread would otherwise wake for nothing when they expire, at the moment
// the holding thread wakes.
var idleHoldFDs = make(chan int, maxIdleTimerFiles)

// holdFallbacks counts holds that could not use a timerfd and slept in
// clock_nanosleep instead (the thread's timer slack then applies; the
// adaptive margin absorbs it).
var holdFallbacks atomic.Int64

// hold blocks the calling goroutine until abs on its own thread: it arms
// a timerfd (which has no timer slack) and waits for it in ppoll, a
// blocking system call, so the thread the kernel wakes returns straight
// to the caller, with no netpoller and no scheduler in between. The Go
// runtime leaves the goroutine's P with the thread through the call
// (exitsyscall's fast path takes it back) unless another goroutine needs
// it: sysmon hands it to another thread when work is queued on it or no
// other P is idle, once it has seen the call last a tick (20 µs to 10 ms,
// by how idle the program is), and a stop-the-world takes it at once.
func (linuxClock) hold(abs int64) error {
	if abs < 1 {
		return nil
	}
	var fd int
	select {
	case fd = <-idleHoldFDs:
	default:
		var err error
		if fd, err = timerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_CLOEXEC|unix.TFD_NONBLOCK); err != nil {
			return holdSleep(abs, fmt.Errorf("delay: timerfd_create: %w", err))
		}
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(abs)}
	if err := unix.TimerfdSettime(fd, unix.TFD_TIMER_ABSTIME, &spec, nil); err != nil {
		unix.Close(fd)
		return holdSleep(abs, fmt.Errorf("delay: timerfd_settime: %w", err))
	}
	if err := pollUntilReady(fd); err != nil {
		unix.Close(fd) // its state is unknown
		return holdSleep(abs, fmt.Errorf("delay: ppoll(timerfd): %w", err))
	}
	select {
	case idleHoldFDs <- fd:
	default:
		unix.Close(fd)
	}
	return nil
}

// pollUntilReady blocks in ppoll until fd is readable, retrying on EINTR
// (ppoll is never restarted after a signal handler, whatever SA_RESTART
// says; the Go runtime signals threads to preempt goroutines).
func pollUntilReady(fd int) error {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		_, err := ppoll(fds, nil, nil)
		if err == nil {
			return nil
		}
		if !errors.Is(err, unix.EINTR) {
			return err
		}
		eintrRetries.Add(1)
	}
}

// holdSleep is hold without a timerfd: clock_nanosleep on the thread.
func holdSleep(abs int64, cause error) error {
	holdFallbacks.Add(1)
	if err := sleepAbs(abs, nil); err != nil {
		return fmt.Errorf("%w; clock_nanosleep: %w", cause, err)
	}
	return nil
}
