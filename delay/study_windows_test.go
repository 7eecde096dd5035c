package delay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/thread"
	"github.com/chronograph/chronograph/internal/wine"
	"github.com/chronograph/chronograph/internal/wintimer"
	"github.com/chronograph/chronograph/result"
	"golang.org/x/sys/windows"
)

// TestNanotimeQPC: delay's clock on windows is QueryPerformanceCounter:
// it never steps back, it moves within a few thousand reads (Go's
// monotonic clock there may not move for 15.6 ms), and reading it
// allocates nothing (a spin reads it in a loop).
func TestNanotimeQPC(t *testing.T) {
	prev, moved := nanotime(), 0
	for range 10000 {
		n := nanotime()
		if n < prev {
			t.Fatalf("nanotime stepped back: %d after %d", n, prev)
		}
		if n > prev {
			moved++
		}
		prev = n
	}
	if moved == 0 {
		t.Error("nanotime did not move in 10000 reads")
	}
	if a := testing.AllocsPerRun(100, func() { _ = nanotime() }); a != 0 {
		t.Errorf("nanotime allocates %v times a read", a)
	}
}

// windowsMechanisms are the classic study's system calls.
var windowsMechanisms = []string{"Sleep", "Sleep+timeBeginPeriod1", "NtDelayExecution",
	"NtDelayExecution+NtSetTimerResolution", "WaitableTimer", "WaitableTimer(HighRes)"}

