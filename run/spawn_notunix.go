//go:build !unix

package run

import (
	"os"
	"time"
)

// What Windows and the other platforms that are not unix share: no POSIX
// signals, no per-child rusage, no CPU time of chrono itself; their CPU
// times and shell are Windows's.

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
