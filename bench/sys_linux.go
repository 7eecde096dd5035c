//go:build linux

package bench

import "golang.org/x/sys/unix"

// threadUsage reads the calling thread's context switches and page faults
// (getrusage RUSAGE_THREAD); ok is false when unavailable.
func threadUsage() (u usage, ok bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return u, false
	}
	return usage{
		VolCtxSw:   ru.Nvcsw,
		InvolCtxSw: ru.Nivcsw,
		MinFlt:     ru.Minflt,
		MajFlt:     ru.Majflt,
	}, true
}
