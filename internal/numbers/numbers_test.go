package numbers

import (
	"fmt"
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
