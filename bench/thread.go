package bench

import (
	"fmt"
	"runtime"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/internal/thread"
)

// platform is what the harness needs from the operating system besides
// the clock: which CPUs the process may run on, and per benchmark thread
// the operations of threadOps. Tests inject a fake one through
// Options.plat; realPlatform is the default.
type platform struct {
	// allowed returns the CPUs the process may run on, in increasing
	// order, or nil when this platform cannot tell.
	allowed func() []int
	// thread returns the operations for a new benchmark thread; it is
	// called on that thread, after runtime.LockOSThread.
	thread func() threadOps
	// readMemStats reads the allocation counters (runtime.ReadMemStats
	// when nil). The fake platform's reads nothing: a stopped world costs
	// a few µs natively but tens of ms under Wine, and the fake clock's
	// tests count no allocations.
	readMemStats func(*runtime.MemStats)
}

// threadOps are the per-thread operations of a benchmark's locked thread.
type threadOps interface {
	// pin restricts the thread to cpu (the thread is never unlocked, so
	// its affinity dies with it).
	pin(cpu int) error
	// cpu returns the CPU the thread runs on now, or -1 when unknown.
	cpu() int
	// cpuTime returns the thread's CPU time in ns, or -1 when it cannot be
	// read here.
	cpuTime() int64
}

// realThread is the operating system's thread: thread.Pin, clock.CPU and
// CLOCK_THREAD_CPUTIME_ID.
type realThread struct{}

func (realThread) pin(cpu int) error {
	if err := thread.Pin(cpu); err != nil {
		return fmt.Errorf("bench: pin to CPU %d: %w (pick a CPU from the process's affinity, see taskset -p)", cpu, err)
	}
	return nil
}
func (realThread) cpu() int       { return clock.CPU() }
func (realThread) cpuTime() int64 { return threadCPUNs() }

var realPlatform = &platform{
	allowed: func() []int { cpus, _ := thread.Allowed(); return cpus },
	thread:  func() threadOps { return realThread{} },
}
