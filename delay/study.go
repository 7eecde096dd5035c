package delay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/internal/thread"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// defaultDurations are the requested durations of a Study when none are
// given: 1 µs to 1 s by decades.
var defaultDurations = []time.Duration{
	time.Microsecond, 10 * time.Microsecond, 100 * time.Microsecond,
	time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond, time.Second,
}

// Study limits.
const (
	// MaxStudyDuration is the longest requested duration a Study accepts.
	MaxStudyDuration = 10 * time.Second
	// DefaultStudyBudget is the default total time budget of a Study. Every
	// cell takes at least one sample, so a Study of 1 s durations lasts at
	// least (number of mechanisms) seconds whatever the budget.
	DefaultStudyBudget = 30 * time.Second
	// DefaultMaxSamples caps the samples of one cell.
	DefaultMaxSamples = 10000
)

// StudyOptions configure a Study.
type StudyOptions struct {
	// Durations are the requested waits (each in (0, MaxStudyDuration]);
	// nil means 1 µs to 1 s by decades.
	Durations []time.Duration
	// Mechanisms selects mechanisms by name (see Mechanisms); nil means all.
	Mechanisms []string
	// Budget is the total time to spend, split evenly between the cells
	// (mechanism × duration); each cell takes samples until its share is
	// used, at least one. 0 means DefaultStudyBudget.
	Budget time.Duration
	// MaxSamples caps the samples per cell; 0 means DefaultMaxSamples.
	MaxSamples int
	// Settings apply to the threads that wait in the kernel themselves (the
	// system-call mechanisms and busy-spin). The Go runtime mechanisms and
	// delay.Sleep run on ordinary goroutines, as programs call them.
	Settings ThreadSettings
	// Progress, if set, is called before each cell.
	Progress func(mechanism string, d time.Duration)
}

// Cell is the measurement of one mechanism at one requested duration.
// All durations are in nanoseconds. StudyResult.Document turns cells into
// measurements; package report lays them out (medians, percentiles, the
// most accurate mechanism per duration).
type Cell struct {
	Mechanism string
	Requested time.Duration
	// OwnThread is set for mechanisms that wait on a thread of their own,
	// locked for the cell, with StudyOptions.Settings applied (the system
	// calls and busy-spin); the others wait on an ordinary goroutine.
	OwnThread bool
	// TimerSlack is the timer slack the waits ran with (ns): read on the
	// own thread, or the slack set on every thread for the "+slack1ns"
	// variants of the Go runtime's waits; -1 when unknown or left as it
	// was on the Go runtime's threads.
	TimerSlack int64
	// TimerResolution is the system timer resolution in force while the
	// waits ran (ns; windows, NtQueryTimerResolution's current value, read
	// after the mechanism's setup: the resolution it holds, or the finest
	// that any process asked for); -1 where the system has none (Linux).
	TimerResolution int64
	// Achieved holds every raw achieved duration (ns), in order.
	Achieved []float64
	// CPU holds the CPU time of each wait (ns), measured on CPUClock
	// ("thread" or "process") minus CPUReadCost, the cost of reading it
	// twice (the median of 15 empty pairs); nil when unavailable.
	CPU         []float64
	CPUClock    string
	CPUReadCost float64
	// CPUTick is the CPU clock's observed tick: the smallest non-zero
	// difference of the empty pairs (ns), 0 when none differed.
	CPUTick float64
	// Unavailable, when not nil, says why the cell could not be measured.
	Unavailable error
	// Incomplete is set when the context ended the cell early (the wait
	// in progress then is dropped, not counted).
	Incomplete bool
	// Failed counts the waits that failed (the system call returned an
	// error, so the wait did not last what it was asked to): they are not
	// samples, and no figure of the cell includes them. Err is the first
	// one's error, wrapping the system's.
	Failed int
	Err    error
}

