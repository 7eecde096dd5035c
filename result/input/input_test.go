package input

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/result"
)

func TestReadGoBench(t *testing.T) {
	in := `goos: linux
goarch: amd64
cpu: Test CPU
BenchmarkSum/n=100-4   1000   171.5 ns/op   170.9 cpu-ns/op   16 B/op   1 allocs/op   5.83 MB/s
BenchmarkSum/n=100-4   1200   170.5 ns/op   169.9 cpu-ns/op   16 B/op   1 allocs/op   5.86 MB/s
BenchmarkSum/n=100-4   1100   172.5 ns/op   171.9 cpu-ns/op   16 B/op   1 allocs/op
this line is not a benchmark
BenchmarkBad-4 x 1 ns/op
`
	d, err := ReadGoBench(strings.NewReader(in), "in.txt")
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != result.KindFunction || len(d.Measurements) != 1 {
		t.Fatalf("kind %s, %d measurements", d.Kind, len(d.Measurements))
	}
	m := d.Measurements[0]
	if m.Name != "Sum/n=100-4" || m.Primary != "wall" {
		t.Errorf("name %q primary %q", m.Name, m.Primary)
	}
	var got []string
	for _, met := range m.Metrics {
		got = append(got, fmt.Sprintf("%s %s %v", met.Name, met.Unit, met.Values))
	}
	want := "wall ns/op [171.5 170.5 172.5]|cpu_time ns/op [170.9 169.9 171.9]|bytes bytes/op [16 16 16]|allocs count/op [1 1 1]|iterations count [1000 1200 1100]"
	if strings.Join(got, "|") != want {
		t.Errorf("metrics\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	h := d.Environment
	if h == nil || h.CPU.Model != "Test CPU" || h.Go.GOOS != "linux" || h.Go.GOMAXPROCS != 4 {
		t.Errorf("environment %+v", h)
	}
	var codes []string
	for _, w := range d.Warnings {
		codes = append(codes, w.Code)
	}
	if strings.Join(codes, ",") != "benchfmt-syntax,benchfmt-partial-metric" || !strings.Contains(d.Warnings[1].Message, "B/s is in 2 of its 3 runs") {
		t.Errorf("warnings %v", d.Warnings)
	}
	// The document is valid and renders.
	var b bytes.Buffer
	if err := result.Encode(&b, d); err != nil {
		t.Fatal(err)
	}
	if _, err := result.Decode(&b); err != nil {
		t.Fatalf("round trip: %v", err)
	}
	if _, err := ReadGoBench(strings.NewReader("PASS\nok  x 0.1s\n"), "empty.txt"); err == nil || !strings.Contains(err.Error(), "holds no Go benchmark line") {
		t.Errorf("no benchmark: %v", err)
	}
}

func TestReadHyperfine(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "examples", "hyperfine.json"))
	if err != nil {
		t.Fatal(err)
	}
	if Detect(data) != Hyperfine {
		t.Fatal("not detected as a hyperfine export")
	}
	d, err := readHyperfine(data, "hyperfine.json")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range d.Measurements {
		names = append(names, m.Name)
	}
	if d.Kind != result.KindCommand || d.Tool.Name != "hyperfine" || strings.Join(names, "|") != "true (x = 1)|sleep 0.001 (x = 1)|true (x = 2)|sleep 0.001 (x = 2)" {
		t.Errorf("kind %s tool %s names %v", d.Kind, d.Tool.Name, names)
	}
	w := d.Measurements[0].Metric("wall")
	if w == nil || len(w.Values) != 5 || w.Values[0] != 647739 || w.Unit != result.UnitNs {
		t.Errorf("wall %+v", w)
	}
	if ec := d.Measurements[0].Metric("exit_code"); ec == nil || ec.Values[0] != 0 {
		t.Errorf("exit codes %+v", ec)
	}
	if len(d.Measurements[0].Warnings) != 1 || !strings.Contains(d.Measurements[0].Warnings[0].Message, "only the means of the CPU times: user 709") {
		t.Errorf("the CPU means: %v", d.Measurements[0].Warnings)
	}
	for _, bad := range []struct{ in, want string }{
		{`{"results": []}`, `has no results`},
		{`{"results": [{"command": "x", "mean": 1}]}`, `has no times`},
		{`{"results": 3}`, "not a chronograph result document"},
	} {
		if _, err := readHyperfine([]byte(bad.in), "x.json"); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.in, err, bad.want)
		}
	}
	for in, want := range map[string]Kind{
		`{"schema": "chronograph.result"}`: Document, `{"traceEvents": []}`: TraceEvents,
		"BenchmarkX-2 10 5 ns/op\n": GoBench, "hello\n": Unknown, "\uFEFF{\"results\": []}": Hyperfine,
	} {
		if got := Detect([]byte(in)); got != want {
			t.Errorf("Detect(%q) = %d, want %d", in, got, want)
		}
	}
}
