package delay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/internal/thread"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// LatencyOptions configure a LatencyTest (cyclictest's measurement).
type LatencyOptions struct {
	// Interval between deadlines of each thread (cyclictest -i); 0 means
	// 1 ms.
	Interval time.Duration
	// Loops per thread (cyclictest -l); 0 means until Duration or the
	// context ends.
	Loops int64
	// Duration bounds the test (cyclictest -D); 0 means no bound.
	Duration time.Duration
	// Threads is the number of measuring threads (cyclictest -t); 0 means 1.
	Threads int
	// Priority > 0 runs the threads SCHED_FIFO at that priority.
	Priority int
	// Affinity pins thread i to Affinity[i % len(Affinity)] (cyclictest -a).
	Affinity []int
	// HistogramMax is cyclictest's -h limit: latencies at or above it are
	// counted as overflows (ThreadLatency.Overflows). It does not clip the
	// HDR histograms, which track every latency up to at least 10 s, so
	// percentiles and the mean stay right whatever the limit. 0 means
	// 10 s.
	HistogramMax time.Duration
}

// defaultHistogramRange is the highest latency a LatencyTest's HDR
// histograms track (or HistogramMax, when that is larger); latencies above
// it are recorded at it, counted as overflows.
const defaultHistogramRange = 10 * time.Second

// ThreadLatency is the live state of one measuring thread, in ns.
type ThreadLatency struct {
	Thread        int
	TID           int
	CPU           int // pinned CPU or -1
	Priority      int
	Interval      time.Duration
	Count         int64
	Min, Act, Max time.Duration
	Avg           time.Duration
	// Sum is the exact sum of the latencies (Sum/Count is the exact mean).
	Sum time.Duration
	// Overflows counts latencies at or above LatencyOptions.HistogramMax
	// (exact, from the raw values).
	Overflows int64
	// Overruns counts wake-ups so late that whole intervals were skipped.
	Overruns int64
	// TimerSlack is the thread's timer slack while it measured (ns; prctl
	// PR_GET_TIMERSLACK), -1 when unknown. The kernel applies none to
	// SCHED_FIFO threads.
	TimerSlack int64
	// Yields counts the thread's yields to the Go scheduler, made when
	// the runtime asked for one (sysmon does, about every 20 ms, for a
	// goroutine that did not reschedule for 10 ms); YieldMax is the
	// longest. A goroutine locked to its thread yields by handing its P
	// to another thread and waiting to get it back: a yield longer than
	// the interval makes the next wake-ups late (overruns), the Go
	// runtime's share of the latencies, which a C tester does not have.
	Yields   int64
	YieldMax time.Duration
	// PerCPU splits the latencies of a thread that was not pinned by the
	// CPU each wake-up ran on (read with clock.CPU right after the clock,
	// outside the measured latency), in CPU order. It is set in the
	// result of Run only (nil in live snapshots, for pinned threads and
	// where the CPU cannot be read).
	PerCPU []result.LatencyCPU
	// StdDev is the population standard deviation of the latencies (ns),
	// kept exactly as they were recorded (Welford's method); set in the
	// result of Run only, NaN when none was recorded.
	StdDev float64
	// Err is why the thread stopped measuring before its loops, Duration
	// or the context ended it (the sleep failed); nil otherwise. Its
	// latencies up to then are kept.
	Err error
}

// LatencyResult is the outcome of a LatencyTest.
type LatencyResult struct {
	// Options are the options as given to NewLatencyTest (zero values
	// meaning the defaults); Start and End the wall-clock times of Run.
	Options    LatencyOptions
	Start, End time.Time
	Threads    []ThreadLatency
	// Histograms holds each thread's latencies (ns); All merges them.
	Histograms []*stats.Histogram
	All        *stats.Histogram
	// Interrupted is set when the context ended the test before its loops.
	Interrupted bool
	// HistogramMax is the overflow limit the test ran with.
	HistogramMax time.Duration
	// Tick is the observed tick of the clock the latencies are read
	// with (the smallest non-zero step of back-to-back reads, bounded
	// below by the read cost): their resolution.
	Tick time.Duration
	// Held is what Acquire put in place for the test, set by the caller
	// (nil when Acquire was not used): Document records its conditions
	// and the warnings of the settings it refused.
	Held *Held
	// moments holds each thread's running count, mean and sum of squared
	// deviations, for StdDev.
	moments []moments
}