// StudyResult is the outcome of a Study.
type StudyResult struct {
	// Options are the options the study ran with, defaults filled in.
	Options StudyOptions
	// Start and End are the wall-clock times the study began and ended.
	Start, End time.Time
	// Tick is the observed tick of the clock the waits are timed with
	// (the smallest non-zero step of back-to-back reads, bounded below by
	// the read cost): the resolution of every achieved duration.
	Tick time.Duration
	// ReadCost is the cost of one read of that clock, in ns: the median
	// over batches of back-to-back reads. With Tick it is the floor of a
	// busy-spin's overshoot (see Warnings); 0 when not measured.
	ReadCost   float64
	Durations  []time.Duration
	Mechanisms []string
	Cells      []*Cell // durations outer, mechanisms inner
	// SpinMargin is delay.Sleep's learned margin at the end of the study;
	// 0 when no delay.Sleep cell took a sample.
	SpinMargin time.Duration
	// Interrupted is set when the context ended the study early.
	Interrupted bool
	// Held is what Acquire put in place for the study, set by the caller
	// (nil when Acquire was not used): Document records its conditions
	// and the warnings of the settings it refused.
	Held *Held
}

// Mechanisms returns the names of the waiting mechanisms a Study can
// measure on this platform, in the order a Study runs them.
func Mechanisms() []string {
	var names []string
	for _, m := range studyMechanisms() {
		names = append(names, m.name)
	}
	return names
}

// studyMechanisms lists the mechanisms a Study knows (tests replace it).
var studyMechanisms = mechanisms

// mechanism is one way of waiting. setup runs once on the sampling
// goroutine, before the first sample, and returns the waiter that takes
// the samples of one requested duration.
type mechanism struct {
	name string
	// locked mechanisms run on a fresh thread locked for the cell (and
	// discarded afterwards), with StudyOptions.Settings and threadSlack
	// applied; their CPU time is the thread's. Others run on an ordinary
	// goroutine and are charged the process's CPU time.
	locked      bool
	threadSlack int64 // > 0: set this thread timer slack (locked only)
	// processSlack > 0: set every thread's timer slack for the cell (for
	// the Go runtime's own waits), restored afterwards.
	processSlack int64
	setup        func(d time.Duration, stop *stopFlag) (*waiter, error)
}

// waiter waits with one mechanism for one requested duration.
type waiter struct {
	// wait waits once and returns the start and end of the wait on
	// nanotime. A non-nil err is errStopped when stop ended the wait, or
	// says why the wait failed: then start and end mean nothing.
	wait func() (start, end int64, err error)
	// interrupt, if not nil, makes a wait in progress end soon (stop is
	// set before). It may be called from another goroutine, at any time,
	// even after cleanup. Waits without one (time.Sleep, delay.Sleep)
	// run to their end in the background when a study is interrupted,
	// their result dropped.
	interrupt func()
	// cleanup releases what setup acquired.
	cleanup func()
}

// errStopped reports a wait ended because a study or latency test was
// interrupted.
var errStopped = errors.New("delay: stopped")

// stopFlag tells a cell's waits that the study was interrupted.
type stopFlag struct {
	flag atomic.Bool
	ch   chan struct{}
	once sync.Once
}

func newStopFlag() *stopFlag { return &stopFlag{ch: make(chan struct{})} }

func (s *stopFlag) set() {
	s.once.Do(func() {
		s.flag.Store(true)
		close(s.ch)
	})
}

func (s *stopFlag) isSet() bool { return s.flag.Load() }

// simpleWaiter is a waiter with nothing to interrupt or release.
func simpleWaiter(wait func() (int64, int64, error)) *waiter {
	return &waiter{wait: wait, cleanup: func() {}}
}

