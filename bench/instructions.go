package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/internal/thread"
	"github.com/chronograph/chronograph/internal/valgrind"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// Instructions configures the instruction mode (Options.Instructions):
// instead of timing the loop, the program re-executes itself under
// valgrind's callgrind, which counts exactly the instructions the loop
// body executes per iteration, on the benchmark's thread, and nothing of
// the calibration, the warm-up, the harness's setup or the runtime's
// start-up. The count does not depend on the machine's load, so it is
// the same run after run on a shared CI machine.
//
// How: the parent runs the benchmark natively for a moment (the
// calibration ramp) to size the regions, then re-executes Argv under
// valgrind --tool=callgrind --collect-atstart=no --instr-atstart=no with
// GOMAXPROCS=1, GOGC=off and GODEBUG=asyncpreemptoff=1 (callgrind 3.19
// aborts on Go's signal-based preemption) and the region to count in the
// environment. In that child, Run (or RunCases) of the benchmark of the
// same name runs the function on a locked thread, turns the garbage
// collector off, runs Warmup iterations with nothing counted, then for
// each region count n: yields, toggles callgrind's collection on (a
// client request: valgrind's magic instruction sequence, from Go
// assembly), lets B.Loop return true n times, toggles collection off and
// dumps the counts; then the child exits. Run in the child for any other
// benchmark returns ErrSkipped (RunCases skips them). The parent reads the
// dumps: the count per iteration is the difference of the last and the
// first region's counts over the difference of their iterations, which
// cancels each region's fixed cost exactly (the toggles, B.Loop's slow
// path, the loop's entry and exit).
//
// What is counted: the body and B.Loop's fast path (a load, a test, a
// branch, a decrement, a store and the jump back per iteration: 6
// instructions on amd64, the empty loop's count; the count is the body's
// plus those), the functions the body calls, the
// allocator and the runtime code that runs on the thread because of the
// body (allocation, stack growth, write barriers). Not counted: the
// garbage collector (off), the runtime's other threads (sysmon), signal
// handlers, goroutines the body starts (they run on other threads) and
// the kernel's side of system calls. Between StopTimer and StartTimer
// nothing is counted (the pair toggles collection, a few instructions of
// its own per pair). The sysmon of the Go runtime asks a goroutine that
// has run for 10 ms of wall time to yield, and the scheduler's work is
// then counted (about 1,100 instructions): the regions are sized to last
// about a millisecond under callgrind, each is measured Repeats times,
// and the counts are those of the repeat with the fewest instructions.
//
// A program built with -race or -cover counts its instrumentation (14
// times the instructions of a sum loop under -race): count a build
// without them (bench/benchtest rebuilds the test binary).
type Instructions struct {
	// Argv is the command line that re-executes this program so that it
	// reaches this benchmark's Run or RunCases without doing anything
	// else that matters (default: the running executable with os.Args'
	// arguments). bench/benchtest sets it to the test binary with -test
	// flags that run this benchmark alone.
	Argv []string
	// Env is added to the re-executed program's environment.
	Env []string
	// CacheSim turns on callgrind's cache simulation (fixed caches: I1
	// and D1 32 KiB 8-way, LL 8 MiB 16-way): the result then also has
	// the simulated L1 and last-level misses per iteration and an
	// estimated cycle count (iai-callgrind's model: 1 cycle per L1 hit, 5
	// per last-level hit, 35 per memory access). They depend on where
	// code and data lie in memory, so unlike the instruction count they
	// change between builds. It slows callgrind down further.
	CacheSim bool
	// Iterations are the regions' loop counts: at least two, positive
	// and increasing; three or more also check that the counts grow
	// exactly linearly. Default: three counts n, 2n, 3n sized from the
	// native calibration so that the largest region runs about 20 µs
	// natively (10 µs with CacheSim): about a millisecond under callgrind.
	Iterations []int
	// Repeats is how many times each count is measured (default 3): the
	// figures are those of the repeat with the fewest instructions, and
	// the metrics hold one value per repeat.
	Repeats int
	// Rebuilt, when the program Argv runs is not the running one, says
	// how it was built (recorded in the document; bench/benchtest sets it
	// when it rebuilt a -race or -cover test binary without them).
	Rebuilt string
	// Hardware are the events counted natively with perf_event_open beside
	// the simulation, over a few samples of the calibrated size, as the
	// timed mode counts Options.Counters (net of an empty sample's counts,
	// per iteration): the hardware's own count, which includes what the
	// simulation leaves out (the interrupts' and the scheduler's user-space
	// work on the thread, a few instructions per sample) and varies with
	// it. Default (nil): the hardware's user-space instructions,
	// "instructions:u", where the host has a PMU; where it has none (a
	// virtual machine) they are listed as unavailable with the reason,
	// never shown as 0. NoHardware counts none.
	Hardware   []counters.Event
	NoHardware bool
	// NoExit makes Run return ErrCounted in the instruction-counting
	// child once the benchmark is counted, instead of exiting the process
	// (a test binary must not call os.Exit(0) during a test;
	// bench/benchtest sets it). The child must then end without counting
	// anything else: collection is off after the regions.
	NoExit bool
}

