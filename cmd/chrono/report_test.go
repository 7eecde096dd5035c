package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
)

// chrono subcommands read result documents back: chrono report renders
// what chrono numbers --json wrote, and compares it with a baseline.
func TestReportReadsDocuments(t *testing.T) {
	dir := crosstest.TempDir(t)
	write := func(name, numbers string) string {
		out, errs, code := runChrono(t, numbers, "numbers", "--json")
		if code != exitOK {
			t.Fatalf("stats --json: exit %d: %s", code, errs)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	old := write("old.json", "10ms 11ms 10ms 12ms 10ms 11ms 10ms 11ms\n")
	slower := write("new.json", "20ms 21ms 20ms 22ms 20ms 21ms 20ms 21ms\n")

	out, errs, code := runChrono(t, "", "report", old)
	if code != exitOK || !strings.Contains(out, "median    10.5 ms  [10 ms, 11 ms] 95% CI") {
		t.Errorf("report: exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
	doc, _ := os.ReadFile(old)
	if out2, _, code := runChrono(t, string(doc), "report", "-"); code != exitOK || out2 != out {
		t.Errorf("report from stdin differs (exit %d):\n%s", code, out2)
	}
	out, _, code = runChrono(t, "", "report", "--format", "csv", old)
	if code != exitOK || !strings.HasPrefix(out, "source,unit,n,min,median,") || !strings.Contains(out, "stdin,ns,8,10000000,10500000,") {
		t.Errorf("csv: exit %d:\n%s", code, out)
	}
	out, _, code = runChrono(t, "", "report", "--baseline", old, slower)
	if code != exitOK || !strings.Contains(out, "x slower (higher) than the baseline") {
		t.Errorf("baseline: exit %d:\n%s", code, out)
	}
}

func TestReportErrors(t *testing.T) {
	dir := crosstest.TempDir(t)
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	newer := write("newer.json", `{"schema":"chronograph.result","version":99}`)
	notDoc := write("not.json", `{"hello":1}`)
	array := write("array.json", `[{"schema":"chronograph.result","version":2}]`)
	wrongType := write("type.json", `{"schema":"chronograph.result","version":2,"kind":"numbers","measurements":[{"name":"x","metrics":3}]}`)
	text := write("text.txt", "12 13 14\n")
	doc := func(kind, metrics string) string {
		return `{"schema":"chronograph.result","version":2,"kind":"` + kind + `","tool":{"name":"x","version":"1"},"measurements":[{"name":"a","primary":"wall","metrics":[` + metrics + `]}]}`
	}
	seconds := write("seconds.json", doc("command", `{"name":"wall","unit":"s","values":[0.00234,0.00235,0.00233]}`))
	bogus := write("bogus.json", doc("bogus", `{"name":"wall","unit":"ns","values":[1]}`))
	noMeasurements := write("none.json", `{"schema":"chronograph.result","version":2,"kind":"command","measurements":null}`)
	truncated := write("truncated.json", doc("command", `{"name":"wall","unit":"ns","values":[1,2,3]},{"name":"user","unit":"ns","values":[1,2,3,4,5]},{"name":"sys","unit":"ns","values":[1,2,3,4,5]}`))
	empty := write("empty.json", "")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"newer schema", []string{"report", newer}, exitFailure, "newer than this chrono understands (2); upgrade chrono"},
		{"not a document", []string{"report", notDoc}, exitFailure, "not a chronograph result document"},
		{"json array", []string{"report", array}, exitFailure, "the input is a JSON array, not a result document"},
		{"wrong type", []string{"report", wrongType}, exitFailure, `field "measurements.metrics" holds a JSON number where the schema wants an array`},
		{"not json", []string{"report", text}, exitFailure, `the input is not a JSON object (it starts with "12 13 14\n")`},
		{"empty", []string{"report", empty}, exitFailure, "the input is empty"},
		{"missing file", []string{"report", filepath.Join(dir, "missing.json")}, exitFailure, notFound(t, filepath.Join(dir, "missing.json"))},
		{"wall in seconds", []string{"report", seconds}, exitFailure, `metric "wall" has unit "s", but the schema puts a command document's "wall" in ns`},
		{"unknown kind", []string{"report", bogus}, exitFailure, `unknown document kind "bogus"`},
		{"no measurements", []string{"report", noMeasurements}, exitFailure, "the command document holds no measurements"},
		{"truncated wall", []string{"report", truncated}, exitFailure, `metric "wall" has 3 values, the other 2 metrics 5`},
		{"baseline of an unknown kind", []string{"report", "--baseline", bogus, truncated}, exitFailure, `unknown document kind "bogus"`},
		{"bad format", []string{"report", "--format", "xml", notDoc}, exitUsage, `unknown format "xml"`},
		{"baseline with json", []string{"report", "--format", "json", "--baseline", notDoc, notDoc}, exitUsage, "--baseline writes text, markdown or csv"},
		{"baseline with --json", []string{"report", "--json", "--baseline", notDoc, notDoc}, exitUsage, "--baseline writes text, markdown or csv"},
		{"baseline with export-json", []string{"report", "--export-json", filepath.Join(dir, "x.json"), "--baseline", notDoc, notDoc}, exitUsage, "drop --export-json"},
		{"bad percentiles", []string{"report", "--percentiles", "200", notDoc}, exitUsage, "200"},
		{"empty percentile", []string{"report", "--percentiles", "50,,90", notDoc}, exitUsage, "empty percentile"},
		{"no -p", []string{"report", "-p", "50", notDoc}, exitUsage, "unknown shorthand flag: 'p'"},
		{"json and format", []string{"report", "--json", "--format", "csv", notDoc}, exitUsage, "give one of them"},
		{"format and export to stdout", []string{"report", "--format", "markdown", "--export-csv", "-", notDoc}, exitUsage, "both write to standard output"},
		{"export to a directory", []string{"report", "--export-markdown", dir, notDoc}, exitUsage, "is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, code := runChrono(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errs, tt.code, tt.want)
			}
			if strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Errorf("error is not one line: %q", errs)
			}
		})
	}
}

