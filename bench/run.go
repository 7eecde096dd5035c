package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// Result is the outcome of one benchmark.
type Result struct {
	// Name is the benchmark's name; Params the parameters of its case.
	Name   string            `json:"name"`
	Params map[string]string `json:"params,omitempty"`
	// Clock names the clock that timed the samples, and Probe its observed
	// tick and read cost.
	Clock string     `json:"clock"`
	Probe clockProbe `json:"clock_probe"`
	// GoalNs is the sample duration aimed at (the larger of Options.Target
	// and 1000 times the clock's tick and read cost); Iterations is the
	// calibrated count per sample before the 0-20 % jitter.
	GoalNs     float64 `json:"goal_ns"`
	Iterations uint64  `json:"iterations"`
	// Samples are the measured samples, in order. Calibration and Warmup
	// are the discarded ones, kept for the record (Warmup holds the
	// warm-up after calibration and the first sample of every later
	// block).
	Samples     []Sample `json:"samples"`
	Calibration []Sample `json:"calibration"`
	Warmup      []Sample `json:"warmup"`
	// NsPerOp summarizes the samples' wall time per iteration, and P99 is
	// the 99th percentile of the per-sample means (linear definition): of
	// batch means, not of single operations (see Latency for those).
	NsPerOp stats.Summary `json:"ns_per_op"`
	P99     float64       `json:"p99"`
	// CI is the 95 % interval of the median ns/op (zero when there are too
	// few samples), meant to hold for the next invocation too: the hull of
	// the order-statistic interval of the samples, the Student t interval
	// of the mean of the block medians (BlockMedians; each block is a fresh
	// invocation on its own CPU, so their spread shows what varies between
	// invocations), and, when the CPUs differ (CPUsDiffer), every CPU's
	// interval. CI.Method says which parts it joins.
	CI           stats.Interval `json:"ci"`
	BlockMedians []float64      `json:"block_medians,omitempty"`
	// Placement says where the benchmark's thread ran (pinned, spread over
	// which CPUs, or unknown). PerCPU summarizes the samples per CPU (when
	// the CPUs are known), and CPUsDiffer is set when the medians of two
	// CPUs with at least 3 samples differ by more than
	// CPUDifferThreshold: the figure then depends on where it runs, a
	// warning lists the CPUs, and CI spans them. Migrations counts the
	// samples whose thread changed CPU during the sample (left out of
	// PerCPU).
	Placement  string      `json:"placement"`
	PerCPU     []CPUResult `json:"per_cpu,omitempty"`
	CPUsDiffer bool        `json:"cpus_differ,omitempty"`
	Migrations int         `json:"migrations,omitempty"`
	// CPUPerWall is the thread's CPU time over wall time across all
	// samples (1 = always running; less = preempted or blocked), with the
	// CPU time net of the CPU clock's own reads (Overhead.CPUReadNs); -1
	// when CPU time is unavailable.
	CPUPerWall float64 `json:"cpu_per_wall"`
	// AllocsPerOp and BytesPerOp are the medians over samples.
	AllocsPerOp float64 `json:"allocs_per_op"`
	BytesPerOp  float64 `json:"bytes_per_op"`
	// Overhead is the cost of measuring, measured in the same run.
	Overhead Overhead `json:"overhead"`
	// Cold holds the single-shot first iterations of fresh invocations
	// (Options.Cold); Latency the per-operation mode (Options.Latency);
	// Parallel the parallel mode (Options.Parallel).
	Cold     []Sample  `json:"cold,omitempty"`
	Latency  *Latency  `json:"latency,omitempty"`
	Parallel *Parallel `json:"parallel,omitempty"`
	// Counters summarizes the events of Options.Counters that were
	// counted, per operation and net of an empty sample's counts; IPC is
	// the instructions per cycle of the samples (net counts; nil unless
	// both were counted). CountersUnavailable lists the events that were
	// not counted, with the reason: they are never shown as 0.
	Counters            []Counter            `json:"counters,omitempty"`
	IPC                 *stats.Summary       `json:"ipc,omitempty"`
	CountersUnavailable []CounterUnavailable `json:"counters_unavailable,omitempty"`
	// Warnings say what weakens the figures and what to do about it.
	Warnings []string `json:"warnings,omitempty"`
	// Incomplete is set when the budget ran out before all samples.
	Incomplete bool `json:"incomplete,omitempty"`
}

