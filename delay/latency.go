package delay

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

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
	// HDR histograms, which track every latency up to at least
	// DefaultHistogramRange, so percentiles and the mean stay right
	// whatever the limit. 0 means DefaultHistogramRange.
	HistogramMax time.Duration
}

// DefaultHistogramRange is the highest latency a LatencyTest's HDR
// histograms track (or HistogramMax, when that is larger); latencies above
// it are recorded at it, counted as overflows.
const DefaultHistogramRange = 10 * time.Second

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
}

// LatencyResult is the outcome of a LatencyTest.
type LatencyResult struct {
	Threads []ThreadLatency
	// Histograms holds each thread's latencies (ns); All merges them.
	Histograms []*stats.Histogram
	All        *stats.Histogram
	// Interrupted is set when the context ended the test before its loops.
	Interrupted bool
	// HistogramMax is the overflow limit the test ran with.
	HistogramMax time.Duration
}

// Overflows returns the latencies of all threads at or above
// LatencyOptions.HistogramMax.
func (r *LatencyResult) Overflows() int64 {
	var n int64
	for _, th := range r.Threads {
		n += th.Overflows
	}
	return n
}

// Mean returns the exact mean latency of all threads (NaN when none was
// recorded).
func (r *LatencyResult) Mean() float64 {
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

// LatencyTest measures wake-up latency as cyclictest does: each thread
// sleeps with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to
// deadlines next += interval and records now - next, in an HDR histogram
// (constant memory, 3 significant digits).
type LatencyTest struct {
	opts    LatencyOptions
	threads []*latThread
}

type latThread struct {
	ThreadLatency
	hist                      *stats.Histogram
	count, min, act, max, sum atomic.Int64
	overruns, overflows       atomic.Int64
	limit                     int64 // HistogramMax in ns
	tid                       atomic.Int64
}

// NewLatencyTest validates opts and prepares the per-thread histograms.
func NewLatencyTest(opts LatencyOptions) (*LatencyTest, error) {
	if opts.Interval == 0 {
		opts.Interval = time.Millisecond
	}
	if opts.Threads == 0 {
		opts.Threads = 1
	}
	if opts.HistogramMax == 0 {
		opts.HistogramMax = DefaultHistogramRange
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
	if err := (ThreadSettings{Priority: opts.Priority}).validate(); err != nil {
		return nil, err
	}
	for _, c := range opts.Affinity {
		if c < 0 {
			return nil, fmt.Errorf("delay: CPU %d out of range in the affinity list (use CPU numbers ≥ 0)", c)
		}
	}
	t := &LatencyTest{opts: opts}
	for i := 0; i < opts.Threads; i++ {
		h, err := stats.NewHistogram(1, opts.histogramRange(), 3)
		if err != nil {
			return nil, fmt.Errorf("delay: latency histogram: %w", err)
		}
		th := &latThread{hist: h, limit: int64(opts.HistogramMax)}
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
	return int64(max(o.HistogramMax, DefaultHistogramRange))
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
		out[i] = s
	}
	return out
}

// Run measures until every thread did its loops, Duration passed or ctx
// ended, and returns the result. Thread settings that are refused make Run
// fail before any measurement (use Acquire first to check them, or to drop
// them with BestEffort).
func (t *LatencyTest) Run(ctx context.Context) (*LatencyResult, error) {
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
		goLocked(func() {
			defer wg.Done()
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
		<-finished
		interrupted = t.opts.Duration == 0 || ctx.Err() != context.DeadlineExceeded
	}
	if firstErr != nil {
		return nil, firstErr
	}
	res := &LatencyResult{Threads: t.Snapshot(), Interrupted: interrupted, HistogramMax: t.opts.HistogramMax}
	all, _ := stats.NewHistogram(1, t.opts.histogramRange(), 3)
	for _, th := range t.threads {
		res.Histograms = append(res.Histograms, th.hist)
		all.Merge(th.hist)
	}
	res.All = all
	return res, nil
}

// record accounts one latency of thread th.
func (th *latThread) record(lat int64) {
	th.hist.Record(lat)
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
