//go:build linux

package delay

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestNanotimeIsMonotonicClock verifies that the runtime's nanotime reads
// CLOCK_MONOTONIC (the timebase clock_nanosleep deadlines need).
func TestNanotimeIsMonotonicClock(t *testing.T) {
	var ts unix.Timespec
	for i := 0; i < 10; i++ {
		if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
			t.Fatal(err)
		}
		a := ts.Nano()
		n := nanotime()
		_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
		b := ts.Nano()
		if n < a || n > b {
			t.Fatalf("nanotime %d outside the CLOCK_MONOTONIC bracket [%d, %d]", n, a, b)
		}
	}
}

func TestSleepAbsRetriesEINTR(t *testing.T) {
	defer func(f func(int32, int, *unix.Timespec, *unix.Timespec) error) { clockNanosleep = f }(clockNanosleep)
	calls := 0
	var gotFlags int
	var gotClock int32
	clockNanosleep = func(clk int32, flags int, req, rem *unix.Timespec) error {
		calls++
		gotClock, gotFlags = clk, flags
		if calls <= 3 {
			return unix.EINTR
		}
		return nil
	}
	before := eintrRetries.Load()
	if err := sleepAbs(nanotime() + 1000); err != nil {
		t.Fatal(err)
	}
	if calls != 4 || eintrRetries.Load()-before != 3 {
		t.Errorf("%d calls, %d retries counted; want 4 calls, 3 retries", calls, eintrRetries.Load()-before)
	}
	if gotClock != unix.CLOCK_MONOTONIC || gotFlags != unix.TIMER_ABSTIME {
		t.Errorf("clock_nanosleep(clock=%d, flags=%d), want CLOCK_MONOTONIC, TIMER_ABSTIME", gotClock, gotFlags)
	}
	clockNanosleep = func(int32, int, *unix.Timespec, *unix.Timespec) error { return unix.EINVAL }
	if err := sleepAbs(1); !errors.Is(err, unix.EINVAL) {
		t.Errorf("other errors must be returned, got %v", err)
	}
}

