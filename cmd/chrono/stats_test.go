package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
)

// TestStatsGolden: what chrono numbers prints is the golden text, and
// chrono report of its saved document prints the same, byte for byte.
func TestStatsGolden(t *testing.T) {
	tests := []struct {
		golden string
		stdin  string
		args   []string
	}{
		{"stats-seq.golden", seq(1, 100), []string{"numbers"}},
		{"stats-durations.golden", "", []string{"numbers", "--histogram", "--bins", "4", "testdata/stats-durations.txt"}},
		{"stats-method.golden", seq(1, 10), []string{"numbers", "--method", "inverted_cdf", "--percentiles", "0,25,50,100"}},
		{"stats-unit.golden", "1.5 2 2.5 3 3.5 4\n", []string{"numbers", "-u", "ms", "--percentiles", "50"}},
		{"stats-unit-alias.golden", "1.5 2 2.5 3 3.5 4\n", []string{"numbers", "--unit", "millisecond", "--percentiles", "50"}},
		{"stats-skip.golden", "1 2 x 3\n4 5 6 oops\n", []string{"numbers", "--skip-invalid", "--percentiles", "50", "-"}},
		// Values at the ends of the float64 range: no panic (LinearBins),
		// exponent form, figures beyond the range named.
		{"stats-huge-histogram.golden", "-1e308\n1e308\n", []string{"numbers", "--histogram"}},
		{"stats-float64-range.golden", "-1.7e308\n1.7e308\n", []string{"numbers"}},
		{"stats-near-max.golden", "1e308\n1.5e308\n1.2e308\n1.7e308\n1.1e308\n1.3e308\n", []string{"numbers", "--histogram", "--bins", "3"}},
		{"stats-bom.golden", "\uFEFF1\n2\n3\n", []string{"numbers", "--percentiles", "50"}},
		{"stats-confidence.golden", seq(1, 10), []string{"numbers", "--confidence", "0.000001", "--percentiles", "50"}},
		// Issue 18: exact inputs print as themselves (2 min at a 60 s
		// quantum was "100 s", 1.5 h "5000 s"), estimates show no zeros
		// they do not know (1900 s of two runs known to ±1 ks: 1.9e+03 s),
		// an integer is no finer than it was written (5, not 5.000), and
		// tiny values have a spread (1e-170 … 6e-170 had stddev 0).
		{"stats-minutes.golden", "2m\n3m\n4m\n5m\n7m\n", []string{"numbers"}},
		{"stats-hours.golden", "1h 2m\n", []string{"numbers", "--percentiles", "50,99"}},
		{"stats-tenths-of-hours.golden", "1.5h 2.5h 1.1h\n", []string{"numbers", "--percentiles", "50"}},
		{"stats-one-integer.golden", "5\n", []string{"numbers", "--percentiles", "50"}},
		{"stats-equal-integers.golden", "5 5 5 5 5 5\n", []string{"numbers", "--percentiles", "50"}},
		{"stats-tiny.golden", "1e-170 2e-170 3e-170 4e-170 5e-170 6e-170\n", []string{"numbers", "--percentiles", "50"}},
		{"stats-near-zero.golden", "1e-300 2e-300 3e-300 4e-300 5e-300 6e-300\n", []string{"numbers", "--percentiles", "50"}},
		{"stats-negative.golden", "-2m -3m -7m\n", []string{"numbers", "--percentiles", "50"}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			doc := filepath.Join(crosstest.TempDir(t), "d.json")
			args := append(append([]string{}, tt.args...), "--export-json", doc)
			out, errs, code := runChrono(t, tt.stdin, args...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr %s", code, errs)
			}
			golden(t, tt.golden, []byte(out))
			data, err := os.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			decodeStrict(t, data)
			sameAsReport(t, doc, out, "text")
		})
	}
}

