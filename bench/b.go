package bench

import (
	"errors"
	"fmt"
	"github.com/chronograph/chronograph/internal/thread"
	"runtime"
	"runtime/metrics"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/valgrind"
	"github.com/chronograph/chronograph/stats"
)

// B is passed to a benchmark function. The function does its setup, then
// loops with B.Loop:
//
//	func(b *bench.B) {
//		in := prepare()
//		for b.Loop() {
//			b.Keep(work(in))
//		}
//	}
//
// A B is used by the one goroutine that runs the function; its methods
// must not be called from other goroutines.
type B struct {
	// left drives Loop's inlinable fast path: Loop returns true and
	// decrements it while it is not zero (one load, test, decrement and
	// store per iteration); n is the sample's iteration count. left is 0
	// in latency mode, so that every call takes the slow path.
	left, n uint64

	ctl  *runner
	clk  *clockSource
	opts *Options
	th   threadOps

	phase string // the pprof phase label set on this goroutine (Options.Profile)

	looped   bool // Loop was called
	running  bool // inside a sample
	finished bool // Loop returned false
	timerOn  bool

	// Accumulators of the current sample, while the timer is on. segs
	// counts the timed segments whose CPU time is in cpuAcc (one per
	// StopTimer, one for the end of the sample); cpuBad is set when a CPU
	// clock read failed.
	t0, acc      uint64
	cpu0, cpuAcc int64
	segs         int
	cpuBad       bool
	mem0, memAcc memSnap
	ru0          usage
	ruOK         bool
	stops        int
	startRaw     uint64
	cpuStart     int // the CPU at the start of the sample
	block        int // the block the current sample belongs to
	// cpuRead is the thread CPU time that the two CPU clock reads
	// bounding a timed segment add to it beyond the segment's wall time
	// (see probe); it is subtracted once per segment. cpuReadOK is
	// false until it has been measured on this thread's CPU: the first
	// sample measures it if no probe command did.
	cpuRead        float64
	cpuReadOK      bool
	latency        bool
	lat            []uint64 // latency mode: raw per-op durations
	latN           uint64
	latT0          uint64
	metricsSamples []metrics.Sample
	// shared is set for a sample that runs beside other workers'
	// (parallel mode): readMem must not stop the world then. memStats is
	// readMem's buffer otherwise (one, so that reading allocates nothing).
	shared   bool
	memStats *runtime.MemStats
	// readStats fills memStats (the platform's readMemStats).
	readStats func(*runtime.MemStats)

	// Counters (Options.Counters): the group, enabled once, and the
	// readings bounding the current sample.
	cg              *counters.Group
	cBefore, cAfter counters.Reading
	cDiff           counters.Reading
	cBeforeOK       bool

	// The instruction mode's child (see Instructions): the region
	// requested, the regions being measured, the phase of regionStep and
	// the error that ended it.
	rq      *valgrind.Request
	rg      *valgrind.Regions
	rgPhase int
	rgErr   error
}

// usage is the thread's rusage counters that bench reports.
type usage struct {
	VolCtxSw, InvolCtxSw, MinFlt, MajFlt int64
}

// memSnap is a reading of the runtime's cumulative allocation counters.
type memSnap struct {
	allocs, bytes, gcs uint64
}

func (m memSnap) sub(o memSnap) memSnap {
	return memSnap{m.allocs - o.allocs, m.bytes - o.bytes, m.gcs - o.gcs}
}

func (m memSnap) add(o memSnap) memSnap {
	return memSnap{m.allocs + o.allocs, m.bytes + o.bytes, m.gcs + o.gcs}
}

// The runtime/metrics names read around a parallel worker's samples.
var memMetricNames = []string{
	"/gc/heap/allocs:objects",
	"/gc/heap/allocs:bytes",
	"/gc/cycles/total:gc-cycles",
}

