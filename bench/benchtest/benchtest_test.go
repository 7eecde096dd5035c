package benchtest

import (
	"bytes"
	"flag"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/chronograph/chronograph/bench"
	"github.com/chronograph/chronograph/counters"
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
	var res *bench.Result
	br := testing.Benchmark(func(tb *testing.B) {
		calls++
		Run(tb, f, opts)
		if r, ok := adapterCache.Load(tb); ok {
			res = r.(*bench.Result)
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
	r := &bench.Result{Warnings: []warn.Warning{warn.New("high-variance", "spread is large", "quiet the machine")}}
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
