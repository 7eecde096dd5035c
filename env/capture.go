package env

// Capture reads the environment of the running process: the CPU, its
// frequency policy, the kernel and OS, scheduler and timer settings, the
// Go build and runtime, and the process's affinity and cgroup limits; and
// derives the warnings (Host.Warnings). It reads only files and cheap
// system calls (no sleeping, no measuring), so it takes a few
// milliseconds. It never fails: whatever cannot be read is listed in
// Host.Unknown with the reason.
func Capture() *Host { return capture() }