// ErrSkipped is returned by Run for a benchmark that was not run because
// this process is the instruction-counting child of another benchmark
// (see Instructions): only the requested benchmark runs there.
var ErrSkipped = errors.New("bench: skipped: this process counts the instructions of another benchmark (valgrind " + valgrind.EnvRegion + " is set)")

// ErrCounted is returned by Run in the instruction-counting child for the
// benchmark it counted, when Instructions.NoExit is set: the counts went
// to the parent, and this process has nothing more to do.
var ErrCounted = errors.New("bench: counted: this process was the instruction-counting child, and its counts went to the parent")

// Instruction mode defaults.
const (
	defaultInstructionRepeats = 3
	// regionNativeNs is the native time of the largest region when
	// Instructions.Iterations is not given: callgrind runs a loop some
	// 30 to 100 times slower, so about a millisecond under callgrind,
	// far from the 10 ms after which the Go runtime's sysmon makes the
	// goroutine yield, even on a machine loaded to twice its CPUs.
	regionNativeNs         = 20_000
	regionNativeNsCacheSim = 10_000
	maxRegionStep          = 1_000_000
)

// The codes of the instruction mode's warnings (warn.Warning.Code).
const (
	warnSimulated       = "instructions-simulated" // what the count is, valgrind's slowdown
	warnRuntimeExcluded = "instructions-runtime"   // what of the Go runtime is not counted
	warnCachePlacement  = "cache-placement"        // misses and cycles depend on code placement
	warnNotExact        = "instructions-not-exact" // the counts vary
	warnRegionLong      = "region-long"            // a region may have been preempted
	warnRebuilt         = "instructions-rebuilt"   // another build was counted
)

// SimulatedFigure is one figure per iteration of the instruction mode, as
// its document's metric holds it: PerRepeat has one value per repeat of
// the counts (Instructions.Repeats), Exact says that the figure is an
// exact count of deterministic work (the same in every repeat, and every
// region's count a fixed cost plus a whole number per iteration).
type SimulatedFigure struct {
	// Name is "instructions", "l1_misses", "ll_misses" or
	// "estimated_cycles".
	Name      string
	PerRepeat []float64
	Exact     bool
}

// check reports what is wrong with in, if anything.
func (in *Instructions) check() error {
	for i, n := range in.Iterations {
		if n <= 0 || (i > 0 && n <= in.Iterations[i-1]) {
			return fmt.Errorf("bench: Instructions.Iterations %v must be positive and increasing", in.Iterations)
		}
	}
	switch {
	case len(in.Iterations) == 1:
		return fmt.Errorf("bench: Instructions.Iterations %v: give at least two counts (the count per iteration is the difference of two), or none for the default", in.Iterations)
	case in.Repeats < 0:
		return fmt.Errorf("bench: negative Instructions.Repeats %d: give 1 or more, or 0 for %d", in.Repeats, defaultInstructionRepeats)
	}
	return nil
}

// regionCounts returns the regions' loop counts for a loop of nsPerOp
// natively: n, 2n, 3n with 3n iterations lasting about budget ns.
func regionCounts(nsPerOp, budget float64) []int {
	n := 1
	if nsPerOp > 0 {
		n = int(min(max(budget/nsPerOp/3, 1), maxRegionStep))
	}
	return []int{n, 2 * n, 3 * n}
}

// childRequest is the region this process was asked to count, when it is
// an instruction-counting child (valgrind.Requested, read once).
var childRequest = sync.OnceValues(valgrind.Requested)