// TestReportTerminal: with no FILE and a terminal on standard input,
// chrono report says what it expects instead of waiting.
func TestReportTerminal(t *testing.T) {
	was := stdinIsTerminal
	t.Cleanup(func() { stdinIsTerminal = was })
	stdinIsTerminal = func(io.Reader) bool { return true }
	for _, args := range [][]string{{"report"}, {"report", "-"}} {
		_, errs, code := runChrono(t, "", args...)
		if code != exitUsage || !strings.Contains(errs, "chrono report reads a result document: give FILE") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestReportOutputGrammar: --json writes the document, --export-* write
// other formats while the text goes to stdout, --redact redacts first.
func TestReportOutputGrammar(t *testing.T) {
	dir := crosstest.TempDir(t)
	doc, _, code := runChrono(t, "1 2 3 4 5 6 7\n", "numbers", "--json")
	if code != exitOK {
		t.Fatal("stats --json failed")
	}
	path := filepath.Join(dir, "d.json")
	os.WriteFile(path, []byte(doc), 0o644)
	if out, _, code := runChrono(t, "", "report", "--json", path); code != exitOK || out != doc {
		t.Errorf("--json (exit %d) does not write the document back:\n%s", code, out)
	}
	md, csv := filepath.Join(dir, "d.md"), filepath.Join(dir, "d.csv")
	text, errs, code := runChrono(t, "", "report", "--export-markdown", md, "--export-csv", csv, path)
	if code != exitOK {
		t.Fatalf("exports: exit %d: %s", code, errs)
	}
	plain, _, _ := runChrono(t, "", "report", path)
	mdWant, _, _ := runChrono(t, "", "report", "--format", "markdown", path)
	csvWant, _, _ := runChrono(t, "", "report", "--format", "csv", path)
	mdGot, _ := os.ReadFile(md)
	csvGot, _ := os.ReadFile(csv)
	if text != plain || string(mdGot) != mdWant || string(csvGot) != csvWant {
		t.Errorf("exports differ from --format:\n%s\n%s\n%s", text, mdGot, csvGot)
	}
	// --export-csv - writes the CSV to stdout instead of the text.
	if out, _, _ := runChrono(t, "", "report", "--export-csv", "-", path); out != csvWant {
		t.Errorf("--export-csv -:\n%s", out)
	}
	if out, _, code := runChrono(t, doc, "report", "--redact", "--json"); code != exitOK || !strings.Contains(out, `"kind": "numbers"`) {
		t.Errorf("--redact --json from stdin (exit %d):\n%.300s", code, out)
	}
}

// TestReportEveryKind: a document of every kind renders through report
// (its kind's view, or the generic one), naming each measurement and
// showing its figures; kinds whose figures still sit in the untyped
// details (latency before its port) show them as written.
func TestReportEveryKind(t *testing.T) {
	dir := crosstest.TempDir(t)
	metric := func(name, u string, vs ...float64) []result.Metric {
		return []result.Metric{{Name: name, Unit: u, Values: vs, Resolution: 1}}
	}
	docs := map[string]*result.Document{}
	for _, kind := range []string{result.KindCommand, result.KindCounters, result.KindFunction, result.KindSleep, result.KindClocks, result.KindNumbers} {
		d := result.New(kind, result.Meta{Tool: result.Tool{Name: "test", Version: "1"}})
		d.Measurements = []result.Measurement{{Name: kind + "-thing", Primary: "m", Metrics: metric("m", "ns", 1000, 1100, 1050, 990, 1010, 1020, 1030)}}
		docs[kind] = d
	}
	lat := result.New(result.KindLatency, result.Meta{Tool: result.Tool{Name: "test", Version: "1"}})
	lat.Measurements = []result.Measurement{{Name: "thread 0", Primary: "latency", Metrics: []result.Metric{{Name: "latency", Unit: "ns", Resolution: 1,
		Histogram: &result.Histogram{Bounds: []float64{1000, 2000, 4000}, Counts: []int64{3, 1}, Min: 1200, Max: 3202309, Mean: 3000, Overflow: 1}}}}}
	docs[result.KindLatency] = lat
	env := result.New(result.KindEnv, result.Meta{Tool: result.Tool{Name: "test", Version: "1"}})
	env.Measurements = []result.Measurement{}
	docs[result.KindEnv] = env
	want := map[string][]string{
		result.KindCommand: {"command-thing", "1.02 µs"}, result.KindCounters: {"counters-thing"}, result.KindFunction: {"function-thing"},
		result.KindSleep: {"sleep-thing", "1.02 µs"}, result.KindClocks: {"clocks-thing"}, result.KindNumbers: {"7 durations from numbers-thing"},
		result.KindLatency: {"thread 0"}, result.KindEnv: {"the document holds no environment"},
	}
	for kind, d := range docs {
		path := filepath.Join(dir, kind+".json")
		if err := result.WriteFile(path, d); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"text", "markdown"} {
			out, errs, code := runChrono(t, "", "report", "--format", format, path)
			if code != exitOK {
				t.Errorf("%s (%s): exit %d: %s", kind, format, code, errs)
				continue
			}
			for _, w := range want[kind] {
				if format == "text" && !strings.Contains(out, w) {
					t.Errorf("%s: report lacks %q:\n%s", kind, w, out)
				}
			}
		}
	}
	// Version 1 numbers documents get their kind's view, with the input's
	// quantum as the resolution.
	out, errs, code := runChrono(t, "", "report", "testdata/v1-numbers.json")
	if code != exitOK || !strings.Contains(out, "7 durations from stdin") || !strings.Contains(out, "median    12.9 ms  [12.5 ms, 14.2 ms] 95% CI") {
		t.Errorf("version 1 numbers document (exit %d, %s):\n%s", code, errs, out)
	}
}

// gateDocument writes a command document whose measurements have wall
// times around the given medians (30 runs each, ±1 %; n runs when n > 0),
// measured on a CPU of the given model.
func gateDocument(t *testing.T, dir, name, model string, n int, medians map[string]float64) string {
	t.Helper()
	d := result.New(result.KindCommand, result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	d.Environment = &env.Host{CPU: env.CPU{Model: model}, System: env.System{KernelRelease: "6.1.0"}, Go: env.Go{GOMAXPROCS: 2}}
	if n == 0 {
		n = 30
	}
	for _, m := range []string{"a", "b", "c"} {
		base, ok := medians[m]
		if !ok {
			continue
		}
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = base * (1 + 0.01*float64((i*7)%11-5)/5)
		}
		d.Measurements = append(d.Measurements, result.Measurement{Name: m, Primary: "wall",
			Metrics: []result.Metric{{Name: "wall", Unit: result.UnitNs, Resolution: 1, Values: xs}}})
	}
	path := filepath.Join(dir, name)
	if err := result.WriteFile(path, d); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReportGate: --fail-on regression exits 1 on a significant
// regression beyond the threshold, 0 otherwise, 2 for bad usage and for
// documents from different machines (unless --allow-env-mismatch, which
// every line then mentions).
func TestReportGate(t *testing.T) {
	dir := crosstest.TempDir(t)
	base := gateDocument(t, dir, "base.json", "CPU A", 0, map[string]float64{"a": 1e6, "b": 1e6, "c": 1e6})
	slower := gateDocument(t, dir, "slower.json", "CPU A", 0, map[string]float64{"a": 1.2e6, "b": 0.8e6, "c": 1e6})
	faster := gateDocument(t, dir, "faster.json", "CPU A", 0, map[string]float64{"a": 0.8e6, "b": 1e6, "c": 1.01e6})
	few := gateDocument(t, dir, "few.json", "CPU A", 3, map[string]float64{"a": 1.3e6, "b": 1.3e6, "c": 1.3e6})
	fewBase := gateDocument(t, dir, "fewbase.json", "CPU A", 3, map[string]float64{"a": 1e6, "b": 1e6, "c": 1e6})
	other := gateDocument(t, dir, "other.json", "CPU B", 0, map[string]float64{"a": 1.2e6, "b": 1e6, "c": 1e6})
	md := filepath.Join(dir, "comment.md")
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"regression", []string{"--baseline", base, slower, "--fail-on", "regression", "--export-markdown", md}, exitFailure,
			[]string{"1 regression, 1 improvement, 1 unchanged, 0 undecided", "Regressed (slower by more than 5%)", "+20.0%"}},
		{"regression, first of two files", []string{base, slower, "--fail-on", "regression"}, exitFailure, []string{"Regressed"}},
		{"a higher threshold", []string{"--baseline", base, slower, "--fail-on", "regression", "--threshold", "25%"}, exitOK, []string{"threshold 25%", "Could not be decided"}},
		{"improvement", []string{"--baseline", base, faster, "--fail-on", "regression"}, exitOK, []string{"0 regressions, 1 improvement, 2 unchanged"}},
		{"no change", []string{"--baseline", base, base, "--fail-on", "regression"}, exitOK, []string{"0 regressions, 0 improvements, 3 unchanged"}},
		{"too few samples", []string{"--baseline", fewBase, few, "--fail-on", "regression"}, exitOK, []string{"3 undecided", "too few samples (3 and 3)"}},
		{"different machines", []string{"--baseline", base, other, "--fail-on", "regression"}, exitUsage, []string{`CPU model "CPU A" in the baseline, "CPU B" in the new document`, "--allow-env-mismatch"}},
		{"different machines allowed", []string{"--baseline", base, other, "--fail-on", "regression", "--allow-env-mismatch"}, exitFailure, []string{"[environments differ]"}},
		{"bad --fail-on", []string{"--baseline", base, slower, "--fail-on", "slower"}, exitUsage, []string{"the only value is regression"}},
		{"--fail-on without baseline", []string{slower, "--fail-on", "regression"}, exitUsage, []string{"needs a baseline"}},
		{"--threshold without --fail-on", []string{"--baseline", base, slower, "--threshold", "5%"}, exitUsage, []string{"--threshold applies to --fail-on"}},
		{"bad --threshold", []string{"--baseline", base, slower, "--fail-on", "regression", "--threshold", "five"}, exitUsage, []string{"give a percentage"}},
		{"--allow-env-mismatch without --fail-on", []string{"--baseline", base, slower, "--allow-env-mismatch"}, exitUsage, []string{"applies to --fail-on"}},
		{"two files after --baseline", []string{"--baseline", base, slower, faster}, exitUsage, []string{"give one FILE after it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runChrono(t, "", append([]string{"report"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q\n%s", code, tt.code, errs, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out+errs, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errs)
				}
			}
			if tt.name == "different machines allowed" {
				for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
					if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "measurement ") && !strings.Contains(l, "environments differ") {
						t.Errorf("a line does not say the environments differ: %q", l)
					}
				}
			}
		})
	}
	comment, err := os.ReadFile(md)
	if err != nil || !strings.Contains(string(comment), "### Regressed (slower by more than 5%)") || !strings.Contains(string(comment), "| a | wall |") {
		t.Errorf("the Markdown summary (%v):\n%s", err, comment)
	}
}

