package main

import (
	"github.com/chronograph/chronograph/internal/crosstest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/env"
)

// countCaptures replaces the environment captures by fakes that count
// their calls, for the rest of the test.
func countCaptures(t *testing.T) (measured, recorded *int, reasons *[]string) {
	t.Helper()
	m, r := captureMeasured, captureRecorded
	t.Cleanup(func() { captureMeasured, captureRecorded = m, r })
	measured, recorded, reasons = new(int), new(int), new([]string)
	captureMeasured = func() *env.Host { *measured++; return &env.Host{} }
	captureRecorded = func(reason string) *env.Host {
		*recorded++
		*reasons = append(*reasons, reason)
		return &env.Host{Unknown: map[string]string{"cpu_speed": reason}}
	}
	return measured, recorded, reasons
}

// TestCaptureOnlyWhereMeasured: the commands that measure nothing on
// this host never take the measuring capture (the CPU-speed loop on every
// CPU, the counters' probe): chrono report and history read documents,
// --version and version print what the binary knows, and numbers (and
// its old name stats) and trace, whose documents hold what was measured
// elsewhere, take the recorded capture (no loop) once, saying why. chrono
// env, which shows the measuring capture, takes it once: the counting
// sees a capture where there is one.
func TestCaptureOnlyWhereMeasured(t *testing.T) {
	dir := crosstest.TempDir(t)
	doc := writeSeriesDocs(t, dir, "sleep 0.001", "CPU-A", 1, func(int) float64 { return 1e6 })[0]
	db := filepath.Join(dir, "h.db")
	measured, recorded, reasons := countCaptures(t)
	tests := []struct {
		stdin              string
		args               []string
		measured, recorded int
		reason             string
	}{
		{"", []string{"--version"}, 0, 0, ""},
		{"", []string{"version"}, 0, 0, ""},
		{"", []string{"report", doc}, 0, 0, ""},
		{"", []string{"report", "--json", doc}, 0, 0, ""},
		{"", []string{"history", "add", "--db", db, doc}, 0, 0, ""},
		{"", []string{"history", "list", "--db", db}, 0, 0, ""},
		{"1 2 3 4 5 6\n", []string{"numbers"}, 0, 1, "not measured: chrono numbers measures nothing on this host"},
		{"1 2 3 4 5 6\n", []string{"stats", "--json"}, 0, 1, "not measured: chrono stats measures nothing on this host"},
		{"", []string{"trace", "testdata/trace-known.json"}, 0, 1, "not measured: chrono trace measures nothing on this host"},
		{"", []string{"env", "--json"}, 1, 0, ""},
	}
	for _, tt := range tests {
		*measured, *recorded, *reasons = 0, 0, nil
		_, errs, code := runChrono(t, tt.stdin, tt.args...)
		if code != exitOK {
			t.Fatalf("chrono %s: exit %d: %s", strings.Join(tt.args, " "), code, errs)
		}
		if *measured != tt.measured || *recorded != tt.recorded {
			t.Errorf("chrono %s: %d measuring and %d recorded captures, want %d and %d", strings.Join(tt.args, " "), *measured, *recorded, tt.measured, tt.recorded)
		}
		if tt.reason != "" && (len(*reasons) != 1 || (*reasons)[0] != tt.reason) {
			t.Errorf("chrono %s: reasons %q, want %q", strings.Join(tt.args, " "), *reasons, tt.reason)
		}
	}
}

// TestRecordedEnvironment: the document of chrono numbers holds the
// host's environment without a CPU speed, saying why (on Linux; elsewhere
// env measures no CPU speed and says so), and the rest of the capture.
func TestRecordedEnvironment(t *testing.T) {
	out, errs, code := runChrono(t, "1 2 3 4 5 6\n", "numbers", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	h := decodeStrict(t, []byte(out)).Environment
	if h == nil || h.CPUSpeed != nil || h.Counters != nil || h.Go.Version != runtime.Version() {
		t.Fatalf("environment %+v: want one without CPU speed and counters", h)
	}
	want := "not measured: chrono numbers measures nothing on this host"
	if runtime.GOOS != "linux" {
		want = "not measured on " + runtime.GOOS
	}
	if r := h.Reason("cpu_speed"); !strings.HasPrefix(r, want) {
		t.Errorf("cpu_speed reason %q, want %q", r, want)
	}
}
