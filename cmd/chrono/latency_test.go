package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
)

// TestLatencyLiveIsReport: the summary of chrono latency is the text
// rendering of its document, byte for byte (with and without -h), and
// the document holds every latency as a binned metric.
func TestLatencyLiveIsReport(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the latency test is Linux-only")
	}
	for _, extra := range [][]string{nil, {"-h", "1"}} {
		jsonPath := filepath.Join(crosstest.TempDir(t), "lat.json")
		args := append([]string{"latency", "-i", "200", "-l", "100", "-t", "2", "-q", "--export-json", jsonPath}, extra...)
		live, errb, code := runChrono(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb)
		}
		again, errb, code := runChrono(t, "", "report", jsonPath)
		if code != 0 || again != live {
			t.Fatalf("chrono report (exit %d, %s) differs from the live output:\n--- live\n%s\n--- report\n%s", code, errb, live, again)
		}
		wants := []string{"T: 0", "T: 1", "C:     100", "p99.99", "overflows", "histogram (all threads"}
		if extra != nil {
			wants = []string{"# Histogram (µs, count per thread)", "# Histogram Overflows:", "overflows: latencies of 1 µs or more (-h)"}
		}
		for _, want := range wants {
			if !strings.Contains(live, want) {
				t.Errorf("%v: output lacks %q:\n%s", args, want, live)
			}
		}
		data, err := os.ReadFile(jsonPath)
		if err != nil {
			t.Fatal(err)
		}
		doc := delayStrictDecode(t, data)
		if doc.Kind != result.KindLatency || len(doc.Measurements) != 3 || doc.Run.Latency == nil || doc.Environment == nil {
			t.Fatalf("kind %q, %d measurements, run %+v; want latency, 3, its run and environment", doc.Kind, len(doc.Measurements), doc.Run.Latency)
		}
		if r := doc.Run.Latency; r.IntervalNs != 200_000 || r.Threads != 2 || r.Loops != 100 || (extra != nil) != (r.HistogramUs == 1) {
			t.Errorf("run %+v", r)
		}
		for i, m := range doc.Measurements {
			met := m.Metric("latency")
			if m.Primary != "latency" || met == nil || met.Histogram == nil || met.Unit != "ns" || len(met.Percentiles) != 5 || met.Histogram.StdDev == nil {
				t.Fatalf("%s: metric %+v", m.Name, met)
			}
			want := int64(100)
			if i == 2 {
				want = 200
			}
			if h := met.Histogram; h.Total() != want || h.Min > h.Mean || h.Mean > h.Max || h.Bounds[0] > h.Min || h.Bounds[len(h.Bounds)-1] <= h.Max {
				t.Errorf("%s: histogram of %d latencies (want %d), min %v mean %v max %v, bounds %v..%v", m.Name, h.Total(), want, h.Min, h.Mean, h.Max, h.Bounds[0], h.Bounds[len(h.Bounds)-1])
			}
		}
	}
}

// --json prints the document and nothing else, even with the live
// display asked for (it goes to standard error).
func TestLatencyJSON(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the latency test is Linux-only")
	}
	out, errb, code := runChrono(t, "", "latency", "-i", "200", "-l", "20", "--json", "--live")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if d := delayStrictDecode(t, []byte(out)); d.Kind != result.KindLatency || len(d.Measurements) != 1 {
		t.Errorf("document %+v", d)
	}
	if !strings.Contains(errb, "T: 0") {
		t.Errorf("no live display on standard error: %q", errb)
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
		jsonPath := filepath.Join(crosstest.TempDir(t), "lat.json")
		out, errb, code := runChrono(t, "", "latency", "-i", "3000000", "-q", "--export-json", jsonPath)
		if code != want || !strings.Contains(errb, "interrupted by SIG") || !strings.Contains(out, "T: 0") {
			t.Errorf("%v: exit %d (want %d), stderr %q, stdout:\n%s", sig, code, want, errb, out)
		}
		doc, err := result.ReadFile(jsonPath)
		if err != nil || !doc.Incomplete {
			t.Errorf("%v: export %v, incomplete %v", sig, err, doc != nil && doc.Incomplete)
		}
		if again, _, _ := runChrono(t, "", "report", jsonPath); again != out {
			t.Errorf("%v: chrono report differs from the live output:\n--- live\n%s\n--- report\n%s", sig, out, again)
		}
	}
}

func TestLatencyUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"latency", "-i", "0"}, "--interval"},
		{[]string{"latency", "--dma-latency", "-1", "-l", "1"}, "--dma-latency -1: give at least 0 µs, or --default-system to hold no request"},
		{[]string{"latency", "--latency=-2", "-l", "1"}, "--latency -2: give at least 0 µs"},
		{[]string{"latency", "--default-system", "--dma-latency", "0", "-l", "1"}, "--default-system holds no /dev/cpu_dma_latency request and --dma-latency asks for one: drop one"},
		{[]string{"latency", "-h", "0", "-l", "1"}, "--histogram 0: give the top of the per-µs histogram, at least 1 µs (e.g. -h 200)"},
		{[]string{"latency", "--histogram=-3", "-l", "1"}, "--histogram -3: give the top"},
		{[]string{"latency", "-p", "100", "-l", "1"}, "out of range"},
		{[]string{"latency", "-t", "0", "-l", "1"}, "--threads"},
		{[]string{"latency", "-a", "x", "-l", "1"}, "--pin \"x\" is not a CPU list"},
		{[]string{"latency", "--affinity", "", "-l", "1"}, "--affinity \"\" is not a CPU list"},
		{[]string{"latency", "-D", "-5", "-l", "1"}, "--duration"},
		{[]string{"latency", "-D", "0", "-l", "1"}, "--duration must be positive"},
		{[]string{"latency", "-q", "--live", "-l", "1"}, "--quiet and --live contradict"},
		{[]string{"latency", "--json", "lat.json", "-l", "1"}, "--json is a switch"},
		{[]string{"latency", "--export-csv", "/nonexistent/lat.csv", "-l", "1"}, "does not exist"},
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

// TestLatencyHoldsDMALatencyByDefault: as cyclictest, chrono latency holds
// /dev/cpu_dma_latency at 0 µs unless told otherwise: the document says it
// was held, or (without the privilege) that it was refused, with a
// warning, and the run measured anyway; --default-system holds none,
// --dma-latency N (or cyclictest's --latency N) holds N.
func TestLatencyHoldsDMALatencyByDefault(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the latency test is Linux-only")
	}
	tests := []struct {
		args []string
		want int // the request: µs, or -1 for none
	}{
		{nil, 0},
		{[]string{"--default-system"}, -1},
		{[]string{"--dma-latency", "5"}, 5},
		{[]string{"--latency", "7"}, 7},
	}
	for _, tt := range tests {
		t.Run(strings.Join(append([]string{"latency"}, tt.args...), " "), func(t *testing.T) {
			args := append([]string{"latency", "-i", "200", "-l", "5", "--json", "--best-effort"}, tt.args...)
			out, errb, code := runChrono(t, "", args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			d := delayStrictDecode(t, []byte(out))
			c := d.Run.Latency.Conditions
			setting := fmt.Sprintf("/dev/cpu_dma_latency %d µs", tt.want)
			held := c.DMALatencyUs != nil && *c.DMALatencyUs == tt.want
			refused := slices.Contains(c.Refused, setting)
			switch {
			case tt.want < 0 && (c.DMALatencyUs != nil || len(c.Refused) != 0):
				t.Errorf("conditions %+v; want no request", c)
			case tt.want >= 0 && held == refused:
				t.Errorf("conditions %+v; want %s held or refused", c, setting)
			case refused && !strings.Contains(fmt.Sprint(d.Warnings), setting+" refused"):
				t.Errorf("refused without a warning: %v", d.Warnings)
			}
		})
	}
}
