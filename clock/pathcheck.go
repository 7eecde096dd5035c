package clock

import (
	"fmt"

	"github.com/chronograph/chronograph/internal/plural"
)

// Checking a vDSO read path.
//
// A vDSO read is a user-space read only while the vDSO can read the
// kernel's clocksource: with hpet or acpi_pm, or kvm-clock without its
// stable bit, the vDSO's clock_gettime makes the system call itself (in C
// programs too). Probe therefore checks every source whose path is
// PathVDSO: it counts the system calls the reading thread enters during
// pathCheckReads reads (the tracepoint raw_syscalls:sys_enter, through
// perf_event_open), and where it cannot count, compares the read's cost
// with the system call's.

// classifyByCount decides a vDSO source's path from the system calls
// counted over reads reads, less the baseline counted over none (the
// counter's own disable call, a signal's return): most reads entering the
// kernel means the vDSO falls back; hardly any, that it does not.
func classifyByCount(reads int, counted, baseline int64, clocksource string) (path, basis string) {
	n := max(counted-baseline, 0)
	cs := ""
	if clocksource != "" {
		cs = fmt.Sprintf(" with clocksource %s", clocksource)
	}
	switch {
	case n*10 >= int64(reads):
		return PathSyscall, fmt.Sprintf("measured: %s in %s through the vDSO (tracepoint raw_syscalls:sys_enter): "+
			"the vDSO falls back to the system call for this clock on this host%s, in C programs too", plural.Count(int(n), "system call"), plural.Count(reads, "read"), cs)
	case n == 0:
		return PathVDSO, fmt.Sprintf("measured: no system call in %s through the vDSO (tracepoint raw_syscalls:sys_enter): "+
			"the vDSO reads this clock in user space%s", plural.Count(reads, "read"), cs)
	default:
		return PathVDSO, fmt.Sprintf("measured: %s in %s through the vDSO (tracepoint raw_syscalls:sys_enter; "+
			"fewer than one in ten, from other causes such as a signal's return): the vDSO reads this clock in user space%s", plural.Count(int(n), "system call"), plural.Count(reads, "read"), cs)
	}
}

// fallbackCostRatio: a vDSO read that costs at least this fraction of the
// system call is taken to be one (a user-space read costs 3-30 % of it).
const fallbackCostRatio = 0.6

// classifyByCost decides a vDSO source's path from the cost of a read
// (vdsoNs) and of the clock_gettime system call (syscallNs), measured in
// the same probe, when system calls cannot be counted (why says why).
func classifyByCost(vdsoNs, syscallNs float64, why, clocksource string) (path, basis string) {
	cs := ""
	if clocksource != "" {
		cs = fmt.Sprintf(", clocksource %s", clocksource)
	}
	if vdsoNs <= 0 || syscallNs <= 0 {
		return PathVDSO, fmt.Sprintf("by construction (not verified: system calls cannot be counted (%s) and a cost is missing)", why)
	}
	if vdsoNs >= fallbackCostRatio*syscallNs {
		return PathSyscall, fmt.Sprintf("inferred from cost: a read through the vDSO costs %.0f ns, the system call %.0f ns%s, "+
			"so the vDSO falls back to the system call (system calls could not be counted: %s)", vdsoNs, syscallNs, cs, why)
	}
	return PathVDSO, fmt.Sprintf("inferred from cost: a read through the vDSO costs %.0f ns, the system call %.0f ns%s "+
		"(system calls could not be counted: %s)", vdsoNs, syscallNs, cs, why)
}
