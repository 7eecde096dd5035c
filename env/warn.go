package env

import (
	"fmt"
	"math"
	"strings"

	"github.com/chronograph/chronograph/warn"
)

// warnings derives the conditions that spoil measurements from h, each
// with the next step: warnings (Warn) first, then notes (Note). Fields
// that are unknown never raise a warning. Capture calls it and stores the
// result in h.Warnings.
func warnings(h *Host) []warn.Warning {
	var warns, notes []warn.Warning
	// add records a warning; the format's text before the separator " >> "
	// is the message, the rest the next step.
	add := func(sev warn.Severity, code, format string, args ...any) {
		msg, next, _ := strings.Cut(fmt.Sprintf(format, args...), " >> ")
		w := warn.Warning{Code: code, Severity: sev, Message: msg, Next: next}
		if sev == warn.Warn {
			warns = append(warns, w)
		} else {
			notes = append(notes, w)
		}
	}

	// Frequency policy.
	if g := scalingGovernors(h.Frequency); len(g) > 0 {
		add(warn.Warn, "governor", "CPU frequency scaling is on (%s) >> set the governor to 'performance' for stable results, e.g. `sudo cpupower frequency-set -g performance`", strings.Join(g, ", "))
	}
	if b := h.Frequency.Boost; b != nil && *b {
		fix := "echo 0 | sudo tee " + h.Frequency.BoostSource
		if strings.HasSuffix(h.Frequency.BoostSource, "no_turbo") {
			fix = "echo 1 | sudo tee " + h.Frequency.BoostSource
		}
		add(warn.Warn, "boost", "turbo boost is on: the clock rate follows temperature and the load of other cores >> turn it off for stable results, e.g. `%s`", fix)
	}

	// Virtualization.
	if hv := h.CPU.Hypervisor; hv != nil && *hv {
		name := ""
		if h.CPU.HypervisorVendor != "" {
			name = " (" + h.CPU.HypervisorVendor + ")"
		}
		add(warn.Warn, "hypervisor", "running under a hypervisor%s: expect noise from other guests and no hardware counters >> measure on bare metal for figures that hold there", name)
	}

	// Windows.
	if w := h.Windows; w != nil {
		if w.Wine != "" {
			add(warn.Warn, "wine", "running under Wine %s, not Windows: every figure is Wine's on a Linux host (its timer resolution, thread priority, thread cycle times and a child's CPU times are not real), not Windows's >> measure on a Windows host for Windows figures", w.Wine)
		}
		if w.PowerPlanName == "Balanced" || w.PowerPlanName == "Power saver" {
			add(warn.Warn, "power-plan", "the Windows power plan is %s: the CPU slows down when idle and wakes up late >> select High performance for stable results, e.g. `powercfg /setactive SCHEME_MIN`", w.PowerPlanName)
		}
	}

	// Build.
	if h.Go.Race {
		add(warn.Warn, "race", "built with the race detector: timings are not representative >> rebuild without -race")
	}
	if noOptimization(h.Go.GCFlags) {
		add(warn.Warn, "gcflags", "built with -gcflags '%s': optimization or inlining is off, so timings are not representative >> rebuild without these flags", h.Go.GCFlags)
	}

	// Machine state.
	if n := h.CPU.LogicalCPUs; n > 0 && len(h.System.LoadAvg) > 0 {
		if l := h.System.LoadAvg[0]; l >= math.Max(1, 0.5*float64(n)) {
			add(warn.Warn, "load", "load average is %.2f on %d logical CPUs: other processes compete for the CPUs >> stop them or wait until the machine is idle", l, n)
		}
	}
	if m := speedWarning(h.CPUSpeed); m != "" {
		add(warn.Warn, "cpu-speed", "%s", m)
	}
	if p := h.System.Power; p != nil && p.OnBattery {
		add(warn.Warn, "battery", "running on battery: the CPU may be slowed down to save power >> plug in the AC adapter")
	}
	if cs := h.System.Clocksource; cs != "" {
		switch cs {
		case "tsc", "arch_sys_counter", "riscv_clocksource", "timebase":
		case "hpet", "acpi_pm", "jiffies", "refined-jiffies", "pit":
			add(warn.Warn, "clocksource", "clocksource is '%s': every clock read is a slow hardware access or coarse >> switch to 'tsc' if it is available (%s), e.g. `echo tsc | sudo tee /sys/devices/system/clocksource/clocksource0/current_clocksource`", cs, strings.Join(h.System.AvailableClocksources, " "))
		default:
			if contains(h.System.AvailableClocksources, "tsc") {
				add(warn.Note, "clocksource", "clocksource is '%s', not 'tsc': clock reads cost more >> if the TSC is stable here, `echo tsc | sudo tee /sys/devices/system/clocksource/clocksource0/current_clocksource`", cs)
			}
		}
	}

	// Process limits.
	if cg := h.Process.Cgroup; cg != nil && !cg.Unlimited && h.Go.GOMAXPROCS > 0 && cg.LimitCPUs < float64(h.Go.GOMAXPROCS) {
		add(warn.Warn, "cgroup-quota", "the cgroup's CPU quota is %.4g CPUs (%d µs every %d µs) but GOMAXPROCS is %d: parallel work will be throttled mid-measurement >> set GOMAXPROCS=%d or raise the quota",
			cg.LimitCPUs, cg.CPUQuotaUs, cg.CPUPeriodUs, h.Go.GOMAXPROCS, max(1, int(cg.LimitCPUs)))
	}
	if a := h.Process.AffinityCount; a > 0 && h.Go.GOMAXPROCS > a {
		add(warn.Warn, "affinity", "GOMAXPROCS is %d but the process may run on only %d CPUs (%s): goroutines will queue for them >> set GOMAXPROCS=%d", h.Go.GOMAXPROCS, a, h.Process.Affinity, a)
	}

	// Notes: conditions that add noise to some measurements.
	if iso, err := ParseCPUList(h.Scheduler.IsolatedCPUs); err == nil && len(iso) > 0 && h.Process.Affinity != "" {
		if aff, err := ParseCPUList(h.Process.Affinity); err == nil && !subset(aff, iso) {
			add(warn.Note, "isolation", "CPUs %s are isolated but this process may run on CPUs %s >> pin the measurement to the isolated CPUs, e.g. `taskset -c %s chrono ...`", h.Scheduler.IsolatedCPUs, h.Process.Affinity, h.Scheduler.IsolatedCPUs)
		}
	}
	if s := h.CPU.SMT; s != nil && *s {
		add(warn.Note, "smt", "SMT (hyper-threading) is on: sibling threads share a core, so work on a sibling adds noise >> pin to one thread per core (taskset) or turn SMT off, e.g. `echo off | sudo tee /sys/devices/system/cpu/smt/control`")
	}
	if h.Scheduler.THP == "always" {
		add(warn.Note, "thp", "transparent huge pages are 'always': page faults and khugepaged compaction add noise to allocation-heavy code >> e.g. `echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled`")
	}
	if p := h.Scheduler.PerfEventParanoid; p != nil && *p >= 3 && !h.Process.Root {
		add(warn.Note, "perf-paranoid", "perf_event_paranoid is %d: performance counters are closed to non-root users >> run as root or `sudo sysctl kernel.perf_event_paranoid=1`", *p)
	}
	return append(warns, notes...)
}

