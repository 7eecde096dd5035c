package env

// Capture reads the environment of the running process: the CPU, its
// frequency policy, the kernel and OS, scheduler and timer settings, the
// Go build and runtime, and the process's affinity and cgroup limits; and
// derives the warnings (Host.Warnings). It reads files and cheap system
// calls, and measures one thing: the relative speed of the allowed CPUs
// (Host.CPUSpeed: a short loop timed on each, at most 50 ms in all, ~1 ms
// on a 2-CPU machine). It never sleeps and never fails: whatever cannot
// be read is listed in Host.Unknown with the reason.
func Capture() *Host { return capture() }

// unsupportedGroups are the parts of Host that only Linux's /proc and
// /sys provide.
var unsupportedGroups = []string{"cpu", "frequency", "system", "scheduler", "process.affinity", "process.cgroup"}

// markUnsupported records the groups that cannot be read on goos.
func markUnsupported(h *Host, goos string) {
	reason := "not supported on " + goos + ": env reads the CPU, frequency, kernel and scheduler state from Linux's /proc and /sys"
	for _, k := range unsupportedGroups {
		h.setUnknown(k, reason)
	}
	h.setUnknown("cpu_speed", "not measured on "+goos+": env times a loop on a thread pinned to each CPU, and pinning threads needs Linux's sched_setaffinity")
}
