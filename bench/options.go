package bench

import (
	"fmt"
	"time"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/counters"
)

// Options configures a measurement. The zero value (or nil) asks for the
// defaults documented on each field.
type Options struct {
	// Target is the duration of one sample (default 10 ms). A sample also
	// lasts at least 1000 times the clock's observed tick and read cost.
	Target time.Duration
	// Samples is the number of measured samples (default 20).
	Samples int
	// Blocks is the number of blocks the measured samples are taken in
	// (default 4; at most Samples). Each block is a fresh invocation of
	// the function (its setup runs again, on a new thread, so its memory
	// lands elsewhere), on its own CPU (see Pin), and starts with one
	// discarded warm-up sample. Benchmark.CI is built from the blocks'
	// medians as well as the samples, so that it holds what varies between
	// invocations (CPU, memory placement, frequency), not only within one.
	Blocks int
	// Warmup is how long to run discarded warm-up samples after
	// calibration (default 50 ms; at least one sample is run).
	// WarmupSamples, when positive, asks for that many warm-up samples
	// instead.
	Warmup        time.Duration
	WarmupSamples int
	// Budget caps the duration of the measured samples of one benchmark
	// (0: no cap). When it runs out, the result has fewer samples than
	// asked (at least 3) and is marked Incomplete.
	Budget time.Duration
	// Clock is the clock that times samples (default: ClockDefault).
	Clock Clock
	// Pin restricts the benchmark's thread to CPU (Linux only): the
	// figures then hold for that CPU, and Benchmark.Placement says so.
	// Without Pin the blocks are spread over the CPUs the process may run
	// on (each block pinned to one, visiting them in a shuffled order),
	// because CPUs can differ in speed (hybrid cores, a busy SMT sibling,
	// host contention): the result then reports per-CPU medians
	// (Benchmark.Placement.PerCPU) and, when they differ, an interval that
	// spans them.
	// Pin one CPU to measure one (taskset -c has the same effect).
	Pin bool
	CPU int
	// Setup and Teardown run before and after every sample (calibration,
	// warm-up and measured samples), on the benchmark's thread, outside the
	// timed region: prepare fresh input there.
	Setup, Teardown func()
	// Latency adds the per-operation latency mode: every iteration is timed
	// on its own with the fenced clock read, the calibrated cost of the
	// reads is subtracted, and the durations go into an HDR histogram
	// (Benchmark.Latency). Meant for operations of about 100 ns and more; a
	// fresh invocation of the function is used.
	Latency bool
	// Cold, when positive, measures that many cold runs: each starts a
	// fresh invocation of the function (its setup runs again) and times
	// only its first iteration (Benchmark.Cold).
	Cold int
	// Parallel, when positive, adds the parallel mode: that many
	// invocations of the function run at once, each on its own locked
	// thread, started together through a barrier (Benchmark.Parallel).
	Parallel int
	// Counters are the events to count per sample with perf_event_open
	// (nil: none), e.g. counters.DefaultEvents() or
	// counters.ParseEvents("instructions,cycles,branch-misses,task-clock").
	// They are opened once on the benchmark's locked thread, enabled once,
	// and read right before and right after the timed region of every
	// sample (two read system calls per sample, outside the timed region).
	// The counts of an empty sample of the same shape (the reads and the
	// loop's entry and exit) are subtracted, as nanobench does; see
	// Benchmark.Counters. Events this host cannot count (no PMU in a virtual
	// machine, perf_event_paranoid) are listed in
	// Benchmark.CountersUnavailable with the reason, never reported as 0.
	// Counting covers the whole sample, including regions stopped with
	// StopTimer. Only the batch samples are counted (not the latency,
	// cold or parallel modes).
	Counters []counters.Event
	// Instructions, when set, counts the loop body's instructions per
	// iteration exactly, by simulation under valgrind's callgrind, instead
	// of timing it (see Instructions): the result has no wall-time
	// samples. It does not combine with Latency, Cold, Parallel or
	// Counters (the hardware's counts beside the simulation are
	// Instructions.Hardware), and Compare refuses it (its rounds are
	// timed).
	Instructions *Instructions
	// Profile records a CPU profile (runtime/pprof, 100 Hz) of the
	// measured samples only, in Benchmark.Profile (Run and RunCases;
	// Compare refuses it). Calibration, warm-up, the timer probes, the
	// empty loop and the other modes are left out: the profiler runs
	// from the first measured sample to the last, and the benchmark's
	// thread carries the pprof label chrono.bench = calibration, warmup,
	// probe or sample (ProfileLabel) so that only the samples labelled
	// "sample" are kept. Work on other goroutines (the garbage
	// collector's workers, goroutines the function starts, a function
	// that replaces the labels through pprof.Do with a fresh context) is
	// not labelled and so not kept. Only one CPU profile can run in a
	// process: under go test -cpuprofile the profile is not recorded and
	// a warning says so.
	Profile bool
	// Seed seeds the iteration jitter and the interleaving order
	// (default: 1; results are reproducible in their order of work).
	Seed uint64

	// MinDuration, when positive, makes the measured samples continue
	// past Samples, in more blocks, until it has passed since the
	// measurement began (bench/benchtest sets it from -benchtime, so that
	// testing.B sees its benchmark run that long).
	MinDuration time.Duration

	// clock, when set, replaces the clock (tests use a fake one), plat
	// the operating system's threads and CPUs, and cpuClock the
	// description of the thread CPU clock (clock.ThreadCPUClock).
	clock    *clockSource
	plat     *platform
	cpuClock *clock.CPUClock
}

