package bench

import (
	"strings"
	"sync"
	"testing"
)

// TestStopTimerCPUNotInflated used to assert CPU/wall <= 1.5 on the real
// clocks; on a host where a CPU clock read costs ~1.5 µs it failed 3-6
// times in 10. The arithmetic is now tested with a fake CPU clock
// (TestCPUTimeNetOfReads).

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
