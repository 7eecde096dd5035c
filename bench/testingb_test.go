package bench

import (
	"bytes"
	"flag"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"
)

// TestTestingAdapter runs the adapter under testing.Benchmark (which calls
// the benchmark function as go test -bench does: once with b.N == 1, then
// with growing b.N while its timer shows less than -benchtime), formats
// the result as go test prints it, and parses it with benchfmt.
func TestTestingAdapter(t *testing.T) {
	xs := make([]uint64, 1000)
	invocations := 0
	f := func(b *B) {
		invocations++
		for b.Loop() {
			var s uint64
			for _, x := range xs {
				s += x
			}
			b.Keep(s)
		}
	}
	opts := &Options{Target: time.Millisecond, Samples: 6, WarmupSamples: 1}
	// A short -benchtime: the adapter measures at least that long.
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := bt.Value.Set("200ms"); err != nil {
		t.Fatal(err)
	}
	defer bt.Value.Set(old)
	calls := 0
	var res *Result
	br := testing.Benchmark(func(tb *testing.B) {
		calls++
		Testing(tb, f, opts)
		if r, ok := adapterCache.Load(tb); ok {
			res = r.(*Result)
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
