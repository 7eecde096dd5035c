// Package bench measures Go functions in-process, more precisely than
// testing.B: every sample is kept (iterations, wall time, thread CPU time,
// allocations, GC cycles, context switches and page faults of the thread),
// the cost of measuring is measured in the same run, and results come with a
// confidence interval and warnings that say when a figure is noise.
//
// A benchmark is a function that loops with B.Loop, as with testing.B:
//
//	res, err := bench.Run("sum", func(b *bench.B) {
//		xs := make([]uint64, 1000) // setup: not timed
//		for b.Loop() {
//			b.Keep(sum(xs))
//		}
//	}, nil)
//
// The function is called once per block of samples (and once per mode);
// B.Loop returns true for every iteration of every sample and false when
// the block is over. Each invocation runs on its own goroutine, locked to
// its OS thread so that thread CPU time, context switches and page faults
// belong to it.
//
// Measurement (see Options for every knob):
//
//   - The clock's tick and read cost are measured first; a sample lasts at
//     least 1000 times both and at least Options.Target.
//   - Calibration runs 1, 10, 100, ... iterations until a sample exceeds 10 %
//     of the target, then predicts the count; each sample's count is jittered
//     by 0-20 % so samples do not lock onto periodic disturbances.
//   - Warm-up samples are taken and discarded (kept in Benchmark.Warmup).
//   - The measured samples are taken in blocks (Options.Blocks, default 4):
//     each block is a fresh invocation of the function on its own thread,
//     pinned to one CPU; without Options.Pin the blocks visit the CPUs the
//     process may run on, because CPUs can differ in speed (hybrid cores,
//     a busy SMT sibling, other guests on a virtual machine's host). Every
//     sample records the CPU it ran on at both ends (Sample.CPU, CPUEnd).
//   - Benchmark.CI, the 95 % interval of the median, joins the samples'
//     order-statistic interval with a t interval of the block medians, so
//     that it holds what varies between invocations (CPU, memory
//     placement, frequency) and not only within one; when the CPUs'
//     medians differ by more than 5 %, it spans every CPU's interval, and
//     Benchmark.Placement.PerCPU and a warning give each CPU's figure
//     (stats.PlacedMedianCI computes the interval). Variation on
//     time scales longer than the measurement (a host that is busy for
//     seconds) is beyond any one run: compare several runs.
//   - Thread CPU time is net of the CPU clock's own reads: their measured
//     cost per timed segment (Benchmark.Overhead.CPUReadNs, a system call
//     each) is subtracted, and a warning says when it dominates.
//   - An empty loop of the same shape is measured in the same run
//     (Benchmark.Overhead); a result within 2x of it is flagged as being at the
//     noise floor or optimized away.
//   - Optional modes: per-operation latency (Options.Latency), cold first
//     calls (Options.Cold), parallel workers (Options.Parallel).
//   - The instruction mode (Options.Instructions) counts instead of
//     timing: the program re-executes itself under valgrind's callgrind,
//     which counts exactly the instructions of the loop body per
//     iteration, the same on every run and under any load, for CI
//     machines whose timings move by tens of percent (see Instructions).
//
// A trap no harness removes: code placement. The same loop can run at very
// different speeds depending on where its instructions land in memory
// (branch predictor aliasing, fetch and µop-cache alignment). On the AMD
// EPYC virtual machines this package was developed on, identical loops
// differed by up to 2-4x with placement alone: a closure summing
// data[:500] ran as slow as one summing all 1000 elements, under bench and
// under testing.B alike. The measurement is right; the code is really that
// fast or slow where it was placed, and an unrelated change elsewhere in
// the binary can move it. So when a result surprises you (a case that does
// half the work is not faster, or a tiny edit changes a figure a lot),
// suspect placement before the harness: look at the hot loop's address
// and alignment with go tool objdump, move the code (into another
// function, behind //go:noinline, into another file) and measure again;
// for decisions, compare in several builds. Benchmark.Overhead shows
// the effect on the empty loop (two placements, LoopNsPerOp and
// LoopNsPerOpHigh).
//
// Compare runs several cases in interleaved rounds with one iteration count
// and reports paired ratios with a confidence interval and a p-value
// (significant at stats.Alpha).
//
// Results become a chronograph result document (Document, kind
// "function": every sample's figures as metrics, the calibration,
// overhead, placement and modes as typed details; docs/result-schema.md),
// which package report renders: report.Render prints its text, exactly
// what `chrono report` prints for the saved document, or writes it as
// Markdown, CSV or in the Go benchmark format (report.Benchfmt, which
// benchstat reads). Package bench/benchtest runs a benchmark under bench
// from inside a testing.B benchmark, so that go test -bench output and
// benchstat keep working.
//
// bench measures and records; it does not render (package report), store
// results over time (package history) or link package testing, plotting
// or database code: a program that benchmarks a function links the
// measuring packages only.
package bench
