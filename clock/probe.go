package clock

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/internal/quantile"
	"github.com/chronograph/chronograph/internal/thread"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// ProbeOptions configure Probe. Zero fields take the defaults.
type ProbeOptions struct {
	// Reads is the number of back-to-back reads per source for the
	// observed tick and the monotonicity check (default 20000; at least
	// MinReads, since fewer cannot show MinTickChanges changes). Reading
	// continues past it, up to CoarseWait, until the value has changed
	// MinTickChanges times, so that coarse clocks show their real tick.
	Reads int
	// CoarseWait bounds that continuation (default 250 ms: a 10 ms tick
	// (HZ=100) changes 5 times in 50 ms, with room for a loaded machine
	// to preempt the reader).
	CoarseWait time.Duration
	// Batches is the number of timed batches for the read cost (default 200).
	Batches int
	// BatchTime is the target duration of one batch (default 20 µs).
	BatchTime time.Duration
	// CrossThread is how long each cross-thread check runs (default 10 ms).
	CrossThread time.Duration
	// Calibrate, if non-zero, recalibrates the TSC over this window
	// instead of using the cached TSCInfo.
	Calibrate time.Duration
}

func (o *ProbeOptions) defaults() {
	if o.Reads <= 0 {
		o.Reads = 20000
	}
	if o.CoarseWait <= 0 {
		o.CoarseWait = 250 * time.Millisecond
	}
	if o.Batches <= 0 {
		o.Batches = 200
	}
	if o.BatchTime <= 0 {
		o.BatchTime = 20 * time.Microsecond
	}
	if o.CrossThread <= 0 {
		o.CrossThread = 10 * time.Millisecond
	}
}

// probeSink keeps batch reads alive.
var probeSink atomic.Int64

// Probe characterizes every source of Sources. It takes about a second
// with the default options; most of it is the coarse clocks' wait for a
// tick, the cross-thread checks and the TSC calibration.
func Probe(opts ProbeOptions) Survey {
	opts.defaults()
	start := timingNow()
	s := Survey{Host: Host{Reads: opts.Reads, Calibrate: opts.Calibrate}}

	var info Info
	var err error
	if opts.Calibrate > 0 {
		info, err = calibrateTSC(opts.Calibrate)
	} else {
		info, err = TSCInfo()
	}
	if err != nil {
		s.TSCUnavailable = err.Error()
	} else {
		s.TSC = &info
	}
	if k, err := kernelTSCHz(); err != nil {
		s.KernelTSCUnavailable = err.Error()
	} else {
		s.KernelTSC = &k
	}
	if cs, err := readClocksource(); err != nil {
		s.ClocksourceUnavailable = err.Error()
	} else {
		s.Clocksource = &cs
	}

	csName := ""
	if s.Clocksource != nil {
		csName = s.Clocksource.Current
	}
	for _, src := range Sources() {
		m := probeSource(src, s.TSC, opts)
		if m.Err == nil && m.Path == PathVDSO {
			path, basis := checkPath(src, m.CostMedianNs, csName, func() float64 { return syscallCost(src, opts) })
			if path != PathVDSO {
				m.Description += " (the vDSO falls back to the system call)"
			}
			m.Path, m.PathBasis = path, basis
		}
		s.Clocks = append(s.Clocks, m)
	}
	platformHost(&s.Host)
	s.Assess()
	s.Elapsed = timingNow() - start
	return s
}

// Assess derives the conclusions of a survey from its measured parts
// (Clocks, TSC, KernelTSC, Clocksource): the Agreement, the PathCheck,
// the Recommendation, the Warnings and the Notes, replacing any there
// were. Probe calls it; call it again after changing a survey's
// measurements.
func (s *Survey) Assess() {
	s.Agreement = nil
	if s.TSC != nil && s.KernelTSC != nil && s.KernelTSC.Hz > 0 {
		a := kernelAgreement(*s.TSC, *s.KernelTSC)
		s.Agreement = &a
	}
	s.PathCheck = pathCheck(s.Clocks)
	s.Recommendation = recommend(s.Clocks, s.TSC)
	s.Warnings = warnings(s)
	s.Notes = notes(s)
}

