//go:build darwin

package clock

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

const (
	goMonoPath  = PathLibc
	goMonoBasis = "by construction: the Go runtime calls libc mach_absolute_time on darwin"
	goNowBasis  = "by construction: the Go runtime calls libc clock_gettime and mach_absolute_time on darwin"
	posixPath   = PathLibc
	posixBasis  = "by construction: golang.org/x/sys/unix.ClockGettime calls libc clock_gettime on darwin"
)

func linuxOnly(name string) error {
	return fmt.Errorf("clock: %s is Linux-only: %w", name, ErrUnavailable)
}

func posixSources() []Source {
	return []Source{
		posixClock{name: "CLOCK_REALTIME", id: unix.CLOCK_REALTIME, kind: Wall},
		posixClock{name: "CLOCK_REALTIME_COARSE", kind: Wall, coarse: true, err: linuxOnly("CLOCK_REALTIME_COARSE")},
		posixClock{name: "CLOCK_MONOTONIC", id: unix.CLOCK_MONOTONIC, kind: Elapsed},
		posixClock{name: "CLOCK_MONOTONIC_COARSE", kind: Elapsed, coarse: true, err: linuxOnly("CLOCK_MONOTONIC_COARSE")},
		posixClock{name: "CLOCK_MONOTONIC_RAW", id: unix.CLOCK_MONOTONIC_RAW, kind: Elapsed},
		posixClock{name: "CLOCK_BOOTTIME", kind: Elapsed, err: linuxOnly("CLOCK_BOOTTIME")},
		posixClock{name: "CLOCK_PROCESS_CPUTIME_ID", id: unix.CLOCK_PROCESS_CPUTIME_ID, kind: CPUTime},
		posixClock{name: "CLOCK_THREAD_CPUTIME_ID", id: unix.CLOCK_THREAD_CPUTIME_ID, kind: CPUTime, perThread: true},
	}
}

// The calibration reference on darwin is Go's monotonic clock
// (mach_absolute_time, not slewed).
const refName = "go-monotonic"

func refNanos() (int64, error) { return int64(time.Since(base)), nil }

// clockGetres: golang.org/x/sys/unix does not wrap clock_getres on darwin.
func clockGetres(int32) (int64, error) {
	return 0, fmt.Errorf("clock_getres is not wrapped by golang.org/x/sys on darwin: %w", ErrUnavailable)
}
