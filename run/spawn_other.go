//go:build !unix && !windows

package run

import (
	"os"
	"syscall"
	"time"
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

// signalOf: processes are not ended by POSIX signals on this platform.
func signalOf(ps *os.ProcessState) (string, int) { return "", 0 }

const usageUnavailable = "this platform gives no per-process rusage (max RSS, page faults, context switches) for a child"

// maxRSSUnit: no max RSS is read on this platform.
const maxRSSUnit = 1

// CPUTimeResolution is the step of the user and system times of a run
// (Sample.User, Sample.Sys): Windows counts process times in 100 ns
// units.
const cpuTimeResolution = 100 * time.Nanosecond

// defaultShell is the shell commands run through unless -S or -N says
// otherwise, as in hyperfine.
const defaultShell = "cmd.exe"

// selfCPU: not measured on this platform.
func selfCPU() (time.Duration, bool) { return 0, false }

// attachGroup: nothing to attach a process to here.
func attachGroup(p *os.Process) error { return nil }

// releaseGroup: nothing was attached.
func releaseGroup(p *os.Process) {}

// childCPUUnavailable: the platform's child CPU times are taken as given.
func childCPUUnavailable() string { return "" }
