//go:build linux

package env

import (
	"fmt"
	"runtime"

	"github.com/chronograph/chronograph/internal/kernel"
	"github.com/chronograph/chronograph/internal/thread"
)

func capture(o Options) *Host { return captureFrom("/", hostProbes(o)) }

// hostProbes are the probes of this host, less what o leaves out.
func hostProbes(o Options) probes {
	p := probes{
		cpuid:      cpuidFunc,
		timerSlack: timerSlack,
		affinity:   affinity,
		goInfo:     goInfo,
		process:    processInfo,
		kernelLog:  kernelLog,
		cpuSpeed:   cpuSpeed,
	}
	if o.NoCPUSpeed {
		p.cpuSpeed, p.cpuSpeedReason = nil, o.leftOut()
	}
	return p
}

// kernelLog returns the kernel ring buffer, as dmesg reads it
// (syslog(2); needs CAP_SYSLOG when kernel.dmesg_restrict is 1).
func kernelLog() ([]byte, error) {
	buf, err := kernel.Log()
	if err != nil {
		return nil, fmt.Errorf("env: reading the kernel log (syslog(2); kernel.dmesg_restrict=1 needs CAP_SYSLOG): %w", err)
	}
	return buf, nil
}

// timerSlack returns this thread's timer slack (prctl PR_GET_TIMERSLACK).
func timerSlack() (int64, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread() // nothing was changed on this thread
	v, err := thread.TimerSlack()
	if err != nil {
		return 0, fmt.Errorf("env: %w", err)
	}
	return v, nil
}

// affinity returns the CPUs this process may run on (sched_getaffinity).
func affinity() ([]int, error) {
	cpus, err := thread.Allowed()
	if err != nil {
		return nil, fmt.Errorf("env: %w", err)
	}
	return cpus, nil
}

// cpuSpeed measures the speed of the CPUs this process may run on.
func cpuSpeed() (*CPUSpeed, error) {
	cpus, err := affinity()
	if err != nil {
		return nil, err
	}
	return measureCPUSpeed(cpus), nil
}

// leftOut is the reason Host.Unknown gives for what o left out.
func (o Options) leftOut() string {
	if o.Reason == "" {
		return "left out of the capture"
	}
	return o.Reason
}
