package bench

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/chronograph/chronograph/clock"
	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// Benchmark is the outcome of one benchmark.
type Benchmark struct {
	// Name is the benchmark's name; Params the parameters of its case.
	Name   string
	Params map[string]string
	// Start and End are the wall-clock times the measurement began and
	// ended (its durations come from Clock).
	Start, End time.Time
	// Clock names the clock that timed the samples, and Probe its observed
	// tick and read cost.
	Clock string
	Probe clockProbe
	// CPUClock describes the clock of the thread CPU times
	// (clock.ThreadCPUClock: CLOCK_THREAD_CPUTIME_ID, or GetThreadTimes
	// on Windows).
	CPUClock clock.CPUClock
	// Target is the sample duration asked for (Options.Target); GoalNs the
	// one aimed at (the larger of Target and 1000 times the clock's tick
	// and read cost); Iterations is the calibrated count per sample before
	// the 0-20 % jitter.
	Target     time.Duration
	GoalNs     float64
	Iterations uint64
	// Samples are the measured samples, in order. Calibration and Warmup
	// are the discarded ones, kept for the record (Warmup holds the
	// warm-up after calibration and the first sample of every later
	// block).
	Samples     []Sample
	Calibration []Sample
	Warmup      []Sample
	// NsPerOp summarizes the samples' wall time per iteration, and P99 is
	// the 99th percentile of the per-sample means (linear definition): of
	// batch means, not of single operations (see Latency for those).
	NsPerOp stats.Summary
	P99     float64
	// CI is the 95 % interval of the median ns/op (zero when there are too
	// few samples), meant to hold for the next invocation too: see
	// stats.PlacedMedianCI, over the samples, their blocks (each a fresh
	// invocation on its own CPU) and their CPUs. CI.Method says which
	// parts it joins.
	CI stats.Interval
	// Placement says where the benchmark's thread ran: whether it was
	// pinned, the blocks' sizes and CPUs, the blocks' medians, the
	// samples' medians per CPU (of the samples that stayed on one CPU),
	// whether two CPUs differ by more than 5 % (stats.PlacedMedianCI; a
	// warning then lists them and CI spans them), and how many samples
	// changed CPU during the sample.
	Placement result.FunctionPlacement
	// CPUPerWall is the thread's CPU time over wall time across all
	// samples (1 = always running; less = preempted or blocked), with the
	// CPU time net of the CPU clock's own reads (Overhead.CPUReadNs); -1
	// when CPU time is unavailable.
	CPUPerWall float64
	// AllocsPerOp and BytesPerOp are the allocations and bytes of all the
	// measured samples over all their iterations (testing.B's figures
	// before its integer division: benchtest reports them divided as
	// testing divides them).
	AllocsPerOp float64
	BytesPerOp  float64
	// Overhead is the cost of measuring, measured in the same run:
	//   - LoopNsPerOp is the median wall time per iteration of an empty
	//     loop of the same shape, run with the same iteration count (at
	//     most ~2 ms per sample) in the same run, after a short warm-up.
	//     The same loop instructions cost up to ~2x more at another code
	//     address (branch prediction, fetch alignment), so it is measured
	//     at two placements: LoopNsPerOp is the lower median,
	//     LoopNsPerOpHigh the higher. The noise-floor warning uses the
	//     higher.
	//   - TimerPairNs is the cost of one StopTimer/StartTimer pair on the
	//     benchmark's thread, measured before calibration;
	//     TimerPairInsideNs is the part of it that falls inside the timed
	//     region (not subtracted from the wall time).
	//   - CPUReadNs is the thread CPU time that reading the thread's CPU
	//     clock adds to a timed segment (a system call: its part after the
	//     first reading and before the last; 0.2-1.5 µs on the hosts seen
	//     so far), measured on the benchmark's thread at the start of
	//     every block (the median of 99 empty segments; the median over
	//     blocks here) and subtracted from Sample.CPUNs once per timed
	//     segment (a sample has one, plus one per StopTimer); CPUReadMADNs
	//     is the scaled MAD of the empty segments (the median over
	//     blocks): the uncertainty of one segment's correction. Both are
	//     nil when CPU time is unavailable.
	// NetNsPerOp is the median ns/op minus LoopNsPerOp, set only when that
	// subtraction is meaningful: when the median is well above the loop's
	// cost (more than twice), since a body that overlaps with the loop's
	// compare and branch in the pipeline does not add their costs. NsPerOp
	// is never corrected (as with testing.B). PossiblyOptimizedAway is set
	// when the median ns/op is within twice the empty loop's cost (a
	// warning says so too): the body may have been optimized away, or is
	// at the noise floor.
	Overhead              result.FunctionOverhead
	NetNsPerOp            *float64
	PossiblyOptimizedAway bool
	// Cold holds the single-shot first iterations of fresh invocations
	// (Options.Cold); Latency the per-operation mode (Options.Latency);
	// Parallel the parallel mode (Options.Parallel).
	Cold     []Sample
	Latency  *Latency
	Parallel *Parallel
	// Counters summarizes the events of Options.Counters that were
	// counted, per operation and net of an empty sample's counts; IPC is
	// the instructions per cycle of the samples (net counts; nil unless
	// both were counted). CountersUnavailable lists the events that were
	// not counted, with the reason: they are never shown as 0.
	Counters            []Counter
	IPC                 *stats.Summary
	CountersUnavailable []result.FunctionCounterUnavailable
	// Instructions describes how the instruction mode (Options.Instructions)
	// counted, and Simulated holds its figures per iteration, one value per
	// repeat: "instructions" and, with the cache simulation, "l1_misses",
	// "ll_misses" and "estimated_cycles". Both are nil otherwise, and in
	// the instruction mode Samples is empty (Calibration holds the native
	// ramp that sized the regions).
	// In the instruction mode, Counters and CountersUnavailable hold the
	// hardware's counts of Instructions.Hardware, counted natively over
	// HardwareSamples (samples of Iterations iterations).
	Instructions    *result.FunctionInstructionsMode
	Simulated       []SimulatedFigure
	HardwareSamples []Sample
	// Warnings say what weakens the figures and what to do about it. The
	// environment's warnings (frequency scaling, a hypervisor, the race
	// detector) are not among them: they are in the document's
	// environment (Document).
	Warnings []warn.Warning
	// Incomplete is set when the budget ran out before all samples.
	Incomplete bool
	// Profile is the CPU profile of the measured samples (Options.Profile;
	// nil without it, or when it could not be recorded: a warning says
	// why), in pprof's type: write it with profiles.Write, or beside the
	// document with SaveProfiles. Its values cover the iterations of
	// Samples (ProfileIterations, their sum), by which a comparison
	// divides them (profiles.Compare).
	Profile *profile.Profile
	// profileAll is the whole profile Profile was filtered from, every
	// phase's samples (for tests of the filter).
	profileAll *profile.Profile
}