// Study measures how accurately each waiting mechanism waits for each
// requested duration. It returns the partial result with Interrupted set
// when ctx ends, and an error for invalid options (a duration out of
// range or given twice, an unknown mechanism or one given twice) or
// refused settings.
func Study(ctx context.Context, opts StudyOptions) (*StudyResult, error) {
	durs := opts.Durations
	if len(durs) == 0 {
		durs = defaultDurations
	}
	seen := map[time.Duration]bool{}
	for _, d := range durs {
		if d <= 0 || d > MaxStudyDuration {
			return nil, fmt.Errorf("delay: requested duration %v out of range (use 1ns to %v)", d, MaxStudyDuration)
		}
		if seen[d] {
			return nil, fmt.Errorf("delay: requested duration %v given twice: give each duration once", d)
		}
		seen[d] = true
	}
	if err := opts.Settings.validate(); err != nil {
		return nil, err
	}
	all := studyMechanisms()
	var mechs []mechanism
	if len(opts.Mechanisms) == 0 {
		mechs = all
	} else {
		chosen := map[string]bool{}
		for _, name := range opts.Mechanisms {
			if chosen[name] {
				return nil, fmt.Errorf("delay: mechanism %q given twice: give each mechanism once", name)
			}
			chosen[name] = true
			found := false
			for _, m := range all {
				if m.name == name {
					mechs = append(mechs, m)
					found = true
				}
			}
			if !found {
				return nil, fmt.Errorf("delay: unknown mechanism %q (known: %v)", name, Mechanisms())
			}
		}
	}
	budget := opts.Budget
	if budget <= 0 {
		budget = DefaultStudyBudget
	}
	maxN := opts.MaxSamples
	if maxN <= 0 {
		maxN = DefaultMaxSamples
	}
	res := &StudyResult{Durations: durs, Start: time.Now(), Tick: time.Duration(studyTick()), ReadCost: studyReadCost()}
	for _, m := range mechs {
		res.Mechanisms = append(res.Mechanisms, m.name)
	}
	res.Options = opts
	res.Options.Durations, res.Options.Mechanisms = durs, res.Mechanisms
	res.Options.Budget, res.Options.MaxSamples = budget, maxN
	res.Options.Progress = nil
	cellBudget := budget / time.Duration(len(durs)*len(mechs))
	done := func() (*StudyResult, error) {
		for _, c := range res.Cells {
			if c.Mechanism == "delay.Sleep" && len(c.Achieved) > 0 {
				res.SpinMargin = studySleeper.margin()
			}
		}
		res.End = time.Now()
		return res, nil
	}
	for _, d := range durs {
		for _, m := range mechs {
			if ctx.Err() != nil {
				res.Interrupted = true
				return done()
			}
			if opts.Progress != nil {
				opts.Progress(m.name, d)
			}
			c, err := measureCell(ctx, m, d, cellBudget, maxN, opts.Settings)
			if err != nil {
				return nil, err
			}
			res.Cells = append(res.Cells, c)
			if c.Incomplete {
				res.Interrupted = true
			}
		}
	}
	return done()
}

// studyTick returns the observed tick of nanotime in ns (tests replace
// it: it reads the real clock).
var studyTick = func() int64 { return observedTick(nanotime, 1000) }

// studyReadCost returns the cost of one nanotime read in ns (tests
// replace it: it reads the real clock).
var studyReadCost = func() float64 { return readCost(nanotime, 15, 1000) }

// readCost times batches of n back-to-back reads of a clock with the
// clock itself and returns the median cost of one read (ns): the two
// reads that time a batch add 2/n of a read to it.
func readCost(read func() int64, batches, n int) float64 {
	costs := make([]float64, batches)
	for b := range costs {
		var sink int64
		t0 := read()
		for range n {
			sink ^= read()
		}
		costs[b] = float64(read()-t0) / float64(n)
		readSink.Store(sink)
	}
	return stats.Summarize(costs).Median
}

// readSink keeps readCost's reads alive.
var readSink atomic.Int64

// observedTick reads a clock at least n times back to back and returns
// the smallest non-zero step (ns), bounded below by the cost of a read.
// A coarse clock (Go's monotonic clock on windows is the interrupt time,
// 0.5 to 15.6 ms a step) may not move in n reads: reading goes on until it
// has moved twice, for at most maxTickReads reads; 0 when it never moved.
func observedTick(read func() int64, n int) int64 {
	best := int64(0)
	moves := 0
	prev := read()
	for i := 0; i < n || (moves < 2 && i < maxTickReads); i++ {
		v := read()
		if d := v - prev; d > 0 {
			moves++
			if best == 0 || d < best {
				best = d
			}
		}
		prev = v
	}
	return best
}

// maxTickReads bounds observedTick's reads of a clock that does not move
// (a few hundred ms at a few ns a read; 15.6 ms, a coarse clock's longest
// step, takes a few million).
const maxTickReads = 1 << 26

// studySleeper is delay.Sleep as measured by Study (a Sleeper of its own,
// so the study starts from the same state each run).
var studySleeper = NewSleeper(Options{})

