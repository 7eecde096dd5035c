// Package clock reads and characterizes the clocks of this host: Go's
// monotonic clock, every POSIX clock, and the CPU timestamp counter (TSC on
// amd64, CNTVCT_EL0 on arm64).
//
// Cheap reads for measuring code:
//
//   - Mono: the time elapsed since the package was initialized, from Go's
//     monotonic clock (time.Since; a vDSO read of CLOCK_MONOTONIC on
//     Linux). It is the read for elapsed time unless a figure says
//     otherwise.
//   - POSIX.Read: the POSIX clocks (Monotonic, MonotonicRaw,
//     MonotonicCoarse, Boottime, Realtime, RealtimeCoarse, TAI), read
//     through the kernel's vDSO on linux/amd64 as C's clock_gettime reads
//     them (~25 ns; the COARSE clocks ~5 ns), in pure Go (no cgo):
//     MonotonicRaw.Read() is the clock NTP does not slew.
//   - CPU: the CPU the calling thread runs on (the vDSO's getcpu on
//     linux/amd64, a few ns).
//   - TSC, TSCFenced, TSCP: the raw timestamp counter, unordered, ordered
//     after earlier instructions, and with the CPU it was read on. Convert
//     tick differences to nanoseconds with TSCInfo and Info.ToNanos (exact
//     128-bit arithmetic).
//   - ThreadCPU, ProcessCPU: CPU time of the calling thread (lock the
//     goroutine to its thread first) and of the whole process.
//
// Characterization: Sources lists every clock behind the Source
// interface, and Probe measures each one (nominal resolution, observed
// tick, read cost, monotonicity on one thread and across threads, vDSO or
// system call, with vDSO reads checked for a fallback to the system call),
// compares the TSC frequency with the kernel's, and recommends the clock
// to use for elapsed time on this host, with warnings that say what to do
// about what spoils the figures. Its Survey is the schema of a clocks
// document: package result holds the survey's Host and each Measured
// clock as they are (result.ClocksDocument), and package report renders
// it as `chrono clocks` prints it.
//
// Platform code lives in paired files defining the same unexported names;
// what a platform cannot read is reported as unavailable, with the reason
// (errors wrap ErrUnavailable).
//
// Package clock measures and reads; it does not compute statistics beyond
// the read cost's median and 99th percentile, does not write or render
// documents, and imports nothing but the standard library,
// golang.org/x/sys and chronograph's unit and warn (and internal helpers).
package clock