// inChild handles Run of case c in an instruction-counting child: it
// returns ErrSkipped for every benchmark but the requested one, which it
// counts before exiting the process (0 when every region was measured,
// 1 with the error on stderr otherwise), or with Instructions.NoExit
// returns ErrCounted or the error. ok is false outside a child.
func inChild(c Case, o *Options) (ok bool, err error) {
	req, err := childRequest()
	if err != nil {
		return true, fmt.Errorf("bench: %w", err)
	}
	if req == nil {
		return false, nil
	}
	if req.Name != c.Name {
		return true, ErrSkipped
	}
	err = countRegions(c.F, o, req)
	if o != nil && o.Instructions != nil && o.Instructions.NoExit {
		if err != nil {
			return true, fmt.Errorf("%w (benchmark %s)", err, c.Name)
		}
		return true, ErrCounted
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%v (benchmark %s)\n", err, c.Name)
		os.Exit(1)
	}
	os.Exit(0)
	return true, nil // not reached
}

// countRegions runs f with B.Loop driving the requested regions (see
// B.regionStep), on a locked thread of its own.
func countRegions(f func(*B), o *Options, req *valgrind.Request) error {
	var opts Options
	if o != nil {
		opts = *o
	}
	var err error
	thread.Run(func() {
		b := &B{opts: &opts, rq: req}
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("bench: the benchmark function panicked: %v", p)
			}
		}()
		f(b)
		switch {
		case b.rgErr != nil:
			err = b.rgErr
		case !b.looped:
			err = errNoLoop
		case !b.finished:
			err = errEarlyReturn
		}
	})
	return err
}

// The phases of B.regionStep.
const (
	regionBegin = iota
	regionWarmup
	regionCounting
)

// regionStep is B.Loop's slow path in an instruction-counting child: it
// ends the region (or the warm-up) that just ran and starts the next,
// until every region is measured; then Loop returns false. Collection is
// on from the end of Start to the beginning of Stop, so each region
// counts its iterations plus a fixed cost (the rest of Start, B.Loop's
// slow path at the end, the start of Stop).
func (b *B) regionStep() bool {
	b.looped = true
	if b.finished {
		return false
	}
	switch b.rgPhase {
	case regionBegin:
		g, err := b.rq.Begin()
		if err != nil {
			b.rgErr, b.finished = err, true
			return false
		}
		b.rg = g
		if w := b.rq.Warmup; w > 0 {
			b.rgPhase = regionWarmup
			b.setupHook()
			b.left = uint64(w - 1) // this true is the first iteration
			return true
		}
	case regionWarmup:
		b.teardownHook()
	case regionCounting:
		if !b.timerOn {
			valgrind.ToggleCollect() // StopTimer left it off: Stop turns it off
		}
		b.rg.Stop()
		b.teardownHook()
	}
	n, ok := b.rg.Next()
	if !ok {
		b.rg.End()
		b.finished = true
		return false
	}
	b.rgPhase = regionCounting
	b.setupHook()
	b.timerOn = true
	b.rg.Start()
	b.left = uint64(n - 1)
	return true
}

func (b *B) setupHook() {
	if b.opts.Setup != nil {
		b.opts.Setup()
	}
}

func (b *B) teardownHook() {
	if b.opts.Teardown != nil {
		b.opts.Teardown()
	}
}

// regionTimer is StopTimer (on false) and StartTimer (on true) in an
// instruction-counting child: inside a region they toggle collection.
func (b *B) regionTimer(on bool) {
	if b.rgPhase != regionCounting || b.timerOn == on {
		return
	}
	b.timerOn = on
	valgrind.ToggleCollect()
}

