package bench

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestStopTimerCPUNotInflated: StopTimer/StartTimer read the thread's CPU
// clock outside their wall-clock readings; before the fix every pair
// added ~1-2 µs of CPU time that was not in the wall time, so a ~60 ns
// body with a pair per iteration showed CPU/wall of 10 or more. The
// bound is generous: CPU time cannot exceed wall time on one thread, so
// anything near 1 passes and the bug's figures are far above it.
func TestStopTimerCPUNotInflated(t *testing.T) {
	xs := make([]uint64, 100)
	r, err := Run("stop", func(b *B) {
		for b.Loop() {
			b.StopTimer()
			b.StartTimer()
			var s uint64
			for _, x := range xs {
				s += x
			}
			b.Keep(s)
		}
	}, &Options{Target: time.Millisecond, Samples: 5, WarmupSamples: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.CPUPerWall < 0 {
		t.Skipf("no thread CPU time on %s", runtime.GOOS)
	}
	if r.CPUPerWall > 1.5 {
		t.Errorf("CPU/wall = %.2f with StopTimer/StartTimer in the loop, want <= ~1 (pair %.0f ns, inside %.0f ns, CPU excess %.0f ns)",
			r.CPUPerWall, r.Overhead.TimerPairNs, r.Overhead.TimerPairInsideNs, r.Overhead.TimerPairCPUNs)
	}
	if r.Overhead.TimerPairInsideNs >= r.Overhead.TimerPairNs {
		t.Errorf("inside part %v ns of a pair is not below its cost %v ns", r.Overhead.TimerPairInsideNs, r.Overhead.TimerPairNs)
	}
	var w string
	for _, m := range r.Warnings {
		if strings.Contains(m, "StopTimer/StartTimer called") {
			w = m
		}
	}
	if !strings.Contains(w, "inside the timed region") {
		t.Errorf("StopTimer warning does not say what falls inside the timed region: %q", w)
	}
}

// TestDocumentHasRawSamples: the result document keeps every raw sample
// (ticks, wall ns, StopTimer calls), not only per-op metrics.
func TestDocumentHasRawSamples(t *testing.T) {
	r := &Result{Name: "x", Samples: []Sample{{Iterations: 10, WallNs: 100, Ticks: 250, CPUNs: 90}, {Iterations: 10, WallNs: 110, Ticks: 275, CPUNs: 100}}}
	m := r.Measurement()
	got, ok := m.Details["samples"].([]Sample)
	if !ok || len(got) != 2 || got[1].Ticks != 275 {
		t.Fatalf("details[samples] = %#v, want the 2 raw samples", m.Details["samples"])
	}
}

type logRecorder struct{ lines []string }

func (l *logRecorder) Log(args ...any) {
	for _, a := range args {
		l.lines = append(l.lines, a.(string))
	}
}

// TestAdapterLogsEnvironmentOnce: the testing.B adapter used to drop the
// environment warnings (hypervisor, frequency scaling, race detector)
// altogether; it logs them on its first benchmark.
func TestAdapterLogsEnvironmentOnce(t *testing.T) {
	old := envWarnings
	envWarnings = func() []string { return []string{"running under a hypervisor (KVM)"} }
	defer func() { envWarnings = old }()
	r := &Result{Warnings: []string{"running under a hypervisor (KVM)", "spread is large"}}
	var once sync.Once
	var first, second logRecorder
	logWarnings(&first, r, &once)
	logWarnings(&second, r, &once)
	want := []string{"bench: spread is large", "bench: environment: running under a hypervisor (KVM)"}
	if strings.Join(first.lines, "|") != strings.Join(want, "|") {
		t.Errorf("first benchmark logged %q, want %q", first.lines, want)
	}
	if strings.Join(second.lines, "|") != "bench: spread is large" {
		t.Errorf("second benchmark logged %q, want only its own warning", second.lines)
	}
}
