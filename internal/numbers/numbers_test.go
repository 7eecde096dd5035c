package numbers

import (
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/unit"
)

func TestRead(t *testing.T) {
	ms := unit.Millisecond
	tests := []struct {
		name      string
		in        string
		opts      Options
		want      []float64
		durations bool
		quantum   float64
		err       string
	}{
		{"bare", "1 2 3\n4,5\n", Options{}, []float64{1, 2, 3, 4, 5}, false, 1, ""},
		{"decimals", "1.25\n2.5", Options{}, []float64{1.25, 2.5}, false, 0.01, ""},
		{"suffixes", "12.5ms 800us\n3s\n", Options{}, []float64{12.5e6, 800e3, 3e9}, true, 1e3, ""},
		{"bare unit", "1.5 2\n", Options{BareUnit: &ms}, []float64{1.5e6, 2e6}, true, 1e5, ""},
		{"crlf and blank lines", "1\r\n\r\n  \n2\r\n", Options{}, []float64{1, 2}, false, 1, ""},
		{"bad token", "1 2\n3 x4\n", Options{}, nil, false, 0, "stdin:2:3: \"x4\" is not a number"},
		{"mixed", "1ms\n2\n", Options{}, nil, false, 0, "stdin:2:1: a bare number is mixed with durations"},
		{"skip", "1 bad 2\nworse\n", Options{SkipInvalid: true}, []float64{1, 2}, false, 1, ""},
		{"exponent", "1.25e3", Options{}, []float64{1250}, false, 10, ""},
		{"byte order mark", "\uFEFF1 2\n3\n", Options{}, []float64{1, 2, 3}, false, 1, ""},
		{"mark only at the start", "1\n\uFEFF2\n", Options{}, nil, false, 0, `stdin:2:1: "\ufeff2" is not a number`},
		{"out of range", "1\n1e400\n", Options{}, nil, false, 0, `stdin:2:1: "1e400" is out of range: a float64 holds magnitudes up to 1.8e308`},
		{"out of range negative", "-1e400", Options{}, nil, false, 0, `"-1e400" is out of range`},
		{"out of range in ns", "1e300h", Options{}, nil, false, 0, `"1e300h" is out of range in nanoseconds`},
		{"out of range with the unit", "1e306", Options{BareUnit: &unit.Second}, nil, false, 0, `"1e306" is out of range in nanoseconds`},
		{"below the subnormals", "1e-400 1", Options{}, []float64{0, 1}, false, 1, ""},
		{"near the float64 range", "-1.7e308 1.7e308", Options{}, []float64{-1.7e308, 1.7e308}, false, 1e307, ""},
		{"infinity", "inf", Options{}, nil, false, 0, `"inf" is not a finite number`},
		{"nan", "1 NaN", Options{}, nil, false, 0, `stdin:1:3: "NaN" is not a finite number`},
		{"hexadecimal", "0x1p-3", Options{}, nil, false, 0, `"0x1p-3" is not a number`},
		{"nul bytes", "1\n\x00\x00\n", Options{}, nil, false, 0, `stdin:2:1: "\x00\x00" is not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Read(strings.NewReader(tt.in), "stdin", tt.opts)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(d.Values) != fmt.Sprint(tt.want) {
				t.Errorf("values = %v, want %v", d.Values, tt.want)
			}
			if d.Durations != tt.durations {
				t.Errorf("durations = %v, want %v", d.Durations, tt.durations)
			}
			if rel := (d.Quantum - tt.quantum) / tt.quantum; rel > 1e-9 || rel < -1e-9 {
				t.Errorf("quantum = %g, want %g", d.Quantum, tt.quantum)
			}
		})
	}
}

func TestReadSkippedCount(t *testing.T) {
	d, err := Read(strings.NewReader("1 bad 2\nworse\n"), "f", Options{SkipInvalid: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Skipped != 2 || !strings.Contains(d.FirstSkipped, "f:1:3") {
		t.Errorf("skipped = %d (%s), want 2 starting at f:1:3", d.Skipped, d.FirstSkipped)
	}
}

func TestReadLongLine(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 100000; i++ {
		b.WriteString("7 ")
	}
	d, err := Read(strings.NewReader(b.String()), "stdin", Options{})
	if err != nil || len(d.Values) != 100000 {
		t.Fatalf("got %d values, err %v", len(d.Values), err)
	}
}

// TestReadHugeToken: 50 MB of NUL bytes is one bad token. Read fails at
// once, quoting a short prefix; with SkipInvalid it reads past the token
// keeping at most MaxToken bytes of it. (This took 10 s and 838 MB, and the
// error echoed the whole token.)
func TestReadHugeToken(t *testing.T) {
	nul := func() io.Reader { return io.LimitReader(zeros{}, 50<<20) }
	_, err := Read(nul(), "stdin", Options{})
	if err == nil || !strings.HasPrefix(err.Error(), `stdin:1:1: a token longer than 256 bytes, starting "\x00\x00`) || len(err.Error()) > 300 {
		t.Errorf("error %q (%d bytes)", err, len(fmt.Sprint(err)))
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d, err := Read(io.MultiReader(strings.NewReader("1 2\n"), nul(), strings.NewReader(" 3\n")), "f", Options{SkipInvalid: true})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(d.Values) != "[1 2 3]" || d.Skipped != 1 || d.Lines != 2 {
		t.Errorf("values %v, skipped %d, lines %d", d.Values, d.Skipped, d.Lines)
	}
	if !strings.HasPrefix(d.FirstSkipped, `f:2:1: "\x00`) || !strings.HasSuffix(d.FirstSkipped, "… (52428800 bytes)") || len(d.FirstSkipped) > 200 {
		t.Errorf("first skipped %q", d.FirstSkipped)
	}
	// Memory: the buffers and a bounded token, not the 50 MB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("reading 50 MB of one skipped token allocated %d bytes", alloc)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestQuoteCutsAtRune: a long bad token is quoted up to quoteMax bytes,
// cut where a character starts, so the quote shows no broken character.
func TestQuoteCutsAtRune(t *testing.T) {
	tok := []byte(strings.Repeat("µ", 40)) // 2 bytes each
	q := quote(tok)
	if q != strconv.Quote(strings.Repeat("µ", quoteMax/2))+"…" {
		t.Errorf("quote = %s", q)
	}
	if q := quote([]byte("short")); q != `"short"` {
		t.Errorf("quote(short) = %s", q)
	}
}

func TestReadLines(t *testing.T) {
	for in, want := range map[string]int{"": 0, "1": 1, "1\n": 1, "1\n\n2": 3, "\n\n": 2} {
		d, err := Read(strings.NewReader(in), "x", Options{})
		if err != nil || d.Lines != want {
			t.Errorf("%q: %d lines (%v), want %d", in, d.Lines, err, want)
		}
	}
}

func BenchmarkReadMillion(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 1000000; i++ {
		fmt.Fprintf(&sb, "%d.%03dms\n", i%997, i%1000)
	}
	in := sb.String()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := Read(strings.NewReader(in), "stdin", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