// pathCheck says how the vDSO paths of ms were checked: "counted",
// "inferred" or "none".
func pathCheck(ms []Measured) string {
	for _, m := range ms {
		switch b := m.PathBasis; {
		case strings.HasPrefix(b, "measured"):
			return "counted"
		case strings.HasPrefix(b, "inferred"):
			return "inferred"
		}
	}
	return "none"
}

// toNs returns the function converting a reading difference of src to ns.
func toNs(p Props, info *Info) (func(float64) float64, bool) {
	if p.Unit != "ticks" {
		return func(d float64) float64 { return d }, true
	}
	if info == nil || info.Hz == 0 {
		return nil, false
	}
	hz := float64(info.Hz)
	return func(d float64) float64 { return d * 1e9 / hz }, true
}

func probeSource(src Source, info *Info, opts ProbeOptions) Measured {
	p := src.Props()
	m := Measured{Props: p}
	if p.Err != nil {
		return m
	}
	ns, ok := toNs(p, info)
	if !ok {
		m.Err = fmt.Errorf("clock: %s ticks cannot be converted: the counter frequency is unknown", p.Name)
		m.Unavailable = m.Err.Error()
		return m
	}
	switch c := src.(type) {
	case posixClock:
		if res, err := c.resolution(); err == nil {
			m.NominalNs, m.NominalFrom = float64(res), "clock_getres"
		}
	case counter:
		m.NominalNs, m.NominalFrom = 1e9/float64(info.Hz), "1/frequency"
	case goMonotonic, goNow:
		m.NominalNs, m.NominalFrom = goNominalNs, goNominalFrom
	case nominaler:
		m.NominalNs, m.NominalFrom = c.nominal()
	}
	m.Steps = &Steps{}
	probeTick(src, m.Steps, ns, readingUnit(p, m.NominalNs), opts, timingNow)
	probeCost(src, &m, opts)
	if p.Kind != Wall {
		m.Cross = probeCross(src, p, ns, opts.CrossThread)
	}
	return m
}

// readingUnit is one unit of a clock's own in its readings: 1 for
// counters and for clocks counting in ns, the nominal resolution of a
// clock read in ns but counting in coarser whole units (100 ns for
// Windows's FILETIME, interrupt times and QPC at 10 MHz).
func readingUnit(p Props, nominalNs float64) int64 {
	if p.Unit == "ns" && nominalNs > 1 && nominalNs == math.Trunc(nominalNs) && nominalNs < 1e9 {
		return int64(nominalNs)
	}
	return 1
}

// MinTickChanges is how many changes of a clock's value the probe reads
// for before it takes the tick from the steps between them; with fewer
// (the time bound passed first) the tick is uncertain.
const MinTickChanges = 5

// MinReads is the smallest ProbeOptions.Reads that can show
// MinTickChanges changes.
const MinReads = MinTickChanges + 1

