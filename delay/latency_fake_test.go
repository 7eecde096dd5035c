//go:build linux

package delay

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
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
	if c0, c1 := th.PerCPU[0], th.PerCPU[1]; c0.Max != 40*time.Microsecond || c1.Max != 2500*time.Microsecond || c0.Mean() != 40_000 {
		t.Errorf("per CPU %+v", th.PerCPU)
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
	ms := res.Measurements()
	if !ms[0].Incomplete || len(ms[0].Warnings) != 1 || !strings.Contains(ms[0].Warnings[0].Message, "invalid argument") {
		t.Errorf("exported thread: incomplete %v, warnings %q", ms[0].Incomplete, ms[0].Warnings)
	}
}
