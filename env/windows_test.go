package env

import (
	"encoding/binary"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/wine"
)

// TestCPUIDFacts: vendor, brand string and hypervisor from CPUID, as the
// Windows capture reads them (a KVM guest on an AMD EPYC).
func TestCPUIDFacts(t *testing.T) {
	le := func(s string, i int) uint32 { return binary.LittleEndian.Uint32([]byte(s)[i:]) }
	brand := "AMD EPYC 7B13 64-Core Processor\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"[:48]
	read := func(leaf, sub uint32) (eax, ebx, ecx, edx uint32) {
		switch {
		case leaf == 0:
			v := "AuthenticAMD"
			return 0x10, le(v, 0), le(v, 8), le(v, 4) // EBX, EDX, ECX order of the string
		case leaf == 0x80000000:
			return 0x80000008, 0, 0, 0
		case leaf >= 0x80000002 && leaf <= 0x80000004:
			o := int(leaf-0x80000002) * 16
			return le(brand, o), le(brand, o+4), le(brand, o+8), le(brand, o+12)
		}
		return fakeCPUID(leaf, sub)
	}
	var h Host
	cpuidFacts(&h, read)
	if h.CPU.Vendor != "AuthenticAMD" || h.CPU.Model != "AMD EPYC 7B13 64-Core Processor" ||
		h.CPU.Hypervisor == nil || !*h.CPU.Hypervisor || h.CPU.HypervisorVendor != "KVM" || h.CPU.HypervisorSource != "cpuid 0x40000000" {
		t.Errorf("cpuidFacts: %+v", h.CPU)
	}
}

// TestWindowsWarnings: Wine and a power plan that slows the CPU when idle
// raise warnings; High performance does not.
func TestWindowsWarnings(t *testing.T) {
	tests := []struct {
		name string
		w    Windows
		want []string
	}{
		{"wine", Windows{Wine: "8.0"}, []string{"wine"}},
		{"balanced", Windows{PowerPlanName: "Balanced"}, []string{"power-plan"}},
		{"power saver under wine", Windows{Wine: "9.0", PowerPlanName: "Power saver"}, []string{"wine", "power-plan"}},
		{"high performance", Windows{PowerPlanName: "High performance"}, nil},
		{"a plan of the user's", Windows{PowerPlan: "{00000000-0000-0000-0000-000000000001}"}, nil},
	}
	for _, tt := range tests {
		var codes []string
		for _, w := range warnings(&Host{Windows: &tt.w}) {
			codes = append(codes, w.Code)
		}
		if strings.Join(codes, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s: warnings %v, want %v", tt.name, codes, tt.want)
		}
	}
	w := warnings(&Host{Windows: &Windows{Wine: "8.0"}})[0]
	if !strings.Contains(w.Message, "Wine 8.0") || !strings.Contains(w.Message, "not Windows's") || w.Next == "" {
		t.Errorf("wine warning %+v", w)
	}
}

// TestCaptureWindows: on Windows the capture has a Windows part, with
// the version, and under Wine Wine's version and warning, and the power
// plan and timer resolution unknown with the reason.
func TestCaptureWindows(t *testing.T) {
	h := Capture()
	if runtime.GOOS != "windows" {
		if h.Windows != nil {
			t.Errorf("Windows part %+v on %s", h.Windows, runtime.GOOS)
		}
		return
	}
	w := h.Windows
	if w == nil || w.Version == "" || !strings.HasPrefix(h.System.OS, "Windows "+w.Version) {
		t.Fatalf("Windows part %+v, OS %q", w, h.System.OS)
	}
	if h.CPU.LogicalCPUs <= 0 {
		t.Errorf("logical CPUs %d (%s)", h.CPU.LogicalCPUs, h.Reason("cpu.logical_cpus"))
	}
	v, onWine := wine.Version()
	if want, ok := os.LookupEnv("CHRONO_WINE_VERSION"); ok && w.Wine != want {
		t.Errorf("Wine %q, want %q", w.Wine, want)
	}
	if !onWine {
		if w.Wine != "" {
			t.Errorf("Wine %q on Windows", w.Wine)
		}
		if w.TimerResolutionNs <= 0 || w.TimerFinestNs > w.TimerResolutionNs || w.TimerResolutionNs > w.TimerCoarsestNs {
			t.Errorf("timer resolution %d (finest %d, coarsest %d): %s", w.TimerResolutionNs, w.TimerFinestNs, w.TimerCoarsestNs, h.Reason("windows.timer_resolution_ns"))
		}
		return
	}
	found := false
	for _, x := range h.Warnings {
		found = found || x.Code == "wine"
	}
	if w.Wine != v || !found {
		t.Errorf("under Wine %s: Windows part %+v, warnings %v", v, w, h.Warnings)
	}
	if r := h.Reason("windows.timer_resolution_ns"); w.TimerResolutionNs != 0 || !strings.Contains(r, "Wine "+v) {
		t.Errorf("timer resolution %d under Wine, reason %q", w.TimerResolutionNs, r)
	}
	// Wine 8.0 does not implement PowerGetActiveScheme; a later Wine may.
	if w.PowerPlan == "" && !strings.Contains(h.Reason("windows.power_plan"), "PowerGetActiveScheme") {
		t.Errorf("power plan unknown without the reason: %q", h.Reason("windows.power_plan"))
	}
}