// probeTick reads src back to back, at least opts.Reads times and then,
// up to opts.CoarseWait on now, until MinTickChanges changes of its value
// were counted: a coarse clock (4 ms ticks at HZ=250) may not change at
// all during 20000 fast reads. Any negative step is a backward step.
//
// The tick is the smallest of the steps between changes. A reader that
// keeps its CPU sees a coarse clock step by one tick; one preempted
// across a tick sees it step by several (36 ms for a 4 ms tick, on a
// loaded machine): preemption can only lengthen a step, never shorten
// it, so the smallest step is right once one change was seen without a
// preemption, while a low quantile would take in the preempted steps
// whenever they are more than its share. (A tick interrupt served late
// shortens the next step by its delay, microseconds, below the digits a
// millisecond tick is shown with.) But on a machine loaded enough, every
// change can come after a preemption (the reader runs for less than a
// tick at a time), and the smallest step is then several ticks. So past
// opts.Reads, where only clocks that change rarely are still read, each
// read is bracketed by reads of now, and a change counts only when the
// reads on both sides of it were less than half its step apart: they
// cannot then straddle two ticks. (The first opts.Reads reads are not
// bracketed, so that a fine clock is read back to back; it changes
// thousands of times in them, and no preemption reaches them all.) With
// fewer than MinTickChanges changes counted the tick is uncertain rather
// than a step seen once or twice.
//
// What the smallest step is depends on the clock: when some reads saw no
// change, the clock held its value longer than a read and the step is
// its tick; when it stepped by one unit of its own (1 ns, one counter
// tick), that unit is its tick, whatever the read cost (unordered
// counter reads overlap in the pipeline and can be a tick apart); when
// every read changed by more, the clock ticks faster than it can be read
// and the smallest step, about one read, only bounds its tick from
// above. unit is one unit of the clock's own in its readings
// (readingUnit).
func probeTick(src Source, r *Steps, ns func(float64) float64, unit int64, opts ProbeOptions, now func() time.Duration) {
	// "On one thread" literally: an unlocked goroutine may move to another
	// OS thread between reads, and a per-thread clock would then appear to
	// step back.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	deadline := now() + opts.CoarseWait
	minStep := int64(math.MaxInt64)
	held := false // a read saw the value of the one before
	prev := src.Now()
	// read reads src once and returns its step from the read before.
	read := func() int64 {
		v := src.Now()
		d := v - prev
		prev = v
		r.Reads++
		switch {
		case d > 0:
			r.Changes++
		case d < 0:
			r.BackwardSteps++
			r.MaxBackwardNs = max(r.MaxBackwardNs, ns(float64(-d)))
		default:
			held = true
		}
		return d
	}
	count := func(d int64) {
		r.TickChanges++
		minStep = min(minStep, d)
	}
	for r.Reads < opts.Reads {
		if d := read(); d > 0 {
			count(d)
		}
	}
	// after is a time before the last read (none yet: the first change
	// here cannot be bracketed); a change is pending until the next now
	// bounds the time of the read that saw it.
	after, bracketed := time.Duration(0), false
	var pending int64
	var pendingFrom time.Duration
	for r.TickChanges < MinTickChanges {
		t := now()
		if pending > 0 && float64(t-pendingFrom) < ns(float64(pending))/2 {
			count(pending)
		}
		pending = 0
		if r.TickChanges >= MinTickChanges || t >= deadline {
			break
		}
		if d := read(); d > 0 && bracketed {
			pending, pendingFrom = d, after
		}
		after, bracketed = t, true
	}
	switch {
	case r.TickChanges < MinTickChanges:
		r.TickBasis = TickUncertain
	case held || minStep == unit:
		r.TickBasis, r.TickNs = TickObserved, ns(float64(minStep))
	default:
		r.TickBasis, r.TickNs = TickUpperBound, ns(float64(minStep))
	}
}

