package clock

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/internal/wine"
)

// TestWindowsSources: the Windows clocks are listed in order; those Wine
// has answer and never step back on one thread; the ones it lacks say so,
// naming Wine.
func TestWindowsSources(t *testing.T) {
	runtime.LockOSThread() // the thread clocks: one thread
	defer runtime.UnlockOSThread()
	_, onWine := wine.Version()
	var names []string
	for _, s := range platformSources() {
		p := s.Props()
		names = append(names, p.Name)
		if p.Err != nil {
			if !errors.Is(p.Err, ErrUnavailable) && p.Name != "QueryThreadCycleTime" {
				t.Errorf("%s: error %v does not wrap ErrUnavailable", p.Name, p.Err)
			}
			if onWine && !strings.Contains(p.Unavailable, "Wine") {
				t.Errorf("%s unavailable under Wine without naming it: %s", p.Name, p.Unavailable)
			}
			continue
		}
		if p.Path != PathAPI || !strings.Contains(p.PathBasis, p.Name) {
			t.Errorf("%s: path %q (%s)", p.Name, p.Path, p.PathBasis)
		}
		if ns, from := s.(nominaler).nominal(); p.Unit == "ns" && (ns <= 0 || from == "") {
			t.Errorf("%s: nominal resolution %v from %q", p.Name, ns, from)
		}
		prev := s.Now()
		for range 10000 {
			v := s.Now()
			if v < prev && p.Kind != Wall {
				t.Fatalf("%s stepped back on one thread: %d after %d", p.Name, v, prev)
			}
			prev = v
		}
	}
	want := "QueryPerformanceCounter QueryInterruptTimePrecise QueryInterruptTime QueryUnbiasedInterruptTime GetTickCount64 " +
		"GetSystemTimePreciseAsFileTime GetSystemTimeAsFileTime GetThreadTimes GetProcessTimes QueryThreadCycleTime"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("platform sources\n%s\nwant\n%s", got, want)
	}
}

// TestQPC: QueryPerformanceCounter answers, converts at its frequency
// (always 10 MHz under Wine), is monotonic, and reads without allocating.
func TestQPC(t *testing.T) {
	if qpcErr != nil {
		t.Fatalf("QueryPerformanceFrequency: %v", qpcErr)
	}
	if _, ok := wine.Version(); ok && qpcHz != 10_000_000 {
		t.Errorf("QueryPerformanceFrequency = %d under Wine, want Wine's 10000000", qpcHz)
	}
	if qpcHz <= 0 {
		t.Fatalf("QueryPerformanceFrequency = %d", qpcHz)
	}
	prev, err := QPC()
	if err != nil {
		t.Fatal(err)
	}
	for range 100000 {
		d, _ := QPC()
		if d < prev {
			t.Fatalf("QPC stepped back: %v after %v", d, prev)
		}
		prev = d
	}
	if qpcHz == 10_000_000 && prev%100 != 0 {
		t.Errorf("QPC at 10 MHz read %d ns, not a multiple of 100 ns", prev)
	}
	if a := testing.AllocsPerRun(100, func() { _, _ = QPC() }); a != 0 {
		t.Errorf("QPC allocates %v times per read", a)
	}
}

// TestThreadCPUWindows: GetThreadTimes and GetProcessTimes answer, never
// step back on a locked thread, and read without allocating (bench reads
// them inside its allocation window).
func TestThreadCPUWindows(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	prev, err := ThreadCPU()
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		d, err := ThreadCPU()
		if err != nil || d < prev {
			t.Fatalf("ThreadCPU = %v, %v after %v", d, err, prev)
		}
		prev = d
	}
	if _, err := ProcessCPU(); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(100, func() { _, _ = ThreadCPU() }); a != 0 {
		t.Errorf("ThreadCPU allocates %v times per read", a)
	}
}

// TestThreadCycles: under Wine QueryThreadCycleTime is not implemented,
// and the error says so and wraps ErrUnavailable; on Windows it counts
// the work of the thread.
func TestThreadCycles(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, err := ThreadCycles()
	if v, ok := wine.Version(); ok {
		if err == nil {
			t.Logf("QueryThreadCycleTime answered %d under Wine %s", c0, v)
		} else if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "Wine "+v) {
			t.Errorf("ThreadCycles under Wine: %v, want an unavailable error naming Wine %s", err, v)
		}
	}
	crosstest.SkipUnderWine(t, "QueryThreadCycleTime counts the thread's cycles")
	if err != nil {
		t.Fatal(err)
	}
	x := uint64(1)
	for i := range 10_000_000 {
		x = x*6364136223846793005 + uint64(i)
	}
	sinkU64 = x
	if c1, _ := ThreadCycles(); c1 <= c0 {
		t.Errorf("QueryThreadCycleTime did not advance over 10^7 multiplications: %d then %d", c0, c1)
	}
}

// TestPlatformHost: the QPC frequency and its relation to the TSC are
// there; under Wine the timer resolution and the time adjustment are
// unavailable, with what Wine answered; on Windows they are ordered.
func TestPlatformHost(t *testing.T) {
	info, err := TSCInfo()
	h := Host{}
	if err != nil {
		h.TSCUnavailable = err.Error()
	} else {
		h.TSC = &info
	}
	platformHost(&h)
	w := h.Windows
	if w == nil {
		t.Fatal("no Windows part")
	}
	if w.QPCHz != qpcHz || w.QPCUnavailable != "" {
		t.Errorf("QPC %d Hz (%q), want %d", w.QPCHz, w.QPCUnavailable, qpcHz)
	}
	if h.TSC != nil && (w.QPCvsTSC == nil || w.QPCvsTSC.Ratio != float64(info.Hz)/float64(qpcHz) || w.QPCvsTSC.Reading == "") {
		t.Errorf("QPC vs TSC %+v for TSC %d Hz, QPC %d Hz", w.QPCvsTSC, info.Hz, qpcHz)
	}
	if want, ok := os.LookupEnv("CHRONO_WINE_VERSION"); ok && w.Wine != want {
		t.Errorf("Wine %q, want %q (scripts/wine's wine --version)", w.Wine, want)
	}
	if w.Wine != "" {
		for name, why := range map[string]string{"timer resolution": w.TimerUnavailable, "time adjustment": w.AdjustmentUnavailable} {
			if !strings.Contains(why, "Wine "+w.Wine) || !strings.Contains(why, "measure on Windows") {
				t.Errorf("%s under Wine: %q", name, why)
			}
		}
		if w.Timer != nil || w.Adjustment != nil {
			t.Errorf("Wine's timer figures given as Windows's: %+v %+v", w.Timer, w.Adjustment)
		}
	}
	crosstest.SkipUnderWine(t, "NtQueryTimerResolution and GetSystemTimeAdjustment state the clock interrupt's period")
	if r := w.Timer; r == nil || r.Finest <= 0 || r.Finest > r.Current || r.Current > r.Coarsest {
		t.Errorf("timer resolution %+v (%s)", w.Timer, w.TimerUnavailable)
	}
	if a := w.Adjustment; a == nil || a.Increment <= 0 {
		t.Errorf("time adjustment %+v (%s)", w.Adjustment, w.AdjustmentUnavailable)
	}
}