// TestWindowsStudy runs a short study of every windows mechanism: each
// call succeeds, no wait ends before its request (Wine's waits never
// do; on Windows a relative wait counts from the last timer interrupt
// and may end up to a period early, which the study shows, so there it
// is only logged), each cell names the timer resolution it ran under,
// and the document carries it.
func TestWindowsStudy(t *testing.T) {
	_, underWine := wine.Version()
	durs := []time.Duration{50 * time.Microsecond, 1500 * time.Microsecond}
	mechs := append(append([]string{}, windowsMechanisms...), "busy-spin", "delay.Sleep")
	res, err := Study(context.Background(), StudyOptions{Durations: durs, Mechanisms: mechs,
		Budget: 200 * time.Millisecond, MaxSamples: 5, Settings: ThreadSettings{Priority: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != len(durs)*len(mechs) {
		t.Fatalf("%d cells, want %d", len(res.Cells), len(durs)*len(mechs))
	}
	for _, c := range res.Cells {
		name := cellName(c.Mechanism, c.Requested)
		if c.Unavailable != nil || c.Failed > 0 || len(c.Achieved) == 0 {
			t.Errorf("%s: unavailable %v, %d failed (%v), %d samples", name, c.Unavailable, c.Failed, c.Err, len(c.Achieved))
			continue
		}
		for _, a := range c.Achieved {
			if a < float64(c.Requested) {
				if underWine || c.Mechanism == "busy-spin" || c.Mechanism == "delay.Sleep" {
					t.Errorf("%s: a wait ended %v early", name, time.Duration(float64(c.Requested)-a))
				} else {
					t.Logf("%s: a wait ended %v early", name, time.Duration(float64(c.Requested)-a))
				}
			}
		}
		switch {
		case underWine && c.TimerResolution > 0:
			t.Errorf("%s: Wine's timer resolution %d ns recorded as Windows's", name, c.TimerResolution)
		case !underWine && c.TimerResolution <= 0:
			t.Errorf("%s: no timer resolution recorded", name)
		}
		if c.OwnThread != (c.Mechanism != "delay.Sleep") {
			t.Errorf("%s: OwnThread %v", name, c.OwnThread)
		}
	}
	d := res.Document(result.Meta{})
	for _, m := range d.Measurements {
		ns := m.Detail.Sleep.TimerResolutionNs
		switch {
		case underWine && ns != nil:
			t.Errorf("%s: the document holds Wine's timer resolution %d ns as Windows's", m.Name, *ns)
		case !underWine && (ns == nil || *ns <= 0):
			t.Errorf("%s: the document has no timer resolution", m.Name)
		}
	}
}

// TestTimerResolutionCalls: timeBeginPeriod and NtSetTimerResolution
// succeed and are undone; refusals come back as errors that name the
// call. That the resolution really changes, only Windows shows: Wine
// keeps its own and reports it unchanged.
func TestTimerResolutionCalls(t *testing.T) {
	r, err := wintimer.Query()
	coarsest, finest, cur := int64(r.Coarsest), int64(r.Finest), int64(r.Current)
	if err != nil || finest <= 0 || coarsest < finest || cur < finest || cur > coarsest {
		t.Fatalf("NtQueryTimerResolution: coarsest %d, finest %d, current %d ns, %v", coarsest, finest, cur, err)
	}
	if err := timePeriod(0, true); err == nil || !strings.Contains(err.Error(), "timeBeginPeriod(0)") {
		t.Errorf("timeBeginPeriod(0): %v, want TIMERR_NOCANDO named", err)
	}
	if err := timePeriod(1, true); err != nil {
		t.Fatal(err)
	}
	windows.SleepEx(1, false)
	afterPeriod := timerResolution()
	if err := timePeriod(1, false); err != nil {
		t.Fatal(err)
	}
	held, err := setTimerResolution(finest, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := setTimerResolution(finest, false); err != nil {
		t.Fatal(err)
	}
	if v, ok := wine.Version(); ok {
		t.Skipf("under Wine %s: timeBeginPeriod(1) and NtSetTimerResolution(%d ns) succeed, but the resolution stays Wine's (%d and %d ns, from %d); only a Windows host shows them take effect", v, finest, afterPeriod, held, cur)
	}
	if afterPeriod > int64(time.Millisecond) {
		t.Errorf("timer resolution %d ns after timeBeginPeriod(1) and a sleep, want ≤ 1 ms", afterPeriod)
	}
	if held != finest {
		t.Errorf("timer resolution %d ns while NtSetTimerResolution(%d) is held", held, finest)
	}
}

// TestWindowsSettings: a priority is THREAD_PRIORITY_TIME_CRITICAL on
// the measuring thread, pinning is its affinity, a CPU beyond the mask is
// refused before any call, and a refused priority is a PermissionError.
func TestWindowsSettings(t *testing.T) {
	cpus, err := thread.Allowed()
	if err != nil {
		t.Fatal(err)
	}
	var prio int
	thread.Run(func() {
		if err = (ThreadSettings{Priority: 80, CPUs: cpus[:1]}).apply(); err == nil {
			prio, err = thread.Priority()
		}
	})
	if err != nil || prio != thread.ThreadPriorityTimeCritical {
		t.Errorf("priority on the measuring thread: %d, %v; want %d", prio, err, thread.ThreadPriorityTimeCritical)
	}
	if err := (ThreadSettings{CPUs: []int{64}}).check(); err == nil || !strings.Contains(err.Error(), "0 to 63") {
		t.Errorf("CPU 64: %v", err)
	}
	defer func(f func() error) { setTimeCritical = f }(setTimeCritical)
	setTimeCritical = func() error { return fmt.Errorf("thread: SetThreadPriority: %w", windows.ERROR_ACCESS_DENIED) }
	var pe *PermissionError
	if err := (ThreadSettings{Priority: 1}).check(); !errors.As(err, &pe) || !errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		t.Errorf("refused priority: %v, want a PermissionError wrapping ERROR_ACCESS_DENIED", err)
	}
	h, err := Acquire(Conditions{Settings: ThreadSettings{Priority: 1}, DMALatency: -1, BestEffort: true})
	if err != nil || h.Settings.Priority != 0 || len(h.Refused) != 1 || h.Refused[0] != "THREAD_PRIORITY_TIME_CRITICAL" {
		t.Errorf("best effort without the priority: %+v, %v", h, err)
	}
}

// TestTimerFallback: where high-resolution timers cannot be made, waits
// block on plain waitable timers and still end at their deadline.
func TestTimerFallback(t *testing.T) {
	defer func(f func(bool) (windows.Handle, error)) { createTimer = f; highResTimers.Store(true) }(createTimer)
	createTimer = func(highRes bool) (windows.Handle, error) {
		if highRes {
			return 0, fmt.Errorf("CreateWaitableTimerExW: %w", windows.ERROR_INVALID_PARAMETER)
		}
		return newWaitableTimer(false)
	}
	for len(idleTimers) > 0 {
		windows.CloseHandle((<-idleTimers).h)
	}
	s := NewSleeper(Options{})
	before := timerFallbacks.Load()
	for _, d := range []time.Duration{2 * time.Millisecond, 3 * time.Millisecond} {
		if over := s.Sleep(d); over < 0 {
			t.Errorf("Sleep(%v) returned %v early", d, -over)
		}
	}
	if highResTimers.Load() {
		t.Error("high-resolution timers still tried after the failure")
	}
	if n, err := s.failureCount(); n != 0 || timerFallbacks.Load() != before {
		t.Errorf("%d waits failed (%v): the plain timer was not used", n, err)
	}
	if t0 := <-idleTimers; t0.highRes {
		t.Error("the pooled timer is high-resolution")
	}
}
