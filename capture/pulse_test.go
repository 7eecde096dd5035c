package capture_test

import (
	"reflect"
	"testing"

	"github.com/chronograph/chronograph/capture"
)

// want is what a channel's pulses must be; nil slices mean none.
type want struct {
	high, low, rise, fall []uint64
	duty                  []float64
	glitches              []capture.Glitch
	rises, falls          int
	unknown, open         int
}

func analyze(t *testing.T, path string, spec capture.Spec) *capture.Analysis {
	t.Helper()
	r, err := capture.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	a, err := capture.Analyze(r, spec)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func checkPulses(t *testing.T, p capture.Pulses, w want) {
	t.Helper()
	eq := func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s %s = %v, want %v", p.Channel.Name, what, got, want)
		}
	}
	eq("high widths", p.High.Values, w.high)
	eq("low widths", p.Low.Values, w.low)
	eq("rise periods", p.RisePeriods.Values, w.rise)
	eq("fall periods", p.FallPeriods.Values, w.fall)
	eq("duty", p.Duty.Values, w.duty)
	eq("glitches", p.Glitches, w.glitches)
	eq("rises", p.Rises, w.rises)
	eq("falls", p.Falls, w.falls)
	eq("unknown", p.Unknown, w.unknown)
	eq("open", p.Open, w.open)
	for _, x := range [][]uint64{p.High.Values, p.Low.Values, p.RisePeriods.Values, p.FallPeriods.Values} {
		for _, v := range x {
			if v == 0 {
				t.Errorf("%s: a width or period of 0", p.Channel.Name)
			}
		}
	}
}

func u(v ...uint64) []uint64   { return v }
func f(v ...float64) []float64 { return v }