// scalingGovernors describes the governors other than 'performance',
// e.g. "governor 'schedutil'" or "governor 'powersave' on CPUs 2-3".
func scalingGovernors(f Frequency) []string {
	byGov := map[string][]int{}
	var order []string
	for _, c := range f.CPUs {
		if c.Governor == "" || c.Governor == "performance" {
			continue
		}
		if _, ok := byGov[c.Governor]; !ok {
			order = append(order, c.Governor)
		}
		byGov[c.Governor] = append(byGov[c.Governor], c.CPU)
	}
	var out []string
	for _, g := range order {
		s := "governor '" + g + "'"
		if len(byGov[g]) < len(f.CPUs) {
			s += " on CPUs " + FormatCPUList(byGov[g])
		}
		out = append(out, s)
	}
	return out
}

// noOptimization reports whether gcflags turn off optimization (-N) or
// inlining (-l), e.g. "all=-N -l".
func noOptimization(gcflags string) bool {
	for _, f := range strings.Fields(gcflags) {
		if _, v, ok := strings.Cut(f, "="); ok {
			f = v
		}
		if f == "-N" || f == "-l" {
			return true
		}
	}
	return false
}

// subset reports whether every CPU of a is in b.
func subset(a, b []int) bool {
	in := make(map[int]bool, len(b))
	for _, c := range b {
		in[c] = true
	}
	for _, c := range a {
		if !in[c] {
			return false
		}
	}
	return true
}