// probeCost measures the cost of one read. Timing a single read is
// impossible (the timing clock costs as much as the read), so reads are
// timed in batches: each batch makes BatchReads reads back to back in a
// tight loop (a direct call, no interface dispatch) and is timed with two
// reads of timingNow (Mono; QueryPerformanceCounter on Windows, where
// Mono advances in timer ticks); the per-read cost is the batch time over
// BatchReads. The two reads (~25 ns for Mono on Linux) are spread over a
// batch of ~20 µs, so the measuring overhead is ~0.1 % and not
// subtracted. The loop's own increment and
// compare (< 1 ns) are included: that is what a caller pays. The spread of
// the batches (median vs p99) shows interference: interrupts, preemption,
// frequency changes.
func probeCost(src Source, r *Measured, opts ProbeOptions) {
	br, ok := src.(batchReader)
	if !ok {
		br = loopReader{src}
	}
	// Pilot: size a batch to about BatchTime.
	k := 16
	for {
		t0 := timingNow()
		probeSink.Store(br.readN(k))
		dt := timingNow() - t0
		if dt >= opts.BatchTime/4 || k >= 1<<22 {
			per := float64(dt) / float64(k)
			if per > 0 {
				k = max(1, int(float64(opts.BatchTime)/per))
			}
			break
		}
		k *= 4
	}
	r.BatchReads = k
	br.readN(k) // warm-up
	dts := make([]time.Duration, 0, opts.Batches)
	for range opts.Batches {
		t0 := timingNow()
		v := br.readN(k)
		dt := timingNow() - t0
		probeSink.Store(v)
		dts = append(dts, dt)
	}
	if why := unresolved(dts); why != "" {
		r.CostUnavailable = fmt.Sprintf("clock: read cost not measurable on %s: %s, which times the batches of %d reads, %s: its tick is too coarse for them",
			runtime.GOOS, timingName, k, why)
		return
	}
	r.CostNs = make([]float64, 0, opts.Batches)
	for _, dt := range dts {
		r.CostNs = append(r.CostNs, float64(dt)/float64(k))
	}
	sorted := slices.Clone(r.CostNs)
	slices.Sort(sorted)
	r.CostMinNs = sorted[0]
	r.CostMedianNs = quantile.Linear(sorted, 0.5)
	r.CostP99Ns = quantile.Linear(sorted, 0.99)
}

// unresolved says how the batch times dts show that the clock timing
// them (timingNow) is too coarse for them, or "" when it is not. Its step
// shows in the batch times (on Linux and darwin Go's monotonic clock
// resolves nanoseconds, and the step seen is tens of ns; on windows
// QueryPerformanceCounter steps by 1/frequency, 100 ns at 10 MHz): a
// step of coarseStep or more between two batches' times, or in a batch's
// time next to a batch that took none (the clock did not advance over
// it), or in equal times of every batch. With such a step, times of
// fewer than 100 steps (the median) are counts of its ticks, not
// durations.
func unresolved(dts []time.Duration) string {
	sorted := slices.Clone(dts)
	slices.Sort(sorted)
	zeros, _ := slices.BinarySearch(sorted, 1) // batches that took no time
	var step time.Duration                     // the smallest positive difference of times
	for i := zeros + 1; i < len(sorted); i++ {
		if d := sorted[i] - sorted[i-1]; d > 0 && (step == 0 || d < step) {
			step = d
		}
	}
	median := sorted[len(sorted)/2]
	switch {
	case zeros == len(sorted):
		return fmt.Sprintf("did not advance over any of %d batches", len(sorted))
	case zeros > 0 && sorted[zeros] >= coarseStep:
		return fmt.Sprintf("took no time over %d of %d batches and at least %s over the others", zeros, len(sorted), nsText(float64(sorted[zeros])))
	case zeros == 0 && step == 0 && len(sorted) > 1 && median >= coarseStep:
		return fmt.Sprintf("gave every batch the same time, %s", nsText(float64(median)))
	case step >= coarseStep && median < 100*step:
		return fmt.Sprintf("advanced in steps of %s over batches of %s (median)", nsText(float64(step)), nsText(float64(median)))
	}
	return ""
}

// coarseStep is the step from which timingNow is too coarse to time batches
// that last less than 100 of them.
const coarseStep = time.Microsecond

// loopReader batches a Source that has no readN of its own.
type loopReader struct{ s Source }

func (l loopReader) readN(n int) int64 {
	var v int64
	for range n {
		v = l.s.Now()
	}
	return v
}