// TestPulses reads the hand-written captures (testdata/pulses.vcd,
// dumpoff.vcd, latency.csv: their timelines are in the comments here) and
// checks every width, period, duty cycle, glitch and count exactly.
func TestPulses(t *testing.T) {
	L, H := capture.Low, capture.High
	tests := []struct {
		file     string
		channel  string
		minWidth uint64
		want     want
	}{
		// clk: rises at 10, 20, ..., 50, falls 4 later; the capture ends at 60.
		{"pulses.vcd", "clk", 0, want{high: u(4, 4, 4, 4, 4), low: u(6, 6, 6, 6), rise: u(10, 10, 10, 10), fall: u(10, 10, 10, 10),
			duty: f(0.4, 0.4, 0.4, 0.4), rises: 5, falls: 5, open: 2}},
		// The alias names the same variable.
		{"pulses.vcd", "top.cpu.clk", 0, want{high: u(4, 4, 4, 4, 4), low: u(6, 6, 6, 6), rise: u(10, 10, 10, 10), fall: u(10, 10, 10, 10),
			duty: f(0.4, 0.4, 0.4, 0.4), rises: 5, falls: 5, open: 2}},
		// irq: high 12-14, 25-27, 28-30, 42-44, 50-52.
		{"pulses.vcd", "irq", 0, want{high: u(2, 2, 2, 2, 2), low: u(11, 1, 12, 6), rise: u(13, 3, 14, 8), fall: u(13, 3, 14, 8),
			duty: f(2.0/13, 2.0/3, 2.0/14, 2.0/8), rises: 5, falls: 5, open: 2}},
		// MinWidth 2: the low 27-28 is a glitch; 25-30 is one pulse.
		{"pulses.vcd", "irq", 2, want{high: u(2, 5, 2, 2), low: u(11, 12, 6), rise: u(13, 17, 8), fall: u(16, 14, 8),
			duty: f(2.0/13, 5.0/17, 2.0/8), glitches: []capture.Glitch{{Start: 27, Width: 1, Level: L}}, rises: 4, falls: 4, open: 2}},
		// task: high 17-19, 31-33, 38-39, 42-44, and from 58 to the end.
		{"pulses.vcd", "task", 0, want{high: u(2, 2, 1, 2), low: u(12, 5, 3, 14), rise: u(14, 7, 4, 16), fall: u(14, 6, 5),
			duty: f(2.0/14, 2.0/7, 1.0/4, 2.0/16), rises: 5, falls: 4, open: 2}},
		// bus [3:0], as a whole (reduction OR): 0 until 5, 0101 5-8, 0
		// 8-20, 1x00 20-23 (high: a bit is 1), 0x00 23-26 (unknown),
		// 0000 26-30, 0010 30-33, zzzz 33-36, 0 from 36.
		{"pulses.vcd", "bus", 0, want{high: u(3), low: u(12), rise: u(15), duty: f(0.2), rises: 3, falls: 1, unknown: 3, open: 2}},
		// bit 1: 1 only 30-33, then z.
		{"pulses.vcd", "bus[1]", 0, want{rises: 1, unknown: 1, open: 2}},
		// bit 2: 1 at 5-8, x 20-26, z 33-36.
		{"pulses.vcd", "top.bus[2]", 0, want{high: u(3), rises: 1, falls: 1, unknown: 2, open: 2}},
		// vref, a real: nonzero 10-15 and 40-45.
		{"pulses.vcd", "vref", 0, want{high: u(5, 5), low: u(25), rise: u(30), fall: u(30), duty: f(5.0 / 30), rises: 2, falls: 2, open: 2}},
		// noisy: high 10-18, low 18-19, high 19-30 with a delta-cycle low
		// at 24 (0 and 1 at one time), low 30-40, high 40-41, low 41-50,
		// high 50-55.
		{"pulses.vcd", "noisy", 0, want{high: u(8, 11, 1, 5), low: u(1, 10, 9), rise: u(9, 21, 10), fall: u(12, 11, 14),
			duty: f(8.0/9, 11.0/21, 1.0/10), glitches: []capture.Glitch{{Start: 24, Width: 0, Level: L}}, rises: 4, falls: 4, open: 2}},
		// MinWidth 2: the low 18-19 and the high 40-41 are glitches too.
		{"pulses.vcd", "noisy", 2, want{high: u(20, 5), low: u(20), rise: u(40), fall: u(25), duty: f(0.5),
			glitches: []capture.Glitch{{Start: 18, Width: 1, Level: L}, {Start: 24, Width: 0, Level: L}, {Start: 40, Width: 1, Level: H}},
			rises:    2, falls: 2, open: 2}},
		// sig: 0 1@2 0@5 1@7 0@9, $dumpoff (x) 10-20, 0@20 1@22 0@25 X@27
		// 0@28 1@30 0@33 ($dumpall 0 at 33) 1@36, end 40.
		{"dumpoff.vcd", "sig", 0, want{high: u(3, 2, 3, 3), low: u(2, 3), rise: u(5, 6), fall: u(4), duty: f(0.6, 0.5),
			rises: 5, falls: 4, unknown: 4, open: 2}},
		// other: 1 from the start until $dumpoff, then x and z only.
		{"dumpoff.vcd", "other", 0, want{open: 1}},
		// latency.csv, 2 MHz: irq high at samples 1-4 and 8-12, task 3-7
		// and 11-14, 16 samples.
		{"latency.csv", "irq", 0, want{high: u(3, 4), low: u(4), rise: u(7), fall: u(8), duty: f(3.0 / 7), rises: 2, falls: 2, open: 2}},
		{"latency.csv", "task", 0, want{high: u(4, 3), low: u(4), rise: u(8), fall: u(7), duty: f(0.5), rises: 2, falls: 2, open: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+tt.channel, func(t *testing.T) {
			a := analyze(t, "testdata/"+tt.file, capture.Spec{Channels: []string{tt.channel}, MinWidth: tt.minWidth})
			if len(a.Channels) != 1 {
				t.Fatalf("%d channels, want 1", len(a.Channels))
			}
			checkPulses(t, a.Channels[0], tt.want)
		})
	}
}

// TestBetween checks the pairing rules of capture.Between on
// testdata/pulses.vcd: irq rises at 12, 25, 28, 42, 50 and task at 17,
// 31, 38, 42, 58.
func TestBetween(t *testing.T) {
	irqRise := capture.EdgeRef{Channel: "irq", Edge: capture.Rise}
	taskRise := capture.EdgeRef{Channel: "task", Edge: capture.Rise}
	tests := []struct {
		name     string
		file     string
		b        capture.Between
		minWidth uint64
		ticks    []uint64
		// unmatched, extra, unprompted, unknown
		counts [4]int
	}{
		// 12->17, 25->31 (28 is extra: 25 still pending), 38 unprompted,
		// 42->42 (same time), 50->58.
		{"each irq to the next task", "pulses.vcd", capture.Between{From: irqRise, To: taskRise}, 0, u(5, 6, 0, 8), [4]int{0, 1, 1, 0}},
		// within 5: 25 expires at 31 (unmatched, and 31 unprompted), 28 is
		// still extra; 50 expires at 58.
		{"within 5", "pulses.vcd", capture.Between{From: irqRise, To: taskRise, Within: 5}, 0, u(5, 0), [4]int{2, 1, 3, 0}},
		// MinWidth 2 removes irq's low glitch at 27 (so no rise at 28) and
		// task's 1-tick pulse at 38.
		{"glitches removed", "pulses.vcd", capture.Between{From: irqRise, To: taskRise}, 2, u(5, 6, 0, 8), [4]int{0, 0, 0, 0}},
		// One channel, rise to fall: the high widths.
		{"rise to fall", "pulses.vcd", capture.Between{From: irqRise, To: capture.EdgeRef{Channel: "irq", Edge: capture.Fall}}, 0, u(2, 2, 2, 2, 2), [4]int{0, 0, 0, 0}},
		// The same edge: each rise answers the previous one (the periods),
		// the last one is left pending.
		{"rise to rise", "pulses.vcd", capture.Between{From: irqRise, To: irqRise}, 0, u(13, 3, 14, 8), [4]int{1, 0, 1, 0}},
		// bus: rises at 5, 20, 30; clk falls at 14, 24, ..., 54; the x at
		// 23-26 and the z at 33-36 cut the pending rises of 20 and 30.
		{"unknown levels", "pulses.vcd", capture.Between{From: capture.EdgeRef{Channel: "bus", Edge: capture.Rise}, To: capture.EdgeRef{Channel: "clk", Edge: capture.Fall}}, 0,
			u(9), [4]int{0, 0, 4, 2}},
		{"csv", "latency.csv", capture.Between{From: irqRise, To: taskRise}, 0, u(2, 3), [4]int{0, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := analyze(t, "testdata/"+tt.file, capture.Spec{Channels: []string{"irq"}, MinWidth: tt.minWidth, Between: []capture.Between{tt.b}})
			l := a.Between[0]
			if !reflect.DeepEqual(l.Ticks.Values, tt.ticks) {
				t.Errorf("latencies %v, want %v", l.Ticks.Values, tt.ticks)
			}
			if got := [4]int{l.Unmatched, l.Extra, l.Unprompted, l.Unknown}; got != tt.counts {
				t.Errorf("unmatched, extra, unprompted, unknown = %v, want %v", got, tt.counts)
			}
		})
	}
}
