package result

import "github.com/chronograph/chronograph/stats"

// The modes of a function measurement (FunctionDetail.Mode).
const (
	// FunctionBatch: samples of many iterations each, timed as a whole
	// (bench.Run's and bench.Compare's samples).
	FunctionBatch = "batch"
	// FunctionLatency: single operations, each timed on its own.
	FunctionLatency = "latency"
	// FunctionCold: the first iteration of fresh invocations.
	FunctionCold = "cold"
	// FunctionParallel: several invocations at once, each on its own
	// thread.
	FunctionParallel = "parallel"
	// FunctionInstructions: the loop body's instructions per iteration,
	// counted exactly by simulation (valgrind's callgrind) instead of
	// timed (bench.Options.Instructions).
	FunctionInstructions = "instructions"
)

// FunctionRun holds the details of a function document as a whole. It is
// set for the documents of bench.Compare (Compare) and absent otherwise:
// the benchmarks of bench.Run and bench.RunCases are independent
// measurements, whose details are their own (FunctionDetail).
type FunctionRun struct {
	// Compare describes the interleaved rounds of bench.Compare.
	Compare *FunctionCompare `json:"compare,omitempty"`
}

// FunctionCompare describes bench.Compare's rounds: every case ran once
// per round, all with the same iteration count, in an order balanced
// within blocks of rounds. Sample i of every case's batch measurement
// belongs to round i.
type FunctionCompare struct {
	// Cases names the compared batch measurements, the baseline first:
	// every other case is compared with it (the document's Comparisons,
	// recomputed by chrono report from the samples).
	Cases []string `json:"cases"`
	// Iterations is the iteration count of every round before the
	// round's jitter (which is the same for all cases of a round).
	Iterations uint64 `json:"iterations"`
	// Order lists, per round, the order the cases ran in (indexes into
	// Cases).
	Order [][]int `json:"order"`
}

