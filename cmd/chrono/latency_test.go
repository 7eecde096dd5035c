package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/result"
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
	// -h prints the per-µs histogram and counts overflows beyond it.
	out, errb, code = runChrono(t, "", "latency", "-i", "200", "-l", "50", "-h", "1", "-q")
	if code != 0 || !strings.Contains(out, "# Histogram") {
		t.Fatalf("exit %d: %s\n%s", code, errb, out)
	}
	// A wake-up takes far more than 1 µs, so all 50 overflow; the limit
	// must not clip the percentiles (they once all read as the limit).
	if !strings.Contains(out, "# Histogram Overflows: 00050") {
		t.Errorf("-h 1: want all 50 latencies counted as overflows:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 4 && f[0] == "0" && f[1] == "50" {
			if p50 := f[4] + " " + f[5]; p50 == "1 µs" || p50 == "1.00 µs" {
				t.Errorf("-h 1 clipped p50 to the limit: %q", line)
			}
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
