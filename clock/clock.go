package clock

import (
	"errors"
	"time"
)

// base is the origin of Mono.
var base = time.Now()

// Mono returns the time elapsed since the package was initialized, read
// from Go's monotonic clock (time.Since, which on Linux reads
// CLOCK_MONOTONIC through the vDSO: about 25 ns, 1 ns unit). It is the
// cheapest portable monotonic read and never steps back.
func Mono() time.Duration { return time.Since(base) }

// Kind says what a clock measures.
type Kind string

const (
	// Elapsed clocks count real time and never step back (monotonic).
	Elapsed Kind = "elapsed"
	// Wall clocks count time since the Unix epoch and may be set or slewed.
	Wall Kind = "wall"
	// CPUTime clocks count CPU time consumed by a thread or process.
	CPUTime Kind = "cpu"
	// Counter clocks count hardware ticks (TSC, CNTVCT_EL0) at a fixed
	// frequency; convert them with TSCInfo.
	Counter Kind = "counter"
)

// Read paths: how a source's value is obtained.
const (
	// PathVDSO: the kernel's vDSO, a user-space read of kernel-shared data.
	PathVDSO = "vdso"
	// PathSyscall: a real system call (a kernel entry per read).
	PathSyscall = "syscall"
	// PathInstruction: a CPU instruction (RDTSC, MRS CNTVCT_EL0).
	PathInstruction = "instruction"
)

// Props are the static facts of a clock source. In a clocks document
// they open a measurement's detail.clock (Name is the measurement's).
type Props struct {
	// Name identifies the source: "go-monotonic", "CLOCK_MONOTONIC",
	// "rdtscp", ...
	Name string `json:"-"`
	// Kind is what the clock measures.
	Kind Kind `json:"kind"`
	// Description says in a few words what is read and how.
	Description string `json:"description"`
	// Unit is the unit of Now: "ns" or "ticks" (counter clocks; every
	// figure of Measured is converted to ns).
	Unit string `json:"unit"`
	// Path is how a read reaches the clock: PathVDSO, PathSyscall,
	// PathInstruction, or where this package does not read the clock
	// itself "libc" (a C library call, darwin) and "runtime" (the Go
	// runtime's own read, on other systems). PathBasis says how that was
	// told: by construction of the code that
	// reads it (Sources), or, in Probe's results for vDSO reads, measured
	// (the system calls a read enters) or inferred from its cost.
	Path      string `json:"path"`
	PathBasis string `json:"path_basis"`
	// Coarse is set for clocks that advance in timer ticks (jiffies).
	Coarse bool `json:"coarse,omitempty"`
	// PerThread is set for clocks whose value depends on the calling
	// thread (thread CPU time): readings of two threads cannot be compared.
	PerThread bool `json:"per_thread,omitempty"`
	// Ordered is set for counter reads that wait for earlier instructions
	// (LFENCE;RDTSC, RDTSCP, ISB;MRS).
	Ordered bool `json:"ordered,omitempty"`
	// Err is nil when the source can be read, else why not (for JSON,
	// see Unavailable).
	Err error `json:"-"`
	// Unavailable is Err's text, empty when the source can be read.
	Unavailable string `json:"unavailable,omitempty"`
}

// Source is a clock that can be read.
type Source interface {
	// Name identifies the source (Props().Name).
	Name() string
	// Now reads the clock once: nanoseconds, or ticks for counter
	// clocks. It returns 0 when the source is unavailable.
	Now() int64
	// Props returns the source's static facts.
	Props() Props
}

// batchReader is implemented by sources that can read themselves n times
// in a tight loop without an interface call per read, so that the probe
// measures the read and not the dispatch. It returns the last reading.
type batchReader interface {
	readN(n int) int64
}

// ErrUnavailable is wrapped by the errors of sources and functions that
// this platform cannot provide.
var ErrUnavailable = errors.New("clock: not available on this platform")

// Sources returns every clock source this package knows, available or not,
// in a fixed order: Go's clocks, the POSIX clocks, the platform's own
// (Windows's: QueryPerformanceCounter, the interrupt times, the system
// times, the thread and process times), the counters.
func Sources() []Source {
	var s []Source
	s = append(s, goMonotonic{}, goNow{})
	s = append(s, posixSources()...)
	s = append(s, platformSources()...)
	s = append(s, counterSources()...)
	return s
}

// goMonotonic reads time.Since(base).
type goMonotonic struct{}

func (goMonotonic) Name() string { return "go-monotonic" }
func (goMonotonic) Now() int64   { return int64(time.Since(base)) }
func (goMonotonic) Props() Props {
	return Props{
		Name:        "go-monotonic",
		Description: "time.Since(base): Go's monotonic clock",
		Kind:        Elapsed, Unit: "ns", Coarse: goCoarse,
		Path: goMonoPath, PathBasis: goMonoBasis,
	}
}
func (goMonotonic) readN(n int) int64 {
	var v time.Duration
	for range n {
		v = time.Since(base)
	}
	return int64(v)
}

// goNow reads time.Now().UnixNano(): the wall clock, as Go reads it.
type goNow struct{}

func (goNow) Name() string { return "go-now" }
func (goNow) Now() int64   { return time.Now().UnixNano() }
func (goNow) Props() Props {
	return Props{
		Name:        "go-now",
		Description: "time.Now(): wall and monotonic reading (UnixNano shown)",
		Kind:        Wall, Unit: "ns", Coarse: goCoarse,
		Path: goMonoPath, PathBasis: goNowBasis,
	}
}
func (goNow) readN(n int) int64 {
	var v int64
	for range n {
		v = time.Now().UnixNano()
	}
	return v
}
