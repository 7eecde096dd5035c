package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
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
	data, err := os.ReadFile(filepath.Join("..", "docs", "examples", "hyperfine.json"))
	if err != nil {
		t.Fatal(err)
	}
	if DetectInput(data) != InputHyperfine {
		t.Fatal("not detected as a hyperfine export")
	}
	d, err := ReadHyperfine(data, "hyperfine.json")
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
		if _, err := ReadHyperfine([]byte(bad.in), "x.json"); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.in, err, bad.want)
		}
	}
	for in, want := range map[string]InputKind{
		`{"schema": "chronograph.result"}`: InputDocument, `{"traceEvents": []}`: InputTraceEvents,
		"BenchmarkX-2 10 5 ns/op\n": InputGoBench, "hello\n": InputUnknown, "\uFEFF{\"results\": []}": InputHyperfine,
	} {
		if got := DetectInput([]byte(in)); got != want {
			t.Errorf("DetectInput(%q) = %d, want %d", in, got, want)
		}
	}
}

// benchstatTestdata is golang.org/x/perf's cmd/benchstat/testdata in the
// module cache ("" when the module's source is not there).
func benchstatTestdata(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/perf").Output()
	if err != nil {
		return ""
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "cmd", "benchstat", "testdata")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// TestBenchstatAgreement reads the Go benchmark files of benchstat's own
// test data and compares, for every benchmark and unit benchstat shows,
// chrono's center (the median of the runs) and significance verdict
// (Mann-Whitney U, p ≤ 0.05) with benchstat's, computed by the package
// benchstat uses (golang.org/x/perf/benchmath, AssumeNothing: the same
// median, and the U test of go-moremath). It also checks benchstat's
// committed output for old.txt against new.txt (csvOldNew.stdout). Run
// with -v for the table.
//
// The verdict of chrono report's comparison also needs the bootstrap
// interval of the ratio to exclude 1; where that makes it differ from
// the test alone the table says so.
func TestBenchstatAgreement(t *testing.T) {
	dir := benchstatTestdata(t)
	if dir == "" {
		t.Skip("skipped: golang.org/x/perf's source is not in the module cache (go mod download golang.org/x/perf)")
	}
	read := func(name string) *result.Document {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		d, err := ReadGoBench(f, name)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-44s %-7s %14s %14s %10s %10s %-9s %-9s %s\n", "benchmark (files)", "unit", "center chrono", "benchstat", "p chrono", "benchstat", "verdict", "benchstat", "chrono report")
	agreeCenters, agreeVerdicts, rows := 0, 0, 0
	for _, pair := range [][2]string{{"old.txt", "new.txt"}, {"crc-old.txt", "crc-new.txt"}} {
		old, cur := read(pair[0]), read(pair[1])
		for _, metric := range []string{"wall", "B/s"} {
			changes, _, _ := Diff(old, cur, Options{All: true})
			for _, c := range changes {
				if c.Metric != metric {
					continue
				}
				ov, nv := metricValues(old, c), metricValues(cur, c)
				factor := 1.0
				if metric == "wall" {
					factor = 1e-9 // benchstat's sec/op
				}
				scale := func(xs []float64) []float64 {
					out := make([]float64, len(xs))
					for i, x := range xs {
						out[i] = x * factor
					}
					return out
				}
				so := benchmath.NewSample(scale(ov), &benchmath.DefaultThresholds)
				sn := benchmath.NewSample(scale(nv), &benchmath.DefaultThresholds)
				bo := benchmath.AssumeNothing.Summary(so, stats.Confidence).Center / factor
				bn := benchmath.AssumeNothing.Summary(sn, stats.Confidence).Center / factor
				bc := benchmath.AssumeNothing.Compare(so, sn)
				rows++
				centersAgree := close(c.Old, bo) && close(c.New, bn)
				if centersAgree {
					agreeCenters++
				} else {
					t.Errorf("%s %s: centers %v, %v; benchstat %v, %v", c.Measurement, metric, c.Old, c.New, bo, bn)
				}
				ours := c.Err == nil && c.MannWhitney.P <= stats.Alpha
				theirs := bc.P <= bc.Alpha
				verdict := func(sig bool) string {
					if sig {
						return "changed"
					}
					return "~"
				}
				note := ""
				if c.Significant != ours {
					note = "~ (interval includes 1)"
				}
				if ours == theirs {
					agreeVerdicts++
				} else {
					note += " DIFFERS"
				}
				name := c.Measurement
				if len(name) > 34 {
					name = name[:34]
				}
				fmt.Fprintf(&table, "%-44s %-7s %14s %14s %10s %10s %-9s %-9s %s\n", name+" ("+strings.TrimSuffix(pair[0], ".txt")+")", metric,
					strconv.FormatFloat(c.New, 'g', 6, 64), strconv.FormatFloat(bn, 'g', 6, 64), PValue(c.MannWhitney.P), PValue(bc.P), verdict(ours), verdict(theirs), note)
			}
		}
	}
	t.Logf("chrono report against benchstat (golang.org/x/perf/benchmath) on benchstat's test data: centers agree %d/%d, verdicts agree %d/%d\n%s",
		agreeCenters, rows, agreeVerdicts, rows, table.String())
	if rows == 0 {
		t.Fatal("no benchmark compared")
	}
	// Verdicts may differ only where the two U tests differ by design
	// (stats.MannWhitneyU: exact with ties, where x/perf approximates):
	// none does on these files.
	if agreeVerdicts != rows {
		t.Errorf("verdicts differ in %d of %d rows (see the table)", rows-agreeVerdicts, rows)
	}
	// benchstat's committed output for old.txt against new.txt.
	f, err := os.Open(filepath.Join(dir, "csvOldNew.stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	changes, _, _ := Diff(read("old.txt"), read("new.txt"), Options{})
	seen := 0
	for _, rec := range recs {
		if len(rec) < 7 || !strings.HasPrefix(rec[0], "Encode/") {
			continue
		}
		for _, c := range changes {
			if c.Measurement != rec[0] {
				continue
			}
			seen++
			oc, _ := strconv.ParseFloat(rec[1], 64)
			nc, _ := strconv.ParseFloat(rec[3], 64)
			if !close(c.Old, oc*1e9) || !close(c.New, nc*1e9) {
				t.Errorf("%s: centers %v %v, benchstat printed %s %s", c.Measurement, c.Old, c.New, rec[1], rec[3])
			}
			if (rec[5] == "~") == (c.MannWhitney.P <= stats.Alpha) {
				t.Errorf("%s: p %v, benchstat printed %s %s", c.Measurement, c.MannWhitney.P, rec[5], rec[6])
			}
		}
	}
	if seen != 2 {
		t.Errorf("compared %d rows of csvOldNew.stdout, want 2", seen)
	}
}

// close reports whether a and b agree to 1e-9 relative.
func close(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }
