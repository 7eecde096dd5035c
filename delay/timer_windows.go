package delay

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"golang.org/x/sys/windows"

	"github.com/chronograph/chronograph/clock"
)

// winTimer is a waitable timer a wait blocks on: high-resolution where
// the system has them (Windows 10 1803 and later), which expire within
// the timer's own precision whatever the system timer resolution; a
// plain one otherwise, which expires at the next timer interrupt.
type winTimer struct {
	h       windows.Handle
	highRes bool
}

// maxIdleTimers bounds the idle timers kept for reuse (one is in use per
// concurrent waiter; extra ones are closed after their wait).
const maxIdleTimers = 8

var idleTimers = make(chan *winTimer, maxIdleTimers)

// highResTimers is false once creating a high-resolution timer failed
// (the system has none): later timers are plain ones at once.
var highResTimers atomic.Bool

func init() { highResTimers.Store(true) }

// Injectable for tests (to force the fallback).
var createTimer = newWaitableTimer

// newWinTimer creates a high-resolution timer, or a plain one where the
// system has no high-resolution timers.
func newWinTimer() (*winTimer, error) {
	if highResTimers.Load() {
		h, err := createTimer(true)
		if err == nil {
			return &winTimer{h: h, highRes: true}, nil
		}
		highResTimers.Store(false)
	}
	h, err := createTimer(false)
	if err != nil {
		return nil, err
	}
	return &winTimer{h: h}, nil
}

// windowsClock is the real clock: QueryPerformanceCounter, and blocking
// the calling goroutine's thread on a pooled waitable timer (the runtime
// hands its P to another thread meanwhile).
type windowsClock struct{}

var systemClock clockSource = newWindowsClock()

// newWindowsClock checks that now can read QueryPerformanceCounter
// (documented never to fail since Windows XP): clock.QPC would otherwise
// read 0 for ever.
func newWindowsClock() windowsClock {
	if _, err := clock.QPC(); err != nil {
		panic("delay: " + err.Error())
	}
	return windowsClock{}
}

func (windowsClock) now() int64 { return nanotime() }

func (windowsClock) yield() { runtime.Gosched() }

// timerFallbacks counts waits that could not use a waitable timer (not
// expected) and were left to the caller's time.Sleep.
var timerFallbacks atomic.Int64

func (windowsClock) block(abs int64) error {
	d := abs - nanotime()
	if d <= 0 {
		return nil
	}
	var t *winTimer
	select {
	case t = <-idleTimers:
	default:
		var err error
		if t, err = newWinTimer(); err != nil {
			timerFallbacks.Add(1)
			return fmt.Errorf("delay: %w", err)
		}
	}
	if err := waitTimer(t.h, 0, d); err != nil {
		windows.CloseHandle(t.h) // its state is unknown: drop it
		timerFallbacks.Add(1)
		return fmt.Errorf("delay: waiting on a waitable timer: %w", err)
	}
	select {
	case idleTimers <- t:
	default:
		windows.CloseHandle(t.h)
	}
	return nil
}

// ownTimerSlack: timer slack is Linux's.
func ownTimerSlack() (int64, error) { return -1, fmt.Errorf("delay: timer slack: %w", ErrUnsupported) }
