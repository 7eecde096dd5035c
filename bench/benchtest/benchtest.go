// Package benchtest runs bench benchmarks inside go test -bench: Run
// measures a function with package bench from a testing.B benchmark and
// reports through testing.B.ReportMetric, so that go test -bench output
// stays valid Go benchmark format and benchstat keeps working.
//
// Its instruction mode (CHRONO_BENCH=instructions) counts each
// benchmark's instructions per iteration exactly under valgrind instead,
// for CI machines whose timings cannot be trusted; CHRONO_BENCH_JSON
// writes the result document.
//
// It is a package of its own so that package bench does not import
// testing: a program that measures with bench does not link the testing
// package (and its flags).
package benchtest

import (
	"flag"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/chronograph/chronograph/bench"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/profiles"
	"github.com/chronograph/chronograph/warn"
)

// adapterCache holds, per *testing.B, the result measured on its first
// call, so that later calls (testing.B calls a benchmark function again
// with a growing b.N until its own timer reaches -benchtime) report the
// same figures without measuring again.
var adapterCache sync.Map // *testing.B -> *bench.Benchmark

// Run runs f under bench from inside a testing.B benchmark and reports
// through tb.ReportMetric:
//
//	func BenchmarkSum(b *testing.B) {
//		benchtest.Run(b, func(b *bench.B) {
//			for b.Loop() { ... }
//		}, nil)
//	}
//
// It reports the median ns/op of the samples as "ns/op" (overriding
// testing's mean), "p50-ns/op" and "p99-ns/op" (of single operations when
// Options.Latency is set, else of the per-sample means), "cv-%" (the
// samples' coefficient of variation), and "allocs/op" and "B/op" as
// testing.B reports them: the allocations and bytes of every measured
// iteration, divided by their count as testing.BenchmarkResult divides
// them (an integer division). With
// Options.Counters it adds the median net count per operation of every
// counted event ("instructions/op", "cycles/op", "branch-misses/op",
// "task-clock-ns/op", ...; see bench.Counter.PerOpName) and "IPC" when
// both instructions and cycles were counted; events that could not be
// counted are not reported (the reason is logged). b.N is set to the
// number of measured iterations, so the iteration column is real.
//
// How it fits testing.B: testing calls the benchmark function once with
// b.N == 1, then, while its own timer shows less than -benchtime, again
// with a growing b.N; each call starts with the previous call's reported
// metrics cleared. Run measures on the first call (b.N == 1) only,
// leaving testing's timer running, and keeps taking samples (beyond
// Options.Samples, within Options.Budget: Options.MinDuration) until
// -benchtime has passed, so that testing sees enough time and does not
// call again. Should it call again, the same result is reported again
// (b.N then stays testing's, so that its growing count ends the calls).
// Each -count repetition gets a fresh testing.B and so a fresh
// measurement.
//
// With opts.Profile, the CPU profile of the measured samples (calibration
// and warm-up left out: see bench.Options.Profile) is written to
// NAME.pprof in go test's -outputdir (where -cpuprofile goes; by default
// the directory go test runs in), NAME being the benchmark's name with
// every character other than a letter, digit, '-', '_' or '.' made '_'
// (BenchmarkSum/n=10 -> BenchmarkSum_n_10.pprof), and its path logged.
// Do not combine it with -cpuprofile: one CPU profile runs at a time.
//
// When opts.Target is zero and -benchtime is a duration d, the target is
// d/Samples, so that the measured samples take about -benchtime, as
// testing.B's final run does. An "Nx" -benchtime is ignored (bench
// calibrates its own count). Warnings are logged with tb.Log (the
// environment's once per process, on the first benchmark), and an error
// fails the benchmark with tb.Fatal.
//
// The instruction mode (opts.Instructions, or CHRONO_BENCH=instructions
// in the environment for every benchmark, instructions+cache with the
// cache simulation: EnvMode) counts instead of timing: the test binary
// re-executes itself under valgrind's callgrind to run this benchmark
// alone (-test.run=^$ -test.bench=^NAME$ -test.benchtime=1x), where Run
// counts the loop's regions and returns; a binary built with -race or
// -cover is first rebuilt without them (their instrumentation would be
// counted), once per process. It reports "instructions/op" (and
// "l1-misses/op", "ll-misses/op", "estimated-cycles/op" with the cache
// simulation) and as "ns/op" the native time per iteration of the short
// calibration that sized the regions (none when the count is of a
// rebuild); b.N is the iterations the counts are taken over. With the mode from the environment, the options'
// latency, cold, parallel and counter modes are not run (it says so).
//
// With CHRONO_BENCH_JSON=FILE in the environment (EnvJSON), Run writes
// the function document of every benchmark of the test binary so far to
// FILE after each one, for chrono report, chrono report --baseline and
// chrono history add.
func Run(tb *testing.B, f func(*bench.B), opts *bench.Options) {
	tb.Helper()
	fromEnv, err := mode()
	if err != nil {
		tb.Fatal(err)
	}
	counting := fromEnv != nil || (opts != nil && opts.Instructions != nil)
	if !counting {
		tb.ReportAllocs()
	}
	if tb.N > 1 {
		if r, ok := adapterCache.Load(tb); ok {
			// Leave tb.N as testing set it, so that its count grows
			// and this ends.
			report(tb, r.(*bench.Benchmark), false)
			return
		}
	}
	var o bench.Options
	if opts != nil {
		o = *opts
	}
	if counting {
		if o, err = instructionOptions(tb, o, fromEnv); err != nil {
			tb.Fatal(err)
		}
	} else if d, ok := benchtime(); ok {
		o.MinDuration = d
		if o.Target == 0 {
			samples := o.Samples
			if samples == 0 {
				samples = bench.DefaultSamples
			}
			o.Target = max(d/time.Duration(samples), time.Millisecond)
		}
	}
	r, err := bench.Run(tb.Name(), f, &o)
	if counting && childDone(err) {
		return // this is the instruction-counting child: its counts went to the parent
	}
	if err != nil {
		tb.Fatal(err)
	}
	adapterCache.Store(tb, r)
	if r.Profile != nil {
		path := filepath.Join(outputDir(), ProfileName(tb.Name()))
		if err := profiles.Write(path, r.Profile); err != nil {
			tb.Fatal(err)
		}
		tb.Log("bench: CPU profile of the measured samples: " + path)
	}
	report(tb, r, true)
	logWarnings(tb, r, &envLogged)
	if err := writeDocument(r); err != nil {
		tb.Fatal(err)
	}
}