// FunctionDetail holds the details of one measurement of a function
// document. A benchmark has one measurement per mode it was measured in:
// its batch samples (named as the benchmark) and, when asked for, its
// latency, cold and parallel modes (named benchmark + "/" + mode).
//
// Every per-sample figure is a metric of the measurement, in the order
// the samples were taken; a figure that could not be measured on this
// host (thread CPU time, the CPU of a sample, the thread's context
// switches and page faults) has no metric. The metrics of a batch
// measurement:
//
//   - "wall" (ns/op, primary): the sample's wall time per iteration;
//   - "iterations" (count): its iterations; "ticks" (count): its wall
//     time in the clock's raw units;
//   - "cpu_time" (ns/op): the thread's CPU time per iteration, net of the
//     CPU clock's own reads; "cpu_read_subtracted" (ns): what was
//     subtracted from the sample for those reads;
//   - "allocs" (count/op), "bytes" (bytes/op): heap allocations of the
//     process in the timed region, per iteration; "gc_cycles" (count);
//   - "vol_ctx_switches", "invol_ctx_switches", "minor_faults",
//     "major_faults" (count): the thread's getrusage counts;
//   - "timer_stops" (count): StopTimer calls, when there were any;
//   - "cpu", "cpu_end" (cpu): the CPU the thread ran on at the start and
//     the end of the timed region;
//   - one metric per counted event, named as the event (count/op, or
//     ns/op for task-clock and cpu-clock), net of an empty sample's
//     counts; "ipc" (1) when instructions and cycles were both counted.
//
// The metrics of an instruction-mode measurement (one sample per repeat
// of the counts, see FunctionInstructionsMode):
//
//   - "instructions" (count/op, primary): the instructions per iteration
//     callgrind counted, Exact when they grew exactly linearly with the
//     iterations and every repeat counted the same;
//   - "iterations" (count): the iterations the count per iteration is
//     taken over (the last region's less the first's);
//   - with the cache simulation, "l1_misses" and "ll_misses" (count/op):
//     the simulated first-level (instruction and data) and last-level
//     misses per iteration, and "estimated_cycles" (count/op): the cycle
//     estimate of FunctionInstructionsMode.CycleModel.
type FunctionDetail struct {
	// Mode is FunctionBatch, FunctionLatency, FunctionCold,
	// FunctionParallel or FunctionInstructions; Benchmark names the
	// benchmark.
	Mode      string `json:"mode"`
	Benchmark string `json:"benchmark"`
	// Clock is the clock that timed the samples.
	Clock FunctionClock `json:"clock"`

	// Batch mode.
	Calibration *FunctionCalibration `json:"calibration,omitempty"`
	// Warmup holds the discarded warm-up samples: those after calibration
	// and the first sample of every later block.
	Warmup    []FunctionTrial    `json:"warmup,omitempty"`
	Overhead  *FunctionOverhead  `json:"overhead,omitempty"`
	Placement *FunctionPlacement `json:"placement,omitempty"`
	// MedianCI is the interval of the median ns/op as bench computed it
	// (stats.PlacedMedianCI over the samples, their blocks and CPUs;
	// chrono report recomputes it from them); absent with too few samples.
	MedianCI *stats.Interval `json:"median_ci,omitempty"`
	// PossiblyOptimizedAway is set when the median is within twice the
	// empty loop's cost (Overhead): the body may have been optimized away,
	// or is at the noise floor. NetNsPerOp is the median minus the loop's
	// cost, present only when that subtraction means something (the
	// median is more than twice the loop's cost).
	PossiblyOptimizedAway bool     `json:"possibly_optimized_away,omitempty"`
	NetNsPerOp            *float64 `json:"net_ns_per_op,omitempty"`
	// Counters describes the counted events (their per-sample values are
	// metrics), CountersUnavailable the events asked for that could not be
	// counted, with the reason.
	Counters            []FunctionCounter            `json:"counters,omitempty"`
	CountersUnavailable []FunctionCounterUnavailable `json:"counters_unavailable,omitempty"`

	// Latency mode: the metric "latency" (ns, binned) holds the single
	// operations' durations.
	Latency *FunctionLatencyMode `json:"latency,omitempty"`
	// Parallel mode: per sample, "wall" (ns/op, primary) is the sample's
	// elapsed time (first worker's start to last worker's end) over all
	// workers' iterations, "elapsed" (ns) that time, and "worker0",
	// "worker1", ... (ns/op) each worker's own time per iteration.
	Parallel *FunctionParallelMode `json:"parallel,omitempty"`
	// Instructions mode: how the instructions were counted.
	Instructions *FunctionInstructionsMode `json:"instructions,omitempty"`
	// Cold mode has no details: per fresh invocation, "wall" (ns/op, of
	// its one iteration), and "cpu_time", "allocs", "bytes" as in batch
	// mode.
}

// FunctionClock is the clock that timed a benchmark's samples, with its
// observed behaviour.
type FunctionClock struct {
	// Name is e.g. "tsc" or "monotonic (time.Since)".
	Name string `json:"name"`
	// TickNs is the smallest non-zero step seen between two readings, and
	// ReadNs the mean cost of one reading, in ns.
	TickNs float64 `json:"tick_ns"`
	ReadNs float64 `json:"read_ns"`
}

// FunctionCalibration is how a benchmark's iteration count was chosen.
type FunctionCalibration struct {
	// TargetNs is the sample duration asked for (bench.Options.Target);
	// GoalNs the one aimed at: the larger of TargetNs and 1000 times the
	// clock's tick and read cost.
	TargetNs float64 `json:"target_ns"`
	GoalNs   float64 `json:"goal_ns"`
	// Iterations is the calibrated count per sample; each sample runs
	// Iterations × (1 + u) iterations, u uniform in [0, JitterMax), so
	// that samples do not lock onto periodic disturbances.
	Iterations uint64  `json:"iterations"`
	JitterMax  float64 `json:"jitter_max"`
	// Trials are the calibration's samples of 1, 10, 100, ... iterations.
	Trials []FunctionTrial `json:"trials"`
}

// FunctionTrial is a discarded sample: its iterations and wall time (ns).
type FunctionTrial struct {
	Iterations uint64  `json:"iterations"`
	WallNs     float64 `json:"wall_ns"`
}

