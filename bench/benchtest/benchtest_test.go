package benchtest

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/chronograph/chronograph/bench"
	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/profiles"
	"github.com/chronograph/chronograph/warn"
)

// TestTestingAdapter runs the adapter under testing.Benchmark (which calls
// the benchmark function as go test -bench does: once with b.N == 1, then
// with growing b.N while its timer shows less than -benchtime), formats
// the result as go test prints it, and parses it with benchfmt.
func TestTestingAdapter(t *testing.T) {
	xs := make([]uint64, 1000)
	invocations := 0
	f := func(b *bench.B) {
		invocations++
		for b.Loop() {
			var s uint64
			for _, x := range xs {
				s += x
			}
			b.Keep(s)
		}
	}
	opts := &bench.Options{Target: time.Millisecond, Samples: 6, WarmupSamples: 1}
	// A short -benchtime: the adapter measures at least that long.
	setBenchtime(t, "200ms")
	calls := 0
	var res *bench.Benchmark
	br := testing.Benchmark(func(tb *testing.B) {
		calls++
		Run(tb, f, opts)
		if r, ok := adapterCache.Load(tb); ok {
			res = r.(*bench.Benchmark)
		}
	})
	if calls != 1 {
		t.Errorf("testing.B called the benchmark %d times, want once (the adapter measures for -benchtime)", calls)
	}
	// One invocation per block of samples, all from the one testing.B
	// call.
	if res == nil {
		t.Fatal("no result cached")
	}
	blocks := map[int]bool{}
	for _, s := range res.Samples {
		blocks[s.Block] = true
	}
	if invocations != len(blocks) {
		t.Errorf("the function was invoked %d times for %d blocks over %d testing.B calls, want once per block", invocations, len(blocks), calls)
	}
	line := "BenchmarkSum-2\t" + br.String() + "\t" + br.MemString() + "\n"
	input := "goos: linux\ngoarch: amd64\npkg: example\n" + line + "PASS\n"
	rd := benchfmt.NewReader(strings.NewReader(input), "adapter")
	var got *benchfmt.Result
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("benchfmt: %v in %q", rec, line)
		case *benchfmt.Result:
			got = rec.Clone()
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	if got == nil {
		t.Fatalf("benchfmt found no result in %q", line)
	}
	if string(got.Name) != "Sum-2" {
		t.Errorf("name %q", got.Name)
	}
	want := map[string]bool{"ns/op": true, "p50-ns/op": true, "p99-ns/op": true, "cv-%": true, "allocs/op": true, "B/op": true}
	for _, v := range got.Values {
		u := v.OrigUnit // set only where benchfmt tidied the unit
		if u == "" {
			u = v.Unit
		}
		if u == "ns/op" && v.OrigValue <= 0 {
			t.Errorf("ns/op %v", v.Value)
		}
		delete(want, u)
	}
	if len(want) > 0 {
		t.Errorf("missing units %v in %q", want, line)
	}
	if got.Iters <= 1 {
		t.Errorf("iterations %d, want the measured count", got.Iters)
	}
	var buf bytes.Buffer
	w := benchfmt.NewWriter(&buf)
	if err := w.Write(got); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", buf.String())
}

// setBenchtime sets -test.benchtime for the test.
func setBenchtime(t *testing.T, v string) {
	t.Helper()
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := bt.Value.Set(v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bt.Value.Set(old) })
}

type logRecorder struct{ lines []string }

func (l *logRecorder) Log(args ...any) {
	for _, a := range args {
		l.lines = append(l.lines, a.(string))
	}
}

// TestAdapterLogsEnvironmentOnce: the adapter logs a result's warnings
// with every benchmark, and the environment's (hypervisor, frequency
// scaling, race detector) once, on its first benchmark.
func TestAdapterLogsEnvironmentOnce(t *testing.T) {
	old := envWarnings
	envWarnings = func() []warn.Warning {
		return []warn.Warning{warn.New("hypervisor", "running under a hypervisor (KVM)", "measure on bare metal")}
	}
	defer func() { envWarnings = old }()
	r := &bench.Benchmark{Warnings: []warn.Warning{warn.New("high-variance", "spread is large", "quiet the machine")}}
	var once sync.Once
	var first, second logRecorder
	logWarnings(&first, r, &once)
	logWarnings(&second, r, &once)
	want := []string{"bench: spread is large; quiet the machine", "bench: environment: running under a hypervisor (KVM); measure on bare metal"}
	if strings.Join(first.lines, "|") != strings.Join(want, "|") {
		t.Errorf("first benchmark logged %q, want %q", first.lines, want)
	}
	if strings.Join(second.lines, "|") != want[0] {
		t.Errorf("second benchmark logged %q, want only its own warning", second.lines)
	}
}

