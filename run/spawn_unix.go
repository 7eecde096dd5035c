//go:build unix

package run

import (
	"os"
	"syscall"
	"time"
)

// sysProcAttr puts the child in a process group of its own, so that the
// whole group (the command and everything it started) can be killed, and
// so that a Ctrl-C on the terminal reaches only chrono, which then kills
// the group itself.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills p's process group (its id is p's pid, see sysProcAttr).
func killGroup(p *os.Process) {
	syscall.Kill(-p.Pid, syscall.SIGKILL)
}

// fillUsage copies the child's own rusage (from wait4/waitid) into s.
func fillUsage(s *Sample, ps *os.ProcessState) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return
	}
	s.MaxRSSBytes = int64(ru.Maxrss) * maxRSSUnit
	s.MinorFaults = int64(ru.Minflt)
	s.MajorFaults = int64(ru.Majflt)
	s.VolCS = int64(ru.Nvcsw)
	s.InvolCS = int64(ru.Nivcsw)
}

// signalOf names the signal that ended the process, and gives its
// number ("", 0 if it exited).
func signalOf(ps *os.ProcessState) (string, int) {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String(), int(ws.Signal())
	}
	return "", 0
}

// usageUnavailable is empty: this platform gives a per-child rusage.
const usageUnavailable = ""

// CPUTimeResolution is the step of the user and system times of a run
// (Sample.User, Sample.Sys): rusage gives them in microseconds.
const cpuTimeResolution = time.Microsecond

// defaultShell is the shell commands run through unless -S or -N says
// otherwise, as in hyperfine.
const defaultShell = "sh"

// selfCPU returns the CPU time (user + system) this process has used so
// far, all its threads together (getrusage RUSAGE_SELF; the children's
// times are not included).
func selfCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// attachGroup: the process group was made at the fork (sysProcAttr).
func attachGroup(p *os.Process) error { return nil }

// releaseGroup: a process group needs no releasing.
func releaseGroup(p *os.Process) {}

// childCPUUnavailable is empty: a child's rusage holds its own CPU times.
func childCPUUnavailable() string { return "" }