// readMem reads the process's cumulative allocation counters, outside the
// timed region. As testing.B does, it reads them exactly, with
// runtime.ReadMemStats, which stops the world for a few microseconds to
// flush every P's allocation cache: runtime/metrics, which does not,
// counts a cached span's objects only when the span is swapped out, so
// a sample's count was off by up to a span of objects (a function that
// allocates once per call gave 0.9999 allocations per call, and medians
// of such figures truncated to "0 allocs/op"). A parallel worker's sample
// (shared) reads runtime/metrics instead: a stopped world would stall the
// other workers inside their timed regions, and the process's counts
// cannot tell the workers apart anyway.
func (b *B) readMem() memSnap {
	if !b.shared {
		if b.memStats == nil {
			b.memStats = new(runtime.MemStats)
		}
		b.readStats(b.memStats)
		return memSnap{b.memStats.Mallocs, b.memStats.TotalAlloc, uint64(b.memStats.NumGC)}
	}
	if b.metricsSamples == nil {
		b.metricsSamples = make([]metrics.Sample, len(memMetricNames))
		for i, n := range memMetricNames {
			b.metricsSamples[i].Name = n
		}
	}
	metrics.Read(b.metricsSamples)
	var v [3]uint64
	for i := range b.metricsSamples {
		if b.metricsSamples[i].Value.Kind() == metrics.KindUint64 {
			v[i] = b.metricsSamples[i].Value.Uint64()
		}
	}
	return memSnap{v[0], v[1], v[2]}
}

// Loop reports whether the benchmark should run one more iteration. Write
// the benchmark loop exactly as
//
//	for b.Loop() {
//		...
//	}
//
// Loop returns true Iterations times for each sample (calibration, warm-up
// and measured samples alike) and false once, when the measurement is
// over; the function should then return. Everything before the loop is
// setup and is not timed; everything after it is cleanup.
//
// Unlike testing.B.Loop, the compiler does not keep results of the loop
// body alive for bench.B: pass them to B.Keep, and feed the body inputs
// from variables, not constants, so that nothing is folded away. A body that
// is optimized away is flagged (see Benchmark.Warnings).
func (b *B) Loop() bool {
	// The fast path is a compare and an increment, and inlinable: the
	// harness adds well under a nanosecond per iteration.
	if b.left != 0 {
		b.left--
		return true
	}
	return b.loopSlow()
}

// Keep keeps v alive, so that the computation of v cannot be optimized
// away. It is runtime.KeepAlive, which the compiler treats as a use of v;
// inlined, it neither allocates nor costs more than a store.
func (b *B) Keep(v any) {
	runtime.KeepAlive(v)
}

// StopTimer stops timing; StartTimer resumes it. Use them for work inside
// the loop that must not count. They are expensive: each pair reads the
// clock, the thread's CPU clock (a system call) and, as testing.B's pair
// does, the runtime's allocation counters twice (runtime.ReadMemStats,
// which stops the world), which costs tens of microseconds (20-80 µs on
// the loaded VMs here; measured on the benchmark's thread and reported as
// Benchmark.Overhead.TimerPairNs). A small part of it (the clock reads' own
// halves, Benchmark.Overhead.TimerPairInsideNs) falls inside the timed
// region and is not subtracted from the wall time. The CPU time that the
// CPU clock reads themselves add to each timed segment is measured on the
// benchmark's thread (Benchmark.Overhead.CPUReadNs) and subtracted from
// Sample.CPUNs once per segment; when it is most of the CPU figure, a
// warning says so. Prefer Options.Setup/Teardown, which run outside the
// timed region. The calls nest: StopTimer with the timer stopped does
// nothing.
func (b *B) StopTimer() {
	if b.rq != nil {
		b.regionTimer(false)
		return
	}
	if !b.timerOn || !b.running {
		return
	}
	t := b.clk.now()
	b.acc += t - b.t0
	b.endSegment()
	b.memAcc = b.memAcc.add(b.readMem().sub(b.mem0))
	b.timerOn = false
	b.stops++
}

// endSegment reads the CPU clock at the end of a timed segment (right
// after its closing wall-clock read) and adds the segment's CPU time.
func (b *B) endSegment() {
	c := b.th.cpuTime()
	if c < 0 || b.cpu0 < 0 {
		b.cpuBad = true
		return
	}
	b.cpuAcc += c - b.cpu0
	b.segs++
}

// StartTimer resumes timing after StopTimer (see StopTimer for its cost).
func (b *B) StartTimer() {
	if b.rq != nil {
		b.regionTimer(true)
		return
	}
	if b.timerOn || !b.running {
		return
	}
	b.mem0 = b.readMem()
	b.cpu0 = b.th.cpuTime()
	b.timerOn = true
	b.t0 = b.clk.now()
}

// command is what the harness asks of the benchmark goroutine.
type command struct {
	n       uint64        // iterations of the next sample; 0 = finish (Loop returns false)
	block   int           // the block the sample belongs to (Sample.Block)
	latency bool          // time every iteration
	gate    chan struct{} // parallel mode: wait for it to close before starting
	probe   bool          // measure the timer's costs (B.probe) instead of a sample
	phase   string        // the sample's phase (ProfileLabel), "" in modes not profiled
	move    bool          // pin the thread to cpu instead of a sample
	cpu     int
}