func countedSum(b *bench.B) {
	xs := make([]uint64, 2000)
	for i := range xs {
		xs[i] = uint64(i)
	}
	for b.Loop() {
		var s uint64
		for _, x := range xs {
			s += x
		}
		b.Keep(s)
	}
}

// TestAdapterCountersNoPMU runs where hardware counters are missing (a
// VM): the adapter reports the software event it counted and none of the
// hardware ones (never a 0 for them).
func TestAdapterCountersNoPMU(t *testing.T) {
	a := counters.Available()
	if !a.Software {
		t.Skipf("software counters are not available here: %s", a.SoftwareReason)
	}
	if a.Hardware {
		t.Skip("this host has hardware counters")
	}
	evs, err := counters.ParseEvents("task-clock,instructions,cycles,branch-misses")
	if err != nil {
		t.Fatal(err)
	}
	setBenchtime(t, "50ms")
	opts := &bench.Options{Target: time.Millisecond, Samples: 6, WarmupSamples: 1, Counters: evs}
	br := testing.Benchmark(func(tb *testing.B) { Run(tb, countedSum, opts) })
	if br.Extra["task-clock-ns/op"] <= 0 {
		t.Errorf("adapter metrics %v, want task-clock-ns/op", br.Extra)
	}
	for _, u := range []string{"instructions/op", "cycles/op", "branch-misses/op", "IPC"} {
		if _, ok := br.Extra[u]; ok {
			t.Errorf("adapter reports %s without a PMU", u)
		}
	}
}

func ExampleRun() {
	xs := make([]uint64, 1000)
	// In a _test.go file:
	_ = func(b *testing.B) { // func BenchmarkSum(b *testing.B)
		Run(b, func(b *bench.B) {
			for b.Loop() {
				var s uint64
				for _, x := range xs {
					s += x
				}
				b.Keep(s)
			}
		}, nil)
	}
}

// allocSink keeps the allocations of allocOne on the heap; allocSize is a
// variable so that the size is not folded into the call.
var (
	allocSink []byte
	allocSize = 208
)

// allocOne allocates exactly one object of 208 bytes (a size class of its
// own), as strings.Join of a few short strings does.
//
//go:noinline
func allocOne() { allocSink = make([]byte, allocSize) }

// TestAdapterAllocsAsTesting: for a function that allocates exactly one
// 208-byte object per call, the adapter reports what testing.B reports
// for the same function: 208 B/op, 1 allocs/op (totals over the
// iterations, divided as testing divides them). The medians of
// per-sample figures from the runtime's lagging counters gave 207 B/op
// and 0 allocs/op (a median of 0.9999 truncated), and benchstat then
// showed allocations going from 1 to 0.
func TestAdapterAllocsAsTesting(t *testing.T) {
	setBenchtime(t, "100ms")
	want := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			allocOne()
		}
	})
	if want.AllocsPerOp() != 1 || want.AllocedBytesPerOp() != 208 {
		t.Fatalf("testing.B itself reports %s for one 208-byte allocation per call", want.MemString())
	}
	var res *bench.Benchmark
	got := testing.Benchmark(func(tb *testing.B) {
		Run(tb, func(b *bench.B) {
			for b.Loop() {
				allocOne()
			}
		}, &bench.Options{Target: time.Millisecond, Samples: 8, WarmupSamples: 1})
		if r, ok := adapterCache.Load(tb); ok {
			res = r.(*bench.Benchmark)
		}
	})
	if got.AllocsPerOp() != want.AllocsPerOp() || got.AllocedBytesPerOp() != want.AllocedBytesPerOp() {
		t.Errorf("adapter: %s; testing.B: %s", got.MemString(), want.MemString())
	}
	if res == nil {
		t.Fatal("no result cached")
	}
	// Every sample counts all its allocations: never fewer than one per
	// iteration (the lagging counters missed up to a span of 39 objects
	// in about half the samples). The counts are the process's, so the
	// runtime's own (a goroutine, a GC worker's structures: a few objects
	// now and then) may add to a sample.
	for i, s := range res.Samples {
		extra := s.Iterations/100 + 64
		if s.Allocs < s.Iterations || s.Allocs > s.Iterations+extra || s.Bytes < 208*s.Iterations || s.Bytes > 208*(s.Iterations+extra)+64<<10 {
			t.Errorf("sample %d: %d allocations, %d bytes in %d iterations, want one of 208 bytes each", i, s.Allocs, s.Bytes, s.Iterations)
		}
	}
	if res.AllocsPerOp < 1 || res.AllocsPerOp > 1.001 || res.BytesPerOp < 208 || res.BytesPerOp > 208.5 {
		t.Errorf("result: %g allocs/op, %g B/op, want 1 and 208", res.AllocsPerOp, res.BytesPerOp)
	}
}