// Defaults.
const (
	defaultTarget  = 10 * time.Millisecond
	DefaultSamples = 20
	defaultWarmup  = 50 * time.Millisecond
	defaultBlocks  = 4
)

// minSamples is the fewest measured samples a budget may cut a run to.
const minSamples = 3

// withDefaults returns a copy of o with defaults filled in, or an error for
// values that make no sense.
func (o *Options) withDefaults() (Options, error) {
	var c Options
	if o != nil {
		c = *o
	}
	switch {
	case c.Target < 0:
		return c, fmt.Errorf("bench: negative Target %v: use a positive duration, or 0 for the default %v", c.Target, defaultTarget)
	case c.Samples < 0:
		return c, fmt.Errorf("bench: negative Samples %d: use a positive count, or 0 for the default %d", c.Samples, DefaultSamples)
	case c.Warmup < 0 || c.WarmupSamples < 0:
		return c, fmt.Errorf("bench: negative warm-up: use a positive Warmup or WarmupSamples, or 0 for the default")
	case c.Blocks < 0:
		return c, fmt.Errorf("bench: negative Blocks %d: use a positive count, or 0 for the default %d", c.Blocks, defaultBlocks)
	case c.Budget < 0:
		return c, fmt.Errorf("bench: negative Budget %v: use a positive duration, or 0 for no cap", c.Budget)
	case c.MinDuration < 0:
		return c, fmt.Errorf("bench: negative MinDuration %v: use a positive duration, or 0 for none", c.MinDuration)
	case c.Cold < 0 || c.Parallel < 0:
		return c, fmt.Errorf("bench: negative Cold or Parallel count: use 0 to turn the mode off")
	case c.Pin && c.CPU < 0:
		return c, fmt.Errorf("bench: negative CPU %d to pin to: use a CPU number from the process's affinity", c.CPU)
	case c.Instructions != nil && (c.Latency || c.Cold > 0 || c.Parallel > 0 || len(c.Counters) > 0):
		return c, fmt.Errorf("bench: Options.Instructions counts instructions instead of timing: it does not combine with Latency, Cold, Parallel or Counters; measure those in a run without it")
	}
	if c.Instructions != nil {
		if err := c.Instructions.check(); err != nil {
			return c, err
		}
	}
	if c.Target == 0 {
		c.Target = defaultTarget
	}
	if c.Samples == 0 {
		c.Samples = DefaultSamples
	}
	if c.Blocks == 0 {
		c.Blocks = defaultBlocks
	}
	if c.Warmup == 0 && c.WarmupSamples == 0 {
		c.Warmup = defaultWarmup
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	return c, nil
}

// pinCPU returns the CPU to pin to, or -1.
func (o *Options) pinCPU() int {
	if o.Pin {
		return o.CPU
	}
	return -1
}

// platform returns the platform to use: the injected one, or the real one.
func (o *Options) platform() *platform {
	if o.plat != nil {
		return o.plat
	}
	return realPlatform
}