// reply is the benchmark goroutine's answer to a command.
type reply struct {
	s          Sample
	start, end uint64    // raw clock readings bounding the sample
	lat        []uint64  // latency mode: raw per-op durations
	pair       timerPair // probe: cost of one StopTimer/StartTimer pair
	cpuRead    cpuRead   // probe: cost of the CPU clock reads per segment
	done       bool      // the function returned
	err        error
}

// runner runs one invocation of a benchmark function on its own locked
// goroutine and hands samples to the harness.
type runner struct {
	cmds    chan command
	replies chan reply
	exited  bool
	// block is the block the runner's samples belong to (Sample.Block);
	// phase the phase its samples are labelled with (Options.Profile).
	block int
	phase string
	// counted lists the events opened for Options.Counters, and
	// unavailable those that could not be (with the reason). The
	// benchmark goroutine sets both before its first reply.
	counted     []counters.Event
	unavailable []counters.Count
	notes       map[string]string
}

var errNoLoop = errors.New("bench: the benchmark function never called B.Loop: loop with `for b.Loop() { ... }`")

var errEarlyReturn = errors.New("bench: the benchmark function returned before B.Loop reported false (a break or return in the loop?): loop with `for b.Loop() { ... }` until it ends")

// start runs f in a new goroutine, locked to its thread for life (the
// thread is discarded when the goroutine exits, so that pinning never leaks
// into other goroutines), pinned to cpu unless it is negative.
func start(f func(*B), clk *clockSource, opts *Options, cpu int) *runner {
	r := &runner{cmds: make(chan command), replies: make(chan reply)}
	b := &B{ctl: r, clk: clk, opts: opts}
	thread.Go(func() { // locked for life, never the main thread: see above
		plat := opts.platform()
		b.th = plat.thread()
		b.readStats = plat.readMemStats
		if b.readStats == nil {
			b.readStats = runtime.ReadMemStats
		}
		var rep reply
		defer func() {
			if p := recover(); p != nil {
				rep.err = fmt.Errorf("bench: the benchmark function panicked: %v", p)
			}
			rep.done = true
			r.replies <- rep
		}()
		if cpu >= 0 {
			if err := b.th.pin(cpu); err != nil {
				// Wait for the first command, then report.
				<-r.cmds
				rep.err = err
				return
			}
		}
		if len(opts.Counters) > 0 {
			g := b.openCounters(r)
			if g != nil {
				defer g.Close()
			}
		}
		b.setPhase(PhaseSetup)
		f(b)
		switch {
		case !b.looped:
			rep.err = errNoLoop
		case !b.finished:
			rep.err = errEarlyReturn
		}
	})
	return r
}

// do sends c and waits for the reply.
func (r *runner) do(c command) (reply, error) {
	if r.exited {
		return reply{}, errors.New("bench: internal error: command to a finished benchmark")
	}
	rep, early := r.send(c)
	if !early {
		rep = <-r.replies
	}
	if rep.done {
		r.exited = true
		if rep.err == nil {
			rep.err = errNoLoop
		}
		return rep, rep.err
	}
	return rep, rep.err
}

// send hands c to the benchmark goroutine. If the function returned
// before taking a command, it returns its exit reply and early = true.
func (r *runner) send(c command) (rep reply, early bool) {
	select {
	case r.cmds <- c:
		return reply{}, false
	case rep = <-r.replies:
		return rep, true
	}
}

// sample runs one sample of n iterations.
func (r *runner) sample(n uint64) (Sample, error) {
	rep, err := r.do(command{n: n, block: r.block, phase: r.phase})
	return rep.s, err
}

// probe measures the timer's costs on the runner's thread (see B.probe).
func (r *runner) probe() (reply, error) { return r.do(command{probe: true}) }

// move pins the runner's thread to cpu and measures the CPU clock's read
// cost there (it may differ between CPUs).
func (r *runner) move(cpu int) (cpuRead, error) {
	if _, err := r.do(command{move: true, cpu: cpu}); err != nil {
		return cpuRead{}, err
	}
	rep, err := r.probe()
	return rep.cpuRead, err
}

