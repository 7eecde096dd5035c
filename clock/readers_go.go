//go:build !(linux && amd64)

package clock

import (
	"fmt"
	"runtime"
	"time"
)

// Monotonic returns CLOCK_MONOTONIC: elapsed time, never stepped, rate
// slewed by NTP by up to 500 ppm. It is the clock Go's time.Since reads.
func Monotonic() (time.Duration, error) {
	if idMonotonic < 0 {
		return 0, unavailableClock("CLOCK_MONOTONIC")
	}
	ns, e := clockCall(idMonotonic)
	if e != 0 {
		return 0, readError("CLOCK_MONOTONIC", e)
	}
	return time.Duration(ns), nil
}

// MonotonicRaw returns CLOCK_MONOTONIC_RAW: elapsed time from the
// clocksource's counter at its calibrated rate, neither stepped nor
// slewed by NTP. Use it to time intervals that NTP must not stretch.
func MonotonicRaw() (time.Duration, error) {
	if idMonotonicRaw < 0 {
		return 0, unavailableClock("CLOCK_MONOTONIC_RAW")
	}
	ns, e := clockCall(idMonotonicRaw)
	if e != 0 {
		return 0, readError("CLOCK_MONOTONIC_RAW", e)
	}
	return time.Duration(ns), nil
}

// MonotonicCoarse returns CLOCK_MONOTONIC_COARSE: CLOCK_MONOTONIC as of
// the last timer tick (1-10 ms steps, see clock_getres), at a fraction of
// the cost (no counter read).
func MonotonicCoarse() (time.Duration, error) {
	if idMonotonicCoarse < 0 {
		return 0, unavailableClock("CLOCK_MONOTONIC_COARSE")
	}
	ns, e := clockCall(idMonotonicCoarse)
	if e != 0 {
		return 0, readError("CLOCK_MONOTONIC_COARSE", e)
	}
	return time.Duration(ns), nil
}

// Boottime returns CLOCK_BOOTTIME: CLOCK_MONOTONIC plus the time the
// system spent suspended.
func Boottime() (time.Duration, error) {
	if idBoottime < 0 {
		return 0, unavailableClock("CLOCK_BOOTTIME")
	}
	ns, e := clockCall(idBoottime)
	if e != 0 {
		return 0, readError("CLOCK_BOOTTIME", e)
	}
	return time.Duration(ns), nil
}

// Realtime returns CLOCK_REALTIME in nanoseconds since the Unix epoch: the
// wall clock, which may be stepped and slewed (never use it for elapsed
// time).
func Realtime() (int64, error) {
	if idRealtime < 0 {
		return 0, unavailableClock("CLOCK_REALTIME")
	}
	ns, e := clockCall(idRealtime)
	if e != 0 {
		return 0, readError("CLOCK_REALTIME", e)
	}
	return ns, nil
}

// RealtimeCoarse returns CLOCK_REALTIME_COARSE in nanoseconds since the
// Unix epoch: CLOCK_REALTIME as of the last timer tick.
func RealtimeCoarse() (int64, error) {
	if idRealtimeCoarse < 0 {
		return 0, unavailableClock("CLOCK_REALTIME_COARSE")
	}
	ns, e := clockCall(idRealtimeCoarse)
	if e != 0 {
		return 0, readError("CLOCK_REALTIME_COARSE", e)
	}
	return ns, nil
}

// TAI returns CLOCK_TAI in nanoseconds since the Unix epoch: International
// Atomic Time, CLOCK_REALTIME plus the kernel's TAI offset (0 until
// something, e.g. an NTP or PTP daemon, sets it: see adjtimex).
func TAI() (int64, error) {
	if idTAI < 0 {
		return 0, unavailableClock("CLOCK_TAI")
	}
	ns, e := clockCall(idTAI)
	if e != 0 {
		return 0, readError("CLOCK_TAI", e)
	}
	return ns, nil
}

//go:noinline
func unavailableClock(name string) error {
	return fmt.Errorf("clock: %s does not exist on %s: %w", name, runtime.GOOS, ErrUnavailable)
}
