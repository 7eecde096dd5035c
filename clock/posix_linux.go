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
)

// id is the clock id of c: Linux's, which the constants are.
func (c POSIX) id() int32 { return int32(c) }

func posixSources() []Source {
	return []Source{
		linuxClock("CLOCK_REALTIME", unix.CLOCK_REALTIME, Wall, false),
		linuxClock("CLOCK_REALTIME_COARSE", unix.CLOCK_REALTIME_COARSE, Wall, true),
		linuxClock("CLOCK_TAI", unix.CLOCK_TAI, Wall, false),
		linuxClock("CLOCK_MONOTONIC", unix.CLOCK_MONOTONIC, Elapsed, false),
		linuxClock("CLOCK_MONOTONIC_COARSE", unix.CLOCK_MONOTONIC_COARSE, Elapsed, true),
		linuxClock("CLOCK_MONOTONIC_RAW", unix.CLOCK_MONOTONIC_RAW, Elapsed, false),
		linuxClock("CLOCK_BOOTTIME", unix.CLOCK_BOOTTIME, Elapsed, false),
		linuxClock("CLOCK_PROCESS_CPUTIME_ID", unix.CLOCK_PROCESS_CPUTIME_ID, CPUTime, false),
		linuxClock("CLOCK_THREAD_CPUTIME_ID", unix.CLOCK_THREAD_CPUTIME_ID, CPUTime, false),
	}
}

// linuxClock describes clock id and how this package reads it: through
// the vDSO when the vDSO serves the clock and was found, else with the
// system call, with the reason as the path basis.
func linuxClock(name string, id int32, kind Kind, coarse bool) posixClock {
	c := posixClock{name: name, id: id, kind: kind, coarse: coarse, perThread: id == unix.CLOCK_THREAD_CPUTIME_ID}
	switch {
	case !vdsoServed(id):
		c.path = PathSyscall
		c.basis = "by construction: the kernel's vDSO does not read CPU-time clocks (its clock_gettime makes the system call, in C programs too), so this package makes the system call"
	case vdso.clockGettime != 0:
		c.viaVDSO = true
		c.path = PathVDSO
		c.basis = "by construction: this package calls the vDSO's " + vdso.clockSym + ", found through AT_SYSINFO_EHDR; " +
			"whether the vDSO itself falls back to the system call on this host is checked by Probe"
	default:
		c.path = PathSyscall
		c.basis = "the system call, because the vDSO is not used: " + vdso.err.Error()
	}
	c.desc = "clock_gettime(" + name + ") system call"
	if c.viaVDSO {
		c.desc = "clock_gettime(" + name + ") through the vDSO"
	}
	return c
}

// refName and refNanos are the reference clock of TSC calibrations:
// CLOCK_MONOTONIC_RAW, which NTP does not slew (CLOCK_MONOTONIC may be
// slewed by up to 500 ppm).
const refName = "CLOCK_MONOTONIC_RAW"

func refNanos() (int64, error) {
	ns, err := clockRead(unix.CLOCK_MONOTONIC_RAW)
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