// measureCell samples one mechanism at one duration on a suitable
// goroutine. When ctx ends it returns at once with the samples taken so
// far (Incomplete set): it stops the wait in progress where the mechanism
// can be interrupted, and otherwise leaves it to end in the background,
// its result dropped.
func measureCell(ctx context.Context, m mechanism, d, budget time.Duration, maxN int, set ThreadSettings) (*Cell, error) {
	sink := &cellSink{c: &Cell{Mechanism: m.name, Requested: d, OwnThread: m.locked, TimerSlack: -1, TimerResolution: -1}}
	stop := newStopFlag()
	var current atomic.Pointer[waiter]
	var slack restorer
	done := make(chan error, 1)
	measure := func() {
		if m.locked { // on a thread of its own (thread.Go): its settings die with it
			if err := set.apply(); err != nil {
				done <- err
				return
			}
			if m.threadSlack > 0 {
				if err := setThreadSlack(m.threadSlack); err != nil {
					sink.do(func(c *Cell) { c.Unavailable = err })
					done <- nil
					return
				}
			}
			if slack, err := ownTimerSlack(); err == nil {
				sink.do(func(c *Cell) { c.TimerSlack = slack })
			}
		}
		if m.processSlack > 0 {
			restore, err := setProcessTimerSlack(m.processSlack)
			if err != nil {
				sink.do(func(c *Cell) { c.Unavailable = err })
				done <- nil
				return
			}
			sink.do(func(c *Cell) { c.TimerSlack = m.processSlack })
			if !slack.set(restore) {
				done <- nil // interrupted meanwhile: restored already
				return
			}
			defer slack.run()
		}
		sink.sample(m, d, budget, maxN, stop, &current)
		done <- nil
	}
	if m.locked {
		thread.Go(measure)
	} else {
		go measure()
	}
	select {
	case err := <-done:
		if err != nil {
			return nil, err
		}
		return sink.c, nil
	case <-ctx.Done():
	}
	select {
	case err := <-done: // finished anyway
		if err != nil {
			return nil, err
		}
		return sink.c, nil
	default:
	}
	stop.set()
	sink.close()
	if w := current.Load(); w != nil && w.interrupt != nil {
		w.interrupt()
	}
	slack.run()
	return sink.c, nil
}

// cellSink is where the sampling goroutine puts a cell's samples: once
// closed (the study was interrupted and returned the cell), it takes no
// more.
type cellSink struct {
	mu       sync.Mutex
	c        *Cell
	closed   bool
	finished bool
}

// do applies f to the cell unless the sink is closed, and reports whether
// it did.
func (s *cellSink) do(f func(c *Cell)) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	f(s.c)
	return true
}

func (s *cellSink) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.c.Incomplete = !s.finished
}

// restorer holds a function that undoes a setting, to be run once, by
// whoever comes first: the sampling goroutine when it ends, or an
// interrupted measureCell (which must not leave the setting behind while
// the goroutine finishes its last wait).
type restorer struct {
	mu   sync.Mutex
	f    func()
	done bool
}

// set records f; it returns false, after running f, when run already ran.
func (r *restorer) set(f func()) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		f()
		return false
	}
	r.f = f
	return true
}

func (r *restorer) run() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.done && r.f != nil {
		r.f()
	}
	r.done = true
}

