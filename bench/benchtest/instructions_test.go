package benchtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/chronograph/chronograph/bench"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/internal/valgrind"
	"github.com/chronograph/chronograph/internal/valgrind/valgrindtest"
	"github.com/chronograph/chronograph/result"
)

var (
	sumData = make([]uint64, 1024)
	sumSink uint64
)

//go:noinline
func sumOf(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

// BenchmarkSum1024 is the benchmark TestInstructionModeEndToEnd counts
// (and, with go test -bench, an ordinary timed benchmark).
func BenchmarkSum1024(b *testing.B) {
	Run(b, func(b *bench.B) {
		for b.Loop() {
			sumSink += sumOf(sumData)
		}
	}, nil)
}

// TestInstructionModeEndToEnd runs this test binary as go test -bench
// runs it, with CHRONO_BENCH=instructions and CHRONO_BENCH_JSON: it
// re-executes itself under callgrind (rebuilt without -race and -cover
// first when this binary has them, as it does in CI), prints
// instructions/op in the Go benchmark format, and writes the document,
// whose count is exact and the same in a second run.
func TestInstructionModeEndToEnd(t *testing.T) {
	valgrindtest.Need(t)
	run := func() (*result.Document, string) {
		t.Helper()
		doc := filepath.Join(crosstest.TempDir(t), "bench.json")
		cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^BenchmarkSum1024$", "-test.benchtime=1x")
		cmd.Env = append(os.Environ(), EnvMode+"=instructions", EnvJSON+"="+doc)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v\n%s%s", cmd.Args, err, out.String(), errb.String())
		}
		d, err := result.ReadFile(doc)
		if err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		return d, out.String()
	}
	d, out := run()
	t.Logf("go test -bench output:\n%s", out)
	// The Go benchmark line carries instructions/op, which benchfmt reads.
	rd := benchfmt.NewReader(strings.NewReader(out), "output")
	var perOp float64
	for rd.Scan() {
		if r, ok := rd.Result().(*benchfmt.Result); ok {
			if v, ok := r.Value("instructions/op"); ok {
				perOp = v
			}
		}
	}
	if perOp < 4096 {
		t.Errorf("no instructions/op of at least 4 per element in the output:\n%s", out)
	}
	if len(d.Measurements) != 1 {
		t.Fatalf("%d measurements, want 1", len(d.Measurements))
	}
	m := d.Measurements[0]
	ins := m.Metric("instructions")
	if m.Name != "BenchmarkSum1024" || m.Primary != "instructions" || ins == nil || !ins.Exact || ins.Summary.Median != perOp {
		t.Fatalf("measurement %s, primary %s, instructions %+v; printed %v", m.Name, m.Primary, ins, perOp)
	}
	mode := m.Detail.Function.Instructions
	if built := valgrind.Instrumented(); (mode.Rebuilt != "") != (built != "") {
		t.Errorf("rebuilt %q in a build with %q", mode.Rebuilt, built)
	}
	again, _ := run()
	if a := again.Measurements[0].Metric("instructions"); a.Summary.Median != ins.Summary.Median || !a.Exact {
		t.Errorf("a second run counted %v, the first %v", a.Values, ins.Values)
	}
}