// FunctionOverhead is the cost of measuring, measured in the same run, in
// ns.
type FunctionOverhead struct {
	// LoopNsPerOp and LoopNsPerOpHigh are the median wall time per
	// iteration of an empty loop of the same shape at two code placements
	// (the lower and the higher).
	LoopNsPerOp     float64 `json:"loop_ns_per_op"`
	LoopNsPerOpHigh float64 `json:"loop_ns_per_op_high"`
	// TimerPairNs is the cost of one StopTimer/StartTimer pair, and
	// TimerPairInsideNs the part of it inside the timed region.
	TimerPairNs       float64 `json:"timer_pair_ns"`
	TimerPairInsideNs float64 `json:"timer_pair_inside_ns"`
	// CPUReadNs is the thread CPU time that reading the CPU clock adds to
	// a timed segment (subtracted once per segment from the metric
	// "cpu_time"), and CPUReadMADNs the scaled MAD of its measurement;
	// both absent when the thread's CPU time cannot be read here.
	CPUReadNs    *float64 `json:"cpu_read_ns,omitempty"`
	CPUReadMADNs *float64 `json:"cpu_read_mad_ns,omitempty"`
}

// FunctionPlacement says where a benchmark's samples ran. The samples are
// taken in blocks, each a fresh invocation of the function on its own
// thread; the metrics' samples are in block order.
type FunctionPlacement struct {
	// Pinned is set when every block was pinned to one CPU on request
	// (bench.Options.Pin).
	Pinned bool `json:"pinned,omitempty"`
	// Allowed is the number of CPUs the process may run on; absent when
	// unknown.
	Allowed int `json:"allowed,omitempty"`
	// BlockSizes holds the number of samples of each block, in order.
	BlockSizes []int `json:"block_sizes"`
	// BlockCPUs holds the CPU each block was pinned to; absent when the
	// blocks were not pinned (the allowed CPUs are unknown here).
	BlockCPUs []int `json:"block_cpus,omitempty"`
	// As bench computed them (chrono report recomputes them from the
	// samples with stats.PlacedMedianCI): the blocks' median ns/op, the
	// median ns/op per CPU, whether two CPUs differ by more than
	// 5 % (stats.PlacedMedianCI), and how many samples changed CPU during
	// the sample (they count for no CPU).
	BlockMedians []float64         `json:"block_medians,omitempty"`
	PerCPU       []stats.CPUMedian `json:"per_cpu,omitempty"`
	CPUsDiffer   bool              `json:"cpus_differ,omitempty"`
	Migrations   int               `json:"migrations,omitempty"`
}

// FunctionCounter describes a counted event (perf_event_open). Its
// per-sample values, net per operation, are the metric named Event when
// every sample counted it; when some did not (the kernel could not
// schedule it), there is no metric and PartialPerOp holds the values of
// the samples that did (their indexes in PartialSamples).
type FunctionCounter struct {
	// Event is the event's perf name (with its modifier, if any), Unit
	// the unit of its count: "count", or "ns" for task-clock and
	// cpu-clock.
	Event string `json:"event"`
	Unit  string `json:"unit"`
	// OverheadPerSample is the count of an empty sample of the same shape
	// (the minimum over several), subtracted from every sample's count
	// before dividing by its iterations (clamped at 0).
	OverheadPerSample float64 `json:"overhead_per_sample"`
	// Samples is the number of samples that counted the event; Scaled is
	// set when a count was extrapolated because the kernel multiplexed
	// the event; Note qualifies the counts (e.g. user space only).
	Samples        int       `json:"samples"`
	Scaled         bool      `json:"scaled,omitempty"`
	Note           string    `json:"note,omitempty"`
	PartialPerOp   []float64 `json:"partial_per_op,omitempty"`
	PartialSamples []int     `json:"partial_samples,omitempty"`
}

// FunctionCounterUnavailable names an event that was asked for but not
// counted, and why.
type FunctionCounterUnavailable struct {
	Event  string `json:"event"`
	Reason string `json:"reason"`
}

// FunctionLatencyMode describes the latency mode: every operation timed
// on its own with the fenced clock read, minus the read overhead.
type FunctionLatencyMode struct {
	// Ops is the number of operations timed, OpsPerSample how many ran
	// per sample (in one invocation).
	Ops          int64  `json:"ops"`
	OpsPerSample uint64 `json:"ops_per_sample"`
	// ReadOverheadNs is the median time of an empty iteration timed the
	// same way, subtracted from every duration (results below zero are
	// recorded as 0).
	ReadOverheadNs float64 `json:"read_overhead_ns"`
	// SignificantDigits is the HDR histogram's precision: every duration
	// is kept to that many significant decimal digits.
	SignificantDigits int `json:"significant_digits"`
}