// TestAdapterAllocsDivision: the reported figures are the totals over
// every measured iteration divided as testing.BenchmarkResult divides them
// (an integer division): one 208-byte allocation every other call is 104
// B/op (or 103: the division truncates) and 0 allocs/op, as go test
// -bench prints it.
func TestAdapterAllocsDivision(t *testing.T) {
	setBenchtime(t, "50ms")
	var res *bench.Benchmark
	calls := 0
	got := testing.Benchmark(func(tb *testing.B) {
		Run(tb, func(b *bench.B) {
			for b.Loop() {
				if calls++; calls%2 == 0 {
					allocOne()
				}
			}
		}, &bench.Options{Target: time.Millisecond, Samples: 6, WarmupSamples: 1})
		if r, ok := adapterCache.Load(tb); ok {
			res = r.(*bench.Benchmark)
		}
	})
	if res == nil {
		t.Fatal("no result cached")
	}
	var allocs, bytes, iters uint64
	for _, s := range res.Samples {
		allocs, bytes, iters = allocs+s.Allocs, bytes+s.Bytes, iters+s.Iterations
	}
	if got.AllocsPerOp() != int64(allocs/iters) || got.AllocedBytesPerOp() != int64(bytes/iters) {
		t.Errorf("adapter: %s; totals %d allocations, %d bytes over %d iterations", got.MemString(), allocs, bytes, iters)
	}
	if got.AllocsPerOp() != 0 || got.AllocedBytesPerOp() < 103 || got.AllocedBytesPerOp() > 104 {
		t.Errorf("adapter: %s for one 208-byte allocation every other call", got.MemString())
	}
}

// TestAdapterProfile: with Options.Profile the adapter writes the
// measured samples' profile to -test.outputdir, named after the
// benchmark, and it holds those samples only.
func TestAdapterProfile(t *testing.T) {
	dir := crosstest.TempDir(t)
	od := flag.Lookup("test.outputdir")
	old := od.Value.String()
	if err := od.Value.Set(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { od.Value.Set(old) })
	setBenchtime(t, "100ms")
	var name string
	testing.Benchmark(func(tb *testing.B) {
		name = tb.Name()
		Run(tb, func(b *bench.B) {
			x := uint64(1)
			for b.Loop() {
				for i := 0; i < 1000; i++ {
					x = x*6364136223846793005 + 1442695040888963407
				}
			}
			b.Keep(x)
		}, &bench.Options{Profile: true, Target: 10 * time.Millisecond, Samples: 10})
	})
	p, err := profiles.Read(filepath.Join(dir, ProfileName(name)))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Sample {
		if v := s.Label[bench.ProfileLabel]; len(v) != 1 || v[0] != bench.PhaseSample {
			t.Fatalf("a sample of the profile is labelled %v, want %s=%s only", s.Label, bench.ProfileLabel, bench.PhaseSample)
		}
	}
}

func TestProfileName(t *testing.T) {
	for in, want := range map[string]string{
		"BenchmarkSum":        "BenchmarkSum.pprof",
		"BenchmarkSum/n=10-2": "BenchmarkSum_n_10-2.pprof",
		"Benchmark x/ü:1.5":   "Benchmark_x_ü_1.5.pprof",
		"../../etc/passwd":    ".._.._etc_passwd.pprof",
	} {
		if got := ProfileName(in); got != want {
			t.Errorf("ProfileName(%q) = %q, want %q", in, got, want)
		}
	}
}