// TestThreadSettingsStayOnTheirThread checks that Sleep changes no
// thread's timer slack (it waits on timerfds, which ignore the slack), that
// a study's locked 1 ns-slack threads never show on other goroutines'
// threads, and that SCHED_FIFO set by a latency thread stays on it, reading
// /proc/TID/timerslack_ns and sched_getattr from other threads.
func TestThreadSettingsStayOnTheirThread(t *testing.T) {
	runtime.LockOSThread()
	want, err := threadTimerSlack(unix.Gettid())
	runtime.UnlockOSThread()
	if err != nil {
		t.Skipf("cannot read timer slack: %v", err)
	}
	Sleep(300 * time.Microsecond)
	Sleep(2 * time.Millisecond)
	if _, err := Study(context.Background(), StudyOptions{Durations: []time.Duration{20 * time.Microsecond},
		Mechanisms: []string{"nanosleep+slack1ns"}, Budget: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	// The study's locked thread exits with its goroutine, asynchronously:
	// give it up to 2 s to disappear.
	var leaked []string
	for try := 0; try < 200; try++ {
		entries, err := os.ReadDir("/proc/self/task")
		if err != nil {
			t.Fatal(err)
		}
		leaked = leaked[:0]
		for _, e := range entries {
			var tid int
			if _, err := fmtSscan(e.Name(), &tid); err != nil {
				continue
			}
			if s, err := threadTimerSlack(tid); err == nil && s != want {
				leaked = append(leaked, fmt.Sprintf("thread %d (pid %d) has timer slack %d ns", tid, os.Getpid(), s))
			}
		}
		if len(leaked) == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(leaked) > 0 {
		t.Errorf("%s, want the process's %d: a setting leaked", strings.Join(leaked, "; "), want)
	}
	// Goroutines locked to whatever threads the scheduler gives them
	// never see a changed slack.
	for i := 0; i < 32; i++ {
		done := make(chan int64)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			Sleep(50 * time.Microsecond)
			s, _ := threadTimerSlack(unix.Gettid())
			done <- s
		}()
		if s := <-done; s != want {
			t.Fatalf("an ordinary goroutine ran on a thread with timer slack %d ns, want %d", s, want)
		}
	}

	if os.Geteuid() != 0 {
		t.Skip("SCHED_FIFO part needs root")
	}
	lt, err := NewLatencyTest(LatencyOptions{Interval: 200 * time.Microsecond, Loops: 300, Priority: 10})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { _, err := lt.Run(context.Background()); errc <- err }()
	var tid int
	for tid == 0 {
		time.Sleep(time.Millisecond)
		tid = lt.Snapshot()[0].TID
	}
	attr, err := unix.SchedGetAttr(tid, 0)
	if err != nil {
		t.Fatal(err)
	}
	if attr.Policy != unix.SCHED_FIFO || attr.Priority != 10 {
		t.Errorf("latency thread %d: policy %d priority %d, want SCHED_FIFO 10", tid, attr.Policy, attr.Priority)
	}
	mine, err := unix.SchedGetAttr(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if mine.Policy == unix.SCHED_FIFO {
		t.Error("SCHED_FIFO leaked to the test's thread")
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

// TestBlockTimerfd checks the Linux wait path: never early, timerfds
// reused from the pool, a past deadline returns at once, and a failing
// timerfd_create falls back to clock_nanosleep on the caller's thread.
func TestBlockTimerfd(t *testing.T) {
	c := linuxClock{}
	for i := 0; i < 20; i++ {
		abs := nanotime() + int64(200*time.Microsecond)
		c.block(abs)
		if now := nanotime(); now < abs {
			t.Fatalf("block returned %d ns early", abs-now)
		}
	}
	if len(idleTimerFiles) == 0 {
		t.Error("no timerfd returned to the pool")
	}
	start := nanotime()
	c.block(start - 1000)
	c.block(0)
	if el := nanotime() - start; el > int64(time.Second) {
		t.Errorf("past deadlines blocked for %v", time.Duration(el))
	}
	defer func(f func(int, int) (int, error)) { timerfdCreate = f }(timerfdCreate)
	timerfdCreate = func(int, int) (int, error) { return -1, unix.EMFILE }
	for len(idleTimerFiles) > 0 {
		(<-idleTimerFiles).f.Close()
	}
	before := timerFileFallbacks.Load()
	abs := nanotime() + int64(100*time.Microsecond)
	c.block(abs)
	if now := nanotime(); now < abs {
		t.Fatalf("fallback returned %d ns early", abs-now)
	}
	if timerFileFallbacks.Load() != before+1 {
		t.Error("fallback not counted")
	}
}

func fmtSscan(s string, tid *int) (int, error) {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, errors.New("not a tid")
		}
		n = n*10 + int(r-'0')
	}
	*tid = n
	return 1, nil
}

// TestPermissionDenied forces every refusal through the injectable system
// calls: without BestEffort Acquire fails with a *PermissionError naming
// the fix; with it, the setting is dropped and a warning says so.
func TestPermissionDenied(t *testing.T) {
	oldSched, oldMlock, oldDMA := schedSetAttr, mlockall, openDMALatency
	defer func() { schedSetAttr, mlockall, openDMALatency = oldSched, oldMlock, oldDMA }()
	schedSetAttr = func(int, *unix.SchedAttr, uint) error { return unix.EPERM }
	mlockall = func(int) error { return unix.EPERM }
	openDMALatency = func() (*os.File, error) {
		return nil, &fs.PathError{Op: "open", Path: "/dev/cpu_dma_latency", Err: fs.ErrPermission}
	}
	tests := []struct {
		name string
		c    Conditions
		fix  string
	}{
		{"SCHED_FIFO", Conditions{Settings: ThreadSettings{Priority: 80}, DMALatency: -1}, "CAP_SYS_NICE"},
		{"mlockall", Conditions{MLock: true, DMALatency: -1}, "RLIMIT_MEMLOCK"},
		{"cpu_dma_latency", Conditions{DMALatency: 0}, "root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Acquire(tt.c)
			var pe *PermissionError
			if !errors.As(err, &pe) {
				t.Fatalf("Acquire = %v, want a *PermissionError", err)
			}
			if !strings.Contains(err.Error(), tt.fix) || !strings.HasPrefix(err.Error(), "delay: ") {
				t.Errorf("error %q does not name the fix %q", err, tt.fix)
			}
			tt.c.BestEffort = true
			h, err := Acquire(tt.c)
			if err != nil {
				t.Fatalf("best effort: %v", err)
			}
			defer h.Release()
			if len(h.Warnings) != 1 || !strings.Contains(h.Warnings[0], "best-effort") {
				t.Errorf("warnings %q", h.Warnings)
			}
			if h.Settings.Priority != 0 || h.MLocked || h.DMALatency != -1 {
				t.Errorf("refused setting kept: %+v", h)
			}
		})
	}
	// A latency test whose threads are refused SCHED_FIFO stops before
	// measuring.
	lt, err := NewLatencyTest(LatencyOptions{Interval: time.Millisecond, Loops: 10, Priority: 50})
	if err != nil {
		t.Fatal(err)
	}
	res, err := lt.Run(context.Background())
	var pe *PermissionError
	if !errors.As(err, &pe) || res != nil {
		t.Fatalf("Run = %v, %v; want a permission error and no result", res, err)
	}
	if n := lt.Snapshot()[0].Count; n != 0 {
		t.Errorf("%d latencies measured after a refusal", n)
	}
}

func TestInvalidSettings(t *testing.T) {
	for _, s := range []ThreadSettings{{Priority: 100}, {Priority: -1}, {Pin: true, CPU: -2}} {
		if err := s.Check(); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	if err := (ThreadSettings{Pin: true, CPU: 4095}).Check(); err == nil {
		t.Error("pinning to CPU 4095 accepted")
	}
}

func TestLatencyTest(t *testing.T) {
	lt, err := NewLatencyTest(LatencyOptions{Interval: 200 * time.Microsecond, Loops: 200, Threads: 2, HistogramMax: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	res, err := lt.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.All.Count() != 400 || len(res.Threads) != 2 {
		t.Fatalf("%d latencies in %d threads, want 400 in 2", res.All.Count(), len(res.Threads))
	}
	for _, th := range res.Threads {
		if th.Count != 200 || th.Min < 0 || th.Max < th.Avg || th.Avg < th.Min {
			t.Errorf("thread %+v inconsistent", th)
		}
	}
	if ms := res.Measurements(); len(ms) != 3 {
		t.Errorf("%d measurements, want 2 threads + all", len(ms))
	}
	// Duration bound and interruption.
	lt, _ = NewLatencyTest(LatencyOptions{Interval: time.Millisecond, Duration: 30 * time.Millisecond})
	res, err = lt.Run(context.Background())
	if err != nil || res.Interrupted || res.All.Count() == 0 {
		t.Errorf("duration-bound run: %v, interrupted=%v, count=%d", err, res != nil && res.Interrupted, res.All.Count())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	lt, _ = NewLatencyTest(LatencyOptions{Interval: time.Millisecond})
	if res, err = lt.Run(ctx); err != nil || !res.Interrupted {
		t.Errorf("cancelled run: %v, interrupted=%v", err, res != nil && res.Interrupted)
	}
	for _, o := range []LatencyOptions{{Interval: -1}, {Threads: -1}, {Loops: -1}, {Priority: 100}, {Affinity: []int{-1}}} {
		if _, err := NewLatencyTest(o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

func TestStudy(t *testing.T) {
	mechs := []string{"time.Sleep", "clock_nanosleep(ABS)+slack1ns", "busy-spin", "delay.Sleep", "time.Ticker+slack1ns"}
	res, err := Study(context.Background(), StudyOptions{Durations: []time.Duration{50 * time.Microsecond, time.Millisecond}, Mechanisms: mechs, Budget: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 2*len(mechs) {
		t.Fatalf("%d cells, want %d", len(res.Cells), 2*len(mechs))
	}
	best := 0
	for _, c := range res.Cells {
		if c.Unavailable != "" {
			t.Errorf("%s unavailable: %s", c.Mechanism, c.Unavailable)
			continue
		}
		if len(c.Achieved) == 0 || len(c.CPU) != len(c.Achieved) {
			t.Errorf("%s %v: %d samples, %d CPU figures", c.Mechanism, c.Requested, len(c.Achieved), len(c.CPU))
		}
		if c.Mechanism != "time.Ticker+slack1ns" && c.OvershootMedian < 0 {
			t.Errorf("%s %v: negative median overshoot %v", c.Mechanism, c.Requested, c.OvershootMedian)
		}
		if c.Best {
			best++
		}
		m := c.Measurement()
		if m.Metric("achieved") == nil || len(m.Metric("achieved").Values) != len(c.Achieved) {
			t.Errorf("%s: measurement lacks the raw achieved durations", c.Mechanism)
		}
	}
	if best != 2 {
		t.Errorf("%d cells marked best, want one per duration", best)
	}
	for _, o := range []StudyOptions{{Durations: []time.Duration{11 * time.Second}}, {Mechanisms: []string{"nope"}}} {
		if _, err := Study(context.Background(), o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// The latency loop's raw sleep retries EINTR (yielding to the runtime in
// between) and reports other errors.
func TestRawSleepAbsRetriesEINTR(t *testing.T) {
	defer func(f func(*unix.Timespec) unix.Errno) { rawClockNanosleep = f }(rawClockNanosleep)
	calls := 0
	var got unix.Timespec
	rawClockNanosleep = func(ts *unix.Timespec) unix.Errno {
		calls++
		got = *ts
		if calls < 3 {
			return unix.EINTR
		}
		return 0
	}
	before := eintrRetries.Load()
	if err := rawSleepAbs(1_500_000_123); err != nil {
		t.Fatal(err)
	}
	if calls != 3 || eintrRetries.Load()-before != 2 {
		t.Errorf("%d calls, %d retries; want 3 calls, 2 retries", calls, eintrRetries.Load()-before)
	}
	if got.Sec != 1 || got.Nsec != 500_000_123 {
		t.Errorf("deadline %+v, want the same absolute deadline on every retry", got)
	}
	rawClockNanosleep = func(*unix.Timespec) unix.Errno { return unix.EINVAL }
	if err := rawSleepAbs(1); err != unix.EINVAL {
		t.Errorf("err = %v, want EINVAL", err)
	}
}
