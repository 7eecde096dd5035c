package bench

import (
	"sync"

	"github.com/chronograph/chronograph/clock"
)

// tscSource returns the time-stamp counter as a clock source when it is
// readable and invariant (constant rate in every power state), or nil and
// the reason. The frequency comes from clock.TSCInfo (calibrated once per
// process, ~100 ms, where the hardware does not state it).
var tscSource = sync.OnceValues(func() (*clockSource, string) {
	if ok, reason := clock.TSCAvailable(); !ok {
		return nil, reason
	}
	info, err := clock.TSCInfo()
	if err != nil {
		return nil, err.Error()
	}
	if info.Invariant == nil || !*info.Invariant {
		return nil, "the TSC is not invariant (its rate changes with power states)"
	}
	if info.Hz == 0 {
		return nil, "the TSC frequency is unknown"
	}
	nsPerTick := 1e9 / float64(info.Hz)
	return &clockSource{
		name:   "tsc",
		now:    clock.TSC,
		fenced: clock.TSCFenced,
		// Sample deltas stay far below 2^53 ticks, where float64 is exact.
		ns: func(d uint64) float64 { return float64(d) * nsPerTick },
	}, ""
})

// threadCPUNs returns the CPU time of the calling thread in ns, or -1 when
// it cannot be read on this platform.
func threadCPUNs() int64 {
	d, err := clock.ThreadCPU()
	if err != nil {
		return -1
	}
	return int64(d)
}
