//go:build !windows

package clock

import (
	"fmt"
	"runtime"
	"time"
)

// timingNow is the clock that times the probe's batches, brackets its
// coarse reads and bounds its loops: Mono, which resolves nanoseconds
// here; timingName names it in messages.
func timingNow() time.Duration { return Mono() }

const timingName = "Go's monotonic clock"

// Go's clocks count in whole nanoseconds and read a clock that is not
// coarse (on Linux, CLOCK_MONOTONIC and CLOCK_REALTIME through the vDSO).
const (
	goNominalNs   = 1
	goNominalFrom = "unit (time.Duration)"
	goCoarse      = false
)

// The clock of ThreadCPU (ThreadCPUClock).
const (
	threadCPUName   = "CLOCK_THREAD_CPUTIME_ID"
	threadCPUUnitNs = 1
	threadCPUCoarse = false
)

// platformSources are the clocks of this platform besides Go's, the POSIX
// clocks and the counters: none.
func platformSources() []Source { return nil }

// platformHost fills what a survey says of this platform's own timers:
// nothing outside Windows.
func platformHost(*Host) {}

var (
	errNoQPC    = fmt.Errorf("clock: QueryPerformanceCounter is Windows's, not available on %s: %w", runtime.GOOS, ErrUnavailable)
	errNoCycles = fmt.Errorf("clock: QueryThreadCycleTime is Windows's, not available on %s: %w", runtime.GOOS, ErrUnavailable)
)

func qpc() (time.Duration, error)   { return 0, errNoQPC }
func threadCycles() (uint64, error) { return 0, errNoCycles }
