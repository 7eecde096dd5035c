package delay

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/stats"
)

// DefaultDurations are the requested durations of a Study when none are
// given: 1 µs to 1 s by decades.
var DefaultDurations = []time.Duration{
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
	// nil means DefaultDurations.
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
// All durations are in nanoseconds.
type Cell struct {
	Mechanism string
	Requested time.Duration
	// Achieved holds every raw achieved duration (ns), in order.
	Achieved []float64
	// CPU holds the CPU time of each wait (ns), measured on CPUClock
	// ("thread" or "process") minus the cost of reading it; nil when
	// unavailable.
	CPU      []float64
	CPUClock string
	// Unavailable, when set, says why the cell could not be measured.
	Unavailable string
	// Incomplete is set when the context ended the cell early.
	Incomplete bool

	// Derived figures (ns; ErrorPct in %), set by summarize.
	AchievedMedian  float64
	OvershootMedian float64
	OvershootP99    float64
	OvershootMax    float64
	ErrorPct        float64 // (median achieved - requested) / requested × 100
	CPUPerWait      float64 // median CPU per wait; NaN when unavailable
	// Best marks the most accurate mechanism at this duration (smallest
	// |median overshoot|, then smallest p99); BestFrugal the most accurate
	// among those using at most 10 % of the requested time in CPU.
	Best, BestFrugal bool
}

// StudyResult is the outcome of a Study.
type StudyResult struct {
	Durations  []time.Duration
	Mechanisms []string
	Cells      []*Cell // durations outer, mechanisms inner
	// SpinMargin is delay.Sleep's learned margin at the end of the study.
	SpinMargin time.Duration
	// Interrupted is set when the context ended the study early.
	Interrupted bool
}

// Mechanisms returns the names of the waiting mechanisms a Study can
// measure on this platform, in the order a Study runs them.
func Mechanisms() []string {
	var names []string
	for _, m := range mechanisms() {
		names = append(names, m.name)
	}
	return names
}

// mechanism is one way of waiting. wait(d) waits once and returns the
// start and end of the wait on nanotime; setup, if any, runs once on the
// sampling goroutine before the first sample and returns the wait function
// and a cleanup.
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
	setup        func(d time.Duration) (wait func() (start, end int64), cleanup func(), err error)
}