// runInstructions measures case c in the instruction mode: a native
// calibration sizes the regions, then the program re-executed under
// callgrind counts them (see Instructions).
func runInstructions(c Case, s *setup) (*Benchmark, error) {
	in := s.opts.Instructions
	res := s.newResult(c)
	plain := s.opts
	plain.Counters = nil
	r := start(c.F, s.clk, &plain, s.opts.pinCPU())
	n, trials, err := calibrate(r, s.goal)
	if err != nil {
		if !r.exited {
			r.finish()
		}
		return nil, fmt.Errorf("%w (benchmark %s)", err, c.Name)
	}
	if err := r.finish(); err != nil {
		return nil, fmt.Errorf("%w (benchmark %s)", err, c.Name)
	}
	res.Calibration, res.Iterations = trials, n
	native := trials[len(trials)-1].NsPerOp()

	its := in.Iterations
	if len(its) == 0 {
		budget := float64(regionNativeNs)
		if in.CacheSim {
			budget = regionNativeNsCacheSim
		}
		its = regionCounts(native, budget)
	}
	repeats := in.Repeats
	if repeats == 0 {
		repeats = defaultInstructionRepeats
	}
	argv := in.Argv
	built := valgrind.Instrumented()
	if len(argv) == 0 {
		if built != "" {
			return nil, fmt.Errorf("bench: the instruction mode counts this program re-executed, and it was built with %s, whose instrumentation would be counted (14 times the instructions of a sum loop under -race): build it without, or set Instructions.Argv to a build without", built)
		}
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("bench: the instruction mode re-executes the program, but its executable is unknown: %w (set Instructions.Argv)", err)
		}
		argv = append([]string{exe}, os.Args[1:]...)
	}
	if evs, err := in.hardware(); err != nil {
		return nil, err
	} else if len(evs) > 0 {
		if err := res.countHardware(c.F, s, evs, n); err != nil {
			return nil, fmt.Errorf("%w (benchmark %s, its hardware counts)", err, c.Name)
		}
	}
	vr, err := valgrind.Count(context.Background(), argv, c.Name, valgrind.Options{
		Iterations: its, Warmup: its[0], Repeats: repeats, CacheSim: in.CacheSim, Env: in.Env})
	if err != nil {
		return nil, fmt.Errorf("bench: counting the instructions of %s: %w", c.Name, err)
	}
	if built != "" {
		native = 0 // this build's time says nothing of the counted build's
	}
	if err := res.setInstructions(vr, in, native); err != nil {
		return nil, fmt.Errorf("bench: counting the instructions of %s: %w", c.Name, err)
	}
	res.End = time.Now()
	return res, nil
}

// hardwareEvents is the default of Instructions.Hardware.
const hardwareEvents = "instructions:u"

// hardwareSamples is the number of native samples that count
// Instructions.Hardware.
const hardwareSamples = 5

// hardware returns the events of Instructions.Hardware to count.
func (in *Instructions) hardware() ([]counters.Event, error) {
	switch {
	case in.NoHardware:
		return nil, nil
	case in.Hardware != nil:
		return in.Hardware, nil
	}
	return counters.ParseEvents(hardwareEvents)
}

// countHardware counts the events evs natively over hardwareSamples
// samples of n iterations of f, as the timed mode counts
// Options.Counters, and records them in r.Counters (the unavailable ones
// in r.CountersUnavailable) and r.HardwareSamples.
func (r *Benchmark) countHardware(f func(*B), s *setup, evs []counters.Event, n uint64) error {
	opts := s.opts
	opts.Instructions, opts.Counters = nil, evs
	cpu := s.opts.pinCPU()
	run := start(f, s.clk, &opts, cpu)
	ss, err := takeSamples(run, hardwareSamples, n)
	if err != nil {
		return err
	}
	// The empty samples' counts: the measuring overhead, subtracted.
	opts.Setup, opts.Teardown = nil, nil
	empty, err := takeSamples(start(emptyLoop, s.clk, &opts, cpu), emptySamples, 1)
	if err != nil {
		return err
	}
	hw := &Benchmark{Samples: ss}
	hw.analyzeCounters(run.counted, run.unavailable, run.notes, counterOverhead(empty))
	r.Counters, r.CountersUnavailable, r.HardwareSamples = hw.Counters, hw.CountersUnavailable, ss
	return nil
}

// takeSamples takes k samples of n iterations from run, then finishes it.
func takeSamples(run *runner, k int, n uint64) ([]Sample, error) {
	var ss []Sample
	for range k {
		smp, err := run.sample(n)
		if err != nil {
			run.finish()
			return nil, err
		}
		ss = append(ss, smp)
	}
	return ss, run.finish()
}

