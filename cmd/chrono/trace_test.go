package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
)

// The constructed dump testdata/trace-known.json has instants irq at 0,
// 10, 20 and 2000 ns (flows -, 2, 1, -) on lane reader, and spans task at
// 5 (10 ns long, flow 1), 12 (1 ns, flow 2) and 25 (1000 ns, flow 1) on
// lane P3: every answer below is known by hand.

func chronoNoInput(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runChrono(t, "", args...)
}

func TestTraceSummaryGolden(t *testing.T) {
	out, errs, code := chronoNoInput(t, "trace", "testdata/trace-known.json", "--between", "irq", "task")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "trace-known.golden", []byte(out))
}

func TestTraceBetweenKnownAnswers(t *testing.T) {
	for _, c := range []struct {
		args      []string
		want      []float64
		unmatched float64
	}{
		{[]string{"irq", "task"}, []float64{5, 2, 5}, 1},
		{[]string{"irq", "task", "--per-flow"}, []float64{2, 5}, 2},
		{[]string{"irq", "task:end"}, []float64{13, 3, 1005}, 1},
		{[]string{"task", "task:end"}, []float64{8, 1, 1000}, 0},
		{[]string{"irq", "irq"}, []float64{10, 10, 1980}, 1},
	} {
		args := append([]string{"trace", "testdata/trace-known.json", "--json", "--between"}, c.args...)
		out, errs, code := chronoNoInput(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
		d, err := result.Decode(strings.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if d.Kind != "trace" {
			t.Errorf("kind %q", d.Kind)
		}
		var found bool
		for _, m := range d.Measurements {
			td := m.Detail.Trace
			if td == nil || td.Role != "between" {
				continue
			}
			found = true
			var got []float64
			if met := m.Metric("interval"); met != nil {
				got = met.Values
			}
			if len(got) != len(c.want) || float64(td.Unmatched) != c.unmatched {
				t.Errorf("%v: intervals %v unmatched %v, want %v and %v", c.args, got, td.Unmatched, c.want, c.unmatched)
				continue
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("%v: intervals %v, want %v", c.args, got, c.want)
					break
				}
			}
		}
		if !found {
			t.Errorf("%v: no between measurement", c.args)
		}
	}
}

func TestTraceHTMLAndErrors(t *testing.T) {
	html := filepath.Join(crosstest.TempDir(t), "t.html")
	if _, errs, code := chronoNoInput(t, "trace", "testdata/trace-known.json", "--html", html); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	page, err := os.ReadFile(html)
	if err != nil || !bytes.Contains(page, []byte(`"lanes":["reader","P3"]`)) || !bytes.Contains(page, []byte("<title>trace-known.json</title>")) {
		t.Errorf("timeline page: %v\n%.300s", err, page)
	}
	bad := filepath.Join(crosstest.TempDir(t), "bad.json")
	os.WriteFile(bad, []byte(`{"foo": 1}`), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"trace"}, exitUsage, "one FILE"},
		{[]string{"trace", "testdata/trace-known.json", "--between", "irq"}, exitUsage, "two event names"},
		{[]string{"trace", "testdata/trace-known.json", "--per-flow"}, exitUsage, "--per-flow applies to --between"},
		{[]string{"trace", "testdata/trace-known.json", "--gaps", "-1"}, exitUsage, "--gaps"},
		{[]string{"trace", "testdata/trace-known.json", "--between", "irq", "nope"}, exitUsage, "its names are irq, queue, task"},
		{[]string{"trace", "testdata/missing.json"}, exitFailure, notFound(t, "testdata/missing.json")},
		{[]string{"trace", bad}, exitFailure, `no "traceEvents"`},
	} {
		_, errs, code := chronoNoInput(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
}

// TestTraceHTMLToStdoutKeepsExports: trace --html - writes the page on
// standard output and the exports to their FILEs still.
func TestTraceHTMLToStdoutKeepsExports(t *testing.T) {
	js := filepath.Join(crosstest.TempDir(t), "s.json")
	out, errs, code := runChrono(t, "", "trace", "testdata/trace-known.json", "--html", "-", "--export-json", js)
	if code != exitOK || !strings.Contains(out, "<html") {
		t.Fatalf("exit %d, stderr %q, stdout %.40q", code, errs, out)
	}
	if _, err := result.ReadFile(js); err != nil {
		t.Errorf("the export: %v", err)
	}
}
