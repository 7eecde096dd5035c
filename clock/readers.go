package clock

import (
	"fmt"
	"strconv"
)

// POSIX names one of the POSIX clocks that clock_gettime reads, and
// reads it with Read. The constants are the clocks; their values are
// Linux's clock ids, whatever the platform. Read returns, for the
// elapsed-time clocks (Monotonic, MonotonicRaw, MonotonicCoarse,
// Boottime), a time since an unspecified origin (boot, for Linux):
// subtract two readings of the same clock; for the wall clocks (Realtime,
// RealtimeCoarse, TAI), the time since the Unix epoch (time.Unix(0,
// int64(d)) converts).
//
// Read is a cheap read for code that needs a particular clock (the raw
// clock NTP does not slew, the coarse clocks, the suspend-aware boot
// clock, the wall clocks at their own resolution); for elapsed time in
// general, Mono is the one portable read (it is CLOCK_MONOTONIC, read by
// the Go runtime).
//
// On linux/amd64 Read reads its clock through the kernel's vDSO, as C's
// clock_gettime does, in pure Go (no cgo): about 20-30 ns with
// clocksource tsc, the COARSE clocks 3-6 ns (figures of the VMs this was
// measured on; run scripts/clocks-vs-c.sh for this host's, next to C's).
// The error is nil there except for a kernel that lacks the clock
// (CLOCK_TAI before Linux 3.10). Two cases cost a system call instead
// (0.3-1.5 µs):
//
//   - a host without a vDSO (the kernel did not map one), and
//   - a clocksource the vDSO cannot read (hpet, acpi_pm, kvm-clock
//     without its stable bit): the vDSO then makes the system call
//     itself, in C programs too. `chrono clocks` (Probe) detects this and
//     labels the clock "syscall".
//
// On linux/arm64 (and other Linux architectures) Read makes the
// clock_gettime system call: there the Go runtime's signal handler could
// not find the goroutine of a signal arriving during a vDSO call made
// outside the runtime (see vdso_linux_other.go). On darwin the clocks
// darwin has are read through libc; the Linux-only clocks (COARSE,
// BOOTTIME, TAI) and every clock on other systems return an error
// wrapping ErrUnavailable.
type POSIX int32

// The POSIX clocks Read reads.
const (
	// Realtime is CLOCK_REALTIME: the wall clock, which may be stepped
	// and slewed (never use it for elapsed time).
	Realtime POSIX = 0
	// Monotonic is CLOCK_MONOTONIC: elapsed time, never stepped, rate
	// slewed by NTP by up to 500 ppm. It is the clock Go's time.Since
	// (and Mono) reads.
	Monotonic POSIX = 1
	// MonotonicRaw is CLOCK_MONOTONIC_RAW: elapsed time from the
	// clocksource's counter at its calibrated rate, neither stepped nor
	// slewed by NTP. Use it to time intervals that NTP must not stretch.
	MonotonicRaw POSIX = 4
	// RealtimeCoarse is CLOCK_REALTIME_COARSE: CLOCK_REALTIME as of the
	// last timer tick.
	RealtimeCoarse POSIX = 5
	// MonotonicCoarse is CLOCK_MONOTONIC_COARSE: CLOCK_MONOTONIC as of the
	// last timer tick (1-10 ms steps, see clock_getres), at a fraction of
	// the cost (no counter read).
	MonotonicCoarse POSIX = 6
	// Boottime is CLOCK_BOOTTIME: CLOCK_MONOTONIC plus the time the system
	// spent suspended.
	Boottime POSIX = 7
	// TAI is CLOCK_TAI: International Atomic Time, CLOCK_REALTIME plus the
	// kernel's TAI offset (0 until something, e.g. an NTP or PTP daemon,
	// sets it: see adjtimex).
	TAI POSIX = 11
)

// posixNames are the names of the POSIX clocks, as Sources names them.
var posixNames = map[POSIX]string{
	Realtime:        "CLOCK_REALTIME",
	Monotonic:       "CLOCK_MONOTONIC",
	MonotonicRaw:    "CLOCK_MONOTONIC_RAW",
	RealtimeCoarse:  "CLOCK_REALTIME_COARSE",
	MonotonicCoarse: "CLOCK_MONOTONIC_COARSE",
	Boottime:        "CLOCK_BOOTTIME",
	TAI:             "CLOCK_TAI",
}

// String returns the clock's POSIX name ("CLOCK_MONOTONIC_RAW"), the
// name of its source in Sources and of its measurement in a survey.
func (c POSIX) String() string {
	if name, ok := posixNames[c]; ok {
		return name
	}
	return "clock id " + strconv.Itoa(int(c))
}

//go:noinline
func readError(name string, e int32) error {
	return fmt.Errorf("clock: reading %s: %w", name, errnoError(e))
}
