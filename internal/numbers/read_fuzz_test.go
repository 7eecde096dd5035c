package numbers_test

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/numbers"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// FuzzRead is `chrono stats` end to end on any input: numbers.Read with
// the options the flags give (skip invalid tokens, a unit for bare
// numbers), then the document with a histogram and every summary, then
// its text rendering. Properties: no panic; an error is one line that
// quotes at most a short prefix of the bad token (MaxToken bytes are
// kept per token); every value read is finite, the quantum is finite and
// not negative, the line count is the input's; with --skip-invalid only
// mixing bare numbers with durations is an error; the document reads
// back (result.Unmarshal validates its histogram) and renders. Seeds: the
// README's example input, chrono stats' golden inputs, and the extremes
// of the issue (-1e308/1e308, ±1.7e308, subnormals, NUL bytes, a BOM,
// 1e400, huge counts of one value), issue 18's whole minutes and hours
// and values near 1e-170, 1e-300 and 1e300.
func FuzzRead(f *testing.F) {
	for _, path := range []string{"../../docs/example-latencies.txt", "../../cmd/chrono/testdata/stats-durations.txt"} {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(0))
	}
	for _, s := range []string{"-1e308\n1e308\n", "1.7e308 -1.7e308 1.7976931348623157e308", "5e-324 1e-320 0 -5e-324", "\x00\x00\x00",
		"\uFEFF1 2 3", "1e400", "1e308h", "12.5ms,800us 3s\r\n42", "1 2ms", "0x1p-2", "NaN inf -Inf", strings.Repeat("7 ", 5000),
		strings.Repeat("9", 300), "1,,2,\n\n3", "1.000 1.00 1.0",
		// Issue 18: exact inputs the digits rule rounded (2 min printed
		// as 100 s) and tiny values whose spread underflowed to 0.
		"2m\n3m\n4m\n5m\n7m\n", "1h 2m", "1.5h 2.5h 1.1h", "5", "5 5 5 5 5 5", "1e-170 2e-170 3e-170 4e-170 5e-170 6e-170",
		"1e-300 2e-300 3e-300 4e-300 5e-300 6e-300", "1e300 2e300 3e300 4e300 5e300 6e300"} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(0xff))
	}
	units := []*unit.Unit{nil, &unit.Nanosecond, &unit.Millisecond, &unit.Second}
	f.Fuzz(func(t *testing.T, in []byte, flags uint8) {
		opts := numbers.Options{SkipInvalid: flags&1 != 0, BareUnit: units[int(flags>>1)%len(units)]}
		data, err := numbers.Read(bytes.NewReader(in), "in", opts)
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "in:") || strings.ContainsAny(msg, "\n\r") || len(msg) > 400 {
				t.Fatalf("error is not one short line starting with the input's name (%d bytes): %.1000q", len(msg), msg)
			}
			if opts.SkipInvalid && !strings.Contains(msg, "mixed with durations") {
				t.Fatalf("--skip-invalid still failed: %s", msg)
			}
			return
		}
		lines := bytes.Count(in, []byte("\n"))
		if len(in) > 0 && in[len(in)-1] != '\n' {
			lines++
		}
		if data.Lines != lines || math.IsNaN(data.Quantum) || math.IsInf(data.Quantum, 0) || data.Quantum < 0 {
			t.Fatalf("lines %d (want %d), quantum %g", data.Lines, lines, data.Quantum)
		}
		for _, v := range data.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("value %g read", v)
			}
		}
		if len(data.Values) == 0 {
			return
		}
		s := numbers.Summary{Source: "in", Method: stats.Methods[int(flags>>3)%len(stats.Methods)], Percentiles: []float64{0, 50, 99.9, 100},
			Confidence: 0.95, Bins: 1 + int(flags>>5)*20, TimeUnit: opts.BareUnit}
		d := numbers.Document(data, s, result.Meta{Tool: result.Tool{Name: "chrono", Version: "fuzz"}})
		var b bytes.Buffer
		if err := result.Encode(&b, d); err != nil {
			t.Fatalf("document does not encode: %v", err)
		}
		back, err := result.Unmarshal(b.Bytes())
		if err != nil {
			t.Fatalf("document does not read back: %v", err)
		}
		b.Reset()
		if err := report.Render(&b, report.Subject{Docs: []*result.Document{back}}, report.Text, report.Options{}); err != nil {
			t.Fatalf("text rendering: %v", err)
		}
	})
}
