package valgrind

import (
	"runtime"
	"unsafe"
)

// Client request codes, from valgrind.h and callgrind.h (valgrind 3.19;
// both headers mark them as a stable ABI). A tool's requests start at
// ('C'<<24 | 'T'<<16) for callgrind, which was once called calltree.
const (
	reqRunningOnValgrind = 0x1001

	callgrindBase           = 'C'<<24 | 'T'<<16
	reqDumpStats            = callgrindBase + 0
	reqZeroStats            = callgrindBase + 1
	reqToggleCollect        = callgrindBase + 2
	reqDumpStatsAt          = callgrindBase + 3
	reqStartInstrumentation = callgrindBase + 4
	reqStopInstrumentation  = callgrindBase + 5
)

// Running returns how many valgrinds the program runs under
// (RUNNING_ON_VALGRIND): 0 natively, 1 under valgrind, 2 under a valgrind
// that runs under another. On architectures other than amd64 and arm64 it
// is always 0.
func Running() int {
	return int(request(0, reqRunningOnValgrind, 0, 0, 0, 0, 0))
}

// Supported reports whether this build issues client requests: true on
// amd64 and arm64. Elsewhere every request does nothing and Running is 0.
const Supported = runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64"

// ToggleCollect flips callgrind's collection state of the calling thread
// (CALLGRIND_TOGGLE_COLLECT). Callgrind keeps the state per thread, and
// per signal handler on it: a thread starts with --collect-atstart's
// value, and so does every signal handler. Call it on a goroutine locked
// to its thread (runtime.LockOSThread), or the second toggle may flip
// another thread's state. Without callgrind it does nothing.
func ToggleCollect() { request(0, reqToggleCollect, 0, 0, 0, 0, 0) }

// ZeroStats zeroes callgrind's cost counters (CALLGRIND_ZERO_STATS).
func ZeroStats() { request(0, reqZeroStats, 0, 0, 0, 0, 0) }

// DumpStats writes callgrind's counts so far to a new output file and
// zeroes them (CALLGRIND_DUMP_STATS).
func DumpStats() { request(0, reqDumpStats, 0, 0, 0, 0, 0) }

// DumpStatsAt is DumpStats with a reason, which callgrind writes in the
// file's "desc: Trigger: Client Request:" line (CALLGRIND_DUMP_STATS_AT).
func DumpStatsAt(reason string) {
	b := make([]byte, len(reason)+1) // NUL-terminated, as valgrind reads it
	copy(b, reason)
	request(0, reqDumpStatsAt, uintptr(unsafe.Pointer(&b[0])), 0, 0, 0, 0)
	runtime.KeepAlive(b)
}

// StartInstrumentation turns callgrind's instrumentation on
// (CALLGRIND_START_INSTRUMENTATION), when the run began with
// --instr-atstart=no or StopInstrumentation. It discards valgrind's
// translations, and with the cache simulation on it empties the simulated
// caches.
func StartInstrumentation() { request(0, reqStartInstrumentation, 0, 0, 0, 0, 0) }

// StopInstrumentation turns callgrind's instrumentation off
// (CALLGRIND_STOP_INSTRUMENTATION): the program runs at the speed of
// valgrind's "none" tool and nothing is counted.
func StopInstrumentation() { request(0, reqStopInstrumentation, 0, 0, 0, 0, 0) }