// probeCross checks monotonicity across threads for d: per-thread clocks
// by migrating one thread between CPUs, the others by the shared-atomic
// method. Threads are locked to their OS thread and bound to a CPU each
// when the process may do so; a thread whose affinity was changed exits
// locked, so the runtime discards it.
func probeCross(src Source, p Props, ns func(float64) float64, d time.Duration) *Cross {
	cpus := allowedCPUs()
	if len(cpus) == 0 {
		for i := range runtime.NumCPU() {
			cpus = append(cpus, i)
		}
	}
	if len(cpus) > 4 {
		cpus = cpus[:4]
	}
	c := &Cross{CPUs: cpus}
	if p.PerThread {
		c.Mode, c.Threads = modeMigrating, 1
		crossMigrating(src, c, ns, d)
	} else {
		c.Mode, c.Threads = modeShared, max(2, len(cpus))
		crossShared(src, c, ns, d)
	}
	return c
}

func crossMigrating(src Source, c *Cross, ns func(float64) float64, d time.Duration) {
	thread.Run(func() { // a thread of its own: its affinity changes
		deadline := timingNow() + d
		prev := src.Now()
		pinned := true
		for i := 0; timingNow() < deadline; i++ {
			if err := pinThread(c.CPUs[i%len(c.CPUs)]); err != nil {
				pinned = false
				c.PinError = err.Error()
			}
			for range 256 {
				v := src.Now()
				c.Comparisons++
				if v < prev {
					c.BackwardSteps++
					c.MaxBackwardNs = max(c.MaxBackwardNs, ns(float64(prev-v)))
				}
				prev = v
			}
		}
		c.Pinned = pinned
	})
}

func crossShared(src Source, c *Cross, ns func(float64) float64, d time.Duration) {
	var last atomic.Int64
	last.Store(src.Now())
	var mu sync.Mutex
	var wg sync.WaitGroup
	pinned := true
	// ready is a start barrier: threads are created and bound first, and
	// the clock starts only when all of them run, so that no thread finds
	// the deadline passed before the others have started.
	var ready atomic.Int32
	for t := range c.Threads {
		wg.Add(1)
		thread.Go(func() { // a thread of its own: its affinity changes
			defer wg.Done()
			var pinErr error
			if len(c.CPUs) > 0 {
				pinErr = pinThread(c.CPUs[t%len(c.CPUs)])
			}
			ready.Add(1)
			for ready.Load() < int32(c.Threads) {
				runtime.Gosched()
			}
			deadline := timingNow() + d
			var comps, back int
			var maxBack float64
			for i := 0; ; i++ {
				if i%64 == 0 && timingNow() >= deadline {
					break
				}
				// Load the latest published reading, then read the clock:
				// the load happens before the read, and the publishing
				// thread's read happened before its store, so a correct
				// clock gives v >= prev.
				prev := last.Load()
				v := src.Now()
				comps++
				if v < prev {
					back++
					maxBack = max(maxBack, ns(float64(prev-v)))
				}
				for cur := prev; v > cur; cur = last.Load() {
					if last.CompareAndSwap(cur, v) {
						break
					}
				}
			}
			mu.Lock()
			defer mu.Unlock()
			c.Comparisons += comps
			c.BackwardSteps += back
			c.MaxBackwardNs = max(c.MaxBackwardNs, maxBack)
			if pinErr != nil {
				pinned = false
				c.PinError = pinErr.Error()
			}
		})
	}
	wg.Wait()
	c.Pinned = pinned && len(c.CPUs) > 0
}

// readerFuncs names the Go function that reads each elapsed-time clock.
var readerFuncs = map[string]string{
	"go-monotonic":           "clock.Mono or time.Since",
	"CLOCK_MONOTONIC":        "clock.Monotonic.Read",
	"CLOCK_MONOTONIC_RAW":    "clock.MonotonicRaw.Read",
	"CLOCK_MONOTONIC_COARSE": "clock.MonotonicCoarse.Read",
	"CLOCK_BOOTTIME":         "clock.Boottime.Read",
}

