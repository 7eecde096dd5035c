//go:build darwin

package clock

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// pathLibc is the Path of a read through a C library call whose
// implementation is not inspected.
const pathLibc = "libc"

const (
	goMonoPath  = pathLibc
	goMonoBasis = "by construction: the Go runtime calls libc mach_absolute_time on darwin"
	goNowBasis  = "by construction: the Go runtime calls libc clock_gettime and mach_absolute_time on darwin"
	posixPath   = pathLibc
	posixBasis  = "by construction: golang.org/x/sys/unix.ClockGettime calls libc clock_gettime on darwin"
)

func linuxOnly(name string) error {
	return fmt.Errorf("clock: %s is Linux-only: %w", name, ErrUnavailable)
}

// id is darwin's clock id of c, or -1 for the Linux-only clocks.
func (c POSIX) id() int32 {
	switch c {
	case Realtime:
		return unix.CLOCK_REALTIME
	case Monotonic:
		return unix.CLOCK_MONOTONIC
	case MonotonicRaw:
		return unix.CLOCK_MONOTONIC_RAW
	}
	return -1
}

func posixSources() []Source {
	c := func(name string, id int32, kind Kind) posixClock {
		return posixClock{name: name, id: id, kind: kind, path: posixPath, basis: posixBasis, desc: "clock_gettime(" + name + ") via libc",
			perThread: id == unix.CLOCK_THREAD_CPUTIME_ID}
	}
	return []Source{
		c("CLOCK_REALTIME", unix.CLOCK_REALTIME, Wall),
		posixClock{name: "CLOCK_REALTIME_COARSE", kind: Wall, coarse: true, err: linuxOnly("CLOCK_REALTIME_COARSE")},
		posixClock{name: "CLOCK_TAI", kind: Wall, err: linuxOnly("CLOCK_TAI")},
		c("CLOCK_MONOTONIC", unix.CLOCK_MONOTONIC, Elapsed),
		posixClock{name: "CLOCK_MONOTONIC_COARSE", kind: Elapsed, coarse: true, err: linuxOnly("CLOCK_MONOTONIC_COARSE")},
		c("CLOCK_MONOTONIC_RAW", unix.CLOCK_MONOTONIC_RAW, Elapsed),
		posixClock{name: "CLOCK_BOOTTIME", kind: Elapsed, err: linuxOnly("CLOCK_BOOTTIME")},
		c("CLOCK_PROCESS_CPUTIME_ID", unix.CLOCK_PROCESS_CPUTIME_ID, CPUTime),
		c("CLOCK_THREAD_CPUTIME_ID", unix.CLOCK_THREAD_CPUTIME_ID, CPUTime),
	}
}

// clockCall: libc's clock_gettime is the only path on darwin.
func clockCall(id int32) (int64, int32) { return clockGettimeErrno(id) }

// The calibration reference on darwin is Go's monotonic clock
// (mach_absolute_time, not slewed).
const refName = "go-monotonic"

func refNanos() (int64, error) { return int64(time.Since(base)), nil }

// clockGetres: golang.org/x/sys/unix does not wrap clock_getres on darwin.
func clockGetres(int32) (int64, error) {
	return 0, fmt.Errorf("clock_getres is not wrapped by golang.org/x/sys on darwin: %w", ErrUnavailable)
}