// Study measures how accurately each waiting mechanism waits for each
// requested duration. It returns the partial result with Interrupted set
// when ctx ends, and an error for invalid options or refused settings.
func Study(ctx context.Context, opts StudyOptions) (*StudyResult, error) {
	durs := opts.Durations
	if len(durs) == 0 {
		durs = DefaultDurations
	}
	for _, d := range durs {
		if d <= 0 || d > MaxStudyDuration {
			return nil, fmt.Errorf("delay: requested duration %v out of range (use 1ns to %v)", d, MaxStudyDuration)
		}
	}
	if err := opts.Settings.validate(); err != nil {
		return nil, err
	}
	all := mechanisms()
	var mechs []mechanism
	if len(opts.Mechanisms) == 0 {
		mechs = all
	} else {
		for _, name := range opts.Mechanisms {
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
	res := &StudyResult{Durations: durs}
	for _, m := range mechs {
		res.Mechanisms = append(res.Mechanisms, m.name)
	}
	cellBudget := budget / time.Duration(len(durs)*len(mechs))
	for _, d := range durs {
		for _, m := range mechs {
			if ctx.Err() != nil {
				res.Interrupted = true
				return res, nil
			}
			if opts.Progress != nil {
				opts.Progress(m.name, d)
			}
			c, err := measureCell(ctx, m, d, cellBudget, maxN, opts.Settings)
			if err != nil {
				return nil, err
			}
			c.summarize()
			res.Cells = append(res.Cells, c)
			if c.Incomplete {
				res.Interrupted = true
			}
		}
		markBest(res.Cells[len(res.Cells)-len(mechs):])
	}
	res.SpinMargin = studySleeper.Margin()
	return res, nil
}

// studySleeper is delay.Sleep as measured by Study (a Sleeper of its own,
// so the study starts from the same state each run).
var studySleeper = NewSleeper(Options{})

// measureCell samples one mechanism at one duration on a suitable
// goroutine.
func measureCell(ctx context.Context, m mechanism, d, budget time.Duration, maxN int, set ThreadSettings) (*Cell, error) {
	type out struct {
		c   *Cell
		err error
	}
	done := make(chan out, 1)
	measure := func() {
		c := &Cell{Mechanism: m.name, Requested: d}
		if m.locked { // on a thread of its own (goLocked): its settings die with it
			if err := set.apply(); err != nil {
				done <- out{nil, err}
				return
			}
			if m.threadSlack > 0 {
				if err := setThreadSlack(m.threadSlack); err != nil {
					c.Unavailable = err.Error()
					done <- out{c, nil}
					return
				}
			}
		}
		if m.processSlack > 0 {
			restore, err := setProcessTimerSlack(m.processSlack)
			if err != nil {
				c.Unavailable = err.Error()
				done <- out{c, nil}
				return
			}
			defer restore()
		}
		c.sample(ctx, m, d, budget, maxN)
		done <- out{c, nil}
	}
	if m.locked {
		goLocked(measure)
	} else {
		go measure()
	}
	o := <-done
	return o.c, o.err
}

// sample takes samples of m at d until the budget is used (at least one),
// after one untimed warm-up wait when d ≤ 100 ms.
func (c *Cell) sample(ctx context.Context, m mechanism, d, budget time.Duration, maxN int) {
	wait, cleanup, err := m.setup(d)
	if err != nil {
		c.Unavailable = err.Error()
		return
	}
	defer cleanup()
	cpu := clock.ProcessCPU
	c.CPUClock = "process"
	if m.locked {
		cpu, c.CPUClock = clock.ThreadCPU, "thread"
	}
	// The cost of the two CPU-clock reads around a wait, subtracted from
	// each CPU figure (median of a few empty pairs).
	var empty []float64
	cpuOK := true
	for i := 0; i < 15; i++ {
		a, err1 := cpu()
		b, err2 := cpu()
		if err1 != nil || err2 != nil {
			cpuOK = false
			break
		}
		empty = append(empty, float64(b-a))
	}
	readCost := 0.0
	if cpuOK {
		readCost = stats.Summarize(empty).Median
	} else {
		c.CPUClock = ""
	}
	if d <= 100*time.Millisecond {
		wait()
	}
	began := nanotime()
	for len(c.Achieved) < maxN {
		if ctx.Err() != nil {
			c.Incomplete = true
			return
		}
		if n := len(c.Achieved); n > 0 {
			used := nanotime() - began
			if used+int64(c.Achieved[n-1]) > int64(budget) {
				return
			}
		}
		var c0, c1 time.Duration
		if cpuOK {
			c0, _ = cpu()
		}
		start, end := wait()
		if cpuOK {
			c1, _ = cpu()
			c.CPU = append(c.CPU, math.Max(0, float64(c1-c0)-readCost))
		}
		c.Achieved = append(c.Achieved, float64(end-start))
	}
}

func (c *Cell) summarize() {
	c.CPUPerWait = math.NaN()
	if c.Unavailable != "" || len(c.Achieved) == 0 {
		c.AchievedMedian, c.OvershootMedian, c.OvershootP99, c.OvershootMax, c.ErrorPct = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return
	}
	req := float64(c.Requested)
	over := make([]float64, len(c.Achieved))
	for i, a := range c.Achieved {
		over[i] = a - req
	}
	s := stats.Summarize(over)
	c.AchievedMedian = s.Median + req
	c.OvershootMedian = s.Median
	c.OvershootP99 = stats.Percentile(over, 99, stats.Linear)
	c.OvershootMax = s.Max
	c.ErrorPct = s.Median / req * 100
	if len(c.CPU) > 0 {
		c.CPUPerWait = stats.Summarize(c.CPU).Median
	}
}

// markBest marks the most accurate cell of one duration, and the most
// accurate among the frugal ones (median CPU ≤ 10 % of the request).
func markBest(cells []*Cell) {
	better := func(a, b *Cell) bool {
		ea, eb := math.Abs(a.OvershootMedian), math.Abs(b.OvershootMedian)
		if ea != eb {
			return ea < eb
		}
		return math.Abs(a.OvershootP99) < math.Abs(b.OvershootP99)
	}
	var best, frugal *Cell
	for _, c := range cells {
		if c.Unavailable != "" || len(c.Achieved) == 0 {
			continue
		}
		if best == nil || better(c, best) {
			best = c
		}
		if !math.IsNaN(c.CPUPerWait) && c.CPUPerWait <= 0.1*float64(c.Requested) && (frugal == nil || better(c, frugal)) {
			frugal = c
		}
	}
	if best != nil {
		best.Best = true
	}
	if frugal != nil {
		frugal.BestFrugal = true
	}
}

// goMechanisms are the portable mechanisms (Go runtime waits, busy-spin,
// delay.Sleep); the Linux file adds the system calls.
func goMechanisms() (runtimeWaits, spinAndDelay []mechanism) {
	sleep := func(d time.Duration) (func() (int64, int64), func(), error) {
		return func() (int64, int64) {
			s := nanotime()
			time.Sleep(d)
			return s, nanotime()
		}, func() {}, nil
	}
	timer := func(d time.Duration) (func() (int64, int64), func(), error) {
		t := time.NewTimer(time.Hour)
		t.Stop()
		return func() (int64, int64) {
			s := nanotime()
			t.Reset(d)
			<-t.C
			return s, nanotime()
		}, func() { t.Stop() }, nil
	}
	ticker := func(d time.Duration) (func() (int64, int64), func(), error) {
		t := time.NewTicker(d)
		last := nanotime()
		return func() (int64, int64) {
			<-t.C
			s, e := last, nanotime()
			last = e
			return s, e
		}, t.Stop, nil
	}
	spin := func(d time.Duration) (func() (int64, int64), func(), error) {
		return func() (int64, int64) {
			s := nanotime()
			return s, spinUntil(systemClock, s+int64(d))
		}, func() {}, nil
	}
	dsleep := func(noSpin bool) func(d time.Duration) (func() (int64, int64), func(), error) {
		s := studySleeper
		if noSpin {
			s = NewSleeper(Options{NoSpin: true})
		}
		return func(d time.Duration) (func() (int64, int64), func(), error) {
			return func() (int64, int64) {
				st := nanotime()
				return st, s.untilNano(st+int64(d), st)
			}, func() {}, nil
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