// Overhead is the cost of measuring.
type Overhead struct {
	// LoopNsPerOp is the median wall time per iteration of an empty loop of
	// the same shape, run with the same iteration count (at most ~2 ms per
	// sample) in the same run, after a short warm-up. The same loop
	// instructions cost up to ~2x more at another code address (branch
	// prediction, fetch alignment), so it is measured at two placements:
	// LoopNsPerOp is the lower median, LoopNsPerOpHigh the higher. The
	// noise-floor warning uses the higher.
	LoopNsPerOp     float64 `json:"loop_ns_per_op"`
	LoopNsPerOpHigh float64 `json:"loop_ns_per_op_high"`
	// NetNsPerOp is the median ns/op minus LoopNsPerOp, and NetValid tells
	// whether that subtraction is meaningful: only when the result is well
	// above the loop's cost (more than twice), since a body that overlaps
	// with the loop's compare and branch in the pipeline does not add their
	// costs. The reported NsPerOp is never corrected (as with testing.B).
	NetNsPerOp float64 `json:"net_ns_per_op"`
	NetValid   bool    `json:"net_valid"`
	// TimerPairNs is the cost of one StopTimer/StartTimer pair on the
	// benchmark's thread, measured before calibration. TimerPairInsideNs
	// is the part of it that falls inside the timed region (not
	// subtracted from the wall time).
	TimerPairNs       float64 `json:"timer_pair_ns"`
	TimerPairInsideNs float64 `json:"timer_pair_inside_ns"`
	// CPUReadNs is the thread CPU time that reading the thread's CPU clock
	// adds to a timed segment (a system call: its part after the first
	// reading and before the last; 0.2-1.5 µs on the hosts seen so far),
	// measured on the benchmark's thread at the start of every block
	// (the median of 51 empty segments; the median over blocks here) and
	// subtracted from Sample.CPUNs once per timed segment (a sample has
	// one, plus one per StopTimer). CPUReadMADNs is the scaled MAD of the
	// empty segments (the median over blocks): the uncertainty of one
	// segment's correction. Both are -1 when CPU time is unavailable.
	CPUReadNs    float64 `json:"cpu_read_ns"`
	CPUReadMADNs float64 `json:"cpu_read_mad_ns"`
}

func (o *Overhead) setTimerPair(p timerPair) {
	o.TimerPairNs, o.TimerPairInsideNs = p.Total, p.Inside
}

// setCPURead records the medians of the blocks' CPU clock read probes.
func (o *Overhead) setCPURead(reads []cpuRead) {
	var ns, mad []float64
	for _, r := range reads {
		if r.OK {
			ns, mad = append(ns, r.NsPerSegment), append(mad, r.MADNs)
		}
	}
	o.CPUReadNs, o.CPUReadMADNs = -1, -1
	if len(ns) > 0 {
		o.CPUReadNs, o.CPUReadMADNs = stats.Median(ns), stats.Median(mad)
	}
}

// Case is one benchmark of a sweep or a comparison.
type Case struct {
	// Name names the case; Params holds its parameters, if any.
	Name   string
	Params map[string]string
	// F is the benchmark function.
	F func(*B)
}

// Sweep returns one case per value, named name/param=value, with the value
// in Params, for size sweeps:
//
//	cases := bench.Sweep("sort", "n", []int{10, 100, 1000}, func(b *bench.B, n int) { ... })
func Sweep[T any](name, param string, values []T, f func(b *B, v T)) []Case {
	cases := make([]Case, 0, len(values))
	for _, v := range values {
		s := fmt.Sprint(v)
		cases = append(cases, Case{
			Name:   name + "/" + param + "=" + s,
			Params: map[string]string{param: s},
			F:      func(b *B) { f(b, v) },
		})
	}
	return cases
}

// Run measures f (see the package documentation for the procedure) with
// the given options (nil for the defaults). It fails when the options are
// invalid or the function does not loop with B.Loop until it returns
// false; a panic in f is returned as an error.
func Run(name string, f func(*B), opts *Options) (*Result, error) {
	return runCase(Case{Name: name, F: f}, opts)
}

