package env

import (
	"runtime"
	"strings"
	"testing"
)

// TestCaptureLive captures this machine: every field is either filled or
// carries a reason for being unknown.
func TestCaptureLive(t *testing.T) {
	h := Capture()
	if h.Go.Version != runtime.Version() || h.Go.GOMAXPROCS != runtime.GOMAXPROCS(0) || h.Go.NumCPU != runtime.NumCPU() {
		t.Errorf("Go = %+v, want the running runtime's values", h.Go)
	}
	if h.Go.Race != raceEnabled {
		t.Errorf("Go.Race = %v, but this test binary has race=%v", h.Go.Race, raceEnabled)
	}
	if len(h.Process.Args) == 0 || h.Process.PID == 0 {
		t.Errorf("Process = %+v, want the PID and arguments", h.Process)
	}
	for _, w := range h.Warnings {
		if w.Code == "" || w.Message == "" {
			t.Errorf("warning without code or message: %+v", w)
		}
	}
	if runtime.GOOS == "windows" { // CPUID and the Windows API fill the CPU and system groups
		if h.Reason("cpu") != "" || h.Reason("system") != "" || h.Reason("frequency") == "" {
			t.Errorf("reasons for cpu %q, system %q, frequency %q on windows: want only the last", h.Reason("cpu"), h.Reason("system"), h.Reason("frequency"))
		}
		if h.CPU.Vendor == "" || h.CPU.Hypervisor == nil || h.System.OS == "" {
			t.Errorf("CPU %+v, OS %q on windows", h.CPU, h.System.OS)
		}
		return
	}
	if runtime.GOOS != "linux" {
		if h.Reason("cpu") == "" || !strings.Contains(h.Reason("cpu"), "not supported on "+runtime.GOOS) {
			t.Errorf("reason for cpu = %q, want 'not supported on %s'", h.Reason("cpu"), runtime.GOOS)
		}
		return
	}
	fields := []struct {
		key    string
		filled bool
	}{
		{"cpu.model", h.CPU.Model != ""},
		{"cpu.logical_cpus", h.CPU.LogicalCPUs > 0},
		{"cpu.physical_cores", h.CPU.PhysicalCores > 0},
		{"cpu.smt", h.CPU.SMT != nil},
		{"cpu.hypervisor", h.CPU.Hypervisor != nil},
		{"cpu.product", h.CPU.Product != ""},
		{"frequency.governors", len(h.Frequency.Governors) > 0},
		{"frequency.boost", h.Frequency.Boost != nil},
		{"system.hostname", h.System.Hostname != ""},
		{"system.kernel_release", h.System.KernelRelease != ""},
		{"system.os", h.System.OS != ""},
		{"system.kernel_cmdline", h.System.Cmdline != ""},
		{"system.load_avg", len(h.System.LoadAvg) == 3},
		{"system.clocksource", h.System.Clocksource != ""},
		{"system.power", h.System.Power != nil},
		{"scheduler.isolated_cpus", h.Reason("scheduler.isolated_cpus") == ""}, // "" means none
		{"scheduler.timer_slack_ns", h.Scheduler.TimerSlackNs != nil},
		{"scheduler.rt_runtime_us", h.Scheduler.RTRuntimeUs != nil},
		{"scheduler.aslr", h.Scheduler.ASLR != nil},
		{"scheduler.thp", h.Scheduler.THP != ""},
		{"scheduler.perf_event_paranoid", h.Scheduler.PerfEventParanoid != nil},
		{"process.affinity", h.Process.AffinityCount > 0},
		{"process.cgroup", h.Process.Cgroup != nil},
	}
	for _, f := range fields {
		reason := h.Reason(f.key)
		switch {
		case f.filled && reason != "":
			t.Errorf("%s is filled and also unknown (%q)", f.key, reason)
		case !f.filled && reason == "":
			t.Errorf("%s is neither filled nor has a reason", f.key)
		}
	}
	if h.CPU.LogicalCPUs > 0 && h.Process.AffinityCount > h.CPU.LogicalCPUs {
		t.Errorf("affinity %d CPUs > %d online CPUs", h.Process.AffinityCount, h.CPU.LogicalCPUs)
	}
	if s := h.Scheduler.TimerSlackNs; s != nil && *s <= 0 {
		t.Errorf("timer slack = %d ns, want > 0", *s)
	}
}

// BenchmarkCapture tracks the cost of a capture (a few ms: files only).
func BenchmarkCapture(b *testing.B) {
	for b.Loop() {
		Capture()
	}
}
