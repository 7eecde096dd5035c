//go:build linux

package delay

import (
	"context"
	"errors"
	"fmt"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
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
	if err := sleepAbs(nanotime()+1000, func() bool { return false }); err != nil {
		t.Fatal(err)
	}
	if calls != 4 || eintrRetries.Load()-before != 3 {
		t.Errorf("%d calls, %d retries counted; want 4 calls, 3 retries", calls, eintrRetries.Load()-before)
	}
	if gotClock != unix.CLOCK_MONOTONIC || gotFlags != unix.TIMER_ABSTIME {
		t.Errorf("clock_nanosleep(clock=%d, flags=%d), want CLOCK_MONOTONIC, TIMER_ABSTIME", gotClock, gotFlags)
	}
	clockNanosleep = func(int32, int, *unix.Timespec, *unix.Timespec) error { return unix.EINVAL }
	if err := sleepAbs(1, nil); !errors.Is(err, unix.EINVAL) {
		t.Errorf("other errors must be returned, got %v", err)
	}
	// After an EINTR, a stop request ends the sleep.
	clockNanosleep = func(int32, int, *unix.Timespec, *unix.Timespec) error { return unix.EINTR }
	if err := sleepAbs(1, func() bool { return true }); err != errStopped {
		t.Errorf("stopped sleep returned %v, want errStopped", err)
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
	// A locked cell with a 1 ns thread slack: only its own thread (which
	// exits with it) may show the slack; the test learns its id.
	studyTID := make(chan int, 1)
	m := mechanism{name: "slack probe", locked: true, threadSlack: 1, setup: func(time.Duration, *stopFlag) (*waiter, error) {
		studyTID <- unix.Gettid()
		return simpleWaiter(func() (int64, int64, error) { n := nanotime(); return n, n, nil }), nil
	}}
	c, err := measureCell(context.Background(), m, time.Microsecond, time.Millisecond, 3, ThreadSettings{})
	if err != nil || c.Unavailable != nil {
		t.Fatalf("measureCell: %v %v", err, c.Unavailable)
	}
	if c.TimerSlack != 1 || !c.OwnThread {
		t.Errorf("timer slack %d, own thread %v; want the 1 ns set on its own thread", c.TimerSlack, c.OwnThread)
	}
	own := <-studyTID
	// Every other thread must have the process's slack. A locked thread
	// of an earlier test (or of this cell) may still be exiting, with its
	// settings: such a thread must disappear, which is waited for without
	// a time limit (a thread that stays is a leak: the test then hangs
	// until go test's timeout, the offenders logged below).
	for {
		leaked := slackOffenders(t, want, own)
		if len(leaked) == 0 {
			break
		}
		t.Logf("waiting for these threads to exit: %s", strings.Join(leaked, "; "))
		time.Sleep(10 * time.Millisecond)
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
	// Endless until cancelled, so the thread is there when it is read.
	lt, err := NewLatencyTest(LatencyOptions{Interval: 200 * time.Microsecond, Priority: 10})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := lt.Run(ctx); errc <- err }()
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
	cancel()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

// TestBlockTimerfd checks the Linux wait path: timerfds reused from the
// pool, past deadlines accepted, and a failing timerfd_create falling back
// to clock_nanosleep on the caller's thread, counted. (That the waits are
// not early is the kernel's promise; scripts/delay-sleep.sh shows it.)
func TestBlockTimerfd(t *testing.T) {
	c := linuxClock{}
	for i := 0; i < 20; i++ {
		if err := c.block(nanotime() + int64(200*time.Microsecond)); err != nil {
			t.Fatal(err)
		}
	}
	if len(idleTimerFiles) == 0 {
		t.Error("no timerfd returned to the pool")
	}
	if err := c.block(nanotime() - 1000); err != nil {
		t.Error(err)
	}
	if err := c.block(0); err != nil {
		t.Error(err)
	}
	defer func(f func(int, int) (int, error)) { timerfdCreate = f }(timerfdCreate)
	timerfdCreate = func(int, int) (int, error) { return -1, unix.EMFILE }
	for len(idleTimerFiles) > 0 {
		(<-idleTimerFiles).f.Close()
	}
	before := timerFileFallbacks.Load()
	if err := c.block(nanotime() + int64(100*time.Microsecond)); err != nil {
		t.Fatal(err)
	}
	if timerFileFallbacks.Load() != before+1 {
		t.Error("fallback not counted")
	}
	// Both failing: the error names both, wrapping each cause.
	defer func(f func(int32, int, *unix.Timespec, *unix.Timespec) error) { clockNanosleep = f }(clockNanosleep)
	clockNanosleep = func(int32, int, *unix.Timespec, *unix.Timespec) error { return unix.EINVAL }
	err := c.block(nanotime() + int64(100*time.Microsecond))
	if !errors.Is(err, unix.EMFILE) || !errors.Is(err, unix.EINVAL) || !strings.HasPrefix(err.Error(), "delay: ") {
		t.Errorf("block = %v, want an error wrapping EMFILE and EINVAL", err)
	}
}

// slackOffenders lists the threads of the process other than skip whose
// timer slack is not want.
func slackOffenders(t *testing.T, want int64, skip int) []string {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	var leaked []string
	for _, e := range entries {
		var tid int
		if _, err := fmtSscan(e.Name(), &tid); err != nil || tid == skip {
			continue
		}
		if s, err := threadTimerSlack(tid); err == nil && s != want {
			leaked = append(leaked, fmt.Sprintf("thread %d (pid %d) has timer slack %d ns, want %d", tid, os.Getpid(), s, want))
		}
	}
	return leaked
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
	oldSched, oldMlock, oldDMA := setFIFO, mlockall, openDMALatency
	defer func() { setFIFO, mlockall, openDMALatency = oldSched, oldMlock, oldDMA }()
	setFIFO = func(int) error { return fmt.Errorf("thread: setting SCHED_FIFO: %w", unix.EPERM) }
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
			if len(h.Warnings) != 1 || h.Warnings[0].Code != "setting-refused" || !strings.Contains(h.Warnings[0].Message, "measured without it (best effort)") ||
				!strings.Contains(h.Warnings[0].Next, tt.fix) || len(h.Refused) != 1 {
				t.Errorf("warnings %q, refused %q", h.Warnings, h.Refused)
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
	for _, s := range []ThreadSettings{{Priority: 100}, {Priority: -1}, {CPUs: []int{-2}}} {
		if err := s.check(); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	if err := (ThreadSettings{CPUs: []int{4095}}).check(); err == nil {
		t.Error("pinning to CPU 4095 accepted")
	}
}

// TestLatencyTest runs the real loop and checks what does not depend on
// timing (the loop's logic is tested with fakes in latency_fake_test.go).
func TestLatencyTest(t *testing.T) {
	lt, err := NewLatencyTest(LatencyOptions{Interval: 200 * time.Microsecond, Loops: 200, Threads: 2, HistogramMax: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	res, err := lt.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.All.Count() != 400 || len(res.Threads) != 2 || res.Interrupted {
		t.Fatalf("%d latencies in %d threads (interrupted %v), want 400 in 2", res.All.Count(), len(res.Threads), res.Interrupted)
	}
	for _, th := range res.Threads {
		var perCPU int64
		for _, c := range th.PerCPU {
			perCPU += c.Count
		}
		if th.Count != 200 || th.Max < th.Avg || th.Avg < th.Min || th.Err != nil || perCPU != 200 {
			t.Errorf("thread %+v inconsistent (per-CPU counts add up to %d)", th, perCPU)
		}
	}
	if d := res.Document(result.Meta{Tool: result.Tool{Name: "test"}}); len(d.Measurements) != 3 {
		t.Errorf("%d measurements, want 2 threads + all", len(d.Measurements))
	}
	for _, th := range res.Threads {
		if th.TimerSlack < 0 {
			t.Errorf("thread %d: timer slack not read", th.Thread)
		}
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
	for _, c := range res.Cells {
		if c.Unavailable != nil {
			t.Errorf("%s unavailable: %s", c.Mechanism, c.Unavailable)
			continue
		}
		if len(c.Achieved) == 0 || len(c.CPU) != len(c.Achieved) {
			t.Errorf("%s %v: %d samples, %d CPU figures", c.Mechanism, c.Requested, len(c.Achieved), len(c.CPU))
		}
		if c.Failed != 0 || c.Incomplete {
			t.Errorf("%s %v: %d failed (%v), incomplete %v", c.Mechanism, c.Requested, c.Failed, c.Err, c.Incomplete)
		}
		m := c.measurement(1)
		if m.Metric("achieved") == nil || len(m.Metric("achieved").Values) != len(c.Achieved) {
			t.Errorf("%s: measurement lacks the raw achieved durations", c.Mechanism)
		}
	}
	if res.SpinMargin <= 0 || res.Tick <= 0 {
		t.Errorf("spin margin %v, tick %v; want both measured", res.SpinMargin, res.Tick)
	}
	for _, o := range []StudyOptions{{Durations: []time.Duration{11 * time.Second}}, {Mechanisms: []string{"nope"}},
		{Durations: []time.Duration{time.Millisecond, time.Millisecond}}, {Mechanisms: []string{"time.Sleep", "time.Sleep"}}} {
		if _, err := Study(context.Background(), o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// The latency loop's raw sleep: EINTR near the deadline resumes the
// sleep at once and owes a yield; far from it, yields first; a stop
// request ends it; other errors are returned.
func TestRawSleepAbs(t *testing.T) {
	defer restoreLatencyHooks()()
	var now int64 = 1_000_000_000
	latencyNow = func() int64 { return now }
	yields := 0
	latencyYield = func() { yields++ }
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
	var stop atomic.Bool
	th := &latThread{}
	before := eintrRetries.Load()
	abs := now + int64(time.Millisecond) + 123 // within deferYieldWithin
	owed, err := rawSleepAbs(abs, &stop, th)
	if err != nil || !owed || yields != 0 {
		t.Fatalf("near the deadline: owed %v, err %v, %d yields; want a yield owed, none made", owed, err, yields)
	}
	if calls != 3 || eintrRetries.Load()-before != 2 {
		t.Errorf("%d calls, %d retries; want 3 calls, 2 retries", calls, eintrRetries.Load()-before)
	}
	if got.Nano() != abs {
		t.Errorf("deadline %d, want the same absolute deadline %d on every retry", got.Nano(), abs)
	}
	calls = 0
	owed, err = rawSleepAbs(now+int64(10*time.Millisecond), &stop, th)
	if err != nil || owed || yields != 2 || th.yields.Load() != 2 {
		t.Errorf("far from the deadline: owed %v, err %v, %d yields (%d counted); want 2 yields at once, none owed", owed, err, yields, th.yields.Load())
	}
	stop.Store(true)
	calls = 0
	if _, err := rawSleepAbs(now+int64(10*time.Millisecond), &stop, th); err != errStopped {
		t.Errorf("stopped: err = %v, want errStopped", err)
	}
	rawClockNanosleep = func(*unix.Timespec) unix.Errno { return unix.EINVAL }
	if _, err := rawSleepAbs(1, &stop, th); err != unix.EINVAL {
		t.Errorf("err = %v, want EINVAL", err)
	}
}

// TestOptionalDMALatency: a DMA latency request marked optional (chrono
// latency's default, as cyclictest's) that cannot be held is dropped with
// a warning saying why and what it costs, even without BestEffort, for a
// refusal as for a missing device; one that can be held is held.
func TestOptionalDMALatency(t *testing.T) {
	old := openDMALatency
	t.Cleanup(func() { openDMALatency = old })
	tests := []struct {
		name string
		open func() (*os.File, error)
		want string // the warning, "" when held
	}{
		{"refused", func() (*os.File, error) {
			return nil, &fs.PathError{Op: "open", Path: "/dev/cpu_dma_latency", Err: fs.ErrPermission}
		}, "/dev/cpu_dma_latency 0 µs refused (open /dev/cpu_dma_latency: permission denied): measured without it (the CPUs may enter deep idle states and wake later); " +
			"run as root (the device is root-only by default) or give the user write access to /dev/cpu_dma_latency"},
		{"no such device", func() (*os.File, error) {
			return nil, &fs.PathError{Op: "open", Path: "/dev/cpu_dma_latency", Err: fs.ErrNotExist}
		}, "/dev/cpu_dma_latency 0 µs failed (delay: opening /dev/cpu_dma_latency: open /dev/cpu_dma_latency: file does not exist (is the kernel built with PM-QoS?)): measured without it (the CPUs may enter deep idle states and wake later); the error says what failed"},
		{"held", func() (*os.File, error) { return os.CreateTemp(crosstest.TempDir(t), "dma") }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			openDMALatency = tt.open
			h, err := Acquire(Conditions{DMALatency: 0, DMALatencyOptional: true})
			if err != nil {
				t.Fatalf("Acquire: %v", err)
			}
			defer h.Release()
			if tt.want == "" {
				if h.DMALatency != 0 || len(h.Warnings) != 0 || len(h.Refused) != 0 {
					t.Errorf("held %d, warnings %q, refused %q; want 0 µs held", h.DMALatency, h.Warnings, h.Refused)
				}
				return
			}
			if h.DMALatency != -1 || len(h.Refused) != 1 || h.Refused[0] != "/dev/cpu_dma_latency 0 µs" || h.BestEffort {
				t.Errorf("held %+v; want no request held, one refused, no best effort", h)
			}
			if len(h.Warnings) != 1 || h.Warnings[0].String() != tt.want || h.Warnings[0].Code != "setting-refused" {
				t.Errorf("warnings %q\nwant %q", h.Warnings, tt.want)
			}
			// Without DMALatencyOptional, the same refusal is an error.
			if _, err := Acquire(Conditions{DMALatency: 0}); err == nil {
				t.Error("a request asked for was dropped without BestEffort")
			}
		})
	}
}
