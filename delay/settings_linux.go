//go:build linux

package delay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/chronograph/chronograph/internal/thread"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Injectable system calls (tests force refusals through them).
var (
	setFIFO        = thread.SetFIFO
	pinCPUs        = thread.Pin
	mlockall       = unix.Mlockall
	munlockall     = unix.Munlockall
	openDMALatency = func() (*os.File, error) { return os.OpenFile("/dev/cpu_dma_latency", os.O_RDWR, 0) }
)

// apply applies s to the calling thread, which must be locked (and must
// never be unlocked afterwards).
func (s ThreadSettings) apply() error {
	if err := s.validate(); err != nil {
		return err
	}
	if len(s.CPUs) > 0 {
		if err := pinCPUs(s.CPUs...); err != nil {
			if errors.Is(err, unix.EINVAL) {
				return fmt.Errorf("delay: cannot pin to %s (%v): pick CPUs this process may use (see nproc, taskset -p $$)", cpuWords(s.CPUs), err)
			}
			return &PermissionError{Setting: "pinning to " + cpuWords(s.CPUs), Err: err,
				Fix: "check the cgroup's cpuset and taskset -p $$"}
		}
	}
	if s.Priority > 0 {
		if err := setFIFO(s.Priority); err != nil {
			if errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) {
				return &PermissionError{Setting: fmt.Sprintf("SCHED_FIFO priority %d", s.Priority), Err: err,
					Fix: "run as root, grant CAP_SYS_NICE (sudo setcap cap_sys_nice+ep ./chrono), or raise RLIMIT_RTPRIO (ulimit -r 99, or rtprio in /etc/security/limits.conf); in a container also allow it in the runtime"}
			}
			return fmt.Errorf("delay: %w", err)
		}
	}
	return nil
}

// lockMemory locks the process's current and future memory (mlockall), so
// page faults do not add to wake-up latency. The returned function unlocks.
func lockMemory() (unlock func(), err error) {
	if err := mlockall(unix.MCL_CURRENT | unix.MCL_FUTURE); err != nil {
		if errors.Is(err, unix.EPERM) || errors.Is(err, unix.ENOMEM) || errors.Is(err, unix.EAGAIN) {
			return nil, &PermissionError{Setting: "mlockall", Err: err,
				Fix: "run as root, grant CAP_IPC_LOCK, or raise RLIMIT_MEMLOCK (ulimit -l unlimited, or memlock in /etc/security/limits.conf)"}
		}
		return nil, fmt.Errorf("delay: mlockall: %w", err)
	}
	return func() { _ = munlockall() }, nil
}

// holdDMALatency asks the kernel's PM-QoS to keep CPU wake-up latency at
// or below us microseconds (0 keeps CPUs out of deep idle states) by
// holding /dev/cpu_dma_latency open; the request lasts until release.
func holdDMALatency(us int) (release func() error, err error) {
	if us < 0 {
		return nil, fmt.Errorf("delay: DMA latency %d µs out of range (use ≥ 0)", us)
	}
	f, err := openDMALatency()
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return nil, &PermissionError{Setting: "/dev/cpu_dma_latency", Err: err,
				Fix: "run as root (the device is root-only by default) or give the user write access to /dev/cpu_dma_latency"}
		}
		return nil, fmt.Errorf("delay: opening /dev/cpu_dma_latency: %w (is the kernel built with PM-QoS?)", err)
	}
	var b [4]byte
	binary.NativeEndian.PutUint32(b[:], uint32(us))
	if _, err := f.Write(b[:]); err != nil {
		f.Close()
		return nil, fmt.Errorf("delay: writing /dev/cpu_dma_latency: %w", err)
	}
	return f.Close, nil
}

// setProcessTimerSlack sets the timer slack of every thread of the process
// by writing /proc/self/task/*/timerslack_ns, and returns a function that
// restores the previous values. It exists to measure the Go runtime's own
// waits (time.Sleep, timers) with a 1 ns slack, since their threads are not
// ours to lock. Threads created meanwhile inherit the slack of their
// creator.
func setProcessTimerSlack(ns int64) (restore func(), err error) {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, fmt.Errorf("delay: cannot list the process's threads: %w", err)
	}
	var tasks []string
	for _, e := range entries {
		// timerslack_ns exists only in /proc/PID, not /proc/PID/task/TID;
		// /proc/TID reaches the thread.
		tasks = append(tasks, filepath.Join("/proc", e.Name(), "timerslack_ns"))
	}
	old := map[string]string{}
	for _, p := range tasks {
		b, err := os.ReadFile(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // the thread exited meanwhile
			}
			if errors.Is(err, fs.ErrPermission) {
				// Another thread's timer slack can be read (and set)
				// only with CAP_SYS_NICE.
				return nil, &PermissionError{Setting: "timer slack of the Go runtime's threads", Err: err,
					Fix: "run as root or grant CAP_SYS_NICE"}
			}
			return nil, fmt.Errorf("delay: reading %s: %w", p, err)
		}
		if err := os.WriteFile(p, []byte(strconv.FormatInt(ns, 10)), 0); err != nil {
			for q, v := range old {
				_ = os.WriteFile(q, []byte(v), 0)
			}
			return nil, &PermissionError{Setting: "timer slack of the Go runtime's threads", Err: err,
				Fix: "run as root or grant CAP_SYS_NICE"}
		}
		old[p] = strings.TrimSpace(string(b))
	}
	return func() {
		for p, v := range old {
			_ = os.WriteFile(p, []byte(v), 0)
		}
		// Threads started meanwhile inherited the changed slack: give
		// them the slack the process had (that of its first thread).
		fallback := old[tasks[0]]
		entries, err := os.ReadDir("/proc/self/task")
		if err != nil || fallback == "" {
			return
		}
		for _, e := range entries {
			p := filepath.Join("/proc", e.Name(), "timerslack_ns")
			if _, known := old[p]; !known {
				_ = os.WriteFile(p, []byte(fallback), 0)
			}
		}
	}, nil
}

// threadTimerSlack reads a thread's timer slack in ns from /proc/TID
// (the file is not under /proc/self/task/TID).
func threadTimerSlack(tid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/timerslack_ns", tid))
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

// timerResolution: Linux has no system timer resolution (hrtimers; the
// thread's timer slack is what a wait gets instead).
func timerResolution() int64 { return -1 }