// overflows returns the latencies of all threads at or above
// LatencyOptions.HistogramMax.
func (r *LatencyResult) overflows() int64 {
	var n int64
	for _, th := range r.Threads {
		n += th.Overflows
	}
	return n
}

// mean returns the exact mean latency of all threads (NaN when none was
// recorded).
func (r *LatencyResult) mean() float64 {
	var sum, n int64
	for _, th := range r.Threads {
		sum += int64(th.Sum)
		n += th.Count
	}
	if n == 0 {
		return math.NaN()
	}
	return float64(sum) / float64(n)
}

// stdDev returns the population standard deviation of the latencies of
// all threads (ns, exact: merged from each thread's running sums), NaN
// when none was recorded.
func (r *LatencyResult) stdDev() float64 {
	var all moments
	for _, m := range r.moments {
		all = all.merge(m)
	}
	return all.stdDev()
}

// moments are the running count, mean and sum of squared deviations of
// a series (Welford's method), exact where a sum of squares in int64
// would overflow.
type moments struct {
	n        int64
	mean, m2 float64
}

func (m *moments) add(x float64) {
	m.n++
	d := x - m.mean
	m.mean += d / float64(m.n)
	m.m2 += float64(d * (x - m.mean))
}

// merge combines two series' moments (Chan et al.'s parallel formula).
func (m moments) merge(o moments) moments {
	if o.n == 0 {
		return m
	}
	if m.n == 0 {
		return o
	}
	n := m.n + o.n
	d := o.mean - m.mean
	return moments{n: n, mean: m.mean + d*float64(o.n)/float64(n),
		m2: m.m2 + o.m2 + d*d*float64(m.n)*float64(o.n)/float64(n)}
}

// stdDev is the population standard deviation, NaN when empty.
func (m moments) stdDev() float64 {
	if m.n == 0 {
		return math.NaN()
	}
	return math.Sqrt(math.Max(0, m.m2/float64(m.n)))
}

// LatencyTest measures wake-up latency as cyclictest does: each thread
// sleeps with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to
// deadlines next += interval and records now - next, in an HDR histogram
// (constant memory, 3 significant digits).
type LatencyTest struct {
	opts    LatencyOptions // defaults filled in
	asked   LatencyOptions // as given
	threads []*latThread
}

type latThread struct {
	ThreadLatency
	hist                      *stats.Histogram
	count, min, act, max, sum atomic.Int64
	overruns, overflows       atomic.Int64
	yields, yieldMax          atomic.Int64
	limit                     int64 // HistogramMax in ns
	tid                       atomic.Int64
	finished                  atomic.Bool
	// Written by the measuring thread only, read after it finished.
	perCPU  []cpuLatency // indexed by CPU number
	moments moments
	err     error
	slack   int64
}

