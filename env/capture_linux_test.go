//go:build linux

package env

import (
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
)

// TestCaptureWithNoCPUSpeed: Options{NoCPUSpeed: true} takes the CPU
// speed probe out of the capture (so its loop cannot run) and records the
// reason given, or a default one; the zero Options keep it.
func TestCaptureWithNoCPUSpeed(t *testing.T) {
	for _, tt := range []struct {
		o      Options
		probe  bool
		reason string
	}{
		{Options{}, true, ""},
		{Options{NoCPUSpeed: true, Reason: "not measured: chrono numbers measures nothing on this host"}, false,
			"not measured: chrono numbers measures nothing on this host"},
		{Options{NoCPUSpeed: true}, false, "left out of the capture"},
	} {
		p := hostProbes(tt.o)
		if (p.cpuSpeed != nil) != tt.probe || p.timerSlack == nil || p.affinity == nil || p.kernelLog == nil || p.goInfo == nil {
			t.Errorf("%+v: cpu speed probe %v, want %v; the other probes must stay", tt.o, p.cpuSpeed != nil, tt.probe)
		}
		if tt.probe {
			continue
		}
		// The wiring, on an empty root with the host's other probes.
		h := captureFrom(crosstest.TempDir(t), p)
		if h.CPUSpeed != nil || h.Reason("cpu_speed") != tt.reason || h.Go.Version == "" {
			t.Errorf("%+v: cpu speed %+v, reason %q, want none and %q", tt.o, h.CPUSpeed, h.Reason("cpu_speed"), tt.reason)
		}
	}
	// And on this host, through the exported function.
	h := CaptureWith(Options{NoCPUSpeed: true, Reason: "r"})
	if h.CPUSpeed != nil || h.Reason("cpu_speed") != "r" || h.System.KernelRelease == "" {
		t.Errorf("CaptureWith: cpu speed %+v, reason %q, kernel %q", h.CPUSpeed, h.Reason("cpu_speed"), h.System.KernelRelease)
	}
}
