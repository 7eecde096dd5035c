// Package run benchmarks whole commands, as hyperfine does: Commands
// expands command lines and parameters (-P, -L) into the commands to run,
// Run makes their warm-up and timing runs (sequential, interleaved A B B A,
// or in a seeded random order), with the shell's (or a trivial program's)
// start-up measured alongside and subtracted, timeouts that kill a run's
// process group, adaptive stopping on a precision target, pinning to CPUs
// and perf counters per run (Options.Counters), and returns a Benchmark with
// every run's raw figures: wall time on the monotonic clock, the run's own
// rusage (user and system time at the microsecond, max RSS, page faults,
// context switches), exit code, CPU and counts. Options.Simulate runs
// nothing and times `sleep SECONDS` commands on a simulated clock, for
// tests (chrono run --debug-mode, as hyperfine's).
//
// Benchmark.Document turns it into the result document of kind
// "command" (see result.CommandRun for its metrics), with the judgements
// made on the runs as warnings with their next steps; package report
// renders it (the text of chrono run, hyperfine's CSV, Markdown and JSON
// export) and recomputes every statistic and comparison from its samples.
//
// Count runs a command a number of times and counts its events, as perf
// stat -r does (chrono stat): the runs' counts are a counters.Stat, whose
// document is the kind "counters". Run and Count start every measured
// process the one way: a process group of its own, killed with everything
// in it on cancel or timeout, a Probe started on the locked thread right
// before the fork (per-thread perf counters reach the child), and a wait
// that leaves the caller asleep while the child runs.
//
// run measures and records: it does not compare the commands or judge a
// difference (package report recomputes every comparison from the
// samples), does not render (package report) or keep results over time
// (package history), and starts no shell but the one the options name.
package run