// finish makes Loop return false and waits for the function to return.
func (r *runner) finish() error {
	if r.exited {
		return nil
	}
	rep, early := r.send(command{})
	if !early {
		rep = <-r.replies
	}
	for !rep.done { // cannot happen: Loop returned false, the next reply is the exit
		rep = <-r.replies
	}
	r.exited = true
	return rep.err
}

// loopSlow ends the current sample (if any), hands it to the harness and
// starts the next one, or ends the loop.
func (b *B) loopSlow() bool {
	if b.rq != nil {
		return b.regionStep()
	}
	b.looped = true
	if b.finished {
		return false
	}
	if b.running {
		if b.latency {
			t := b.clk.fenced()
			b.lat = append(b.lat, t-b.latT0)
			if uint64(len(b.lat)) < b.latN {
				b.latT0 = b.clk.fenced()
				return true
			}
		}
		b.ctl.replies <- b.endSample()
	}
	for {
		c := <-b.ctl.cmds
		switch {
		case c.probe:
			b.setPhase(PhaseProbe)
			var rep reply
			rep.pair, rep.cpuRead = b.probe()
			b.ctl.replies <- rep
			continue
		case c.move:
			b.cpuReadOK = false // measured again on the new CPU
			b.ctl.replies <- reply{err: b.th.pin(c.cpu)}
			continue
		case c.n == 0:
			b.setPhase(PhaseSetup)
			b.finished = true
			b.running = false
			return false
		}
		if !b.cpuReadOK {
			b.setPhase(PhaseProbe)
			b.probe()
		}
		b.beginSample(c)
		return true
	}
}

// timerPair is the measured cost of one StopTimer/StartTimer pair, in ns:
// in all (Total), and the part of it inside the timed region (Inside: the
// wall time between StartTimer's clock read and the next StopTimer's).
type timerPair struct {
	Total, Inside float64
}

// cpuRead is the measured CPU cost of reading the thread's CPU clock, as
// it lands in a timed segment (see probe): NsPerSegment is the median
// over N segments, MADNs the scaled median absolute deviation. OK is false
// when the CPU clock cannot be read.
type cpuRead struct {
	NsPerSegment float64
	MADNs        float64
	N            int
	OK           bool
}

// probePairs is the number of StopTimer/StartTimer pairs probe times.
const probePairs = 100

// probe measures, on this thread, the cost of a StopTimer/StartTimer pair
// and the CPU time that reading the CPU clock adds to a timed segment,
// and sets b.cpuRead for the samples that follow.
//
// The CPU clock's reading is taken somewhere inside its system call: the
// part of the call after the reading that opens a segment and the part of
// the call before the reading that closes it are CPU time of the segment
// that its wall time does not have (0.2-1.5 µs per segment on the hosts
// seen so far, against nanoseconds for the wall clock). The probe times
// empty segments exactly as a benchmark with StopTimer/StartTimer in its
// loop has them (StartTimer, nothing, StopTimer): each one's CPU time
// minus its wall time is that excess, and their median is what is
// subtracted per segment (the median ignores segments cut by
// preemption). The same few instructions cost more when a body runs
// between them (cold caches): the subtraction is then a little short,
// which matters only when the reads dominate the CPU time, and a warning
// says when they do.
func (b *B) probe() (timerPair, cpuRead) {
	b.running, b.timerOn = true, true
	b.resetAcc()
	b.mem0 = b.readMem()
	b.cpu0 = b.th.cpuTime()
	t0 := b.clk.now()
	b.t0 = t0
	xs := make([]float64, 0, probePairs)
	for i := 0; i < probePairs; i++ {
		acc0, cpu0 := b.acc, b.cpuAcc
		b.StopTimer()
		if i > 0 && !b.cpuBad { // the first segment opened differently
			xs = append(xs, float64(b.cpuAcc-cpu0)-b.clk.ns(b.acc-acc0))
		}
		b.StartTimer()
	}
	b.StopTimer()
	t1 := b.clk.now()
	b.running, b.timerOn = false, false
	// The timed region of the probe is empty but for the pairs' own
	// instructions between the reads: what the pairs leave in it.
	p := timerPair{Total: b.clk.ns(t1-t0) / probePairs, Inside: b.clk.ns(b.acc) / (probePairs + 1)}
	var cr cpuRead
	if !b.cpuBad && len(xs) > 0 {
		sum := stats.Summarize(xs)
		cr = cpuRead{NsPerSegment: max(sum.Median, 0), MADNs: sum.MADScaled, N: len(xs), OK: true}
	}
	b.cpuRead, b.cpuReadOK = cr.NsPerSegment, cr.OK
	b.resetAcc()
	return p, cr
}

func (b *B) resetAcc() {
	b.acc, b.cpuAcc, b.segs, b.cpuBad, b.memAcc, b.stops = 0, 0, 0, false, memSnap{}, 0
}

func (b *B) beginSample(c command) {
	if b.opts.Setup != nil {
		b.setPhase(PhaseSetup)
		b.opts.Setup()
	}
	b.setPhase(c.phase)
	b.resetAcc()
	b.block = c.block
	b.running, b.timerOn = true, true
	b.latency = c.latency
	if b.latency {
		if cap(b.lat) < int(c.n) {
			b.lat = make([]uint64, 0, c.n)
		}
		b.lat = b.lat[:0]
		b.latN = c.n
	}
	b.ru0, b.ruOK = threadUsage()
	b.shared = c.gate != nil
	if c.gate != nil {
		<-c.gate
	}
	b.mem0 = b.readMem()
	b.cpuStart = b.th.cpu()
	// The counters are read right outside the CPU clock's reads, which
	// are right outside the wall clock's, so that each brackets the timed
	// region tightly (the counters' empty-sample subtraction takes out
	// what the inner reads add to them).
	b.cBeforeOK = b.cg != nil && b.cg.ReadTo(&b.cBefore) == nil
	b.cpu0 = b.th.cpuTime()
	if b.latency {
		b.left, b.n = 0, 0
		b.startRaw = b.clk.now()
		b.t0 = b.startRaw
		b.latT0 = b.clk.fenced()
		return
	}
	b.left, b.n = c.n-1, c.n // this call's true is the first iteration
	b.startRaw = b.clk.now()
	b.t0 = b.startRaw
}

func (b *B) endSample() reply {
	end := b.clk.now()
	iters := b.n - b.left
	if b.latency {
		iters = uint64(len(b.lat))
	}
	if b.timerOn {
		b.acc += end - b.t0
		b.endSegment()
	}
	cAfterOK := b.cBeforeOK && b.cg.ReadTo(&b.cAfter) == nil
	if b.timerOn {
		b.memAcc = b.memAcc.add(b.readMem().sub(b.mem0))
	}
	cpuEnd := b.th.cpu()
	b.timerOn, b.running = false, false
	b.left, b.n = 0, 0
	s := Sample{
		Iterations: iters,
		WallNs:     b.clk.ns(b.acc),
		Ticks:      b.acc,
		CPUNs:      -1,
		Allocs:     b.memAcc.allocs,
		Bytes:      b.memAcc.bytes,
		GCs:        b.memAcc.gcs,
		TimerStops: b.stops,
		CPU:        b.cpuStart,
		CPUEnd:     cpuEnd,
		Block:      b.block,
	}
	if !b.cpuBad && b.cpuReadOK {
		s.CPUNs, s.CPUReadNs = netCPU(float64(b.cpuAcc), b.segs, b.cpuRead)
	}
	if cAfterOK {
		counters.Diff(b.cAfter, b.cBefore, &b.cDiff)
		s.Counters, s.CountersScaled = countsOf(b.cDiff)
	}
	if ru, ok := threadUsage(); ok && b.ruOK {
		s.VolCtxSw = ru.VolCtxSw - b.ru0.VolCtxSw
		s.InvolCtxSw = ru.InvolCtxSw - b.ru0.InvolCtxSw
		s.MinFlt = ru.MinFlt - b.ru0.MinFlt
		s.MajFlt = ru.MajFlt - b.ru0.MajFlt
	} else {
		s.VolCtxSw, s.InvolCtxSw, s.MinFlt, s.MajFlt = -1, -1, -1, -1
	}
	if b.opts.Teardown != nil {
		b.setPhase(PhaseSetup)
		b.opts.Teardown()
	}
	rep := reply{s: s, start: b.startRaw, end: end}
	if b.latency {
		rep.lat = append([]uint64(nil), b.lat...)
	}
	return rep
}

// netCPU returns the CPU time of a sample's timed region net of the
// CPU clock's own reads: raw ns measured over segs timed segments, minus
// perSeg ns for each, never below 0; and the amount subtracted.
func netCPU(raw float64, segs int, perSeg float64) (cpu, subtracted float64) {
	sub := min(float64(segs)*perSeg, max(raw, 0))
	return raw - sub, sub
}
