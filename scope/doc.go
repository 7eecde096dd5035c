// Package scope times regions of code in place, inside a running
// program, and aggregates the durations per name into HDR histograms:
//
//	defer scope.Start("parse").Stop()      // by name (a map lookup)
//
//	var parse = scope.New("parse")          // or keep the *Scope
//	defer parse.Start().Stop()
//
//	v, d := scope.Measure(parse, func() T { ... })            // result and time apart
//	v, d, err := scope.MeasureErr(parse, func() (T, error) { ... })
//
// Durations are read from Go's monotonic clock (clock.Mono, the
// clock of time.Since) in nanoseconds. Start+Stop costs two clock reads
// and a record: the record picks a shard by the calling goroutine's P (a
// pin/unpin pair, as sync.Pool does) and updates that shard's histogram
// with atomic adds, so it never locks, never blocks, never allocates
// after a shard's first use (36 KiB, once), and goroutines on different Ps
// do not share cache lines. BenchmarkStartStop compares Start+Stop with a
// time.Now()+time.Since() pair in the same run, and BenchmarkParallel one
// goroutine with two (scripts/trace-bench.sh prints the ratios).
//
// Results go where Go services expect them: Snapshot (Stats with count,
// min, p50, p90, p99, max, total, and the hdrhistogram.Histogram),
// log/slog (Registry.Log, LogEvery), expvar (Registry.Publish), the
// result document (Document, rendered by `chrono report`), and Prometheus
// through the subpackage scopeprom (which alone imports client_golang).
//
// Measure keeps the function's result and its time apart; a panic inside
// is recorded as panicked and goes on unchanged. The histograms tell
// durations apart up to 73 minutes; longer ones share the top bucket
// (their count, total and maximum stay exact).
//
// scope only records and reports what it recorded: it does not trace the
// order of events (package tracer does), does not compare or render
// results (packages report and history), and links no exporter but
// expvar and log/slog of the standard library.
package scope
