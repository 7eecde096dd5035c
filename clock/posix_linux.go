//go:build linux

package clock

import (
	"fmt"

	"golang.org/x/sys/unix"
)

const (
	goMonoPath  = PathVDSO
	goMonoBasis = "by construction: the Go runtime reads CLOCK_MONOTONIC through the vDSO on Linux (runtime.nanotime1)"
	goNowBasis  = "by construction: the Go runtime reads CLOCK_REALTIME and CLOCK_MONOTONIC through the vDSO on Linux"
	posixPath   = PathSyscall
	posixBasis  = "by construction: golang.org/x/sys/unix.ClockGettime issues the clock_gettime system call (it does not use the vDSO)"
)

func posixSources() []Source {
	return []Source{
		posixClock{name: "CLOCK_REALTIME", id: unix.CLOCK_REALTIME, kind: Wall},
		posixClock{name: "CLOCK_REALTIME_COARSE", id: unix.CLOCK_REALTIME_COARSE, kind: Wall, coarse: true},
		posixClock{name: "CLOCK_MONOTONIC", id: unix.CLOCK_MONOTONIC, kind: Elapsed},
		posixClock{name: "CLOCK_MONOTONIC_COARSE", id: unix.CLOCK_MONOTONIC_COARSE, kind: Elapsed, coarse: true},
		posixClock{name: "CLOCK_MONOTONIC_RAW", id: unix.CLOCK_MONOTONIC_RAW, kind: Elapsed},
		posixClock{name: "CLOCK_BOOTTIME", id: unix.CLOCK_BOOTTIME, kind: Elapsed},
		posixClock{name: "CLOCK_PROCESS_CPUTIME_ID", id: unix.CLOCK_PROCESS_CPUTIME_ID, kind: CPUTime},
		posixClock{name: "CLOCK_THREAD_CPUTIME_ID", id: unix.CLOCK_THREAD_CPUTIME_ID, kind: CPUTime, perThread: true},
	}
}

// refName and refNanos are the reference clock of TSC calibrations:
// CLOCK_MONOTONIC_RAW, which NTP does not slew (CLOCK_MONOTONIC may be
// slewed by up to 500 ppm).
const refName = "CLOCK_MONOTONIC_RAW"

func refNanos() (int64, error) {
	ns, err := clockGettime(unix.CLOCK_MONOTONIC_RAW)
	if err != nil {
		return 0, fmt.Errorf("clock: reading CLOCK_MONOTONIC_RAW: %w", err)
	}
	return ns, nil
}

func clockGetres(id int32) (int64, error) {
	var ts unix.Timespec
	if err := unix.ClockGetres(id, &ts); err != nil {
		return 0, err
	}
	return ts.Nano(), nil
}
