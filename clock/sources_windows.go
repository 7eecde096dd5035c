package clock

import (
	"errors"
	"fmt"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/chronograph/chronograph/internal/wine"
	"github.com/chronograph/chronograph/internal/wintimer"
)

// The Windows functions this package calls. golang.org/x/sys/windows
// wraps few of them, and LazyProc.Call, its way to call the others,
// moves their pointer arguments to the heap (an allocation per read);
// every call here is syscall.SyscallN on the procedure's address, as
// x/sys's own wrappers make it, which allocates nothing.
var (
	kernel32   = windows.NewLazySystemDLL("kernel32.dll")
	kernelbase = windows.NewLazySystemDLL("kernelbase.dll")

	procQueryPerformanceCounter        = kernel32.NewProc("QueryPerformanceCounter")
	procQueryPerformanceFrequency      = kernel32.NewProc("QueryPerformanceFrequency")
	procQueryUnbiasedInterruptTime     = kernel32.NewProc("QueryUnbiasedInterruptTime")
	procGetTickCount64                 = kernel32.NewProc("GetTickCount64")
	procGetSystemTimePreciseAsFileTime = kernel32.NewProc("GetSystemTimePreciseAsFileTime")
	procGetSystemTimeAsFileTime        = kernel32.NewProc("GetSystemTimeAsFileTime")
	procGetSystemTimeAdjustment        = kernel32.NewProc("GetSystemTimeAdjustment")
	procGetThreadTimes                 = kernel32.NewProc("GetThreadTimes")
	procGetProcessTimes                = kernel32.NewProc("GetProcessTimes")
	procQueryThreadCycleTime           = kernel32.NewProc("QueryThreadCycleTime")
	procGetCurrentProcessorNumber      = kernel32.NewProc("GetCurrentProcessorNumber")
	// The interrupt-time functions of Windows 10 (realtimeapiset.h).
	procQueryInterruptTimePrecise = kernelbase.NewProc("QueryInterruptTimePrecise")
	procQueryInterruptTime        = kernelbase.NewProc("QueryInterruptTime")
)

// qpcHz is QueryPerformanceFrequency, read once; qpcErr says why QPC
// cannot be read (nil on every Windows since XP); qpcBase is the
// reading timingNow counts from.
var (
	qpcHz, qpcErr = readQPCFrequency()
	qpcBase       = qpcNow()
)

func readQPCFrequency() (int64, error) {
	if err := procQueryPerformanceFrequency.Find(); err != nil {
		return 0, fmt.Errorf("clock: QueryPerformanceFrequency: %w", err)
	}
	var f int64
	if r, _, errno := syscall.SyscallN(procQueryPerformanceFrequency.Addr(), uintptr(unsafe.Pointer(&f))); r == 0 {
		return 0, fmt.Errorf("clock: QueryPerformanceFrequency: %w", errno)
	}
	if f <= 0 {
		return 0, fmt.Errorf("clock: QueryPerformanceFrequency gave %d ticks per second", f)
	}
	return f, nil
}

// qpcTicks reads QueryPerformanceCounter.
func qpcTicks() int64 {
	var c int64
	syscall.SyscallN(procQueryPerformanceCounter.Addr(), uintptr(unsafe.Pointer(&c)))
	return c
}

// qpcNow is QueryPerformanceCounter in ns (0 when it cannot be read).
func qpcNow() int64 {
	if qpcErr != nil {
		return 0
	}
	return qpcToNanos(qpcTicks(), qpcHz)
}

// timingNow is QueryPerformanceCounter since the package started: Mono
// advances in clock interrupts on Windows (every 0.5 to 15.6 ms), too
// coarsely to time the probe's batches.
func timingNow() time.Duration { return time.Duration(qpcNow() - qpcBase) }

const timingName = "QueryPerformanceCounter"

func qpc() (time.Duration, error) {
	if qpcErr != nil {
		return 0, qpcErr
	}
	return time.Duration(qpcNow()), nil
}

