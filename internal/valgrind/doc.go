// Package valgrind counts the instructions of a region of a Go program
// exactly, by simulation: the program re-executes itself under valgrind's
// callgrind, which counts nothing until the program toggles collection on
// around the region, through valgrind's client requests issued from Go
// assembly. The count does not depend on the machine's load or clock,
// only on the code executed, so a benchmark's instructions per iteration
// is the same figure run after run on a shared CI machine. It is internal,
// for packages bench and run, so that its protocol can still change.
//
// # Client requests
//
// Running, ToggleCollect, ZeroStats, DumpStats, DumpStatsAt,
// StartInstrumentation and StopInstrumentation are valgrind.h's
// RUNNING_ON_VALGRIND and callgrind.h's CALLGRIND_* requests: the "magic"
// instruction sequence of valgrind.h (amd64: four rotations of DI and
// XCHGQ BX, BX with the request block's address in AX and the result in
// DX; arm64: four rotations of R12 and ORR R10, R10, R10 with the block
// in R4 and the result in R3), which does nothing natively and which
// valgrind recognises. On other architectures they do nothing (Supported
// is false). Valgrind 3.19, Debian 12's, ships no cachegrind.h: its
// cachegrind has no client requests, no option to start with collection
// off and no --toggle-collect, and counts the whole process. So regions
// are measured with callgrind, whose --cache-sim=yes gives the same
// simulated cache events as cachegrind.
//
// # The measured-region protocol
//
// The parent calls Count (or NewSession, runs Session.Argv itself, then
// Session.Result) with the program's command line, a region name and the
// iteration counts. The program runs under
//
//	valgrind --tool=callgrind --collect-atstart=no --instr-atstart=no ...
//
// with EnvRegion set to the Request. Early in main (or TestMain) it calls
// Requested and, when there is a request, Request.Measure with a function
// that runs the region's loop n times (or drives the regions from its own
// loop with Request.Begin and Regions, as package bench's B.Loop does),
// and exits. Measure runs the loop
// for the warm-up with collection off, then for each count yields to the
// scheduler, toggles collection on, runs the loop, toggles it off and
// dumps callgrind's counts with a tag; the parent reads one dump per count
// (per repeat) and checks that nothing was collected outside them.
// Result.PerOp takes the difference of two counts over the difference of
// their iterations, which cancels the region's fixed cost (the toggles,
// the loop's entry and exit: 41 to 58 instructions for the regions of
// this package's tests and demo on amd64 with Go 1.26) exactly, and says
// whether the counts are exactly linear.
//
// # What is counted
//
// Callgrind keeps the collection state per thread (and per signal handler,
// which starts with collection off): only the measuring goroutine's
// thread, locked by Measure, collects. Counted: the loop, the work it
// calls, the allocator and whatever runtime code runs on that thread
// because of it (allocation, stack growth, write barriers). Not counted:
// the runtime's sysmon and other threads, signal handlers, goroutines the
// work starts (they run on other threads), the kernel (system calls count
// only their user-space instructions), and the garbage collector, which
// Measure turns off (GOGC=off, after one collection) so that no GC work
// lands on the measuring thread. The parent sets GOMAXPROCS=1, GOGC=off
// and GODEBUG=asyncpreemptoff=1 in the program's environment: callgrind
// 3.19 aborts on Go's signal-based preemption (an assertion in its signal
// tracking).
//
// What remains is cooperative preemption: sysmon asks a goroutine that
// has run for PreemptAfter (10 ms of wall time, which under valgrind is
// about 200 µs of native work) to yield, and it does so at its next
// function call that checks the stack; the scheduler's work then runs on
// the measuring thread and is counted (about 1,100 instructions per
// preemption here), a number that depends on time. Measure yields just
// before each region, so a region shorter than PreemptAfter is never
// preempted; Options.Repeats measures each count several times and keeps
// the repeat with the fewest instructions, Result.Repeatable says whether
// the repeats agreed and Result.Longest how long the longest region ran.
// Loops that call no function with a stack check (a leaf function) are
// never preempted.
//
// The program must be built as users run it: a -race or -cover build
// counts its instrumentation (14 times as many instructions for a sum
// loop under -race). Go 1.25's "valgrind" build tag is not needed and
// changes the count of code that allocates: it annotates the runtime's
// allocator and stacks for memcheck with client requests (20 to 40 more
// instructions per 64-byte allocation here) and turns off the
// size-specialised allocator; a loop that does not allocate counts the
// same with it.
//
// # What the figures are
//
// The instruction count is exact and the same on every run and under any
// load, for code whose work does not depend on time, randomness (map
// iteration order, select), other goroutines or the allocator's slow
// paths (refilling a span every so many objects, growing the heap), which
// make a count vary or not grow linearly; PerOp's Exact and
// Result.Repeatable say when that happened. Callgrind does not model the
// clock frequency, memory latency, the pipeline or other programs. The
// simulated cache misses, and the cycle estimate built on them, depend on
// where code and data lie in memory (stack and heap addresses change from
// run to run): they are close from run to run, not exact.
package valgrind
