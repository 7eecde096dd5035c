//go:build linux

package delay

import (
	"errors"
	"fmt"
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
	nanosleep := func(d time.Duration) (func() (int64, int64), func(), error) {
		return func() (int64, int64) {
			s := nanotime()
			ts := unix.NsecToTimespec(int64(d))
			for {
				var rem unix.Timespec
				err := unix.Nanosleep(&ts, &rem)
				if !errors.Is(err, unix.EINTR) {
					break
				}
				ts = rem
			}
			return s, nanotime()
		}, func() {}, nil
	}
	clockNanosleepAbs := func(d time.Duration) (func() (int64, int64), func(), error) {
		return func() (int64, int64) {
			s := nanotime()
			_ = sleepAbs(s + int64(d))
			return s, nanotime()
		}, func() {}, nil
	}
	timerfd := func(d time.Duration) (func() (int64, int64), func(), error) {
		fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_CLOEXEC)
		if err != nil {
			return nil, nil, fmt.Errorf("delay: timerfd_create: %w", err)
		}
		spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
		var buf [8]byte
		return func() (int64, int64) {
			s := nanotime()
			if unix.TimerfdSettime(fd, 0, &spec, nil) == nil {
				for {
					_, err := unix.Read(fd, buf[:])
					if !errors.Is(err, unix.EINTR) {
						break
					}
				}
			}
			return s, nanotime()
		}, func() { unix.Close(fd) }, nil
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
	return append(ms, rest...)
}
