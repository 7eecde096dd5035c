package env

import (
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/chronograph/chronograph/internal/wine"
	"github.com/chronograph/chronograph/internal/wintimer"
)

// capture reads what Windows tells without measuring: the CPU's CPUID
// facts (vendor, model, hypervisor), the Windows version, the power plan,
// the timer resolution, and whether this is Wine. It ignores its
// Options: the one thing they leave out, the CPU speed, is not measured
// here.
func capture(Options) *Host {
	h := &Host{Go: goInfo(), Process: processInfo()}
	markUnsupported(h, runtime.GOOS)
	delete(h.Unknown, "cpu")
	delete(h.Unknown, "system")
	h.setUnknown("cpu.physical_cores", "not read on windows")
	h.setUnknown("system.kernel_release", "Windows has no kernel release string: see windows.version")
	if cpuidFunc != nil {
		cpuidFacts(h, cpuidFunc)
	} else {
		h.setUnknown("cpu.vendor", "no CPUID instruction on "+runtime.GOARCH)
	}
	h.CPU.LogicalCPUs = activeProcessors(h)
	if name, err := windows.ComputerName(); err == nil {
		h.System.Hostname = name
	}
	h.Windows = windowsInfo(h)
	h.Warnings = warnings(h)
	return h
}

var (
	kernel32                    = windows.NewLazySystemDLL("kernel32.dll")
	procGetActiveProcessorCount = kernel32.NewProc("GetActiveProcessorCount")
	procPowerGetActiveScheme    = windows.NewLazySystemDLL("powrprof.dll").NewProc("PowerGetActiveScheme")
)

// activeProcessors is GetActiveProcessorCount over every processor group.
func activeProcessors(h *Host) int {
	if err := procGetActiveProcessorCount.Find(); err != nil {
		h.setUnknown("cpu.logical_cpus", "GetActiveProcessorCount: "+err.Error())
		return 0
	}
	const allGroups = 0xffff // ALL_PROCESSOR_GROUPS
	r, _, _ := syscall.SyscallN(procGetActiveProcessorCount.Addr(), allGroups)
	return int(uint32(r))
}

// powerSchemes names the power schemes Windows ships, by GUID.
var powerSchemes = map[string]string{
	"{381B4222-F694-41F0-9685-FF5BB260DF2E}": "Balanced",
	"{8C5E7FDA-E8BF-4A96-9A85-A6E23A8C635C}": "High performance",
	"{A1841308-3541-4FAB-BC81-F71556F20B4A}": "Power saver",
	"{E9A42B02-D5DF-448D-AA00-03F14749EB61}": "Ultimate Performance",
}

// windowsInfo reads the Windows version, the power plan, the timer
// resolution and Wine's version.
func windowsInfo(h *Host) *Windows {
	w := &Windows{}
	w.Wine, _ = wine.Version()
	v := windows.RtlGetVersion()
	w.Version = fmt.Sprintf("%d.%d.%d", v.MajorVersion, v.MinorVersion, v.BuildNumber)
	w.ServicePack = windows.UTF16ToString(v.CsdVersion[:])
	h.System.OS, h.System.OSVersionID = strings.TrimSpace("Windows "+w.Version+" "+w.ServicePack), w.Version
	if guid, err := activeScheme(); err != nil {
		h.setUnknown("windows.power_plan", err.Error())
	} else {
		w.PowerPlan, w.PowerPlanName = guid, powerSchemes[guid]
	}
	switch r, err := wintimer.Measured(w.Wine); {
	case err != nil:
		h.setUnknown("windows.timer_resolution_ns", err.Error())
	default:
		w.TimerResolutionNs, w.TimerFinestNs, w.TimerCoarsestNs = int64(r.Current), int64(r.Finest), int64(r.Coarsest)
	}
	return w
}

// activeScheme is PowerGetActiveScheme's GUID, as "{...}".
func activeScheme() (string, error) {
	if err := procPowerGetActiveScheme.Find(); err != nil {
		return "", fmt.Errorf("env: PowerGetActiveScheme cannot be called: %w", err)
	}
	var g *windows.GUID
	if r, _, _ := syscall.SyscallN(procPowerGetActiveScheme.Addr(), 0, uintptr(unsafe.Pointer(&g))); r != 0 {
		err := fmt.Errorf("env: PowerGetActiveScheme: %w", syscall.Errno(r))
		if v, ok := wine.Version(); ok {
			err = fmt.Errorf("env: PowerGetActiveScheme: %w (Wine %s does not implement it)", syscall.Errno(r), v)
		}
		return "", err
	}
	defer windows.LocalFree(windows.Handle(unsafe.Pointer(g)))
	return g.String(), nil
}
