package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/result"
)

func TestStatsGolden(t *testing.T) {
	tests := []struct {
		golden string
		stdin  string
		args   []string
	}{
		{"stats-seq.golden", seq(1, 100), []string{"stats"}},
		{"stats-durations.golden", "", []string{"stats", "--histogram", "--bins", "4", "testdata/stats-durations.txt"}},
		{"stats-method.golden", seq(1, 10), []string{"stats", "--method", "inverted_cdf", "-p", "0,25,50,100"}},
		{"stats-unit.golden", "1.5 2 2.5 3 3.5 4\n", []string{"stats", "--unit", "ms", "-p", "50"}},
		{"stats-skip.golden", "1 2 x 3\n4 5 6 oops\n", []string{"stats", "--skip-invalid", "-p", "50", "-"}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			out, errs, code := runChrono(t, tt.stdin, tt.args...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr %s", code, errs)
			}
			golden(t, tt.golden, []byte(out))
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
		{"bad token", "1 2\n3 x\n", []string{"stats"}, exitFailure, `stdin:2:3: "x" is not a number`},
		{"empty", "\n\n", []string{"stats"}, exitFailure, "no numbers in the input"},
		{"mixed", "1ms 2\n", []string{"stats"}, exitFailure, "pass --unit"},
		{"bad method", "1", []string{"stats", "--method", "r7"}, exitUsage, `unknown percentile method "r7"`},
		{"bad percentile", "1", []string{"stats", "-p", "101"}, exitUsage, "101"},
		{"bad unit", "1", []string{"stats", "--unit", "min"}, exitUsage, `unknown time unit "min"`},
		{"missing file", "", []string{"stats", "/nonexistent/x"}, exitFailure, "no such file"},
		{"two files", "", []string{"stats", "a", "b"}, exitUsage, "accepts at most 1 arg"},
		{"bad flag", "", []string{"stats", "--nope"}, exitUsage, "unknown flag: --nope"},
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
			if strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Errorf("error is not one line: %q", errs)
			}
		})
	}
}

func TestStatsJSON(t *testing.T) {
	out, errs, code := runChrono(t, "10us 20us 30us 40us 50us 60us 1ms\n", "stats", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	doc, err := result.Unmarshal([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Kind != "numbers" || len(doc.Measurements) != 1 {
		t.Fatalf("document: %+v", doc)
	}
	m := doc.Measurements[0].Metric("value")
	if m == nil || m.Unit != "ns" || len(m.Values) != 7 || m.Values[6] != 1e6 {
		t.Fatalf("metric: %+v", m)
	}
	if m.Summary.Median != 40e3 || m.PercentileMethod != "linear" || m.Percentiles["p50"] != 40e3 {
		t.Errorf("summary %+v, percentiles %v (%s)", m.Summary, m.Percentiles, m.PercentileMethod)
	}
	// The file form and "-" read the same data.
	path := filepath.Join(t.TempDir(), "n.txt")
	os.WriteFile(path, []byte("10us 20us 30us 40us 50us 60us 1ms\n"), 0o644)
	out2, _, _ := runChrono(t, "", "stats", "--json", path)
	doc2, err := result.Unmarshal([]byte(out2))
	if err != nil || doc2.Measurements[0].Metric("value").Summary.Median != 40e3 {
		t.Errorf("file form: %v", err)
	}
}

// TestStatsSmallSamples: one to three values have no Tukey fences (NaN),
// which once made --json fail; the text says what is undefined instead of
// printing zeros, and the too-few warning is not repeated.
func TestStatsSmallSamples(t *testing.T) {
	for _, in := range []string{"5\n", "5 6\n", "1 2 3\n"} {
		out, errs, code := runChrono(t, in, "stats", "--json", "-p", "0,50,100")
		if code != exitOK {
			t.Fatalf("%q --json: exit %d: %s", in, code, errs)
		}
		if _, err := result.Unmarshal([]byte(out)); err != nil {
			t.Errorf("%q --json: %v", in, err)
		}
	}
	out, _, code := runChrono(t, "5\n", "stats")
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
	out, _, _ := runChrono(t, "0.7 0.8 0.9 0.8 0.7 0.9\n", "stats", "--unit", "ms")
	if !strings.Contains(out, "median 800 µs is less than 10 steps of 100 µs") || strings.Contains(out, "e+05") {
		t.Errorf("resolution warning:\n%s", out)
	}
}

// TestStatsFixedUnitDigits: --unit s shows the digits the input has
// (850 µs is 0.0008500 s, not a rounded 0.0008 s).
func TestStatsFixedUnitDigits(t *testing.T) {
	out, _, _ := runChrono(t, "800us 900us 700us 1ms 850us\n", "stats", "--unit", "s")
	if !strings.Contains(out, "median        0.0008500 s") {
		t.Errorf("--unit s:\n%s", out)
	}
}