// NewLatencyTest validates opts and prepares the per-thread histograms.
func NewLatencyTest(opts LatencyOptions) (*LatencyTest, error) {
	asked := opts
	asked.Affinity = append([]int(nil), opts.Affinity...)
	if opts.Interval == 0 {
		opts.Interval = time.Millisecond
	}
	if opts.Threads == 0 {
		opts.Threads = 1
	}
	if opts.HistogramMax == 0 {
		opts.HistogramMax = defaultHistogramRange
	}
	switch {
	case opts.Interval < time.Microsecond || opts.Interval > time.Hour:
		return nil, fmt.Errorf("delay: latency interval %v out of range (use 1us to 1h)", opts.Interval)
	case opts.Threads < 1 || opts.Threads > 1024:
		return nil, fmt.Errorf("delay: %d threads out of range (use 1 to 1024)", opts.Threads)
	case opts.Loops < 0 || opts.Duration < 0:
		return nil, fmt.Errorf("delay: loops and duration must not be negative")
	case opts.HistogramMax < time.Microsecond:
		return nil, fmt.Errorf("delay: histogram maximum %v too small (use at least 1us)", opts.HistogramMax)
	}
	if err := (ThreadSettings{Priority: opts.Priority, CPUs: opts.Affinity}).validate(); err != nil {
		return nil, err
	}
	t := &LatencyTest{opts: opts, asked: asked}
	for i := 0; i < opts.Threads; i++ {
		h, err := stats.NewHistogram(1, opts.histogramRange(), 3)
		if err != nil {
			return nil, fmt.Errorf("delay: latency histogram: %w", err)
		}
		th := &latThread{hist: h, limit: int64(opts.HistogramMax), slack: -1}
		th.Thread, th.CPU, th.Priority, th.Interval = i, -1, opts.Priority, opts.Interval
		if len(opts.Affinity) > 0 {
			th.CPU = opts.Affinity[i%len(opts.Affinity)]
		}
		th.min.Store(math.MaxInt64)
		t.threads = append(t.threads, th)
	}
	return t, nil
}

// histogramRange is the highest value the HDR histograms track.
func (o LatencyOptions) histogramRange() int64 {
	return int64(max(o.HistogramMax, defaultHistogramRange))
}

// Snapshot returns the live state of every thread (safe to call while Run
// runs, e.g. for a cyclictest-style display).
func (t *LatencyTest) Snapshot() []ThreadLatency {
	out := make([]ThreadLatency, len(t.threads))
	for i, th := range t.threads {
		s := th.ThreadLatency
		s.TID = int(th.tid.Load())
		s.Count = th.count.Load()
		if s.Count > 0 {
			s.Min = time.Duration(th.min.Load())
			s.Act = time.Duration(th.act.Load())
			s.Max = time.Duration(th.max.Load())
			s.Sum = time.Duration(th.sum.Load())
			s.Avg = s.Sum / time.Duration(s.Count)
		}
		s.Overruns = th.overruns.Load()
		s.Overflows = th.overflows.Load()
		s.Yields = th.yields.Load()
		s.YieldMax = time.Duration(th.yieldMax.Load())
		s.TimerSlack = -1
		if th.finished.Load() {
			s.TimerSlack = th.slack
		}
		out[i] = s
	}
	return out
}

// Run measures until every thread did its loops, Duration passed or ctx
// ended, and returns the result. Thread settings that are refused make Run
// fail before any measurement (use Acquire first to check them, or to drop
// them with BestEffort). When ctx ends, Run interrupts the threads' sleeps
// (it does not wait for the current interval) and returns what they
// measured, with Interrupted set. When a thread's sleep fails, that thread
// stops, its ThreadLatency.Err says why, and Run returns the result with
// an error wrapping it.
func (t *LatencyTest) Run(ctx context.Context) (*LatencyResult, error) {
	parent := ctx
	began := time.Now()
	if t.opts.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.opts.Duration)
		defer cancel()
	}
	var stop atomic.Bool
	ready := make(chan error, len(t.threads))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for _, th := range t.threads {
		wg.Add(1)
		thread.Go(func() {
			defer wg.Done()
			defer th.finished.Store(true)
			t.runThread(th, ready, start, &stop)
		})
	}
	var firstErr error
	for range t.threads {
		if err := <-ready; err != nil && firstErr == nil {
			firstErr = err
		}
	}
	if firstErr != nil {
		stop.Store(true)
	}
	close(start)
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	interrupted := false
	select {
	case <-finished:
	case <-ctx.Done():
		stop.Store(true)
		t.interrupt(finished)
		// The Duration bound ends the test normally; the caller's
		// context ending it is an interruption.
		interrupted = parent.Err() != nil
	}
	if firstErr != nil {
		return nil, firstErr
	}
	res := &LatencyResult{Options: t.asked, Start: began, End: time.Now(), Threads: t.Snapshot(),
		Interrupted: interrupted, HistogramMax: t.opts.HistogramMax, Tick: time.Duration(latencyTick())}
	all, _ := stats.NewHistogram(1, t.opts.histogramRange(), 3)
	var errs []error
	for i, th := range t.threads {
		res.Histograms = append(res.Histograms, th.hist)
		all.Merge(th.hist)
		res.moments = append(res.moments, th.moments)
		res.Threads[i].StdDev = th.moments.stdDev()
		for cpu, c := range th.perCPU {
			if c.mom.n > 0 {
				res.Threads[i].PerCPU = append(res.Threads[i].PerCPU, c.summary(cpu))
			}
		}
		if th.err != nil {
			res.Threads[i].Err = th.err
			errs = append(errs, fmt.Errorf("delay: latency thread %d stopped after %s: %w", i, plural.Count(int(res.Threads[i].Count), "latency"), th.err))
		}
	}
	res.All = all
	return res, errors.Join(errs...)
}