// TestReportInputs: Go benchmark output (two files: compared as
// benchstat does) and hyperfine exports are read; a trace dump needs
// --html.
func TestReportInputs(t *testing.T) {
	old, cur := "../../report/testdata/gobench-old.txt", "../../report/testdata/gobench-new.txt"
	out, errs, code := runChrono(t, "", "report", old, cur)
	if code != exitOK || !strings.Contains(out, "Linear-2     wall        130.3 ns/op  140.7 ns/op          1.08") || !strings.Contains(out, "1.11x faster (lower) than the baseline") {
		t.Errorf("two Go benchmark files (exit %d, %s):\n%s", code, errs, out)
	}
	out, errs, code = runChrono(t, "", "report", old)
	if code != exitOK || !strings.Contains(out, "Linear-2     wall    8  130.3 ns/op") {
		t.Errorf("one Go benchmark file (exit %d, %s):\n%s", code, errs, out)
	}
	out, errs, code = runChrono(t, "", "report", "../../docs/examples/hyperfine.json")
	if code != exitOK || !strings.Contains(out, "sleep 0.001 (x = 1)") || !strings.Contains(out, "hyperfine recorded only the means of the CPU times") {
		t.Errorf("hyperfine (exit %d, %s):\n%s", code, errs, out)
	}
	_, errs, code = runChrono(t, "", "report", "../../docs/examples/pipeline-trace.json")
	if code != exitFailure || !strings.Contains(errs, "is a trace dump") {
		t.Errorf("a trace dump without --html: exit %d, %s", code, errs)
	}
	out, _, code = runChrono(t, "", "report", "--style", "basic", old)
	if code != exitOK || strings.ContainsAny(out, "▁▂▃▄▅▆▇█µ±…") || !strings.Contains(out, "distribution  ") {
		t.Errorf("--style basic is not ASCII (exit %d):\n%s", code, out)
	}
	if _, errs, code := runChrono(t, "", "report", "--style", "fancy", old); code != exitUsage || !strings.Contains(errs, "use auto or basic") {
		t.Errorf("--style fancy: exit %d, %s", code, errs)
	}
}

