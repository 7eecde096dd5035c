// Package env captures the conditions of a measurement (host, kernel, CPU
// frequency policy, hypervisor, Go build and runtime settings) and derives
// warnings that say what spoils a measurement and what to do about it.
//
// Capture reads the running host: on Linux from /proc, /sys and
// /etc/os-release, plus CPUID (amd64), prctl(PR_GET_TIMERSLACK) and
// sched_getaffinity; it takes a few milliseconds and never sleeps. On
// other systems only the Go build and the process are known. Nothing is
// guessed: a field that could not be read is left empty and its JSON path
// is listed in Host.Unknown with the reason (see Host.Reason). Its one
// measurement, the relative speed of the CPUs, CaptureWith leaves out for
// documents of what was measured elsewhere.
//
// Capture also derives the conditions that spoil measurements (frequency
// scaling, turbo, hypervisor, race detector, load, battery, clocksource,
// cgroup quota, ...) into Host.Warnings: each a warn.Warning with a stable
// Code, a Severity (warn.Warn for what spoils results, warn.Note for what
// may add noise) and a Message that ends with the next step. Host.Groups
// lays the facts out as the table that `chrono env` prints and Brief as a
// one-line summary for report headers.
//
// env reads facts and never changes the host: it does not pin or
// prioritize the caller's threads (it times its CPU-speed loop on threads
// of its own), and it imports nothing of chronograph's but package warn and
// internal helpers.
package env