// sample takes samples of m at d until the budget is used (at least one
// attempt) or stop is set, after one untimed warm-up wait when d ≤ 100 ms.
// A failed wait counts as failed, not as a sample.
func (s *cellSink) sample(m mechanism, d, budget time.Duration, maxN int, stop *stopFlag, current *atomic.Pointer[waiter]) {
	w, err := m.setup(d, stop)
	if err != nil {
		s.do(func(c *Cell) { c.Unavailable = err })
		return
	}
	current.Store(w)
	defer w.cleanup()
	if res := timerResolution(); res > 0 {
		if !s.do(func(c *Cell) { c.TimerResolution = res }) {
			return
		}
	}
	cpu := clock.ProcessCPU
	cpuClock := "process"
	if m.locked {
		cpu, cpuClock = clock.ThreadCPU, "thread"
	}
	// The cost of the two CPU-clock reads around a wait, subtracted from
	// each CPU figure (median of a few empty pairs).
	// The smallest non-zero difference of the pairs is the clock's
	// observed tick.
	var empty []float64
	cpuOK := true
	tick := 0.0
	for i := 0; i < 15; i++ {
		a, err1 := cpu()
		b, err2 := cpu()
		if err1 != nil || err2 != nil {
			cpuOK = false
			break
		}
		empty = append(empty, float64(b-a))
		if b > a && (tick == 0 || float64(b-a) < tick) {
			tick = float64(b - a)
		}
	}
	readCost := 0.0
	if cpuOK {
		readCost = stats.Summarize(empty).Median
	} else {
		cpuClock = ""
	}
	if !s.do(func(c *Cell) { c.CPUClock, c.CPUReadCost, c.CPUTick = cpuClock, readCost, tick }) {
		return
	}
	if d <= 100*time.Millisecond {
		// Untimed warm-up; had it failed, the waits below fail too and
		// are counted.
		_, _, _ = w.wait()
	}
	began := nanotime()
	var last int64 // the previous attempt's length
	for n := 0; n < maxN; n++ {
		if stop.isSet() {
			return
		}
		if n > 0 && nanotime()-began+last > int64(budget) {
			break
		}
		var c0, c1 time.Duration
		if cpuOK {
			c0, _ = cpu()
		}
		t0 := nanotime()
		start, end, err := w.wait()
		last = nanotime() - t0
		if cpuOK {
			c1, _ = cpu()
		}
		if errors.Is(err, errStopped) || stop.isSet() {
			return
		}
		if !s.do(func(c *Cell) {
			if err != nil {
				c.Failed++
				if c.Err == nil {
					c.Err = fmt.Errorf("delay: %s %v: %w", m.name, d, err)
				}
				return
			}
			if cpuOK {
				c.CPU = append(c.CPU, math.Max(0, float64(c1-c0)-readCost))
			}
			c.Achieved = append(c.Achieved, float64(end-start))
		}) {
			return
		}
	}
	s.mu.Lock()
	s.finished = true
	s.mu.Unlock()
}

// goMechanisms are the portable mechanisms (Go runtime waits, busy-spin,
// delay.Sleep); the Linux file adds the system calls.
func goMechanisms() (runtimeWaits, spinAndDelay []mechanism) {
	sleep := func(d time.Duration, _ *stopFlag) (*waiter, error) {
		return simpleWaiter(func() (int64, int64, error) {
			s := nanotime()
			time.Sleep(d)
			return s, nanotime(), nil
		}), nil
	}
	timer := func(d time.Duration, stop *stopFlag) (*waiter, error) {
		t := time.NewTimer(time.Hour)
		t.Stop()
		return &waiter{wait: func() (int64, int64, error) {
			s := nanotime()
			t.Reset(d)
			select {
			case <-t.C:
				return s, nanotime(), nil
			case <-stop.ch:
				return s, s, errStopped
			}
		}, cleanup: func() { t.Stop() }}, nil
	}
	ticker := func(d time.Duration, stop *stopFlag) (*waiter, error) {
		t := time.NewTicker(d)
		last := nanotime()
		return &waiter{wait: func() (int64, int64, error) {
			select {
			case <-t.C:
			case <-stop.ch:
				return last, last, errStopped
			}
			s, e := last, nanotime()
			last = e
			return s, e, nil
		}, cleanup: t.Stop}, nil
	}
	// The spin yields first every yieldEvery, as delay.Sleep's spin-only
	// waits do, so that the runtime does not preempt it mid-spin.
	spin := func(d time.Duration, stop *stopFlag) (*waiter, error) {
		rested := nanotime()
		return simpleWaiter(func() (int64, int64, error) {
			s := nanotime()
			if s-rested >= int64(yieldEvery) {
				rested = s
				runtime.Gosched()
			}
			abs := s + int64(d)
			for {
				if t := nanotime(); t >= abs {
					return s, t, nil
				}
				if stop.isSet() {
					return s, s, errStopped
				}
			}
		}), nil
	}
	dsleep := func(noSpin bool) func(d time.Duration, _ *stopFlag) (*waiter, error) {
		s := studySleeper
		if noSpin {
			s = NewSleeper(Options{NoSpin: true})
		}
		return func(d time.Duration, _ *stopFlag) (*waiter, error) {
			return simpleWaiter(func() (int64, int64, error) { return sleeperWait(s, d) }), nil
		}
	}
	runtimeWaits = []mechanism{
		{name: "time.Sleep", setup: sleep},
		{name: "time.Timer", setup: timer},
		{name: "time.Ticker", setup: ticker},
	}
	spinAndDelay = []mechanism{
		{name: "busy-spin", locked: true, setup: spin},
		{name: "delay.Sleep", setup: dsleep(false)},
		{name: "delay.Sleep(NoSpin)", setup: dsleep(true)},
	}
	return runtimeWaits, spinAndDelay
}

