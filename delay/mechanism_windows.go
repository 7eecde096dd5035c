package delay

import (
	"fmt"
	"sync"
	"time"

	"golang.org/x/sys/windows"

	"github.com/chronograph/chronograph/internal/wintimer"
)

// mechanisms lists every waiting mechanism measured on windows: the Go
// runtime's waits, then the classic study's system calls, each on a
// thread of its own (Sleep, Sleep with timeBeginPeriod(1) held,
// NtDelayExecution with and without the finest timer resolution held,
// a waitable timer and a high-resolution one), then busy-spin (on
// QueryPerformanceCounter, delay's clock here) and delay.Sleep.
//
// A request is rounded up to the call's unit (1 ms for Sleep, 100 ns for
// the others), so no wait is asked to be shorter than requested; Sleep(0)
// would only yield the processor.
func mechanisms() []mechanism {
	rt, rest := goMechanisms()
	ms := append([]mechanism{}, rt...)
	for _, m := range []mechanism{
		{name: "Sleep", setup: sleepSetup(false)},
		{name: "Sleep+timeBeginPeriod1", setup: sleepSetup(true)},
		{name: "NtDelayExecution", setup: ntDelaySetup(false)},
		{name: "NtDelayExecution+NtSetTimerResolution", setup: ntDelaySetup(true)},
		{name: "WaitableTimer", setup: timerSetup(false)},
		{name: "WaitableTimer(HighRes)", setup: timerSetup(true)},
	} {
		m.locked = true
		ms = append(ms, m)
	}
	return append(ms, rest...)
}

// sleepMillis is d in whole milliseconds, rounded up, as Sleep takes it.
func sleepMillis(d time.Duration) uint32 {
	return uint32((d + time.Millisecond - 1) / time.Millisecond)
}

// sleepSetup measures Sleep (SleepEx, not alertable). With period, the
// cell holds timeBeginPeriod(1) from setup to cleanup, and sleeps once
// after asking: the new period applies from the next timer interrupt,
// so the first wait after timeBeginPeriod still lasts an old period.
// Sleep cannot be interrupted: a stopped study leaves it to end.
func sleepSetup(period bool) func(time.Duration, *stopFlag) (*waiter, error) {
	return func(d time.Duration, _ *stopFlag) (*waiter, error) {
		cleanup := func() {}
		if period {
			if err := timePeriod(1, true); err != nil {
				return nil, fmt.Errorf("delay: %w", err)
			}
			windows.SleepEx(1, false) // the sleep that makes the period take effect
			cleanup = func() { _ = timePeriod(1, false) }
		}
		ms := sleepMillis(d)
		return &waiter{wait: func() (int64, int64, error) {
			s := nanotime()
			windows.SleepEx(ms, false)
			return s, nanotime(), nil
		}, cleanup: cleanup}, nil
	}
}

// ntDelaySetup measures NtDelayExecution (100 ns units, relative). With
// raise, the cell holds the finest timer resolution the system offers
// (NtQueryTimerResolution's maximum, typically 0.5 ms) through
// NtSetTimerResolution from setup to cleanup.
func ntDelaySetup(raise bool) func(time.Duration, *stopFlag) (*waiter, error) {
	return func(d time.Duration, _ *stopFlag) (*waiter, error) {
		if err := procNtDelayExecution.Find(); err != nil {
			return nil, fmt.Errorf("delay: %w", err)
		}
		cleanup := func() {}
		if raise {
			r, err := wintimer.Query()
			if err != nil {
				return nil, fmt.Errorf("delay: %w", err)
			}
			finest := int64(r.Finest)
			if _, err := setTimerResolution(finest, true); err != nil {
				return nil, fmt.Errorf("delay: %w", err)
			}
			cleanup = func() { _, _ = setTimerResolution(finest, false) }
		}
		return &waiter{wait: func() (int64, int64, error) {
			s := nanotime()
			if err := ntDelay(int64(d)); err != nil {
				return s, nanotime(), err
			}
			return s, nanotime(), nil
		}, cleanup: cleanup}, nil
	}
}

// timerSetup measures a waitable timer (SetWaitableTimer with a relative
// due time, then WaitForMultipleObjects), high-resolution when highRes.
// An interrupted study signals an event the wait also waits for.
func timerSetup(highRes bool) func(time.Duration, *stopFlag) (*waiter, error) {
	return func(d time.Duration, stop *stopFlag) (*waiter, error) {
		t, err := newWaitableTimer(highRes)
		if err != nil {
			return nil, fmt.Errorf("delay: %w", err)
		}
		ev, err := windows.CreateEvent(nil, 1, 0, nil)
		if err != nil {
			windows.CloseHandle(t)
			return nil, fmt.Errorf("delay: CreateEvent: %w", err)
		}
		var mu sync.Mutex // guards the event against interrupt after cleanup
		closed := false
		return &waiter{wait: func() (int64, int64, error) {
			s := nanotime()
			if stop.isSet() {
				return s, s, errStopped
			}
			if err := waitTimer(t, ev, int64(d)); err != nil {
				return s, nanotime(), err
			}
			return s, nanotime(), nil
		}, interrupt: func() {
			mu.Lock()
			defer mu.Unlock()
			if !closed {
				_ = windows.SetEvent(ev)
			}
		}, cleanup: func() {
			mu.Lock()
			defer mu.Unlock()
			closed = true
			windows.CloseHandle(ev)
			windows.CloseHandle(t)
		}}, nil
	}
}
