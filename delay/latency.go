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
	// HistogramMax is the highest latency the histograms track (cyclictest
	// -h); larger latencies are counted as overflows. 0 means 10 s.
	HistogramMax time.Duration
}

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
	overruns                  atomic.Int64
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
		opts.HistogramMax = 10 * time.Second
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
		h, err := stats.NewHistogram(1, int64(opts.HistogramMax), 3)
		if err != nil {
			return nil, fmt.Errorf("delay: latency histogram: %w", err)
		}
		th := &latThread{hist: h}
		th.Thread, th.CPU, th.Priority, th.Interval = i, -1, opts.Priority, opts.Interval
		if len(opts.Affinity) > 0 {
			th.CPU = opts.Affinity[i%len(opts.Affinity)]
		}
		th.min.Store(math.MaxInt64)
		t.threads = append(t.threads, th)
	}
	return t, nil
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
			s.Avg = time.Duration(th.sum.Load() / s.Count)
		}
		s.Overruns = th.overruns.Load()
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
		go func() {
			defer wg.Done()
			t.runThread(th, ready, start, &stop)
		}()
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
	res := &LatencyResult{Threads: t.Snapshot(), Interrupted: interrupted}
	all, _ := stats.NewHistogram(1, int64(t.opts.HistogramMax), 3)
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
	if lat < th.min.Load() {
		th.min.Store(lat)
	}
	if lat > th.max.Load() {
		th.max.Store(lat)
	}
}