// latencyTick returns the observed tick of the latency clock in ns (tests
// replace it: it reads the real clock).
var latencyTick = func() int64 { return observedTick(nanotime, 1000) }

// interruptPeriod is how often Run repeats its interruption of the
// threads' sleeps until they all stopped (a thread that was between its
// stop check and its sleep when the first one came would otherwise sleep
// a whole interval).
const interruptPeriod = time.Millisecond

// interrupt wakes every thread still sleeping (stop is already set) and
// waits until all finished.
func (t *LatencyTest) interrupt(finished <-chan struct{}) {
	tick := time.NewTicker(interruptPeriod)
	defer tick.Stop()
	for {
		for _, th := range t.threads {
			if tid := th.tid.Load(); tid != 0 && !th.finished.Load() {
				interruptThread(int(tid))
			}
		}
		select {
		case <-finished:
			return
		case <-tick.C:
		}
	}
}

// maxPerCPU bounds the CPU numbers the per-CPU split tracks (higher ones
// are left out of it, not of the histograms).
const maxPerCPU = 4096

// cpuLatency accumulates the latencies of one thread on one CPU (ns):
// their exact extremes and sum, and their moments.
type cpuLatency struct {
	min, max, sum int64
	mom           moments
}

// summary is what the document records of the latencies on CPU cpu: the
// count, exact extremes and mean, and the population standard deviation.
func (c cpuLatency) summary(cpu int) result.LatencyCPU {
	return result.LatencyCPU{CPU: cpu, Count: c.mom.n, MinNs: c.min, MaxNs: c.max,
		MeanNs: float64(c.sum) / float64(c.mom.n), StdDevNs: c.mom.stdDev()}
}

// record accounts one latency of thread th, measured on CPU cpu (-1 when
// unknown or not tracked).
func (th *latThread) record(lat int64, cpu int) {
	if cpu >= 0 && cpu < maxPerCPU {
		if cpu >= len(th.perCPU) {
			th.perCPU = append(th.perCPU, make([]cpuLatency, cpu+1-len(th.perCPU))...)
		}
		c := &th.perCPU[cpu]
		if c.mom.n == 0 {
			c.min, c.max = lat, lat
		}
		c.mom.add(float64(lat))
		c.sum += lat
		c.min = min(c.min, lat)
		c.max = max(c.max, lat)
	}
	th.hist.Record(lat)
	th.moments.add(float64(lat))
	th.act.Store(lat)
	th.sum.Add(lat)
	th.count.Add(1)
	if lat >= th.limit {
		th.overflows.Add(1)
	}
	if lat < th.min.Load() {
		th.min.Store(lat)
	}
	if lat > th.max.Load() {
		th.max.Store(lat)
	}
}
