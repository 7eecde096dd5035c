package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chronograph/chronograph/delay"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

func TestLatencyCommand(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the latency test is Linux-only")
	}
	jsonPath := filepath.Join(t.TempDir(), "lat.json")
	out, errb, code := runChrono(t, "", "latency", "-i", "200", "-l", "100", "-t", "2", "-q", "--json", jsonPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, want := range []string{"T: 0", "T: 1", "C:     100", "p99.99", "overflows", "histogram"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	doc, err := result.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Kind != "latency" || len(doc.Measurements) != 3 {
		t.Fatalf("kind %q, %d measurements; want latency, 3", doc.Kind, len(doc.Measurements))
	}
	// -h prints the per-µs histogram.
	out, errb, code = runChrono(t, "", "latency", "-i", "200", "-l", "50", "-h", "1", "-q")
	if code != 0 || !strings.Contains(out, "# Histogram") || !strings.Contains(out, "# Histogram Overflows:") {
		t.Fatalf("exit %d: %s\n%s", code, errb, out)
	}
}

// TestLatencyReport checks the report of a synthetic result: the -h view
// counts overflows without clipping the percentiles, failed threads are
// named, and unpinned threads that woke on several CPUs are split by CPU.
func TestLatencyReport(t *testing.T) {
	h, err := stats.NewHistogram(1, int64(10*time.Second), 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []int64{3000, 5000, 50_000, 50_000} {
		h.Record(v)
	}
	th := delay.ThreadLatency{Thread: 0, TID: 7, CPU: -1, Interval: time.Millisecond, Count: 4,
		Min: 3 * time.Microsecond, Max: 50 * time.Microsecond, Avg: 27 * time.Microsecond, Sum: 108 * time.Microsecond, Overflows: 2,
		PerCPU: []delay.CPULatency{{CPU: 0, Count: 2, Min: 3000, Max: 5000, Sum: 8000}, {CPU: 1, Count: 2, Min: 50_000, Max: 50_000, Sum: 100_000}},
		Err:    syscall.EINVAL, Yields: 3, YieldMax: 2500 * time.Microsecond}
	res := &delay.LatencyResult{Threads: []delay.ThreadLatency{th}, Histograms: []*stats.Histogram{h}, All: h, HistogramMax: 10 * time.Microsecond}
	var b strings.Builder
	writeLatencyReport(&b, res, &delay.Held{DMALatency: -1}, delay.LatencyOptions{Interval: time.Millisecond}, 10)
	out := b.String()
	for _, want := range []string{
		"# Histogram Overflows: 00002",
		"000003 000001", "000005 000001",
		"thread 0 stopped after 4 latencies: invalid argument",
		"per CPU (threads not pinned, by the CPU each wake-up ran on):",
		"Go runtime yields (after a measurement, or at once when the deadline was far): thread 0: 3, longest 2.500 ms",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// The p90 above the -h limit is not clipped to it.
	if !strings.Contains(out, "  50.0 µs  ") {
		t.Errorf("percentiles clipped:\n%s", out)
	}
	var cpuRows int
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 9 && f[0] == "0" && (f[1] == "0" || f[1] == "1") && f[2] == "2" {
			cpuRows++
		}
	}
	if cpuRows != 2 {
		t.Errorf("%d per-CPU rows, want 2:\n%s", cpuRows, out)
	}
	// One CPU only: no split.
	res.Threads[0].PerCPU = res.Threads[0].PerCPU[:1]
	b.Reset()
	writeLatencyReport(&b, res, &delay.Held{DMALatency: -1}, delay.LatencyOptions{Interval: time.Millisecond}, 10)
	if strings.Contains(b.String(), "per CPU") {
		t.Errorf("split shown for one CPU:\n%s", b.String())
	}
}

// injectInterrupt makes the commands' interruptContext return a context
// already cancelled by sig.
func injectInterrupt(t *testing.T, sig os.Signal) {
	old := interruptContext
	interruptContext = func(parent context.Context) (context.Context, func()) {
		ctx, cancel := context.WithCancelCause(parent)
		cancel(interruptedError{sig})
		return ctx, func() {}
	}
	t.Cleanup(func() { interruptContext = old })
}

// TestLatencyInterrupted: an interrupted latency test still prints and
// exports what it measured (marked incomplete) and exits 128 + the
// signal's number.
func TestLatencyInterrupted(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the latency test is Linux-only")
	}
	for sig, want := range map[os.Signal]int{os.Interrupt: 130, syscall.SIGTERM: 143} {
		injectInterrupt(t, sig)
		jsonPath := filepath.Join(t.TempDir(), "lat.json")
		out, errb, code := runChrono(t, "", "latency", "-i", "3000000", "-q", "--json", jsonPath)
		if code != want || !strings.Contains(errb, "interrupted by SIG") || !strings.Contains(out, "T: 0") {
			t.Errorf("%v: exit %d (want %d), stderr %q, stdout:\n%s", sig, code, want, errb, out)
		}
		doc, err := result.ReadFile(jsonPath)
		if err != nil || !doc.Incomplete {
			t.Errorf("%v: export %v, incomplete %v", sig, err, doc != nil && doc.Incomplete)
		}
	}
}

func TestLatencyUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"latency", "-i", "0"}, "--interval"},
		{[]string{"latency", "-p", "100", "-l", "1"}, "out of range"},
		{[]string{"latency", "-t", "0", "-l", "1"}, "--threads"},
		{[]string{"latency", "-a", "x", "-l", "1"}, "--affinity"},
		{[]string{"latency", "-D", "-5", "-l", "1"}, "--duration"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, errb, code := runChrono(t, "", tt.args...)
			if code != exitUsage || !strings.Contains(errb, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 mentioning %q", code, errb, tt.want)
			}
		})
	}
}

// TestLatencyHelperProcess runs chrono inside a child test process (see
// TestLatencyPermissionDenied); it does nothing in a normal run.
func TestLatencyHelperProcess(t *testing.T) {
	if os.Getenv("CHRONO_LATENCY_HELPER") != "1" {
		return
	}
	args := strings.Split(os.Getenv("CHRONO_ARGS"), " ")
	os.Exit(execute(args, os.Stdout, os.Stderr))
}