// tiePreference orders elapsed-time clocks whose costs tie: Go's own
// clock first (portable, no error to handle), then the unslewed raw clock.
var tiePreference = []string{"go-monotonic", "CLOCK_MONOTONIC_RAW", "CLOCK_MONOTONIC", "CLOCK_BOOTTIME"}

// tieFraction: median costs within this fraction of the cheapest are a
// tie (a few percent separate the vDSO reads, less than the run-to-run
// spread).
const tieFraction = 0.10

// recommend picks, among the available elapsed-time clocks that are not
// coarse and never stepped back (on one thread or across threads), the one
// with the smallest median read cost; costs within tieFraction of the
// cheapest tie, and ties go by tiePreference. It says why, naming the
// alternatives' costs and paths, the Go function to call, and, when the
// pick is slewed by NTP, the raw clock. Counters are not recommended for
// elapsed time in general (they need a frequency and an invariant TSC),
// but a note says what the best one costs.
func recommend(rs []Measured, info *Info) Recommendation {
	ok := func(r Measured) bool {
		return r.Err == nil && r.backwardSteps() == 0 && (r.Cross == nil || r.Cross.BackwardSteps == 0)
	}
	var cands []*Measured
	var cheapest float64
	for i := range rs {
		r := &rs[i]
		if r.Kind != Elapsed || r.Coarse || !ok(*r) || r.CostMedianNs <= 0 {
			continue
		}
		cands = append(cands, r)
		if cheapest == 0 || r.CostMedianNs < cheapest {
			cheapest = r.CostMedianNs
		}
	}
	if len(cands) == 0 {
		for _, r := range rs {
			if r.Props.Kind == Elapsed && r.CostUnavailable != "" {
				return Recommendation{Reason: "no elapsed-time clock's read cost could be measured on this host (see each clock's reason)"}
			}
		}
		return Recommendation{Reason: "no elapsed-time clock passed the checks on this host (see the backward steps)"}
	}
	rank := func(name string) int {
		if i := slices.Index(tiePreference, name); i >= 0 {
			return i
		}
		return len(tiePreference)
	}
	var best *Measured
	for _, r := range cands {
		if r.CostMedianNs > cheapest*(1+tieFraction) {
			continue
		}
		if best == nil || rank(r.Name) < rank(best.Name) ||
			(rank(r.Name) == rank(best.Name) && r.CostMedianNs < best.CostMedianNs) {
			best = r
		}
	}
	var why strings.Builder
	fmt.Fprintf(&why, "%s: %s/read (median), observed tick %s, %s, never stepped back", best.Name, nsText(best.CostMedianNs), best.tickText(), best.Path)
	if f := readerFuncs[best.Name]; f != "" {
		fmt.Fprintf(&why, "; read it with %s", f)
	}
	if best.CostMedianNs > cheapest {
		fmt.Fprintf(&why, " (within %.0f %% of the cheapest, a tie)", tieFraction*100)
	}
	var others []string
	for _, r := range rs {
		if r.Name != best.Name && r.Kind == Elapsed && r.Err == nil && r.CostMedianNs > 0 {
			others = append(others, fmt.Sprintf("%s %s (%s)", r.Name, nsText(r.CostMedianNs), r.Path))
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(&why, "; others cost %s", strings.Join(others, ", "))
	}
	if best.Name != "CLOCK_MONOTONIC_RAW" {
		for _, r := range cands {
			if r.Name == "CLOCK_MONOTONIC_RAW" {
				fmt.Fprintf(&why, "; for intervals that NTP must not slew, CLOCK_MONOTONIC_RAW (clock.MonotonicRaw.Read, %s, %s)", nsText(r.CostMedianNs), r.Path)
			}
		}
	}
	rec := Recommendation{Clock: best.Name, Reason: why.String()}

	var ctr *Measured
	for i := range rs {
		r := &rs[i]
		if r.Kind == Counter && r.Ordered && ok(*r) && r.CostMedianNs > 0 && (ctr == nil || r.CostMedianNs < ctr.CostMedianNs) {
			ctr = r
		}
	}
	if ctr != nil && info != nil {
		inv := "invariant"
		if info.Invariant == nil || !*info.Invariant {
			inv = "NOT invariant (its rate may change with the CPU frequency)"
		}
		rec.Counter = fmt.Sprintf("for intervals of a few hundred ns, %s costs %s/read, is %s, frequency %s (%s); convert with TSCInfo().ToNanos",
			ctr.Name, nsText(ctr.CostMedianNs), inv, fmtHz(float64(info.Hz)), info.Source)
	}
	return rec
}

// tickText says the observed tick in prose: its figure, "≤ figure" for
// an upper bound, or "uncertain (N changes seen)".
func (m Measured) tickText() string {
	st := m.Steps
	switch {
	case st == nil:
		return "unknown"
	case st.TickBasis == TickUncertain:
		return TickUncertainText(st.TickChanges)
	case st.TickBasis == TickUpperBound:
		return "≤ " + nsText(st.TickNs)
	}
	return nsText(st.TickNs)
}

func fmtHz(hz float64) string { return fmt.Sprintf("%.6f MHz", hz/1e6) }

// nsText writes a figure in ns for the prose of recommendations and
// warnings: to the nanosecond (the unit of Go's clocks), in the unit that
// suits it.
func nsText(ns float64) string { return unit.Duration(ns, unit.Precision{Resolution: 1}) }

// maxKernelDiffPPM is the agreement between the calibrated and the
// kernel's TSC frequency below which they are said to agree (1e-4).
const maxKernelDiffPPM = 100

// clocksourcePath is the sysfs directory of the kernel's clocksource.
const clocksourcePath = "/sys/devices/system/clocksource/clocksource0/"

// Warning codes of Survey.Warnings and Survey.Notes.
const (
	warnTSCDisagrees     = "tsc-kernel-disagree"
	warnTSCNotInvariant  = "tsc-not-invariant"
	warnVDSOFallback     = "vdso-fallback"
	warnClocksource      = "clocksource-not-tsc"
	warnSteppedBack      = "clock-stepped-back"
	noteTSCIsClocksource = "tsc-is-clocksource"
	noteUnorderedCounter = "unordered-counter-read"
)

func warnings(s *Survey) []warn.Warning {
	var w []warn.Warning
	if a := s.Agreement; a != nil && a.Verdict == disagree {
		w = append(w, warn.New(warnTSCDisagrees,
			fmt.Sprintf("the TSC frequency (%s, %s) differs from the kernel's (%s) by %.0f ppm, more than %d ppm even with both error bounds (±%.2g ppm)",
				fmtHz(float64(s.TSC.Hz)), s.TSC.Source, fmtHz(s.KernelTSC.Hz), a.DiffPPM, maxKernelDiffPPM, a.BoundPPM),
			"recalibrate over a longer window (chrono clocks --calibrate 1s) on an idle machine"))
	}
	if s.TSC != nil && s.TSC.Invariant != nil && !*s.TSC.Invariant {
		w = append(w, warn.New(warnTSCNotInvariant, "the TSC is not invariant: its rate follows the CPU frequency",
			"do not use it for elapsed time"))
	}
	w = append(w, clocksourceWarnings(s)...)
	for _, r := range s.Clocks {
		if r.Kind == Elapsed && r.Err == nil && r.backwardSteps() > 0 {
			w = append(w, warn.New(warnSteppedBack,
				fmt.Sprintf("%s stepped back %s on one thread (up to %s)", r.Name, plural.Count(r.Steps.BackwardSteps, "time"), nsText(r.Steps.MaxBackwardNs)),
				"do not use it for elapsed time on this host"))
		}
	}
	return w
}

// clocksourceWarnings says what the kernel clocksource costs the clock
// reads, from what was measured: clocks whose vDSO read falls back to the
// system call, or a clocksource other than the TSC. It advises selecting
// the TSC only when the kernel offers it (available_clocksource).
func clocksourceWarnings(s *Survey) []warn.Warning {
	var fellBack []string
	var sysNs float64
	for _, r := range s.Clocks {
		if r.Err == nil && strings.Contains(r.Description, "falls back") {
			fellBack = append(fellBack, r.Name)
			sysNs = max(sysNs, r.CostMedianNs)
		}
	}
	cs := s.Clocksource
	tscOffered := cs != nil && slices.Contains(cs.Available, "tsc")
	// why completes the message; next is the step that helps, if any.
	why, next := "", ""
	switch {
	case cs == nil:
		why = "; the clocksource is unknown (" + s.ClocksourceUnavailable + ")"
		next = "read /sys/devices/system/clocksource/clocksource0/ to see which clocksource the kernel uses"
	case cs.Current == "tsc":
		why = "; the clocksource is already tsc"
		next = "check the kernel log (dmesg | grep -i clocksource) for why the vDSO cannot use it"
	case tscOffered:
		next = fmt.Sprintf("tsc is available: select it (as root: echo tsc > %scurrent_clocksource)", clocksourcePath)
	default:
		why = fmt.Sprintf("; the kernel offers no other clocksource the vDSO can read (available: %s): tsc is not among them (an unstable TSC, or a hypervisor that does not expose it)",
			strings.Join(cs.Available, ", "))
		next = "nothing to select on this host: measure on one whose kernel offers the tsc clocksource for cheap clock reads"
	}
	if len(fellBack) > 0 {
		name := "its clocksource"
		if cs != nil {
			name = "clocksource " + cs.Current
		}
		return []warn.Warning{warn.New(warnVDSOFallback,
			fmt.Sprintf("%s: the vDSO cannot read %s, so every read is a system call (up to %s), in C programs too%s",
				strings.Join(fellBack, ", "), name, nsText(sysNs), why), next)}
	}
	if cs != nil && cs.Current != "tsc" && cs.Current != "arch_sys_counter" {
		mono := ""
		for _, r := range s.Clocks {
			if r.Name == "CLOCK_MONOTONIC" && r.Err == nil && r.CostMedianNs > 0 {
				mono = fmt.Sprintf(" (CLOCK_MONOTONIC %s, %s)", nsText(r.CostMedianNs), r.Path)
			}
		}
		msg := fmt.Sprintf("the kernel clocksource is %q%s", cs.Current, mono)
		if tscOffered {
			msg += ": reading tsc is usually cheaper"
		}
		return []warn.Warning{warn.New(warnClocksource, msg+why, next)}
	}
	return nil
}

func notes(s *Survey) []warn.Warning {
	var n []warn.Warning
	if s.Clocksource != nil && s.Clocksource.Current == "tsc" && s.TSC != nil &&
		s.TSC.Calibration != nil && s.TSC.Calibration.Reference == "CLOCK_MONOTONIC_RAW" {
		n = append(n, warn.NewNote(noteTSCIsClocksource, "the kernel clocksource is the TSC, so CLOCK_MONOTONIC_RAW is the TSC scaled by the kernel's own frequency: "+
			"agreement with the kernel's figure confirms the calibration, not the kernel's figure itself", ""))
	}
	for _, r := range s.Clocks {
		if r.Kind == Counter && !r.Ordered && r.Cross != nil && r.Cross.BackwardSteps > 0 {
			n = append(n, warn.NewNote(noteUnorderedCounter,
				fmt.Sprintf("%s stepped back across threads %s in %d: an unordered read may execute before the preceding load",
					r.Name, plural.Count(int(r.Cross.BackwardSteps), "time"), r.Cross.Comparisons),
				"use an ordered read (TSCFenced, TSCP) to start or stop a timed region"))
		}
	}
	return n
}
