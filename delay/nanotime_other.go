//go:build !windows

package delay

import _ "unsafe" // for go:linkname

// nanotime is the Go runtime's monotonic clock in nanoseconds. On Linux it
// is CLOCK_MONOTONIC read through the vDSO (verified by TestNanotimeIsMonotonicClock);
// elsewhere it is the clock behind time.Time's monotonic readings.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// coarseNow is false: time.Now's monotonic reading is nanotime's clock,
// read when asked.
const coarseNow = false
