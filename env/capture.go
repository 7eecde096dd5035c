package env

// Capture reads the environment of the running process: the CPU, its
// frequency policy, the kernel and OS, scheduler and timer settings, the
// Go build and runtime, and the process's affinity and cgroup limits; and
// derives the warnings (Host.Warnings). It reads files and cheap system
// calls, and measures one thing: the relative speed of the allowed CPUs
// (Host.CPUSpeed: a short loop timed on each, at most 50 ms in all, ~1 ms
// on a 2-CPU machine). It never sleeps and never fails: whatever cannot
// be read is listed in Host.Unknown with the reason.
func Capture() *Host { return capture(Options{}) }

// Options say what CaptureWith leaves out of a capture; the zero Options
// leave out nothing (Capture).
type Options struct {
	// NoCPUSpeed leaves out the one thing a capture measures, the CPU
	// speed (a thread pinned to each allowed CPU times a loop, up to
	// 50 ms): Host.CPUSpeed stays nil and Host.Unknown["cpu_speed"] says
	// why (Reason). For documents of what was measured elsewhere (a file
	// of numbers, a trace), to which the speed of this host's CPUs is
	// nothing; what files and cheap system calls tell is still read.
	NoCPUSpeed bool
	// Reason is why what was left out was, as Host.Unknown records it
	// (e.g. "not measured: chrono numbers measures nothing on this
	// host"); "" gives "left out of the capture".
	Reason string
}

// CaptureWith is Capture, leaving out what o says.
func CaptureWith(o Options) *Host { return capture(o) }

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