func seq(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		b.WriteString(strings.Repeat(" ", i%3)) // ragged spacing is fine
		b.WriteString(itoa(i))
		b.WriteByte('\n')
	}
	return b.String()
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestStatsErrors(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"bad token", "1 2\n3 x\n", []string{"numbers"}, exitFailure, `stdin:2:3: "x" is not a number`},
		{"empty", "\n\n", []string{"numbers"}, exitFailure, "no numbers in the input"},
		{"mixed", "1ms 2\n", []string{"numbers"}, exitFailure, "pass -u/--time-unit"},
		{"out of range", "1\n1e400\n", []string{"numbers"}, exitFailure, `stdin:2:1: "1e400" is out of range: a float64 holds magnitudes up to 1.8e308`},
		{"nul bytes", "1\n" + strings.Repeat("\x00", 1000) + "\n", []string{"numbers"}, exitFailure,
			`stdin:2:1: a token longer than 256 bytes, starting "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"…, is not a number`},
		{"bad method", "1", []string{"numbers", "--method", "r7"}, exitUsage, `unknown percentile method "r7"`},
		{"bad percentile", "1", []string{"numbers", "--percentiles", "101"}, exitUsage, "101"},
		{"empty percentile", "1", []string{"numbers", "--percentiles", "50,,90"}, exitUsage, `--percentiles: stats: empty percentile in "50,,90"`},
		{"no -p", "1", []string{"numbers", "-p", "50"}, exitUsage, "unknown shorthand flag: 'p'"},
		{"bad unit", "1", []string{"numbers", "-u", "min"}, exitUsage, `unknown time unit "min"`},
		{"both unit spellings", "1", []string{"numbers", "-u", "ms", "--unit", "ms"}, exitUsage, "give one of them"},
		{"bins bound", "1", []string{"numbers", "--histogram", "--bins", "10000000"}, exitUsage, "--bins must be between 1 and 1000"},
		{"bins huge", "1", []string{"numbers", "--histogram", "--bins", "100000000"}, exitUsage, "--bins must be between 1 and 1000"},
		{"bins zero", "1", []string{"numbers", "--histogram", "--bins", "0"}, exitUsage, "--bins must be between 1 and 1000"},
		{"bins without histogram", "1", []string{"numbers", "--bins", "5"}, exitUsage, "--bins applies to --histogram"},
		{"bad confidence", "1", []string{"numbers", "--confidence", "1"}, exitUsage, "--confidence must be between 0 and 1"},
		{"json and export to stdout", "1", []string{"numbers", "--json", "--export-csv", "-"}, exitUsage, "both write to standard output"},
		{"missing file", "", []string{"numbers", "/nonexistent/x"}, exitFailure, notFound(t, "/nonexistent/x")},
		{"two files", "", []string{"numbers", "a", "b"}, exitUsage, "accepts at most 1 arg"},
		{"bad flag", "", []string{"numbers", "--nope"}, exitUsage, "unknown flag: --nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runChrono(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errs, tt.code, tt.want)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing on error", out)
			}
			if strings.Count(strings.TrimSpace(errs), "\n") != 0 || len(errs) > 400 {
				t.Errorf("error is not one short line: %q", errs)
			}
		})
	}
}

