//go:build linux

package delay

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// setThreadSlack sets the calling (locked) thread's timer slack.
func setThreadSlack(ns int64) error {
	if err := setTimerSlack(int(ns)); err != nil {
		return fmt.Errorf("delay: prctl(PR_SET_TIMERSLACK): %w", err)
	}
	return nil
}

// mechanisms lists every waiting mechanism measured on Linux, each named
// as a program would call it; "+slack1ns" variants run with the timer
// slack of the waiting thread (or, for the Go runtime's waits, of every
// thread of the process) set to 1 ns.
func mechanisms() []mechanism {
	rt, rest := goMechanisms()
	var ms []mechanism
	for _, m := range rt {
		ms = append(ms, m)
		m.name += "+slack1ns"
		m.processSlack = 1
		ms = append(ms, m)
	}
	// The system-call mechanisms run on a locked thread of their own;
	// signalling it (interruptThread) ends its nanosleep or
	// clock_nanosleep with EINTR.
	nanosleep := func(d time.Duration, stop *stopFlag) (*waiter, error) {
		tid := unix.Gettid()
		return &waiter{wait: func() (int64, int64, error) {
			s := nanotime()
			ts := unix.NsecToTimespec(int64(d))
			for {
				var rem unix.Timespec
				err := unix.Nanosleep(&ts, &rem)
				if err == nil {
					return s, nanotime(), nil
				}
				if !errors.Is(err, unix.EINTR) {
					return s, nanotime(), fmt.Errorf("nanosleep: %w", err)
				}
				if stop.isSet() {
					return s, s, errStopped
				}
				ts = rem
			}
		}, interrupt: func() { interruptThread(tid) }, cleanup: func() {}}, nil
	}
	clockNanosleepAbs := func(d time.Duration, stop *stopFlag) (*waiter, error) {
		tid := unix.Gettid()
		return &waiter{wait: func() (int64, int64, error) {
			s := nanotime()
			if err := sleepAbs(s+int64(d), stop.isSet); err != nil {
				if errors.Is(err, errStopped) {
					return s, s, err
				}
				return s, nanotime(), fmt.Errorf("clock_nanosleep: %w", err)
			}
			return s, nanotime(), nil
		}, interrupt: func() { interruptThread(tid) }, cleanup: func() {}}, nil
	}
	// A blocking read of a timerfd is restarted after a signal
	// (SA_RESTART), so it is interrupted by re-arming the timer to
	// expire at once instead.
	timerfd := func(d time.Duration, stop *stopFlag) (*waiter, error) {
		fd, err := timerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_CLOEXEC)
		if err != nil {
			return nil, fmt.Errorf("delay: timerfd_create: %w", err)
		}
		spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
		var buf [8]byte
		var mu sync.Mutex // guards fd against interrupt after cleanup
		closed := false
		return &waiter{wait: func() (int64, int64, error) {
			s := nanotime()
			if err := unix.TimerfdSettime(fd, 0, &spec, nil); err != nil {
				return s, nanotime(), fmt.Errorf("timerfd_settime: %w", err)
			}
			if stop.isSet() {
				return s, s, errStopped
			}
			for {
				_, err := unix.Read(fd, buf[:])
				if err == nil {
					break
				}
				if !errors.Is(err, unix.EINTR) {
					return s, nanotime(), fmt.Errorf("read(timerfd): %w", err)
				}
			}
			if stop.isSet() {
				return s, s, errStopped
			}
			return s, nanotime(), nil
		}, interrupt: func() {
			mu.Lock()
			defer mu.Unlock()
			if !closed {
				now := unix.ItimerSpec{Value: unix.Timespec{Nsec: 1}}
				_ = unix.TimerfdSettime(fd, unix.TFD_TIMER_ABSTIME, &now, nil)
			}
		}, cleanup: func() {
			mu.Lock()
			defer mu.Unlock()
			closed = true
			unix.Close(fd)
		}}, nil
	}
	for _, m := range []mechanism{
		{name: "nanosleep", setup: nanosleep},
		{name: "clock_nanosleep(ABS)", setup: clockNanosleepAbs},
		{name: "timerfd", setup: timerfd},
	} {
		m.locked = true
		ms = append(ms, m)
		m.name += "+slack1ns"
		m.threadSlack = 1
		ms = append(ms, m)
	}
	ms = append(ms, rest...)
	// delay.Sleep holding the last stretch before its spin
	// (Options.MaxHold) instead of parking until the spin.
	hold := NewSleeper(Options{MaxHold: suggestedMaxHold})
	return append(ms, mechanism{name: "delay.Sleep(hold)", setup: func(d time.Duration, _ *stopFlag) (*waiter, error) {
		return simpleWaiter(func() (int64, int64, error) { return sleeperWait(hold, d) }), nil
	}})
}