// TestReportHTML: --html writes one self-contained page of every FILE,
// trace dumps as timelines; --svg writes each plot as its own file.
func TestReportHTML(t *testing.T) {
	dir := crosstest.TempDir(t)
	page, svgs := filepath.Join(dir, "r.html"), filepath.Join(dir, "svg")
	_, errs, code := runChrono(t, "", "report", "--html", page, "--svg", svgs, "--title", "my report",
		"../../report/testdata/gobench-old.txt", "../../report/testdata/gobench-new.txt", "../../docs/examples/pipeline-trace.json")
	if code != exitOK || !strings.Contains(errs, "wrote "+page) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"<title>my report</title>", "<svg", "document 2 against document 1", `<iframe class="timeline"`, "chrono report --html"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("the page lacks %q", w)
		}
	}
	files, _ := filepath.Glob(filepath.Join(svgs, "*.svg"))
	if len(files) < 6 {
		t.Errorf("--svg wrote %d files", len(files))
	}
	for _, bad := range [][]string{
		{"--html", page, "--fail-on", "regression", "--baseline", page, page},
		{"--title", "x", "../../docs/examples/hyperfine.json"},
		{"--html", page, "--export-csv", filepath.Join(dir, "x.csv"), "../../docs/examples/hyperfine.json"},
		{"--html", filepath.Join(dir, "no", "such", "x.html"), "../../docs/examples/hyperfine.json"},
	} {
		if _, errs, code := runChrono(t, "", append([]string{"report"}, bad...)...); code != exitUsage {
			t.Errorf("%v: exit %d, %s", bad, code, errs)
		}
	}
}
