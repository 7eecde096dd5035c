//go:build linux

package delay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// restoreLatencyHooks saves the latency loop's system hooks and returns
// the function that puts them back.
func restoreLatencyHooks() func() {
	sleep, now, yield, cpu, intr := rawClockNanosleep, latencyNow, latencyYield, latencyCPU, interruptThread
	return func() {
		rawClockNanosleep, latencyNow, latencyYield, latencyCPU, interruptThread = sleep, now, yield, cpu, intr
	}
}

// fakeLatencyWorld drives the latency loop deterministically: a clock that
// only moves when a sleep ends (to its deadline plus late(n) for the n-th
// sleep), an event log, and scripted sleep results.
type fakeLatencyWorld struct {
	mu     sync.Mutex
	t      int64
	sleeps int
	late   func(n int) int64
	// result, when set, decides the n-th sleep's outcome (0 sleeps to the
	// deadline; EINTR leaves the clock where it is).
	result    func(n int, abs int64) unix.Errno
	events    []string
	cpus      []int // the CPUs reported in turn
	yields    int
	yieldCost int64 // how far a yield moves the clock
}

func (w *fakeLatencyWorld) install() {
	rawClockNanosleep = func(ts *unix.Timespec) unix.Errno {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.sleeps++
		abs := ts.Nano()
		if w.result != nil {
			if e := w.result(w.sleeps, abs); e != 0 {
				w.events = append(w.events, "sleep:"+e.Error())
				return e
			}
		}
		w.events = append(w.events, "sleep")
		w.t = max(w.t, abs)
		if w.late != nil {
			w.t += w.late(w.sleeps)
		}
		return 0
	}
	latencyNow = func() int64 {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.t
	}
	latencyYield = func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.yields++
		w.events = append(w.events, "yield")
		w.t += w.yieldCost
	}
	latencyCPU = func() int {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.events = append(w.events, "cpu")
		if len(w.cpus) == 0 {
			return -1
		}
		c := w.cpus[0]
		w.cpus = append(w.cpus[1:], c)
		return c
	}
	interruptThread = func(int) {}
}

func runLatency(t *testing.T, opts LatencyOptions, ctx context.Context) (*LatencyResult, error) {
	t.Helper()
	lt, err := NewLatencyTest(opts)
	if err != nil {
		t.Fatal(err)
	}
	return lt.Run(ctx)
}