// sleeperWait is one wait of d of a delay.Sleep mechanism: an error when
// the kernel wait failed (the time.Sleep fallback is not what is
// measured).
func sleeperWait(s *Sleeper, d time.Duration) (start, end int64, err error) {
	before, _ := s.failureCount()
	start = nanotime()
	end = s.untilNano(start+int64(d), start)
	if after, err := s.failureCount(); after != before {
		return start, end, err
	}
	return start, end, nil
}

// warnSpinPreempted is the code of the warning that busy-spin's
// overshoot shows the machine preempting the measuring threads.
const warnSpinPreempted = "busy-spin-preempted"

// preemptionFactor is how far above its floor busy-spin's median
// overshoot must be for a study to warn that the machine was preempting.
//
// A spin that keeps its CPU notices the deadline at its first clock read
// at or after it, so it overshoots by at most one turn of its loop: one
// read (ReadCost), or one step of the clock where the clock steps more
// coarsely than a read (Tick). That is its floor, and an idle machine
// spins within it: the median of such overshoots is about half a read.
// A spin that lost its CPU across the deadline overshoots by at least a
// switch away and back, microseconds: a hundred reads and more at 25 ns.
// The median passes 10 floors only when more than half of the spins
// were preempted (an interrupt, a few µs every few ms, reaches few
// waits), while 10 leaves room for the clock's own jitter (a slower read
// now and then: a cache miss, a retried vDSO read), which an idle
// machine's median never reaches.
const preemptionFactor = 10

// warnings returns what the study's figures themselves say about the
// conditions they were taken in: the busy-spin cells whose median
// overshoot is above preemptionFactor times busy-spin's floor
// (max(ReadCost, Tick)), which means the spinning thread, and so every
// other waiter, was being preempted (code warnSpinPreempted). It is nil
// without busy-spin samples or without a floor.
func (r *StudyResult) warnings() []warn.Warning {
	floor := max(r.ReadCost, float64(r.Tick))
	if !(floor > 0) {
		return nil
	}
	var cells []string
	for _, c := range r.Cells {
		if c.Mechanism != "busy-spin" || len(c.Achieved) == 0 {
			continue
		}
		over := make([]float64, len(c.Achieved))
		for i, a := range c.Achieved {
			over[i] = a - float64(c.Requested)
		}
		if med := stats.Summarize(over).Median; med > preemptionFactor*floor {
			cells = append(cells, fmt.Sprintf("%s at %v", unit.Duration(med, unit.Precision{Resolution: max(float64(r.Tick), 1)}), c.Requested))
		}
	}
	if len(cells) == 0 {
		return nil
	}
	what := fmt.Sprintf("a clock read costs %s", unit.Duration(r.ReadCost, unit.Precision{Resolution: 0.1}))
	if float64(r.Tick) > r.ReadCost {
		what = fmt.Sprintf("the clock steps by %s", unit.Duration(float64(r.Tick), unit.Precision{Resolution: 1}))
	}
	return []warn.Warning{warn.New(warnSpinPreempted,
		fmt.Sprintf("busy-spin overshot by a median of %s, more than %d times its floor (%s): the spinning thread lost its CPU, so the machine was preempting the waits and every figure here includes that",
			strings.Join(cells, ", "), preemptionFactor, what),
		"measure on an idle machine (stop other work; uptime shows the load), or give the waits a CPU of their own: --pin and -p (SCHED_FIFO)")}
}