// setInstructions records the counts of vr (its regions of iterations
// its, Repeats times) and the warnings that qualify them.
func (r *Benchmark) setInstructions(vr *valgrind.Result, in *Instructions, nativeNsPerOp float64) error {
	best, err := vr.PerOp()
	if err != nil {
		return err
	}
	its := vr.Iterations
	mode := &result.FunctionInstructionsMode{Source: valgrind.SourceCallgrind, Valgrind: valgrind.Version(),
		Iterations: its, Warmup: its[0], Repeats: len(vr.Dumps) / len(its), Repeatable: vr.Repeatable(),
		CacheSim: in.CacheSim, LongestRegionNs: float64(vr.Longest().Nanoseconds()),
		Runtime: []string{"GOMAXPROCS=1", "GOGC=off", "GODEBUG=asyncpreemptoff=1"}, Rebuilt: in.Rebuilt}
	allExact := true
	var ins valgrind.PerOp
	for _, p := range best {
		mode.Events = append(mode.Events, result.FunctionSimulatedEvent{Event: p.Event, PerOp: p.PerOp, Fixed: p.Fixed, Exact: p.Exact})
		allExact = allExact && p.Exact
		if p.Event == valgrind.FigureInstructions {
			ins = p
		}
	}
	mode.Linear = ins.Exact
	if in.CacheSim {
		mode.Caches, mode.CycleModel = valgrind.Caches, valgrind.CycleModel
	}

	// The figures of every repeat, and the time per iteration under
	// callgrind (the regions' wall times differenced as the counts are).
	index := map[string]int{} // into r.Simulated
	r.Simulated = nil
	for _, rr := range vr.Repeats() {
		ps, err := rr.PerOp()
		if err != nil {
			return err
		}
		perOp := map[string]float64{}
		for _, p := range ps {
			perOp[p.Event] = p.PerOp
		}
		for _, f := range valgrind.Figures(func(e string) (float64, bool) { v, ok := perOp[e]; return v, ok }) {
			i, ok := index[f.Name]
			if !ok {
				i = len(r.Simulated)
				index[f.Name] = i
				r.Simulated = append(r.Simulated, SimulatedFigure{Name: f.Name})
			}
			r.Simulated[i].PerRepeat = append(r.Simulated[i].PerRepeat, f.Value)
		}
	}
	// The least disturbed (shortest) region of each count.
	var firstNs, lastNs []float64
	for k, d := range vr.Dumps {
		switch k % len(its) {
		case 0:
			firstNs = append(firstNs, float64(d.Wall.Nanoseconds()))
		case len(its) - 1:
			lastNs = append(lastNs, float64(d.Wall.Nanoseconds()))
		}
	}
	for i := range r.Simulated {
		f := &r.Simulated[i]
		if f.Name == valgrind.FigureInstructions {
			f.Exact = ins.Exact && mode.Repeatable
		} else {
			f.Exact = allExact && mode.Repeatable
		}
	}
	if sim := (slices.Min(lastNs) - slices.Min(firstNs)) / float64(its[len(its)-1]-its[0]); sim > 0 && nativeNsPerOp > 0 {
		mode.NativeNsPerOp, mode.SimulatedNsPerOp, mode.Slowdown = nativeNsPerOp, sim, sim/nativeNsPerOp
	}
	r.Instructions = mode
	r.instructionWarnings(vr, ins)
	return nil
}

