//go:build linux

package clock

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// pathCheckReads is how many reads the check counts system calls over.
const pathCheckReads = 1000

// sysEnterIDFiles hold the id of the tracepoint raw_syscalls:sys_enter,
// under tracefs or its older place under debugfs.
var sysEnterIDFiles = []string{
	"/sys/kernel/tracing/events/raw_syscalls/sys_enter/id",
	"/sys/kernel/debug/tracing/events/raw_syscalls/sys_enter/id",
}

// countSyscalls returns how many system calls the calling thread enters
// while running f, counted by the tracepoint raw_syscalls:sys_enter. It
// needs tracefs and the permission to open a tracepoint event
// (perf_event_paranoid <= -1, or CAP_PERFMON / root). The goroutine is
// locked to its thread for the count.
func countSyscalls(f func()) (int64, error) {
	var id uint64
	var why []string
	for _, p := range sysEnterIDFiles {
		b, err := os.ReadFile(p)
		if err != nil {
			why = append(why, err.Error())
			continue
		}
		if id, err = strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err != nil {
			why = append(why, fmt.Sprintf("%s: %v", p, err))
			continue
		}
		break
	}
	if id == 0 {
		return 0, fmt.Errorf("clock: the tracepoint raw_syscalls:sys_enter is not readable (%s): mount tracefs and run as root", strings.Join(why, "; "))
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	attr := unix.PerfEventAttr{
		Type:   unix.PERF_TYPE_TRACEPOINT,
		Size:   uint32(unsafe.Sizeof(unix.PerfEventAttr{})),
		Config: id,
		Bits:   unix.PerfBitDisabled,
	}
	fd, err := unix.PerfEventOpen(&attr, 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
	if err != nil {
		if errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM) {
			return 0, fmt.Errorf("clock: opening the tracepoint raw_syscalls:sys_enter: %w (needs root, CAP_PERFMON or kernel.perf_event_paranoid=-1)", err)
		}
		return 0, fmt.Errorf("clock: opening the tracepoint raw_syscalls:sys_enter: %w", err)
	}
	defer unix.Close(fd)
	if err := unix.IoctlSetInt(fd, unix.PERF_EVENT_IOC_ENABLE, 0); err != nil {
		return 0, fmt.Errorf("clock: enabling the system call counter: %w", err)
	}
	f()
	if err := unix.IoctlSetInt(fd, unix.PERF_EVENT_IOC_DISABLE, 0); err != nil {
		return 0, fmt.Errorf("clock: disabling the system call counter: %w", err)
	}
	var buf [8]byte
	if n, err := unix.Read(fd, buf[:]); err != nil || n != 8 {
		return 0, fmt.Errorf("clock: reading the system call counter: %d bytes, %v", n, err)
	}
	return int64(*(*uint64)(unsafe.Pointer(&buf[0]))), nil
}

// checkPath verifies the path of a source labelled PathVDSO (see
// pathcheck.go). vdsoNs is the source's read cost; syscallNs measures the
// cost of the clock_gettime system call for the same clock, when system
// calls cannot be counted.
func checkPath(src Source, vdsoNs float64, clocksource string, syscallNs func() float64) (path, basis string) {
	base, err := countSyscalls(func() {})
	if err == nil {
		var n int64
		n, err = countSyscalls(func() {
			for range pathCheckReads {
				src.Now()
			}
		})
		if err == nil {
			return classifyByCount(pathCheckReads, n, base, clocksource)
		}
	}
	return classifyByCost(vdsoNs, syscallNs(), err.Error(), clocksource)
}

// syscallCost returns the median cost in ns of the clock_gettime system
// call for the clock of src (0 when src is not a POSIX clock).
func syscallCost(src Source, opts ProbeOptions) float64 {
	id, ok := posixID(src)
	if !ok {
		return 0
	}
	sys := posixClock{name: src.Name(), id: id, kind: Elapsed}
	var m Measured
	probeCost(sys, &m, ProbeOptions{Batches: 21, BatchTime: opts.BatchTime})
	return m.CostMedianNs
}

// posixID returns the clock id a vDSO-read source reads: its own for a
// POSIX clock, CLOCK_MONOTONIC for Go's clocks.
func posixID(src Source) (int32, bool) {
	switch c := src.(type) {
	case posixClock:
		return c.id, true
	case goMonotonic, goNow:
		return unix.CLOCK_MONOTONIC, true
	}
	return 0, false
}