// winClock is a clock read by a Windows API function; read returns ns
// (ticks for Unit "ticks").
type winClock struct {
	name, desc  string
	kind        Kind
	unit        string
	coarse      bool
	perThread   bool
	path, basis string
	nominalNs   float64
	nominalFrom string
	err         error
	read        func() int64
}

func (c winClock) Name() string { return c.name }

func (c winClock) Now() int64 {
	if c.err != nil {
		return 0
	}
	return c.read()
}

func (c winClock) readN(n int) int64 {
	if c.err != nil {
		return 0
	}
	var v int64
	for range n {
		v = c.read()
	}
	return v
}

func (c winClock) nominal() (float64, string) { return c.nominalNs, c.nominalFrom }

func (c winClock) Props() Props {
	p := Props{
		Name: c.name, Kind: c.kind, Unit: c.unit, Description: c.desc,
		Path: c.path, PathBasis: c.basis,
		Coarse: c.coarse, PerThread: c.perThread, Err: c.err,
	}
	if p.Unit == "" {
		p.Unit = "ns"
	}
	if c.err != nil {
		p.Unavailable = c.err.Error()
	}
	return p
}

// apiBasis is the PathBasis of a Windows API call.
func apiBasis(dll, fn string) string {
	return "by construction: a call of " + dll + "!" + fn + " through syscall.SyscallN (whether it enters the kernel is the DLL's business: not inspected)"
}

// missing says why fn cannot be called: the DLL lacks it (lookup is
// Find's error), naming the Windows versions that have it and, under
// Wine, Wine's version.
func missing(fn, since string, lookup error) error {
	under := ""
	if v, ok := wine.Version(); ok {
		under = "; Wine " + v + " lacks it"
	}
	return fmt.Errorf("clock: %s cannot be called (%v): it exists on %s%s: %w", fn, lookup, since, under, ErrUnavailable)
}

// platformSources are Windows's clocks: QueryPerformanceCounter, the
// interrupt times, the tick count, the system times and the thread and
// process times, each called as a C program calls it.
func platformSources() []Source {
	var s []Source
	qpcDesc := "QueryPerformanceCounter, converted at QueryPerformanceFrequency"
	s = append(s, winClock{name: "QueryPerformanceCounter", desc: qpcDesc, kind: Elapsed,
		path: PathAPI, basis: apiBasis("kernel32", "QueryPerformanceCounter"),
		nominalNs: nominalQPC(), nominalFrom: "1/QueryPerformanceFrequency", err: qpcErr, read: qpcNow})
	s = append(s, interruptClock(procQueryInterruptTimePrecise, "interrupt time read precisely (QPC-interpolated)", false, "Windows 10 and later"))
	s = append(s, interruptClock(procQueryInterruptTime, "interrupt time as of the last clock interrupt", true, "Windows 10 and later"))
	s = append(s, interruptClock(procQueryUnbiasedInterruptTime, "interrupt time without the time spent asleep, as of the last clock interrupt", true, "Windows 7 and later"))
	s = append(s, winClock{name: "GetTickCount64", desc: "milliseconds since boot, as of the last clock interrupt", kind: Elapsed, coarse: true,
		path: PathAPI, basis: apiBasis("kernel32", "GetTickCount64"), nominalNs: 1e6, nominalFrom: "unit (1 ms)",
		err: findErr(procGetTickCount64, "Windows Vista and later"),
		read: func() int64 {
			r, _, _ := syscall.SyscallN(procGetTickCount64.Addr())
			return int64(r) * 1e6
		}})
	s = append(s, fileTimeClock(procGetSystemTimePreciseAsFileTime, "the wall clock read precisely (QPC-interpolated), FILETIME", false, "Windows 8 and later"))
	s = append(s, fileTimeClock(procGetSystemTimeAsFileTime, "the wall clock as of the last clock interrupt, FILETIME", true, "every Windows"))
	s = append(s, winClock{name: "GetThreadTimes", desc: "the calling thread's kernel + user time, charged at clock interrupts", kind: CPUTime, perThread: true,
		path: PathAPI, basis: apiBasis("kernel32", "GetThreadTimes"), nominalNs: 100, nominalFrom: "unit (100 ns)",
		err: findErr(procGetThreadTimes, "every Windows"), read: func() int64 { v, _ := threadCPU(); return v }})
	s = append(s, winClock{name: "GetProcessTimes", desc: "the process's kernel + user time, charged at clock interrupts", kind: CPUTime,
		path: PathAPI, basis: apiBasis("kernel32", "GetProcessTimes"), nominalNs: 100, nominalFrom: "unit (100 ns)",
		err: findErr(procGetProcessTimes, "every Windows"), read: func() int64 { v, _ := processCPU(); return v }})
	s = append(s, winClock{name: "QueryThreadCycleTime", kind: CPUTime, unit: "ticks", perThread: true,
		desc: "CPU cycles charged to the calling thread, shown converted at the TSC frequency (Microsoft documents them as not convertible to time)",
		path: PathAPI, basis: apiBasis("kernel32", "QueryThreadCycleTime"),
		err: threadCyclesErr(), read: func() int64 { v, _ := threadCycles(); return int64(v) }})
	return s
}