// instructionWarnings says what the instruction mode's figures are and
// what weakens them.
func (r *Benchmark) instructionWarnings(vr *valgrind.Result, ins valgrind.PerOp) {
	mode := r.Instructions
	prec := unit.Precision{Resolution: 1}
	slow := "callgrind's slowdown could not be measured (the regions' times did not grow with their iterations)"
	if built := valgrind.Instrumented(); built != "" && mode.Slowdown == 0 {
		slow = "callgrind's slowdown was not measured (this process, built with " + built + ", is another build than the one counted)"
	}
	if mode.Slowdown > 0 {
		slow = fmt.Sprintf("the loop ran %s× slower under callgrind than natively (%s/op against %s/op)",
			unit.Plain(mode.Slowdown, unit.Precision{Resolution: 1}), unit.Duration(mode.SimulatedNsPerOp, prec),
			unit.Duration(mode.NativeNsPerOp, unit.Precision{Resolution: r.perOpResolution()}))
	}
	r.Warnings = append(r.Warnings,
		warn.NewNote(warnSimulated,
			"instructions counted by valgrind's callgrind, simulated: exact, and independent of the machine's load and clock; "+slow+"; callgrind does not model the clock frequency, memory latency, the pipeline or other programs",
			"gate on the instruction count in CI; time the code natively to know how fast it runs"),
		warn.NewNote(warnRuntimeExcluded,
			"counted on the benchmark's thread alone, with GOMAXPROCS=1 and the garbage collector off (one collection before): the GC's work, the runtime's sysmon and other threads, signal handlers, goroutines the body starts and the kernel's side of system calls are not counted; allocations are",
			"keep the work on the benchmark's goroutine to count it"))
	if mode.CacheSim {
		r.Warnings = append(r.Warnings, warn.NewNote(warnCachePlacement,
			"the simulated cache misses and the estimated cycles depend on where code and data lie in memory (code placement, heap and stack addresses), which changes between builds and runs; the instruction count does not ("+valgrind.Caches+"; "+valgrind.CycleModel+")",
			"gate on instructions; read the misses and cycles as indications"))
	}
	if !ins.Exact || !mode.Repeatable {
		var why []string
		if !ins.Exact {
			var raw []string
			for _, reg := range vr.Regions {
				c, _ := reg.Get(valgrind.FigureInstructions)
				raw = append(raw, fmt.Sprint(c.Raw))
			}
			why = append(why, fmt.Sprintf("the regions' counts (%s for %v iterations) are not a fixed cost plus a whole number per iteration", strings.Join(raw, ", "), vr.Iterations))
		}
		if !mode.Repeatable {
			why = append(why, fmt.Sprintf("the %s of each count did not agree", plural.Count(mode.Repeats, "repeat")))
		}
		r.Warnings = append(r.Warnings, warn.New(warnNotExact,
			"the instruction count is not exact: "+strings.Join(why, ", and ")+"; the figures are the repeat with the fewest instructions per count",
			"make the body's work deterministic (map iteration order, select, time, randomness and the allocator's slow paths vary it), or compare with a tolerance"))
	}
	if d := time.Duration(mode.LongestRegionNs); d > valgrind.PreemptAfter {
		r.Warnings = append(r.Warnings, warn.New(warnRegionLong,
			fmt.Sprintf("the longest region ran %s under callgrind, beyond the %v after which the Go runtime's sysmon makes a goroutine yield: the scheduler's work may be counted in it", d.Round(time.Microsecond), valgrind.PreemptAfter),
			"give smaller Instructions.Iterations"))
	}
	if mode.Rebuilt != "" {
		r.Warnings = append(r.Warnings, warn.NewNote(warnRebuilt, "counted in another build of the program: "+mode.Rebuilt, ""))
	}
}

// instructionsMeasurement returns the instruction mode's measurement (see
// result.FunctionDetail for its metrics): one sample per repeat.
func (r *Benchmark) instructionsMeasurement(clk result.FunctionClock) result.Measurement {
	m := result.Measurement{Name: r.Name, Parameters: r.Params, Primary: valgrind.FigureInstructions, Warnings: r.Warnings}
	mode := r.Instructions
	its := mode.Iterations
	span := float64(its[len(its)-1] - its[0])
	for _, f := range r.Simulated {
		met := metric(f.Name, result.UnitCountPerOp, 1/span, f.PerRepeat)
		met.Exact = f.Exact
		if f.Exact && met.Summary != nil {
			// Exact counts need no more samples: every one is the same.
			met.Summary.Warnings = slices.DeleteFunc(met.Summary.Warnings, func(w warn.Warning) bool { return w.Code == "too-few-samples" })
		}
		m.Metrics = append(m.Metrics, met)
		if f.Name == valgrind.FigureInstructions {
			m.Metrics = append(m.Metrics, metric("iterations", result.UnitCount, 1, slices.Repeat([]float64{span}, len(f.PerRepeat))))
		}
	}
	// The hardware's counts (Instructions.Hardware), natively.
	hw, fcs := r.counterMetrics(r.HardwareSamples)
	m.Metrics = append(m.Metrics, hw...)
	m.Detail.Function = &result.FunctionDetail{Mode: result.FunctionInstructions, Benchmark: r.Name, Clock: clk, Instructions: mode,
		Calibration: &result.FunctionCalibration{TargetNs: float64(r.Target), GoalNs: r.GoalNs, Iterations: r.Iterations, Trials: trials(r.Calibration)},
		Counters:    fcs, CountersUnavailable: r.CountersUnavailable}
	return m
}