// FunctionParallelMode describes the parallel mode: Workers invocations
// ran at once, each on its own locked thread, every sample started
// together through a barrier, each worker running Iterations iterations
// per sample.
type FunctionParallelMode struct {
	Workers    int    `json:"workers"`
	Iterations uint64 `json:"iterations"`
}

// FunctionInstructionsMode describes an instruction-mode measurement: the
// program re-executed itself under valgrind's callgrind, which counted
// the instructions of the benchmark's loop on its thread only, in
// regions of Iterations iterations (each measured Repeats times), with
// collection toggled on and off around each region. The count per
// iteration is the difference of the last and the first region's counts
// over the difference of their iterations, which cancels the region's
// fixed cost.
type FunctionInstructionsMode struct {
	// Source labels the counts ("simulated (valgrind callgrind)") and
	// Valgrind names the valgrind that made them ("valgrind-3.19.0");
	// absent when unknown.
	Source   string `json:"source"`
	Valgrind string `json:"valgrind,omitempty"`
	// Iterations are the regions' loop counts, Warmup the iterations run
	// before them with nothing counted, Repeats how many times each
	// count was measured (the metrics hold one sample per repeat).
	Iterations []int `json:"iterations"`
	Warmup     int   `json:"warmup"`
	Repeats    int   `json:"repeats"`
	// Repeatable is set when every repeat of every count counted the
	// same instructions; Linear when the regions' counts (of the repeat
	// with the fewest instructions per count) are exactly a fixed cost
	// plus a whole number of instructions per iteration. Both hold for
	// code whose work does not depend on time, randomness or the
	// allocator's slow paths, and the instructions metric is then Exact.
	Repeatable bool `json:"repeatable"`
	Linear     bool `json:"linear"`
	// Events are callgrind's counts per iteration, event by event, from
	// the repeat with the fewest instructions per count.
	Events []FunctionSimulatedEvent `json:"events"`
	// CacheSim is set when the caches were simulated; Caches describes
	// them (fixed, not this machine's) and CycleModel the model of
	// the "estimated_cycles" metric.
	CacheSim   bool   `json:"cache_sim,omitempty"`
	Caches     string `json:"caches,omitempty"`
	CycleModel string `json:"cycle_model,omitempty"`
	// NativeNsPerOp is the wall time per iteration of the loop run
	// natively (the calibration that sized the regions); SimulatedNsPerOp
	// the same under callgrind (the regions' wall times, differenced as
	// the counts are), and Slowdown their ratio: how many times slower
	// the loop ran under callgrind. Absent (0) when unknown.
	NativeNsPerOp    float64 `json:"native_ns_per_op,omitempty"`
	SimulatedNsPerOp float64 `json:"simulated_ns_per_op,omitempty"`
	Slowdown         float64 `json:"slowdown,omitempty"`
	// LongestRegionNs is the wall time of the longest region under
	// callgrind: a region longer than 10 ms may have been asked to yield
	// by the Go runtime's sysmon, whose scheduling work is then counted.
	LongestRegionNs float64 `json:"longest_region_ns"`
	// Runtime lists the Go runtime settings of the counted program
	// ("GOMAXPROCS=1", "GOGC=off", "GODEBUG=asyncpreemptoff=1").
	Runtime []string `json:"runtime"`
	// Rebuilt says how the program counted was built when it is not the
	// running one (a test binary built with -race or -cover is rebuilt
	// without: their instrumentation would be counted); absent otherwise.
	Rebuilt string `json:"rebuilt,omitempty"`
}

// FunctionSimulatedEvent is one of callgrind's events per iteration of a
// benchmark's loop: Event is named as counters.ParseCachegrind names it
// ("instructions", "Dr", "D1mr", ...), PerOp is the count per iteration,
// Fixed the count of a region beyond its iterations' (the toggles, the
// loop's entry and exit, cold misses), Exact whether every region's count
// is exactly Fixed plus its iterations times a whole PerOp.
type FunctionSimulatedEvent struct {
	Event string  `json:"event"`
	PerOp float64 `json:"per_op"`
	Fixed float64 `json:"fixed"`
	Exact bool    `json:"exact,omitempty"`
}
