package bench

// Sample is one sample: a run of Iterations iterations of the loop body,
// timed as a whole. Counts that could not be measured on this platform are
// -1 (CPUNs, the context switches and page faults), never a made-up zero.
type Sample struct {
	// Iterations is the number of loop iterations timed.
	Iterations uint64
	// WallNs is the elapsed time of the timed region in nanoseconds, by the
	// result's clock; Ticks the same in the clock's raw units.
	WallNs float64
	Ticks  uint64
	// CPUNs is the CPU time of the benchmark's thread in the timed region
	// (CLOCK_THREAD_CPUTIME_ID), in nanoseconds, net of the CPU clock's
	// own reads: CPUReadNs (Overhead.CPUReadNs per timed segment; a sample
	// has one segment, plus one per StopTimer) was subtracted from the
	// reading, never taking it below 0. CPUNs is -1 when unavailable.
	CPUNs     float64
	CPUReadNs float64
	// CPU and CPUEnd are the CPU the thread ran on at the start and at the
	// end of the timed region (clock.CPU, read right outside it; -1 when
	// unknown): they differ when the thread migrated during the sample.
	// Block is the block of samples the sample belongs to (see
	// Options.Blocks).
	CPU    int
	CPUEnd int
	Block  int
	// Allocs and Bytes count the heap allocations of the whole process in
	// the timed region, exactly, as testing.B counts them
	// (runtime.MemStats Mallocs and TotalAlloc, read outside the timed
	// region; in parallel mode runtime/metrics, which lags by up to a
	// span of objects per reading, as a stopped world would stall the
	// other workers). GCs counts the garbage collection cycles that
	// completed in it.
	Allocs uint64
	Bytes  uint64
	GCs    uint64
	// Voluntary and involuntary context switches, minor and major page
	// faults of the benchmark's thread over the sample (getrusage
	// RUSAGE_THREAD); -1 when unavailable.
	VolCtxSw   int64
	InvolCtxSw int64
	MinFlt     int64
	MajFlt     int64
	// TimerStops counts the StopTimer calls made during the sample.
	TimerStops int
	// Counters holds the counts of Options.Counters over the sample, by
	// event name, as read (scaled by the kernel's enabled/running times
	// when it multiplexed the event), before the empty sample's counts are
	// subtracted (Benchmark.Counters has the net figures). An event that was
	// not counted in the sample is absent, never 0. CountersScaled names
	// the events whose counts were scaled.
	Counters       map[string]float64
	CountersScaled []string
}

// NsPerOp returns the sample's wall time per iteration in nanoseconds.
func (s Sample) NsPerOp() float64 {
	if s.Iterations == 0 {
		return 0
	}
	return s.WallNs / float64(s.Iterations)
}

// cpuNsPerOp returns the thread CPU time per iteration in nanoseconds, or
// -1 when CPU time is unavailable.
func (s Sample) cpuNsPerOp() float64 {
	if s.Iterations == 0 || s.CPUNs < 0 {
		return -1
	}
	return s.CPUNs / float64(s.Iterations)
}

// allocsPerOp returns the heap allocations per iteration.
func (s Sample) allocsPerOp() float64 {
	if s.Iterations == 0 {
		return 0
	}
	return float64(s.Allocs) / float64(s.Iterations)
}

// bytesPerOp returns the heap bytes allocated per iteration.
func (s Sample) bytesPerOp() float64 {
	if s.Iterations == 0 {
		return 0
	}
	return float64(s.Bytes) / float64(s.Iterations)
}

// migrated reports whether the thread was seen on two CPUs during the
// sample (both known and different).
func (s Sample) migrated() bool { return s.CPU >= 0 && s.CPUEnd >= 0 && s.CPU != s.CPUEnd }
