package clock

import (
	"fmt"
	"time"
)

// posixClock is a POSIX clock read with clock_gettime.
type posixClock struct {
	name      string
	id        int32
	kind      Kind
	coarse    bool
	perThread bool
	err       error // non-nil: unavailable on this platform
	// viaVDSO: read through the vDSO (Linux); else clockGettime.
	viaVDSO bool
	// path, basis and desc are Props.Path, PathBasis and Description.
	path, basis, desc string
}

func (c posixClock) Name() string { return c.name }

func (c posixClock) Now() int64 {
	if c.err != nil {
		return 0
	}
	ns, _ := c.read()
	return ns
}

// read reads the clock once by the path its Props state.
func (c posixClock) read() (int64, error) {
	if c.viaVDSO {
		return clockRead(c.id)
	}
	return clockGettime(c.id)
}

func (c posixClock) readN(n int) int64 {
	if c.err != nil {
		return 0
	}
	if c.viaVDSO {
		var v int64
		for range n {
			v, _ = clockCall(c.id)
		}
		return v
	}
	return clockGettimeN(c.id, n)
}

func (c posixClock) Props() Props {
	p := Props{
		Name: c.name, Kind: c.kind, Unit: "ns",
		Description: c.desc,
		Path:        c.path, PathBasis: c.basis,
		Coarse: c.coarse, PerThread: c.perThread, Err: c.err,
	}
	if c.err != nil {
		p.Unavailable = c.err.Error()
	}
	return p
}

// resolution returns clock_getres of the clock.
func (c posixClock) resolution() (time.Duration, error) {
	if c.err != nil {
		return 0, c.err
	}
	ns, err := clockGetres(c.id)
	if err != nil {
		return 0, fmt.Errorf("clock: clock_getres(%s): %w", c.name, err)
	}
	return time.Duration(ns), nil
}

// ThreadCPU returns the CPU time consumed by the calling thread
// (CLOCK_THREAD_CPUTIME_ID; a system call on Linux, ~400 ns, 1 ns
// resolution). On Windows it is GetThreadTimes, kernel plus user time:
// 100 ns units, but charged at clock interrupts, so that it advances in
// steps of the timer period (15.6 ms by default) and a region shorter
// than that reads as zero or one step (ThreadCycles is the precise
// count, in cycles). A goroutine can move between threads: call
// runtime.LockOSThread before the first read and keep it locked until
// the last.
func ThreadCPU() (time.Duration, error) {
	ns, err := threadCPU()
	return time.Duration(ns), err
}

// ProcessCPU returns the CPU time consumed by all threads of the process
// (CLOCK_PROCESS_CPUTIME_ID; a system call on Linux; GetProcessTimes,
// charged at clock interrupts, on Windows).
func ProcessCPU() (time.Duration, error) {
	ns, err := processCPU()
	return time.Duration(ns), err
}

// clockRead reads clock id by clockCall (the vDSO where this package
// calls it) and turns its errno into an error.
func clockRead(id int32) (int64, error) {
	ns, e := clockCall(id)
	if e != 0 {
		return 0, errnoError(e)
	}
	return ns, nil
}

// CPUClock describes the clock ThreadCPU reads: its name, the unit of
// its readings in ns, and whether it is charged at clock interrupts, so
// that it advances in steps of the timer period rather than its unit.
type CPUClock struct {
	Name   string
	UnitNs float64
	Coarse bool
}

// ThreadCPUClock describes the clock ThreadCPU reads here:
// CLOCK_THREAD_CPUTIME_ID (1 ns) on Linux and darwin, GetThreadTimes
// (100 ns units, charged at clock interrupts) on Windows.
func ThreadCPUClock() CPUClock {
	return CPUClock{Name: threadCPUName, UnitNs: threadCPUUnitNs, Coarse: threadCPUCoarse}
}
