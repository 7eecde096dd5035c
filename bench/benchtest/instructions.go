package benchtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"github.com/chronograph/chronograph/bench"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/internal/valgrind"
	"github.com/chronograph/chronograph/result"
)

// EnvMode is the environment variable that switches the benchmarks of a
// go test -bench run to another mode without changing their code:
// "instructions" counts each benchmark's instructions per iteration under
// valgrind (bench.Options.Instructions), "instructions+cache" with the
// cache simulation too; "" or "time" times them (the default).
const EnvMode = "CHRONO_BENCH"

// EnvJSON is the environment variable that names a file to which Run
// writes the function document (package bench's) of every benchmark run
// so far in the test binary, rewritten after each one: the file chrono
// report, chrono report --baseline and chrono history add read. With go
// test ./... every package's test binary writes it: give one package per
// run.
const EnvJSON = "CHRONO_BENCH_JSON"

// mode returns the instruction mode EnvMode asks for (nil: time).
func mode() (*bench.Instructions, error) {
	switch v := os.Getenv(EnvMode); v {
	case "", "time":
		return nil, nil
	case "instructions":
		return &bench.Instructions{}, nil
	case "instructions+cache":
		return &bench.Instructions{CacheSim: true}, nil
	default:
		return nil, fmt.Errorf("benchtest: %s=%q is no mode: give instructions, instructions+cache, or time (or leave it unset)", EnvMode, v)
	}
}

// instructionOptions returns o for the instruction mode of the benchmark
// tb: the modes that time (latency, cold, parallel, counters) left out
// when the mode came from EnvMode rather than from o (the reason is
// logged), the test binary re-executed to run tb alone (rebuilt without
// -race and -cover when it has them) and NoExit set, since a test binary
// may not exit with os.Exit(0).
func instructionOptions(tb *testing.B, o bench.Options, fromEnv *bench.Instructions) (bench.Options, error) {
	in := o.Instructions
	if in == nil {
		in = fromEnv
		if o.Latency || o.Cold > 0 || o.Parallel > 0 || len(o.Counters) > 0 {
			tb.Log("benchtest: " + EnvMode + "=" + os.Getenv(EnvMode) + " counts instructions: the latency, cold, parallel and counter modes of the options are not run")
			o.Latency, o.Cold, o.Parallel, o.Counters = false, 0, 0, nil
		}
	}
	c := *in
	c.NoExit = true
	if len(c.Argv) == 0 {
		bin, rebuilt, err := countedBinary()
		if err != nil {
			return o, err
		}
		c.Argv = []string{bin, "-test.run=^$", "-test.bench=" + benchPattern(tb.Name()), "-test.benchtime=1x", "-test.count=1"}
		c.Rebuilt = rebuilt
	}
	o.Instructions = &c
	return o, nil
}

// benchPattern is the -test.bench pattern that runs the benchmark named
// name alone: each level of its name quoted and anchored.
func benchPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// countedBinary returns the test binary to count: this one, or, when it
// was built with -race or -cover (whose instrumentation would be
// counted), a copy rebuilt without them, with how it was built. The copy
// is built once per process into the user's cache directory, one file per
// package, replaced each time.
var countedBinary = func() func() (string, string, error) {
	var once sync.Once
	var bin, rebuilt string
	var err error
	return func() (string, string, error) {
		once.Do(func() { bin, rebuilt, err = buildCounted() })
		return bin, rebuilt, err
	}
}()

// buildCounted is countedBinary's work.
func buildCounted() (string, string, error) {
	built := valgrind.Instrumented()
	if built == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", "", fmt.Errorf("benchtest: the instruction mode re-executes the test binary, whose path is unknown: %w", err)
		}
		return exe, "", nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "chronograph", "benchtest")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", fmt.Errorf("benchtest: %w", err)
	}
	name := "test"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Path != "" {
		name = strings.NewReplacer("/", "_", "\\", "_", ":", "_").Replace(bi.Path)
	}
	final := filepath.Join(dir, name)
	tmp, err := os.CreateTemp(dir, name+".*.tmp")
	if err != nil {
		return "", "", fmt.Errorf("benchtest: %w", err)
	}
	tmp.Close()
	how, err := valgrind.BuildTest(".", tmp.Name())
	if err == nil {
		err = os.Rename(tmp.Name(), final) // a run of the old copy keeps it
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", "", fmt.Errorf("benchtest: this test binary was built with %s, whose instrumentation would be counted, and rebuilding it without failed: %w (run go test without %s for the instruction mode)", built, err, built)
	}
	return final, "this test binary was built with " + built + ", whose instrumentation would be counted: the count is of a rebuild without (" + how + ")", nil
}

// reportInstructions reports an instruction-mode result through
// tb.ReportMetric: the figures per iteration of the repeat with the
// fewest instructions ("instructions/op", and with the cache simulation
// "l1-misses/op", "ll-misses/op", "estimated-cycles/op"), and "ns/op" the
// native time per iteration of the calibration that sized the regions
// when this build's time stands for the counted one's (else no ns/op:
// testing's would be the time of the whole count under valgrind). b.N is
// the iterations the counts are taken over.
func reportInstructions(tb *testing.B, r *bench.Benchmark, setN bool) {
	mode := r.Instructions
	its := mode.Iterations
	if setN {
		//lint:ignore SA3001 the adapter reports the iterations counted, so benchfmt's N is real
		tb.N = its[len(its)-1] - its[0]
	}
	per := map[string]float64{}
	for _, e := range mode.Events {
		per[e.Event] = e.PerOp
	}
	for _, f := range valgrind.Figures(func(e string) (float64, bool) { v, ok := per[e]; return v, ok }) {
		tb.ReportMetric(f.Value, InstructionUnit(f.Name))
	}
	for _, c := range r.Counters { // the hardware's, natively (Instructions.Hardware)
		tb.ReportMetric(c.PerOp.Median, c.PerOpName())
	}
	// testing's own ns/op would be the whole count's time, valgrind
	// included, over b.N; "Setting "ns/op" to 0 will suppress" it.
	tb.ReportMetric(mode.NativeNsPerOp, "ns/op")
}

// InstructionUnit is the Go benchmark format's unit of an instruction-mode
// figure ("instructions" → "instructions/op", "l1_misses" →
// "l1-misses/op"), as benchtest reports it and chrono's benchfmt renders
// it: benchstat reads them as counts per operation.
func InstructionUnit(figure string) string {
	return strings.ReplaceAll(figure, "_", "-") + "/op"
}

// The results of this process, for EnvJSON.
var (
	docMu      sync.Mutex
	docResults []*bench.Benchmark
	docMeta    = sync.OnceValue(func() result.Meta {
		return result.Meta{Tool: result.ToolFromBuild("chronograph/benchtest"), Args: os.Args, Environment: env.Capture()}
	})
)

// writeDocument adds r to the results of this process and writes their
// document to the file EnvJSON names, if it names one.
func writeDocument(r *bench.Benchmark) error {
	path := os.Getenv(EnvJSON)
	if path == "" {
		return nil
	}
	docMu.Lock()
	defer docMu.Unlock()
	docResults = append(docResults, r)
	if err := result.WriteFile(path, bench.Document(docMeta(), docResults...)); err != nil {
		return fmt.Errorf("benchtest: %s=%s: %w", EnvJSON, path, err)
	}
	return nil
}

// childDone reports whether err ends the benchmark in an
// instruction-counting child: it counted the benchmark, or another.
func childDone(err error) bool {
	return errors.Is(err, bench.ErrCounted) || errors.Is(err, bench.ErrSkipped)
}