func nominalQPC() float64 {
	if qpcErr != nil {
		return 0
	}
	return 1e9 / float64(qpcHz)
}

// findErr is nil when p can be called, else why not.
func findErr(p *windows.LazyProc, since string) error {
	if err := p.Find(); err != nil {
		return missing(p.Name, since, err)
	}
	return nil
}

// interruptClock reads one of the interrupt-time functions (100 ns units
// since boot).
func interruptClock(p *windows.LazyProc, desc string, coarse bool, since string) winClock {
	dll := "kernelbase"
	if p == procQueryUnbiasedInterruptTime {
		dll = "kernel32"
	}
	return winClock{name: p.Name, desc: desc, kind: Elapsed, coarse: coarse,
		path: PathAPI, basis: apiBasis(dll, p.Name), nominalNs: 100, nominalFrom: "unit (100 ns)",
		err: findErr(p, since),
		read: func() int64 {
			var t uint64
			syscall.SyscallN(p.Addr(), uintptr(unsafe.Pointer(&t)))
			return int64(t) * 100
		}}
}

// fileTimeClock reads one of the system-time functions (a FILETIME: 100 ns
// units since 1601), as ns since the Unix epoch.
func fileTimeClock(p *windows.LazyProc, desc string, coarse bool, since string) winClock {
	return winClock{name: p.Name, desc: desc, kind: Wall, coarse: coarse,
		path: PathAPI, basis: apiBasis("kernel32", p.Name), nominalNs: 100, nominalFrom: "unit (100 ns)",
		err: findErr(p, since),
		read: func() int64 {
			var ft windows.Filetime
			syscall.SyscallN(p.Addr(), uintptr(unsafe.Pointer(&ft)))
			return fileTimeUnixNanos(filetime(ft))
		}}
}

// threadCycles is QueryThreadCycleTime of the calling thread.
func threadCycles() (uint64, error) {
	if err := procQueryThreadCycleTime.Find(); err != nil {
		return 0, missing("QueryThreadCycleTime", "Windows Vista and later", err)
	}
	var c uint64
	r, _, errno := syscall.SyscallN(procQueryThreadCycleTime.Addr(), uintptr(windows.CurrentThread()), uintptr(unsafe.Pointer(&c)))
	if r == 0 {
		return 0, cyclesError(errno)
	}
	return c, nil
}

//go:noinline
func cyclesError(errno syscall.Errno) error {
	err := fmt.Errorf("clock: QueryThreadCycleTime: %w", errno)
	if errors.Is(errno, windows.ERROR_CALL_NOT_IMPLEMENTED) {
		if v, ok := wine.Version(); ok {
			err = fmt.Errorf("clock: QueryThreadCycleTime is not implemented by Wine %s (%w): %w", v, errno, ErrUnavailable)
		}
	}
	return err
}

