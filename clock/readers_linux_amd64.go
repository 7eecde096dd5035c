//go:build linux && amd64

package clock

import "time"

// On linux/amd64 each reader is an assembly function (readers_linux_amd64.s)
// that calls the vDSO itself: no Go frame between the caller and the vDSO
// call, about 1 ns less than a Go function around it, which is a fifth of
// a COARSE read.

// Monotonic returns CLOCK_MONOTONIC: elapsed time, never stepped, rate
// slewed by NTP by up to 500 ppm. It is the clock Go's time.Since reads.
func Monotonic() (time.Duration, error)

// MonotonicRaw returns CLOCK_MONOTONIC_RAW: elapsed time from the
// clocksource's counter at its calibrated rate, neither stepped nor
// slewed by NTP. Use it to time intervals that NTP must not stretch.
func MonotonicRaw() (time.Duration, error)

// MonotonicCoarse returns CLOCK_MONOTONIC_COARSE: CLOCK_MONOTONIC as of
// the last timer tick (1-10 ms steps, see clock_getres), at a fraction of
// the cost (no counter read).
func MonotonicCoarse() (time.Duration, error)

// Boottime returns CLOCK_BOOTTIME: CLOCK_MONOTONIC plus the time the
// system spent suspended.
func Boottime() (time.Duration, error)

// Realtime returns CLOCK_REALTIME in nanoseconds since the Unix epoch: the
// wall clock, which may be stepped and slewed (never use it for elapsed
// time).
func Realtime() (int64, error)

// RealtimeCoarse returns CLOCK_REALTIME_COARSE in nanoseconds since the
// Unix epoch: CLOCK_REALTIME as of the last timer tick.
func RealtimeCoarse() (int64, error)

// TAI returns CLOCK_TAI in nanoseconds since the Unix epoch: International
// Atomic Time, CLOCK_REALTIME plus the kernel's TAI offset (0 until
// something, e.g. an NTP or PTP daemon, sets it: see adjtimex).
func TAI() (int64, error)

// vdsoClockGettimeFn is vdso.clockGettime, where the assembly readers load
// it (0: no vDSO, the assembly makes the system call).
//
//lint:ignore U1000 read by readers_linux_amd64.s
var vdsoClockGettimeFn = vdso.clockGettime

// readFailed is called by the assembly readers when clock_gettime
// returned errno (negated).
func readFailed(id int32, errno int32) error { return readError(clockNames[id], errno) }

// clockNames names the clock ids of the readers.
var clockNames = map[int32]string{
	idMonotonic:       "CLOCK_MONOTONIC",
	idMonotonicRaw:    "CLOCK_MONOTONIC_RAW",
	idMonotonicCoarse: "CLOCK_MONOTONIC_COARSE",
	idBoottime:        "CLOCK_BOOTTIME",
	idRealtime:        "CLOCK_REALTIME",
	idRealtimeCoarse:  "CLOCK_REALTIME_COARSE",
	idTAI:             "CLOCK_TAI",
}