// envLogged makes the adapter log the environment warnings once per
// process (on the first benchmark), not once per benchmark.
var envLogged sync.Once

// envWarnings returns the warnings about the environment (frequency
// scaling, hypervisor, race detector, ...), captured once per process.
var envWarnings = sync.OnceValue(func() []warn.Warning { return env.Capture().Warnings })

// logWarnings logs r's warnings (its latency mode's too) and the
// unavailable counters, and the environment warnings the first time once
// is used.
func logWarnings(tb interface{ Log(args ...any) }, r *bench.Benchmark, once *sync.Once) {
	for _, w := range r.Warnings {
		tb.Log("bench: " + w.String())
	}
	if r.Latency != nil {
		for _, w := range r.Latency.Warnings {
			tb.Log("bench: latency: " + w.String())
		}
	}
	for _, u := range r.CountersUnavailable {
		tb.Log("bench: counters: " + u.Event + ": not available: " + u.Reason)
	}
	once.Do(func() {
		for _, w := range envWarnings() {
			tb.Log("bench: environment: " + w.String())
		}
	})
}

func report(tb *testing.B, r *bench.Benchmark, setN bool) {
	if r.Instructions != nil {
		reportInstructions(tb, r, setN)
		return
	}
	var iters, allocs, bytes uint64
	for _, s := range r.Samples {
		iters, allocs, bytes = iters+s.Iterations, allocs+s.Allocs, bytes+s.Bytes
	}
	if setN {
		//lint:ignore SA3001 the adapter reports bench's own iterations, so benchfmt's N is the count it measured
		tb.N = int(min(iters, uint64(maxInt)))
	}
	p50, p99 := r.NsPerOp.Median, r.P99
	if r.Latency != nil {
		p50, p99 = r.Latency.P50, r.Latency.P99
	}
	tb.ReportMetric(r.NsPerOp.Median, "ns/op")
	tb.ReportMetric(p50, "p50-ns/op")
	tb.ReportMetric(p99, "p99-ns/op")
	tb.ReportMetric(100*r.NsPerOp.CV, "cv-%")
	if iters > 0 { // as testing.BenchmarkResult.AllocsPerOp and AllocedBytesPerOp divide
		tb.ReportMetric(float64(allocs/iters), "allocs/op")
		tb.ReportMetric(float64(bytes/iters), "B/op")
	}
	for _, c := range r.Counters {
		tb.ReportMetric(c.PerOp.Median, c.PerOpName())
	}
	if r.IPC != nil {
		tb.ReportMetric(r.IPC.Median, "IPC")
	}
}

const maxInt = int(^uint(0) >> 1)

// ProfileName is the file name Run gives the profile of the benchmark
// named name: its name with every character other than a letter, a
// digit, '-', '_' and '.' replaced by '_', and ".pprof".
func ProfileName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, name) + ".pprof"
}

// outputDir returns -test.outputdir, or "" (the current directory).
func outputDir() string {
	if f := flag.Lookup("test.outputdir"); f != nil {
		return f.Value.String()
	}
	return ""
}

// benchtime returns -test.benchtime when it is a duration.
func benchtime() (time.Duration, bool) {
	f := flag.Lookup("test.benchtime")
	if f == nil {
		return 0, false
	}
	s := f.Value.String()
	if strings.HasSuffix(s, "x") {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, false
	}
	return d, true
}
