package capture_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"regexp"
	"testing"

	"github.com/chronograph/chronograph/capture"
)

// errLine is the form of every error the text readers return.
var errLine = regexp.MustCompile(`^capture: line [1-9][0-9]*: [^\n\r]+$`)

// fuzzCapture reads in as format and checks the reader's and the
// analysis' properties: no panic; every error is one line "capture: line
// N: ..."; times never decrease, and stay within End; every change names
// a signal, a vector's bits are its width; then, analysing every signal
// with minWidth and one Between, widths and periods are at least
// minWidth ticks (and so positive), glitches shorter, duty cycles in
// [0, 1), and every run is counted once.
func fuzzCapture(t *testing.T, format capture.Format, in []byte, minWidth uint64) {
	r, err := capture.NewReader(bytes.NewReader(in), format)
	if err != nil {
		if !errLine.MatchString(err.Error()) {
			t.Fatalf("header error is not one line \"capture: line N: ...\": %q", err)
		}
		return
	}
	info := r.Info()
	if len(info.Signals) == 0 {
		t.Fatal("a capture without signals was accepted")
	}
	var last uint64
	for n := 0; ; n++ {
		c, err := r.Next()
		if errors.Is(err, io.EOF) {
			if r.End() < last {
				t.Fatalf("End %d before the last change at %d", r.End(), last)
			}
			break
		}
		if err != nil {
			if !errLine.MatchString(err.Error()) {
				t.Fatalf("error is not one line \"capture: line N: ...\": %q", err)
			}
			if _, err2 := r.Next(); err2 != err {
				t.Fatalf("after an error, Next returned %v, not the same error", err2)
			}
			return
		}
		if n > 0 && c.Time < last {
			t.Fatalf("time went back from %d to %d", last, c.Time)
		}
		last = c.Time
		if c.Signal < 0 || c.Signal >= len(info.Signals) {
			t.Fatalf("change of signal %d of %d", c.Signal, len(info.Signals))
		}
		s := info.Signals[c.Signal]
		if c.Bits != nil && len(c.Bits) != s.Width || c.Bits != nil && s.Width == 1 {
			t.Fatalf("%d bits for %s of width %d", len(c.Bits), s.Name, s.Width)
		}
		if c.Level > capture.HighZ {
			t.Fatalf("level %d", c.Level)
		}
	}

	// The analysis, of a fresh reader of the same input (which reads to
	// its end: no error now).
	r, err = capture.NewReader(bytes.NewReader(in), format)
	if err != nil {
		t.Fatal(err)
	}
	first := info.Signals[0].Name
	if len(info.Signals[0].Aliases) > 0 {
		first = info.Signals[0].Aliases[0]
	}
	spec := capture.Spec{MinWidth: minWidth, Between: []capture.Between{
		{From: capture.EdgeRef{Channel: first, Edge: capture.Rise}, To: capture.EdgeRef{Channel: info.Signals[len(info.Signals)-1].Name, Edge: capture.Fall}, Within: minWidth},
	}}
	for _, s := range info.Signals {
		spec.Channels = append(spec.Channels, s.Name)
	}
	a, err := capture.Analyze(r, spec)
	if err != nil {
		// A leaf name shared by two signals, or a name that is also a
		// bit select of another signal, is ambiguous: not this test's
		// business.
		return
	}
	m := max(minWidth, 1)
	for _, p := range a.Channels {
		for _, x := range [][]uint64{p.High.Values, p.Low.Values, p.RisePeriods.Values, p.FallPeriods.Values} {
			for _, v := range x {
				if v < m {
					t.Fatalf("%s: a width or period of %d ticks, under the minimum %d", p.Channel.Name, v, m)
				}
			}
		}
		for _, g := range p.Glitches {
			if g.Width >= m {
				t.Fatalf("%s: a glitch of %d ticks, not under %d", p.Channel.Name, g.Width, m)
			}
		}
		for _, d := range p.Duty.Values {
			if !(d > 0 && d < 1) {
				t.Fatalf("%s: duty cycle %v", p.Channel.Name, d)
			}
		}
		if len(p.Duty.Values) > len(p.RisePeriods.Values) || len(p.RisePeriods.Values) > max(p.Rises-1, 0) || len(p.FallPeriods.Values) > max(p.Falls-1, 0) {
			t.Fatalf("%s: %d duty cycles, %d rise periods of %d rises, %d fall periods of %d falls", p.Channel.Name, len(p.Duty.Values), len(p.RisePeriods.Values), p.Rises, len(p.FallPeriods.Values), p.Falls)
		}
	}
	for _, l := range a.Between {
		if l.Between.Within > 0 {
			for _, v := range l.Ticks.Values {
				if v > l.Between.Within {
					t.Fatalf("latency %d beyond within %d", v, l.Between.Within)
				}
			}
		}
	}
}

func addFiles(f *testing.F, paths ...string) {
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint64(0))
		f.Add(b, uint64(2))
	}
}

// FuzzVCD: the VCD reader and the analysis of what it reads, on any
// input (see fuzzCapture). Seeds: the committed captures, the error
// cases' kinds, and testdata/fuzz/FuzzVCD.
func FuzzVCD(f *testing.F) {
	addFiles(f, "testdata/pulses.vcd", "testdata/dumpoff.vcd", "testdata/demo-300.vcd", "testdata/icarus.vcd", "testdata/ghdl.vcd", "testdata/verilator.vcd")
	for _, s := range []string{"$", "$timescale 1 ns $end $var wire 8 ! d [7:0] $end $enddefinitions $end #0 b1x ! #1 bz ! #1 b0 ! #3 b1 !",
		"$var real 64 r v $end $enddefinitions $end r1 r #2 r0 r #3 rnan r #4 r-0 r", "$var wire 1 $ a $end $enddefinitions $end #0 1$ 0$ #9 1$"} {
		f.Add([]byte(s), uint64(1))
	}
	f.Fuzz(func(t *testing.T, in []byte, minWidth uint64) {
		fuzzCapture(t, capture.VCD, in, minWidth%8)
	})
}

// FuzzCSV: the sigrok CSV reader and the analysis of what it reads (see
// fuzzCapture). Seeds: the committed CSVs and testdata/fuzz/FuzzCSV.
func FuzzCSV(f *testing.F) {
	addFiles(f, "testdata/latency.csv", "testdata/demo-200.csv", "testdata/demo-200-dedup.csv")
	for _, s := range []string{"x", "0,1\n1,1\n1,0\n0,0\n", "; Samplerate: 1 MHz\nmicroseconds,logic\n1,0\n3,1\n7,0\n8,1\n"} {
		f.Add([]byte(s), uint64(1))
	}
	f.Fuzz(func(t *testing.T, in []byte, minWidth uint64) {
		fuzzCapture(t, capture.CSV, in, minWidth%8)
	})
}