// ProfileIterations returns the iterations of the measured samples, what
// Profile's values cover.
func (r *Benchmark) ProfileIterations() float64 {
	var n uint64
	for _, s := range r.Samples {
		n += s.Iterations
	}
	return float64(n)
}

// setProfile keeps the whole profile and its measured samples.
func (r *Benchmark) setProfile(whole *profile.Profile) {
	r.profileAll, r.Profile = whole, measuredOnly(whole)
}

// setTimerPair records the cost of a StopTimer/StartTimer pair.
func (r *Benchmark) setTimerPair(p timerPair) {
	r.Overhead.TimerPairNs, r.Overhead.TimerPairInsideNs = p.Total, p.Inside
}

// setCPURead records the medians of the blocks' CPU clock read probes
// (none when no block could read the CPU clock).
func (r *Benchmark) setCPURead(reads []cpuRead) {
	var ns, mad []float64
	for _, c := range reads {
		if c.OK {
			ns, mad = append(ns, c.NsPerSegment), append(mad, c.MADNs)
		}
	}
	r.Overhead.CPUReadNs, r.Overhead.CPUReadMADNs = nil, nil
	if len(ns) > 0 {
		n, m := stats.Median(ns), stats.Median(mad)
		r.Overhead.CPUReadNs, r.Overhead.CPUReadMADNs = &n, &m
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
func Run(name string, f func(*B), opts *Options) (*Benchmark, error) {
	return runCase(Case{Name: name, F: f}, opts)
}

// RunCases measures each case in turn, as Run does. In an
// instruction-counting child (see Instructions) it skips the cases that
// were not requested.
func RunCases(cases []Case, opts *Options) ([]*Benchmark, error) {
	var out []*Benchmark
	for _, c := range cases {
		r, err := runCase(c, opts)
		if errors.Is(err, ErrSkipped) {
			continue
		}
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
	// cpuClock describes the thread CPU clock.
	cpuClock clock.CPUClock
	goal     float64 // ns
	notes    []warn.Warning
	rng      *rand.Rand
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
		var note *warn.Warning
		s.clk, note = resolveClock(opts.Clock)
		if note != nil {
			s.notes = append(s.notes, *note)
		}
	}
	s.cpuClock = clock.ThreadCPUClock()
	if opts.cpuClock != nil {
		s.cpuClock = *opts.cpuClock
	}
	s.probe = probeFor(s.clk)
	s.goal = max(float64(opts.Target), 1000*s.probe.TickNs, 1000*s.probe.ReadNs)
	s.rng = rand.New(rand.NewPCG(opts.Seed, 0x62656e6368)) // "bench"
	return s, nil
}

// jitterMax is the largest share of the calibrated iterations a sample
// adds at random: each runs n·(1+u) iterations, u uniform in [0,
// jitterMax).
const jitterMax = 0.2

// jitter returns n increased by a random 0-20 %.
func (s *setup) jitter(n uint64) uint64 {
	return n + uint64(float64(float64(n)*jitterMax*s.rng.Float64()))
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

func runCase(c Case, o *Options) (*Benchmark, error) {
	if c.F == nil {
		return nil, fmt.Errorf("bench: %s: nil benchmark function", c.Name)
	}
	if child, err := inChild(c, o); child {
		return nil, err
	}
	s, err := newSetup(o)
	if err != nil {
		return nil, err
	}
	if s.opts.Instructions != nil {
		return runInstructions(c, s)
	}
	res := s.newResult(c)
	pl := s.plan(s.opts.Samples)
	tStart := res.Start

	if s.opts.Cold > 0 {
		if res.Cold, err = measureCold(c.F, s, s.opts.pinCPU()); err != nil {
			return nil, fmt.Errorf("%w (cold mode of %s)", err, c.Name)
		}
	}

	r := start(c.F, s.clk, &s.opts, pl.cpu(0))
	first := r // its counters' state stands for all blocks'
	fail := func(err error) (*Benchmark, error) {
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
	res.setTimerPair(rep.pair)
	reads := []cpuRead{rep.cpuRead}
	r.phase = PhaseCalibration
	n, trials, err := calibrate(r, s.goal)
	if err != nil {
		return fail(err)
	}
	res.Calibration, res.Iterations = trials, n

	// Warm-up: discarded samples at the calibrated count.
	r.phase = PhaseWarmup
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
	if s.opts.MinDuration > 0 && len(res.Warmup) > 0 {
		per := time.Duration(stats.Median(wallsOf(res.Warmup)))
		left := s.opts.MinDuration - time.Since(tStart) - time.Duration(len(pl.sizes)-1)*per
		if need := int(left/max(per, 1)) + 1; per > 0 && need > s.opts.Samples {
			pl = s.plan(need)
		}
	}

	// The measured samples, in blocks: block 0 continues the warmed-up
	// invocation; every later block is a fresh invocation on the plan's
	// next CPU, re-warmed with one discarded sample. The testing.B adapter
	// adds blocks until its -benchtime has passed.
	// With Options.Profile the CPU profile runs from here to the last
	// measured sample; what lies between (the later blocks' probes and
	// re-warming samples) is labelled as such and filtered out.
	prof, note := startProfile(&s.opts)
	if note != nil {
		res.Warnings = append(res.Warnings, *note)
	}
	defer prof.stop() // on failure; a no-op after the stop below
	t0 = time.Now()
	taken := 0
blocks:
	for j := 0; j < len(pl.sizes) || time.Since(tStart) < s.opts.MinDuration; j++ {
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
			r.phase = PhaseWarmup
			smp, err := r.sample(s.jitter(n))
			if err != nil {
				return fail(err)
			}
			res.Warmup = append(res.Warmup, smp)
		}
		r.phase = PhaseSample
		for i := 0; i < pl.size(j); i++ {
			if s.opts.Budget > 0 && taken >= minSamples && time.Since(t0) >= s.opts.Budget {
				res.Incomplete = true
				res.Warnings = append(res.Warnings, warn.New(warnBudget,
					fmt.Sprintf("the budget of %v ran out after %d of %s", s.opts.Budget, taken, plural.Count(s.opts.Samples, "sample")),
					"raise Options.Budget or lower Options.Target"))
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
	whole, err := prof.stop()
	if err != nil {
		return nil, fmt.Errorf("%w (benchmark %s)", err, c.Name)
	}
	res.setProfile(whole)
	res.setCPURead(reads)
	res.Placement = pl.placement(res.Samples)

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
	res.End = time.Now()
	return res, nil
}

// newResult returns the result of case c before any measurement.
func (s *setup) newResult(c Case) *Benchmark {
	r := &Benchmark{Name: c.Name, Params: c.Params, Start: time.Now(), Clock: s.clk.name, Probe: s.probe, CPUClock: s.cpuClock,
		Target: s.opts.Target, GoalNs: s.goal}
	r.Warnings = append(r.Warnings, s.notes...)
	return r
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
		b.n++
		b.n *= 3
		b.n ^= 0x5bd1e995
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
	ne := uint64(float64(float64(n) * min(1, 2e6/s.goal)))
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

// The codes of the warnings of a Benchmark (warn.Warning.Code).
const (
	warnNoiseFloor       = "noise-floor"          // possibly optimized away
	warnCPUsDiffer       = "cpus-differ"          // the CPUs' medians differ
	warnMigrations       = "migrations"           // samples changed CPU mid-sample
	warnCPURead          = "cpu-read-dominates"   // the CPU clock's reads are most of the CPU time
	warnPreempted        = "preempted"            // the thread ran only part of the wall time
	warnInvoluntary      = "involuntary-switches" // other threads took the CPU
	warnGC               = "gc-in-samples"        // garbage collection ran in samples
	warnStopTimer        = "stop-timer"           // StopTimer/StartTimer's cost inside the timed region
	warnBudget           = "budget-exhausted"     // fewer samples than asked
	warnTSCUnavailable   = "tsc-unavailable"      // ClockTSC asked, monotonic used
	warnCPUTimeCoarse    = "cpu-time-coarse"      // thread CPU time charged at clock interrupts (Windows)
	warnProfile          = "profile-unavailable"  // Options.Profile asked, another profile running
	warnLatencyBelowRead = "latency-below-read"   // single operations dominated by the clock read
	warnLatencyFewOps    = "latency-few-ops"      // too few operations for p99.9
)

// analyze computes the summaries and warnings.
func (r *Benchmark) analyze(s *setup) {
	xs := nsPerOps(r.Samples)
	res := r.perOpResolution()
	r.NsPerOp = stats.Summarize(xs)
	r.NsPerOp.CheckResolution(res)
	pi, err := intervalOf(r.Samples, stats.Confidence)
	if err == nil {
		r.CI = pi.CI
	}
	r.Placement.BlockMedians, r.Placement.PerCPU, r.Placement.CPUsDiffer = pi.BlockMedians, pi.PerCPU, pi.CPUsDiffer
	if len(xs) > 0 {
		r.P99 = stats.Percentile(xs, 99, stats.Linear)
	}
	r.Placement.Migrations = 0
	for _, smp := range r.Samples {
		if smp.migrated() {
			r.Placement.Migrations++
		}
	}
	var wall, cpu, cpuSub float64
	cpuOK := true
	var allocs, bytes, iters uint64
	gcSamples, involSamples := 0, 0
	for _, smp := range r.Samples {
		wall += smp.WallNs
		if smp.CPUNs < 0 {
			cpuOK = false
		}
		cpu += smp.CPUNs
		cpuSub += smp.CPUReadNs
		allocs, bytes, iters = allocs+smp.Allocs, bytes+smp.Bytes, iters+smp.Iterations
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
	if iters > 0 {
		r.AllocsPerOp, r.BytesPerOp = float64(allocs)/float64(iters), float64(bytes)/float64(iters)
	}

	// Figures in messages: a per-op duration to the clock's resolution,
	// the median to its interval, a percentage to the unit.
	op := func(v float64) string { return unit.Duration(v, unit.Precision{Resolution: res}) }
	pct := func(f float64) string { return unit.Plain(100*f, unit.Precision{Resolution: 1}) + "%" }
	med := r.NsPerOp.Median
	medPrec := unit.Precision{Resolution: res, Uncertainty: (r.CI.Hi - r.CI.Lo) / 2}
	loop := max(r.Overhead.LoopNsPerOp, r.Overhead.LoopNsPerOpHigh)
	r.PossiblyOptimizedAway = false
	if med > noiseFloorFactor*loop {
		net := med - r.Overhead.LoopNsPerOp
		r.NetNsPerOp = &net
	} else if len(xs) > 0 {
		r.PossiblyOptimizedAway = true
		r.Warnings = append(r.Warnings, warn.New(warnNoiseFloor,
			fmt.Sprintf("at the noise floor, possibly optimized away: %s/op is within %dx of an empty loop's %s/op",
				unit.Duration(med, medPrec), noiseFloorFactor, op(loop)),
			"pass results to b.Keep and feed inputs from variables"))
	}
	r.Warnings = append(r.Warnings, r.NsPerOp.Warnings...)
	if r.Placement.CPUsDiffer {
		var parts []string
		for _, c := range r.Placement.PerCPU {
			p := unit.Precision{Resolution: res, Uncertainty: (c.CI.Hi - c.CI.Lo) / 2}
			parts = append(parts, fmt.Sprintf("CPU %d %s/op [%s, %s] (%s)", c.CPU,
				unit.Duration(c.Median, p), unit.Duration(c.CI.Lo, p), unit.Duration(c.CI.Hi, p), plural.Count(c.Samples, "sample")))
		}
		r.Warnings = append(r.Warnings, warn.New(warnCPUsDiffer,
			"the CPUs differ: "+strings.Join(parts, ", ")+": the figure depends on the CPU it runs on, so the interval spans them",
			"pin one CPU (Options.Pin, or taskset -c) to measure it there; `chrono env` compares the CPUs' speeds"))
	}
	if m := r.Placement.Migrations; m > 0 {
		r.Warnings = append(r.Warnings, warn.New(warnMigrations,
			fmt.Sprintf("%d of %s changed CPU mid-sample (Sample.CPU and CPUEnd differ): they are left out of the per-CPU figures", m, plural.Count(len(r.Samples), "sample")),
			"pin with Options.Pin"))
	}
	if cpuOK && cpu+cpuSub > 0 && cpuSub > cpu && r.Overhead.CPUReadNs != nil {
		r.Warnings = append(r.Warnings, warn.New(warnCPURead,
			fmt.Sprintf("the thread CPU time is mostly the cost of reading the CPU clock: %s per timed segment (±%s), %s of the CPU time read, was subtracted, so the CPU figures are only as good as that correction",
				unit.Duration(*r.Overhead.CPUReadNs, unit.Precision{Resolution: 1}), unit.Duration(*r.Overhead.CPUReadMADNs, unit.Precision{Resolution: 1}), pct(cpuSub/(cpu+cpuSub))),
			"prefer Options.Setup/Teardown to StopTimer/StartTimer"))
	}
	if c := s.cpuClock; cpuOK && c.Coarse {
		r.Warnings = append(r.Warnings, warn.NewNote(warnCPUTimeCoarse,
			fmt.Sprintf("the thread CPU time is %s: %s units, but charged at clock interrupts, so a sample's CPU time is a count of timer periods (15.6 ms by default), not a measure of it",
				c.Name, unit.Duration(c.UnitNs, unit.Precision{Resolution: c.UnitNs})),
			"read the wall time, or make samples last many timer periods (Options.Target)"))
	}
	if r.CPUPerWall >= 0 && r.CPUPerWall < 0.9 {
		r.Warnings = append(r.Warnings, warn.New(warnPreempted,
			fmt.Sprintf("the thread ran only %s of the wall time (preempted or blocked)", pct(r.CPUPerWall)),
			"reduce other load, or pin with Options.Pin"))
	}
	if n := len(r.Samples); n > 0 && involSamples*2 > n {
		r.Warnings = append(r.Warnings, warn.New(warnInvoluntary,
			fmt.Sprintf("involuntary context switches in %d of %s: other threads compete for the CPU", involSamples, plural.Count(n, "sample")),
			"stop other load, or pin the benchmark to a quiet CPU (Options.Pin)"))
	}
	if gcSamples > 0 {
		r.Warnings = append(r.Warnings, warn.NewNote(warnGC,
			fmt.Sprintf("garbage collection ran in %d of %s: its cost is part of the figures (%s allocations/op)",
				gcSamples, plural.Count(len(r.Samples), "sample"), unit.Plain(r.AllocsPerOp, unit.Precision{Resolution: 1 / float64(max(r.Iterations, 1))})),
			"allocate less in the loop to measure the code without it"))
	}
	stops := 0
	for _, smp := range r.Samples {
		stops += smp.TimerStops
	}
	if stops > 0 && wall > 0 {
		// Only the part of a pair inside the timed region biases the
		// figures; the rest lengthens the run.
		share := float64(stops) * r.Overhead.TimerPairInsideNs / wall
		r.Warnings = append(r.Warnings, warn.New(warnStopTimer,
			fmt.Sprintf("StopTimer/StartTimer called %s, %s per pair, of which %s fall inside the timed region (~%s of the timed wall time, not subtracted)",
				plural.Count(stops, "time"), unit.Duration(r.Overhead.TimerPairNs, unit.Precision{Resolution: 1}), unit.Duration(r.Overhead.TimerPairInsideNs, unit.Precision{Resolution: 1}),
				unit.Plain(100*share, unit.Precision{})+"%"),
			"prefer Options.Setup/Teardown"))
	}
}

// perOpResolution is the step of one sample's ns/op: the clock's tick
// over the calibrated iterations.
func (r *Benchmark) perOpResolution() float64 {
	return r.Probe.TickNs / float64(max(r.Iterations, 1))
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
