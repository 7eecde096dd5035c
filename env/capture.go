package env

// Capture reads the environment of the running process: the CPU, its
// frequency policy, the kernel and OS, scheduler and timer settings, the
// Go build and runtime, and the process's affinity and cgroup limits; and
// derives the warnings (Host.Warnings). It reads only files and cheap
// system calls (no sleeping, no measuring), so it takes a few
// milliseconds. It never fails: whatever cannot be read is listed in
// Host.Unknown with the reason.
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
}
