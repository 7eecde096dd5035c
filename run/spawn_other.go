//go:build !unix && !windows

package run

import (
	"os"
	"syscall"
)

// sysProcAttr: this platform has no POSIX process groups; a timeout or an
// interrupt kills the command's process only, not the processes it
// started.
func sysProcAttr() *syscall.SysProcAttr { return nil }

func killGroup(p *os.Process) { p.Kill() }

// fillUsage: the platform gives no per-child rusage beyond CPU times
// (which the caller reads from ProcessState); RSS, faults and context
// switches stay -1 (unavailable).
func fillUsage(s *Sample, ps *os.ProcessState) {}

// attachGroup: nothing to attach a process to here.
func attachGroup(p *os.Process) error { return nil }

// releaseGroup: nothing was attached.
func releaseGroup(p *os.Process) {}

// childCPUUnavailable: the platform's child CPU times are taken as given.
func childCPUUnavailable() string { return "" }