// TestStatsNULFlood: 50 MB of NUL bytes on standard input is one bad
// token: a one-line error quoting a short prefix, without reading it all
// (this took 10 s and 838 MB and echoed the whole token).
func TestStatsNULFlood(t *testing.T) {
	var out, errb bytes.Buffer
	code := executeWithInput([]string{"numbers"}, io.LimitReader(zeroReader{}, 50<<20), &out, &errb)
	if code != exitFailure || !strings.Contains(errb.String(), "stdin:1:1: a token longer than 256 bytes") || errb.Len() > 400 || out.Len() != 0 {
		t.Errorf("exit %d, stderr %q (%d bytes)", code, errb.String(), errb.Len())
	}
	// Skipped, it is counted and quoted briefly.
	out.Reset()
	errb.Reset()
	in := io.MultiReader(strings.NewReader("1 2 3\n"), io.LimitReader(zeroReader{}, 50<<20))
	code = executeWithInput([]string{"numbers", "--skip-invalid", "--json"}, in, &out, &errb)
	if code != exitOK {
		t.Fatalf("--skip-invalid: exit %d: %s", code, errb.String())
	}
	d := decodeStrict(t, out.Bytes())
	if r := d.Run.Numbers; r == nil || r.SkippedTokens != 1 || len(r.FirstSkipped) > 200 || !strings.Contains(r.FirstSkipped, "(52428800 bytes)") {
		t.Errorf("run %+v", r)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestStatsJSON(t *testing.T) {
	out, errs, code := runChrono(t, "10us 20us 30us 40us 50us 60us 1ms\n", "numbers", "--json", "--histogram", "--bins", "3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	doc := decodeStrict(t, []byte(out))
	if doc.Kind != result.KindNumbers || len(doc.Measurements) != 1 || doc.Environment == nil ||
		strings.Join(doc.Args, " ") != "chrono numbers --json --histogram --bins 3" {
		t.Fatalf("document: %+v", doc)
	}
	m := doc.Measurements[0].Metric("value")
	if m == nil || m.Unit != "ns" || len(m.Values) != 7 || m.Values[6] != 1e6 || m.Resolution != 1e3 {
		t.Fatalf("metric: %+v", m)
	}
	if m.Summary.Median != 40e3 || m.PercentileMethod != "linear" || m.Percentiles["p50"] != 40e3 || len(m.Summary.Warnings) != 0 {
		t.Errorf("summary %+v, percentiles %v (%s)", m.Summary, m.Percentiles, m.PercentileMethod)
	}
	run, nd := doc.Run.Numbers, doc.Measurements[0].Detail.Numbers
	if run == nil || run.Source != "stdin" || run.Lines != 1 || run.Bins != 3 || run.Confidence != 0.95 || run.PercentileMethod != "linear" ||
		fmt.Sprint(run.Percentiles) != "[50 90 99 99.9]" {
		t.Errorf("run %+v", run)
	}
	if nd == nil || nd.MedianCI == nil || nd.MedianCI.Lo != 10e3 || nd.MedianCI.Hi != 1e6 || nd.Tukey == nil ||
		fmt.Sprint(nd.Tukey.HighSevere) != "[6]" || nd.Histogram == nil || len(nd.Histogram.Counts) != 3 ||
		fmt.Sprint(nd.Histogram.Counts) != "[6 0 1]" || nd.ModifiedZ.Threshold != 3.5 {
		t.Errorf("detail %+v", nd)
	}
	// The summary's warnings are the measurement's, said once.
	if ws := doc.Measurements[0].Warnings; len(ws) == 0 || ws[0].Code != "outliers" || ws[0].Next == "" {
		t.Errorf("warnings %+v", ws)
	}
	// The file form and "-" read the same data.
	path := filepath.Join(crosstest.TempDir(t), "n.txt")
	os.WriteFile(path, []byte("10us 20us 30us 40us 50us 60us 1ms\n"), 0o644)
	out2, _, _ := runChrono(t, "", "numbers", "--json", path)
	doc2, err := result.Unmarshal([]byte(out2))
	if err != nil || doc2.Measurements[0].Metric("value").Summary.Median != 40e3 || doc2.Run.Numbers.Source != path {
		t.Errorf("file form: %v", err)
	}
}

// TestStatsFloat64Range: ±1.7e308 gave "stddev +Inf", "MAD NaN" and a
// MarshalJSON error with --json; the document now encodes, its figures
// beyond the float64 range are null and named by a warning.
func TestStatsFloat64Range(t *testing.T) {
	out, errs, code := runChrono(t, "-1.7e308\n1.7e308\n", "numbers", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"stddev_sample": null`) || !strings.Contains(out, `"float64-overflow"`) {
		t.Errorf("document:\n%s", out)
	}
	decodeStrict(t, []byte(out))
	text, _, _ := runChrono(t, "-1.7e308\n1.7e308\n", "numbers")
	for _, bad := range []string{"Inf", "NaN", "0000000000"} {
		if strings.Contains(text, bad) {
			t.Errorf("text shows %q:\n%s", bad, text)
		}
	}
}

// TestStatsSmallSamples: one to three values have no Tukey fences (NaN),
// which once made --json fail; the text says what is undefined instead of
// printing zeros, and the too-few warning is not repeated.
func TestStatsSmallSamples(t *testing.T) {
	for _, in := range []string{"5\n", "5 6\n", "1 2 3\n"} {
		out, errs, code := runChrono(t, in, "numbers", "--json", "--percentiles", "0,50,100")
		if code != exitOK {
			t.Fatalf("%q --json: exit %d: %s", in, code, errs)
		}
		if _, err := result.Unmarshal([]byte(out)); err != nil {
			t.Errorf("%q --json: %v", in, err)
		}
	}
	out, _, code := runChrono(t, "5\n", "numbers")
	if code != exitOK || !strings.Contains(out, "undefined (sample, n-1") || !strings.Contains(out, "1 plain number from") ||
		!strings.Contains(out, "Tukey's fences need at least 4 values") {
		t.Errorf("n=1 text:\n%s", out)
	}
	if n := strings.Count(out, "confidence interval of the median"); n != 1 {
		t.Errorf("the median-interval minimum is said %d times, want once:\n%s", n, out)
	}
}

// TestStatsResolutionWarningReadable: the warning about values near the
// input's precision speaks in durations, not raw nanoseconds in e-notation.
func TestStatsResolutionWarningReadable(t *testing.T) {
	out, _, _ := runChrono(t, "0.7 0.8 0.9 0.8 0.7 0.9\n", "numbers", "-u", "ms")
	if !strings.Contains(out, "median 800 µs is less than 10 steps of 100 µs") || strings.Contains(out, "e+05") {
		t.Errorf("resolution warning:\n%s", out)
	}
}

// TestStatsFixedUnitDigits: -u s shows durations in seconds with the
// digits they are known to (never rounded to 0.0008 s by the unit).
func TestStatsFixedUnitDigits(t *testing.T) {
	out, _, _ := runChrono(t, "800us 900us 700us 1ms 850us 810us 820us 830us 840us 860us\n", "numbers", "-u", "s")
	if !strings.Contains(out, "min       0.000700 s") || !strings.Contains(out, "median    0.00084") {
		t.Errorf("-u s:\n%s", out)
	}
}

// TestStatsCompletion: --method completes to the method names.
func TestStatsCompletion(t *testing.T) {
	out, _, code := runChrono(t, "", "__complete", "numbers", "--method", "")
	if code != exitOK || !strings.Contains(out, "linear\n") || !strings.Contains(out, "hazen\n") || !strings.Contains(out, "inverted_cdf\n") {
		t.Errorf("completion (exit %d):\n%s", code, out)
	}
}

// TestStatsOldName: chrono stats, the old name of chrono numbers, prints
// what chrono numbers prints on standard output (the text; with --json a
// document and nothing else) and first a note on standard error; help
// and completion show only the new name.
func TestStatsOldName(t *testing.T) {
	in := "1 2 3 4 5 6 7 8 9 10\n"
	want, wantErr, code := runChrono(t, in, "numbers", "--percentiles", "50")
	if code != exitOK || wantErr != "" {
		t.Fatalf("numbers: exit %d, %s", code, wantErr)
	}
	out, errOut, code := runChrono(t, in, "stats", "--percentiles", "50")
	if code != exitOK || out != want || errOut != statsNote+"\n" {
		t.Errorf("stats: exit %d, stderr %q, stdout:\n%s\nwant exit 0, the note on stderr and the stdout of numbers:\n%s", code, errOut, out, want)
	}
	out, errOut, code = runChrono(t, in, "stats", "--json")
	if code != exitOK || errOut != statsNote+"\n" {
		t.Fatalf("stats --json: exit %d, stderr %q", code, errOut)
	}
	if d := decodeStrict(t, []byte(out)); d.Kind != result.KindNumbers {
		t.Errorf("stats --json wrote a %s document", d.Kind)
	}
	if _, errOut, code = runChrono(t, in, "stats", "--percentiles", "101"); code != exitUsage || !strings.HasPrefix(errOut, statsNote+"\n") {
		t.Errorf("stats, bad usage: exit %d, stderr %q; want exit 2 after the note", code, errOut)
	}
	help, _, _ := runChrono(t, "", "--help")
	if !strings.Contains(help, "  numbers ") || strings.Contains(help, "  stats ") {
		t.Errorf("chrono --help lists:\n%s\nwant numbers and not stats", help)
	}
	comp, _, _ := runChrono(t, "", "__complete", "s")
	if strings.Contains(comp, "stats") || !strings.Contains(comp, "stat\t") {
		t.Errorf("completion of s:\n%s\nwant stat, not stats", comp)
	}
	if help, _, _ := runChrono(t, "", "stats", "--help"); !strings.Contains(help, "chrono numbers") {
		t.Errorf("chrono stats --help:\n%s\nwant chrono numbers in the examples", help)
	}
}