// RunCases measures each case in turn, as Run does.
func RunCases(cases []Case, opts *Options) ([]*Result, error) {
	var out []*Result
	for _, c := range cases {
		r, err := runCase(c, opts)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// maxIterations caps the iterations of one sample.
const maxIterations = 1e11

var probeCache sync.Map // *clockSource -> clockProbe

func probeFor(src *clockSource) clockProbe {
	if p, ok := probeCache.Load(src); ok {
		return p.(clockProbe)
	}
	p := probeClock(src)
	probeCache.Store(src, p)
	return p
}

// setup is what every measurement needs first: options, clock, goal.
type setup struct {
	opts  Options
	clk   *clockSource
	probe clockProbe
	goal  float64 // ns
	notes []string
	rng   *rand.Rand
}

func newSetup(o *Options) (*setup, error) {
	opts, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &setup{opts: opts}
	if opts.clock != nil {
		s.clk = opts.clock
	} else {
		var note string
		s.clk, note = resolveClock(opts.Clock)
		if note != "" {
			s.notes = append(s.notes, note)
		}
	}
	s.probe = probeFor(s.clk)
	s.goal = max(float64(opts.Target), 1000*s.probe.TickNs, 1000*s.probe.ReadNs)
	s.rng = rand.New(rand.NewPCG(opts.Seed, 0x62656e6368)) // "bench"
	return s, nil
}

// jitter returns n increased by a random 0-20 %.
func (s *setup) jitter(n uint64) uint64 {
	return n + uint64(float64(n)*0.2*s.rng.Float64())
}

// sampler is what calibration drives: the runner, or a test double.
type sampler interface {
	sample(n uint64) (Sample, error)
}

// calibrate finds the iteration count for samples of goalNs: it runs 1,
// 10, 100, ... iterations until a sample lasts more than a tenth of the
// goal, then predicts the count from that sample's rate. The tenth keeps
// the prediction well founded (the sample is at least 100x the clock's tick
// and read cost, since the goal is at least 1000x) while spending at most
// about 11 % of one goal on the ramp. It returns the count and the trial
// samples.
func calibrate(s sampler, goalNs float64) (uint64, []Sample, error) {
	var trials []Sample
	n := uint64(1)
	for {
		smp, err := s.sample(n)
		if err != nil {
			return 0, trials, err
		}
		trials = append(trials, smp)
		if smp.WallNs > goalNs/10 || n >= maxIterations {
			break
		}
		n *= 10
	}
	last := trials[len(trials)-1]
	if last.WallNs <= 0 {
		return n, trials, nil
	}
	// Multiply first: for fast bodies n/WallNs may be well above 1.
	p := math.Ceil(goalNs * float64(last.Iterations) / last.WallNs)
	return uint64(min(max(p, 1), maxIterations)), trials, nil
}

func runCase(c Case, o *Options) (*Result, error) {
	if c.F == nil {
		return nil, fmt.Errorf("bench: %s: nil benchmark function", c.Name)
	}
	s, err := newSetup(o)
	if err != nil {
		return nil, err
	}
	res := &Result{Name: c.Name, Params: c.Params, Clock: s.clk.name, Probe: s.probe, GoalNs: s.goal}
	res.Warnings = append(res.Warnings, s.notes...)
	pl := s.plan(s.opts.Samples)
	res.Placement = pl.placement
	tStart := time.Now()

	if s.opts.Cold > 0 {
		if res.Cold, err = measureCold(c.F, s, s.opts.pinCPU()); err != nil {
			return nil, fmt.Errorf("%w (cold mode of %s)", err, c.Name)
		}
	}

	r := start(c.F, s.clk, &s.opts, pl.cpu(0))
	first := r // its counters' state stands for all blocks'
	fail := func(err error) (*Result, error) {
		if !r.exited {
			r.finish()
		}
		return nil, fmt.Errorf("%w (benchmark %s)", err, c.Name)
	}
	// The probes come first: the StopTimer/StartTimer pair, and the CPU
	// clock's read cost that the samples' CPU times are corrected for.
	rep, err := r.probe()
	if err != nil {
		return fail(err)
	}
	res.Overhead.setTimerPair(rep.pair)
	reads := []cpuRead{rep.cpuRead}
	n, trials, err := calibrate(r, s.goal)
	if err != nil {
		return fail(err)
	}
	res.Calibration, res.Iterations = trials, n

	// Warm-up: discarded samples at the calibrated count.
	t0 := time.Now()
	for i := 0; ; i++ {
		if s.opts.WarmupSamples > 0 && i >= s.opts.WarmupSamples {
			break
		}
		if s.opts.WarmupSamples == 0 && i > 0 && time.Since(t0) >= s.opts.Warmup {
			break
		}
		smp, err := r.sample(s.jitter(n))
		if err != nil {
			return fail(err)
		}
		res.Warmup = append(res.Warmup, smp)
	}

	// The testing.B adapter needs the measured samples to last until its
	// -benchtime has passed: take as many more as the warm-up samples'
	// durations predict (in the same number of blocks), so that blocks
	// rarely need to be added at the end.
	if s.opts.minDuration > 0 && len(res.Warmup) > 0 {
		per := time.Duration(stats.Median(wallsOf(res.Warmup)))
		left := s.opts.minDuration - time.Since(tStart) - time.Duration(len(pl.sizes)-1)*per
		if need := int(left/max(per, 1)) + 1; per > 0 && need > s.opts.Samples {
			pl = s.plan(need)
		}
	}

	// The measured samples, in blocks: block 0 continues the warmed-up
	// invocation; every later block is a fresh invocation on the plan's
	// next CPU, re-warmed with one discarded sample. The testing.B adapter
	// adds blocks until its -benchtime has passed.
	t0 = time.Now()
	taken := 0
blocks:
	for j := 0; j < len(pl.sizes) || time.Since(tStart) < s.opts.minDuration; j++ {
		if j > 0 {
			if err := r.finish(); err != nil {
				return nil, fmt.Errorf("%w (benchmark %s)", err, c.Name)
			}
			r = start(c.F, s.clk, &s.opts, pl.cpu(j))
			r.block = j
			rep, err := r.probe()
			if err != nil {
				return fail(err)
			}
			reads = append(reads, rep.cpuRead)
			smp, err := r.sample(s.jitter(n))
			if err != nil {
				return fail(err)
			}
			res.Warmup = append(res.Warmup, smp)
		}
		for i := 0; i < pl.size(j); i++ {
			if s.opts.Budget > 0 && taken >= minSamples && time.Since(t0) >= s.opts.Budget {
				res.Incomplete = true
				res.Warnings = append(res.Warnings, fmt.Sprintf(
					"the budget of %v ran out after %d of %d samples: raise Options.Budget or lower Options.Target", s.opts.Budget, taken, s.opts.Samples))
				break blocks
			}
			smp, err := r.sample(s.jitter(n))
			if err != nil {
				return fail(err)
			}
			res.Samples = append(res.Samples, smp)
			taken++
		}
	}
	if err := r.finish(); err != nil {
		return nil, fmt.Errorf("%w (benchmark %s)", err, c.Name)
	}
	res.Overhead.setCPURead(reads)

	loop, empty, err := measureLoopOverhead(s, n, pl.cpu(0))
	if err != nil {
		return nil, err
	}
	res.Overhead.LoopNsPerOp, res.Overhead.LoopNsPerOpHigh = loop.lo, loop.hi
	if len(s.opts.Counters) > 0 {
		res.analyzeCounters(first.counted, first.unavailable, first.notes, counterOverhead(empty))
	}

	if s.opts.Latency {
		if res.Latency, err = measureLatency(c.F, s, s.opts.pinCPU()); err != nil {
			return nil, fmt.Errorf("%w (latency mode of %s)", err, c.Name)
		}
	}
	if s.opts.Parallel > 0 {
		if res.Parallel, err = measureParallel(c.F, s, n); err != nil {
			return nil, fmt.Errorf("%w (parallel mode of %s)", err, c.Name)
		}
	}
	res.analyze(s)
	return res, nil
}

// plan returns the blocks of a measurement of the given number of samples
// (or rounds) and their CPUs.
func (s *setup) plan(samples int) plan {
	return makePlan(samples, s.opts.Blocks, s.opts.pinCPU(), s.opts.platform().allowed(), s.opts.Seed)
}

func emptyLoop(b *B) {
	for b.Loop() {
	}
}

// emptyLoopShifted is emptyLoop with its loop at another code address.
// The cost of the same few loop instructions depends on where they land
// (branch prediction and fetch alignment): on the AMD EPYC VMs here one
// placement runs at ~0.65 ns per iteration and another at ~1.3 ns, with
// identical machine code. Two placements bound the range a benchmark's own
// loop may fall in.
func emptyLoopShifted(b *B) {
	if b.opts == nil { // never true: shifts the loop
		Sink++
		Sink *= 3
		Sink ^= 0x5bd1e995
	}
	for b.Loop() {
	}
}

// loopCost is the empty loop's cost per iteration at the placements
// measured: the lowest and highest median ns/op.
type loopCost struct{ lo, hi float64 }

// measureLoopOverhead measures the empty loop (two code placements) with
// about n iterations per sample and, when Options.Counters are set, empty
// samples (one iteration of the empty loop) whose counts are the
// measuring overhead.
func measureLoopOverhead(s *setup, n uint64, cpu int) (loopCost, []Sample, error) {
	plain := s.opts
	plain.Setup, plain.Teardown = nil, nil
	// Same loop, same per-sample count, but samples of at most ~2 ms of
	// the benchmark's time (and at least 1e5 iterations): the empty loop
	// never needs the full target.
	ne := uint64(float64(n) * min(1, 2e6/s.goal))
	ne = min(max(ne, 100_000), n)
	var cost loopCost
	var empty []Sample
	for k, f := range []func(*B){emptyLoop, emptyLoopShifted} {
		if k > 0 {
			plain.Counters = nil // counted once
		}
		r := start(f, s.clk, &plain, cpu)
		// Warm up by time (a few samples), then take the median.
		var xs []float64
		t0 := time.Now()
		for warm := true; len(xs) < loopSamples; {
			smp, err := r.sample(s.jitter(ne))
			if err != nil {
				r.finish()
				return cost, nil, err
			}
			if warm {
				warm = time.Since(t0) < loopWarmup
				continue
			}
			xs = append(xs, smp.NsPerOp())
		}
		for i := 0; len(plain.Counters) > 0 && i < emptySamples; i++ {
			smp, err := r.sample(1)
			if err != nil {
				r.finish()
				return cost, nil, err
			}
			empty = append(empty, smp)
		}
		if err := r.finish(); err != nil {
			return cost, nil, err
		}
		m := stats.Median(xs)
		if k == 0 {
			cost = loopCost{m, m}
		}
		cost.lo, cost.hi = min(cost.lo, m), max(cost.hi, m)
	}
	return cost, empty, nil
}

// The empty loop's warm-up time and measured samples.
const (
	loopWarmup  = 10 * time.Millisecond
	loopSamples = 7
)

// emptySamples is the number of empty samples whose smallest counts are
// taken as the counters' measuring overhead.
const emptySamples = 15

// measureCold times the first iteration of fresh invocations of f.
func measureCold(f func(*B), s *setup, cpu int) ([]Sample, error) {
	var out []Sample
	for i := 0; i < s.opts.Cold; i++ {
		plain := s.opts
		plain.Counters = nil
		r := start(f, s.clk, &plain, cpu)
		smp, err := r.sample(1)
		if err != nil {
			r.finish()
			return out, err
		}
		out = append(out, smp)
		if err := r.finish(); err != nil {
			return out, err
		}
	}
	return out, nil
}

// Noise-floor factor: results within this factor of the empty loop's cost
// are flagged.
const noiseFloorFactor = 2

// analyze computes the summaries and warnings.
func (r *Result) analyze(s *setup) {
	xs := nsPerOps(r.Samples)
	r.NsPerOp = stats.Summarize(xs)
	r.NsPerOp.CheckResolution(s.probe.TickNs / float64(max(r.Iterations, 1)))
	if ci, bm, per, differ, err := intervalOf(r.Samples, 0.95); err == nil {
		r.CI, r.BlockMedians, r.PerCPU, r.CPUsDiffer = ci, bm, per, differ
	} else {
		r.BlockMedians, r.PerCPU, r.CPUsDiffer = bm, per, differ
	}
	if len(xs) > 0 {
		r.P99 = stats.Percentile(xs, 99, stats.Linear)
	}
	r.Migrations = 0
	for _, smp := range r.Samples {
		if smp.Migrated() {
			r.Migrations++
		}
	}
	var wall, cpu, cpuSub float64
	cpuOK := true
	var allocs, bytes []float64
	gcSamples, involSamples := 0, 0
	for _, smp := range r.Samples {
		wall += smp.WallNs
		if smp.CPUNs < 0 {
			cpuOK = false
		}
		cpu += smp.CPUNs
		cpuSub += smp.CPUReadNs
		allocs = append(allocs, smp.AllocsPerOp())
		bytes = append(bytes, smp.BytesPerOp())
		if smp.GCs > 0 {
			gcSamples++
		}
		if smp.InvolCtxSw > 0 {
			involSamples++
		}
	}
	r.CPUPerWall = -1
	if cpuOK && wall > 0 {
		r.CPUPerWall = cpu / wall
	}
	r.AllocsPerOp = stats.Median(allocs)
	r.BytesPerOp = stats.Median(bytes)

	med := r.NsPerOp.Median
	loop := max(r.Overhead.LoopNsPerOp, r.Overhead.LoopNsPerOpHigh)
	if med > noiseFloorFactor*loop {
		r.Overhead.NetNsPerOp, r.Overhead.NetValid = med-r.Overhead.LoopNsPerOp, true
	} else if len(xs) > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"at the noise floor / possibly optimized away: %.3g ns/op is within %dx of an empty loop (%.3g ns/op); pass results to b.Keep and feed inputs from variables",
			med, noiseFloorFactor, loop))
	}
	for _, w := range r.NsPerOp.Warnings {
		r.Warnings = append(r.Warnings, w.String())
	}
	if r.CPUsDiffer {
		var parts []string
		for _, c := range r.PerCPU {
			parts = append(parts, fmt.Sprintf("CPU %d %s/op [%s, %s] (%d samples)", c.CPU,
				unit.FormatDuration(c.Median, r.resolution()), unit.FormatDuration(c.CI.Lo, r.resolution()), unit.FormatDuration(c.CI.Hi, r.resolution()), c.Samples))
		}
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"the CPUs differ: %s: the figure depends on the CPU it runs on, so the interval spans them; pin one CPU (Options.Pin, or taskset -c) to measure it there; `chrono env` compares the CPUs' speeds",
			strings.Join(parts, ", ")))
	}
	if r.Migrations > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"%d of %d samples changed CPU mid-sample (Sample.CPU and CPUEnd differ): they are left out of the per-CPU figures; pin with Options.Pin", r.Migrations, len(r.Samples)))
	}
	if cpuOK && cpu+cpuSub > 0 && cpuSub > cpu {
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"the thread CPU time is mostly the cost of reading the CPU clock: %s per timed segment (±%s), %.0f%% of the CPU time read, was subtracted; the CPU figures are only as good as that correction: prefer Options.Setup/Teardown to StopTimer/StartTimer",
			unit.FormatDuration(r.Overhead.CPUReadNs, 1), unit.FormatDuration(r.Overhead.CPUReadMADNs, 1), 100*cpuSub/(cpu+cpuSub)))
	}
	if r.CPUPerWall >= 0 && r.CPUPerWall < 0.9 {
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"the thread ran only %.0f%% of the wall time (preempted or blocked): reduce other load, or pin with Options.Pin", 100*r.CPUPerWall))
	}
	if n := len(r.Samples); n > 0 && involSamples*2 > n {
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"involuntary context switches in %d of %d samples: other threads compete for the CPU", involSamples, n))
	}
	if gcSamples > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"garbage collection ran in %d of %d samples: its cost is part of the figures (allocations: %.3g/op)", gcSamples, len(r.Samples), r.AllocsPerOp))
	}
	stops := 0
	for _, smp := range r.Samples {
		stops += smp.TimerStops
	}
	if stops > 0 && wall > 0 {
		// Only the part of a pair inside the timed region biases the
		// figures; the rest lengthens the run.
		share := float64(stops) * r.Overhead.TimerPairInsideNs / wall
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"StopTimer/StartTimer called %d times, %.3g ns per pair, of which %.3g ns fall inside the timed region (~%.2g%% of the timed wall time, not subtracted): prefer Options.Setup/Teardown",
			stops, r.Overhead.TimerPairNs, r.Overhead.TimerPairInsideNs, 100*share))
	}
	r.Warnings = append(r.Warnings, envWarnings()...)
}

// wallsOf returns the samples' wall times in ns.
func wallsOf(ss []Sample) []float64 {
	xs := make([]float64, 0, len(ss))
	for _, s := range ss {
		xs = append(xs, s.WallNs)
	}
	return xs
}

func nsPerOps(ss []Sample) []float64 {
	xs := make([]float64, 0, len(ss))
	for _, s := range ss {
		xs = append(xs, s.NsPerOp())
	}
	return xs
}