// threadCyclesErr is nil when QueryThreadCycleTime answers, else why not.
func threadCyclesErr() error {
	_, err := threadCycles()
	return err
}

// platformHost fills what a survey says of Windows's timers: the QPC
// frequency, the timer resolution, the time adjustment and the relation
// of QPC to the TSC (h.TSC must be set).
func platformHost(h *Host) {
	w := &Windows{}
	w.Wine, _ = wine.Version()
	if qpcErr != nil {
		w.QPCUnavailable = qpcErr.Error()
	} else {
		w.QPCHz = qpcHz
	}
	if t, err := timerResolution(w.Wine); err != nil {
		w.TimerUnavailable = err.Error()
	} else {
		w.Timer = &t
	}
	if a, err := timeAdjustment(w.Wine); err != nil {
		w.AdjustmentUnavailable = err.Error()
	} else {
		w.Adjustment = &a
	}
	switch {
	case h.TSC == nil:
		w.QPCvsTSCUnavailable = "clock: no timestamp counter to relate QPC to: " + h.TSCUnavailable
	case w.QPCHz == 0:
		w.QPCvsTSCUnavailable = "clock: " + w.QPCUnavailable
	default:
		w.QPCvsTSC = &QPCvsTSC{QPCHz: w.QPCHz, TSCHz: h.TSC.Hz, TSCSource: h.TSC.Source,
			Ratio: float64(h.TSC.Hz) / float64(w.QPCHz), ErrorPPM: h.TSC.ErrorPPM, Invariant: h.TSC.Invariant,
			Reading: qpcReading(w.QPCHz, h.TSC.Hz, h.TSC.Invariant, w.Wine)}
	}
	h.Windows = w
}

// timerResolution is NtQueryTimerResolution's answer. Under Wine it is
// not a Windows kernel's (Wine waits on the Linux host's timers), so it
// is given as unavailable, with what Wine answered.
func timerResolution(wineVersion string) (TimerResolution, error) {
	r, err := wintimer.Measured(wineVersion)
	var we *wintimer.WineError
	switch {
	case errors.As(err, &we):
		return TimerResolution{}, fmt.Errorf("clock: %w: measure on Windows: %w", err, ErrUnavailable)
	case err != nil:
		return TimerResolution{}, fmt.Errorf("clock: %w: %w", err, ErrUnavailable)
	}
	return TimerResolution{Coarsest: r.Coarsest, Finest: r.Finest, Current: r.Current}, nil
}

// timeAdjustment is GetSystemTimeAdjustment's answer (not a Windows
// kernel's under Wine, as for timerResolution).
func timeAdjustment(wineVersion string) (TimeAdjustment, error) {
	if err := procGetSystemTimeAdjustment.Find(); err != nil {
		return TimeAdjustment{}, missing("GetSystemTimeAdjustment", "every Windows", err)
	}
	var adj, inc uint32
	var disabled int32
	r, _, errno := syscall.SyscallN(procGetSystemTimeAdjustment.Addr(),
		uintptr(unsafe.Pointer(&adj)), uintptr(unsafe.Pointer(&inc)), uintptr(unsafe.Pointer(&disabled)))
	if r == 0 {
		return TimeAdjustment{}, fmt.Errorf("clock: GetSystemTimeAdjustment: %w", errno)
	}
	a := TimeAdjustment{Adjustment: time.Duration(adj) * 100, Increment: time.Duration(inc) * 100, Disabled: disabled != 0}
	if wineVersion != "" {
		return TimeAdjustment{}, fmt.Errorf("clock: under Wine %s GetSystemTimeAdjustment answers adjustment %v, increment %v, disabled %v: "+
			"Wine's figures, not a Windows clock interrupt's: measure on Windows: %w",
			wineVersion, a.Adjustment, a.Increment, a.Disabled, ErrUnavailable)
	}
	return a, nil
}