// TestLatencyLoopFake checks the loop's arithmetic: every latency is
// wake - deadline, deadlines advance by the interval, late wake-ups skip
// whole intervals and count overruns, and an unpinned thread's latencies
// are split by the CPU each wake-up ran on.
func TestLatencyLoopFake(t *testing.T) {
	defer restoreLatencyHooks()()
	w := &fakeLatencyWorld{t: 1e9, cpus: []int{0, 1}, late: func(n int) int64 {
		if n == 10 {
			return 2500_000 // 2.5 intervals late: skips 2 deadlines
		}
		return 30_000 + int64(n%2)*10_000 // 40 µs on CPU 0, 30 µs on CPU 1
	}}
	w.install()
	res, err := runLatency(t, LatencyOptions{Interval: time.Millisecond, Loops: 20}, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	th := res.Threads[0]
	if th.Count != 20 || th.Overruns != 1 || th.Min != 30*time.Microsecond || th.Max != 2500*time.Microsecond {
		t.Errorf("count %d overruns %d min %v max %v; want 20, 1, 30µs, 2.5ms", th.Count, th.Overruns, th.Min, th.Max)
	}
	wantSum := time.Duration(10*40_000 + 9*30_000 + 2500_000) // odd n 40 µs, even 30 µs, the 10th 2.5 ms
	if th.Sum != wantSum {
		t.Errorf("sum %v, want %v", th.Sum, wantSum)
	}
	if len(th.PerCPU) != 2 || th.PerCPU[0].CPU != 0 || th.PerCPU[1].CPU != 1 || th.PerCPU[0].Count != 10 || th.PerCPU[1].Count != 10 {
		t.Fatalf("per CPU %+v, want 10 latencies on CPU 0 and 10 on CPU 1", th.PerCPU)
	}
	// The wake-ups alternate 40/30 µs; the 10th (even: CPU 1) was late.
	if c0, c1 := th.PerCPU[0], th.PerCPU[1]; c0.MaxNs != 40_000 || c1.MaxNs != 2_500_000 || c0.MeanNs != 40_000 || c0.StdDevNs != 0 {
		t.Errorf("per CPU %+v", th.PerCPU)
	}
	// The standard deviations kept as the latencies came agree with those
	// of the values themselves (population: divisor n).
	var all, cpu1 []float64
	for n := 1; n <= 20; n++ {
		v := 30_000 + float64(n%2)*10_000
		if n == 10 {
			v = 2500_000
		}
		all = append(all, v)
		if n%2 == 0 {
			cpu1 = append(cpu1, v)
		}
	}
	for _, c := range []struct {
		got  float64
		want []float64
	}{{th.StdDev, all}, {th.PerCPU[1].StdDevNs, cpu1}, {res.stdDev(), all}} {
		if w := stats.Summarize(c.want).StdDevPopulation; math.Abs(c.got-w) > 1e-6*w {
			t.Errorf("standard deviation %v, want %v", c.got, w)
		}
	}
	// A pinned thread reads no CPU.
	w = &fakeLatencyWorld{t: 1e9}
	w.install()
	res, err = runLatency(t, LatencyOptions{Interval: time.Millisecond, Loops: 5, Affinity: []int{0}}, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Threads[0].PerCPU != nil || strings.Contains(strings.Join(w.events, ","), "cpu") {
		t.Errorf("pinned thread: per CPU %+v, events %v", res.Threads[0].PerCPU, w.events)
	}
}

// TestLatencyYields: the loop never yields by itself; a preemption signal
// near the deadline is served after the measurement, one far from it at
// once.
func TestLatencyYields(t *testing.T) {
	defer restoreLatencyHooks()()
	w := &fakeLatencyWorld{t: 1e9, cpus: []int{0}}
	w.install()
	if _, err := runLatency(t, LatencyOptions{Interval: time.Millisecond, Loops: 20}, context.Background()); err != nil {
		t.Fatal(err)
	}
	if w.yields != 0 {
		t.Errorf("%d yields without a preemption request, want 0", w.yields)
	}

	// An EINTR 1 ms before the deadline: sleep again, measure, then yield.
	w = &fakeLatencyWorld{t: 1e9, cpus: []int{0}}
	w.result = func(n int, abs int64) unix.Errno {
		if n == 1 {
			w.t = abs - int64(time.Millisecond)
			return unix.EINTR
		}
		return 0
	}
	w.install()
	if _, err := runLatency(t, LatencyOptions{Interval: 2 * time.Millisecond, Loops: 2}, context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(w.events, ","); got != "sleep:interrupted system call,sleep,cpu,yield,sleep,cpu" {
		t.Errorf("near the deadline: events %s", got)
	}
	// An EINTR 9 ms before it: yield at once, then sleep again.
	w = &fakeLatencyWorld{t: 1e9, cpus: []int{0}, yieldCost: 3_000_000}
	w.result = func(n int, abs int64) unix.Errno {
		if n == 1 {
			w.t = abs - int64(9*time.Millisecond)
			return unix.EINTR
		}
		return 0
	}
	w.install()
	res, err := runLatency(t, LatencyOptions{Interval: 10 * time.Millisecond, Loops: 2}, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(w.events, ","); got != "sleep:interrupted system call,yield,sleep,cpu,sleep,cpu" {
		t.Errorf("far from the deadline: events %s", got)
	}
	if th := res.Threads[0]; th.Yields != 1 || th.YieldMax != 3*time.Millisecond {
		t.Errorf("%d yields, longest %v; want 1 of 3 ms", th.Yields, th.YieldMax)
	}
}

// TestLatencyInterrupted: cancelling the context interrupts the sleep in
// progress (it does not run to its deadline) and Run returns the
// latencies measured so far, marked interrupted; the Duration bound ends a
// test without marking it.
func TestLatencyInterrupted(t *testing.T) {
	defer restoreLatencyHooks()()
	for _, bound := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		interrupted := make(chan struct{})
		var once sync.Once
		w := &fakeLatencyWorld{t: 1e9}
		w.result = func(n int, abs int64) unix.Errno {
			if n <= 3 {
				return 0
			}
			// The 4th sleep blocks until Run interrupts it.
			if !bound {
				cancel()
			}
			w.mu.Unlock()
			<-interrupted
			w.mu.Lock()
			return unix.EINTR
		}
		w.install()
		interruptThread = func(int) { once.Do(func() { close(interrupted) }) }
		opts := LatencyOptions{Interval: time.Millisecond}
		if bound {
			opts.Duration = time.Nanosecond
		}
		res, err := runLatency(t, opts, ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if bound {
			// The bound may end the test before any sleep: only the
			// verdict is certain.
			if res.Interrupted {
				t.Error("a test ended by its Duration is marked interrupted")
			}
			continue
		}
		if res.All.Count() != 3 || res.Threads[0].Count != 3 || !res.Interrupted {
			t.Errorf("%d latencies, interrupted %v; want 3, true", res.All.Count(), res.Interrupted)
		}
	}
}

// TestLatencySleepFails: a failing sleep stops its thread; its latencies
// so far are kept, and the error says which thread, wrapping the cause.
func TestLatencySleepFails(t *testing.T) {
	defer restoreLatencyHooks()()
	w := &fakeLatencyWorld{t: 1e9}
	w.result = func(n int, abs int64) unix.Errno {
		if n == 4 {
			return unix.EINVAL
		}
		return 0
	}
	w.install()
	res, err := runLatency(t, LatencyOptions{Interval: time.Millisecond, Loops: 10}, context.Background())
	if !errors.Is(err, unix.EINVAL) || !strings.Contains(err.Error(), "latency thread 0 stopped after 3 latencies") {
		t.Fatalf("err = %v, want thread 0's EINVAL", err)
	}
	if res == nil || res.All.Count() != 3 || !errors.Is(res.Threads[0].Err, unix.EINVAL) {
		t.Fatalf("result %+v, want the 3 latencies before the failure and the thread's error", res)
	}
	d := res.Document(result.Meta{Tool: result.Tool{Name: "test"}})
	ms := d.Measurements
	if !d.Incomplete || !ms[0].Incomplete || len(ms[0].Warnings) != 1 || !strings.Contains(ms[0].Warnings[0].Message, "invalid argument") ||
		ms[0].Detail.Latency == nil || !strings.Contains(ms[0].Detail.Latency.Error, "invalid argument") {
		t.Errorf("exported thread: incomplete %v, warnings %q", ms[0].Incomplete, ms[0].Warnings)
	}
}

// TestLatencyDocument: each thread's latencies as a binned metric with
// the exact extremes, mean and standard deviation, the histogram's
// percentiles, and the thread's figures in its typed detail; the merge of
// all threads; a strict round trip.
func TestLatencyDocument(t *testing.T) {
	defer restoreLatencyHooks()()
	oldTick := latencyTick
	latencyTick = func() int64 { return 20 }
	defer func() { latencyTick = oldTick }()
	w := &fakeLatencyWorld{t: 1e9, cpus: []int{0, 1}, late: func(n int) int64 { return int64(10_000 * (1 + n%5)) }}
	w.install()
	res, err := runLatency(t, LatencyOptions{Interval: time.Millisecond, Loops: 50, Threads: 2, HistogramMax: 40 * time.Microsecond}, context.Background())
	if err != nil {
		t.Fatal(err)
	}
	d := res.Document(result.Meta{Tool: result.Tool{Name: "test"}})
	var b bytes.Buffer
	if err := result.Encode(&b, d); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&b)
	dec.DisallowUnknownFields()
	var back result.Document
	if err := dec.Decode(&back); err != nil {
		t.Fatalf("strict decoding: %v", err)
	}
	r := back.Run.Latency
	if r == nil || r.IntervalNs != 1e6 || r.Threads != 2 || r.Loops != 50 || r.OverflowNs != 40_000 || r.HistogramUs != 40 || r.SignificantDigits != 3 || r.Wait != latencyWait {
		t.Fatalf("run %+v", r)
	}
	if len(back.Measurements) != 3 || back.Measurements[2].Name != "all threads" || back.Measurements[2].Detail.Latency.Thread != nil {
		t.Fatalf("measurements %+v", back.Measurements)
	}
	// Two threads share the fake clock, so their latencies depend on how
	// they interleave: the document must agree with the result exactly.
	var total int64
	for i, m := range back.Measurements {
		met, det := m.Metric("latency"), m.Detail.Latency
		if m.Primary != "latency" || met == nil || met.Histogram == nil || len(met.Values) != 0 || met.Resolution != 20 || met.PercentileMethod != "hdr-upper" {
			t.Fatalf("%s: metric %+v", m.Name, met)
		}
		h := met.Histogram
		if h.StdDev == nil || len(met.Percentiles) != 5 || met.Percentiles["p99.99"] != h.Max {
			t.Errorf("%s: stddev %v, percentiles %v", m.Name, h.StdDev, met.Percentiles)
		}
		if i < 2 {
			th := res.Threads[i]
			if h.Total() != 50 || h.Mean != float64(th.Sum)/50 || *h.StdDev != th.StdDev || h.Min != float64(th.Min) || h.Max != float64(th.Max) ||
				det.Overflows != th.Overflows || *det.Thread != i || det.RuntimeYields == nil || det.LastNs == nil || *det.LastNs != int64(th.Act) {
				t.Errorf("%s: total %d, mean %v, detail %+v; thread %+v", m.Name, h.Total(), h.Mean, det, th)
			}
			total += det.Overflows
		} else if h.Total() != 100 || h.Mean != res.mean() || *h.StdDev != res.stdDev() || det.Overflows != total || det.RuntimeYields != nil ||
			h.Min != float64(min(res.Threads[0].Min, res.Threads[1].Min)) || h.Max != float64(max(res.Threads[0].Max, res.Threads[1].Max)) {
			t.Errorf("all threads: total %d, detail %+v", h.Total(), det)
		}
	}
}

// A value above the histogram's range is an overflow of the metric's
// histogram, not a count in its top bin.
func TestBinnedOverflow(t *testing.T) {
	h, err := stats.NewHistogram(1, 1000, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []int64{10, 20, 5000} {
		h.Record(v)
	}
	b := binned(h)
	var inBins int64
	for _, c := range b.Counts {
		inBins += c
	}
	if b.Overflow != 1 || inBins != 2 || b.Total() != 3 || b.Max != 5000 || b.Bounds[len(b.Bounds)-1] != 21 {
		t.Errorf("binned %+v, want 2 values in bins up to 21 and 1 overflow", b)
	}
}
