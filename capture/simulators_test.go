package capture_test

import (
	"reflect"
	"testing"

	"github.com/chronograph/chronograph/capture"
)

// TestIcarus reads a VCD written by Icarus Verilog 11 (testdata/icarus.vcd
// from testdata/icarus.v) and checks the pulses reasoned from the
// testbench: clk is x until 3, then rises at 8, 18, ..., 48 and falls 5
// later; irq is high 10-12 and 30-31, task_pin 17-24 and 34-38; count is
// x until 3, 0, 5 at 8, x010 at 18, 0 at 28, z000 at 33 and 0 at 38, and
// busy is Icarus' own |count, so it must pulse as count does.
func TestIcarus(t *testing.T) {
	countWant := want{high: u(20), rises: 1, falls: 1, unknown: 2, open: 1}
	tests := []struct {
		channel string
		want    want
	}{
		{"clk", want{high: u(5, 5, 5, 5, 5), low: u(5, 5, 5, 5), rise: u(10, 10, 10, 10), fall: u(10, 10, 10, 10),
			duty: f(0.5, 0.5, 0.5, 0.5), rises: 5, falls: 5, unknown: 1, open: 1}},
		{"irq", want{high: u(2, 1), low: u(18), rise: u(20), fall: u(19), duty: f(0.1), rises: 2, falls: 2, open: 2}},
		{"task_pin", want{high: u(7, 4), low: u(10), rise: u(17), fall: u(14), duty: f(7.0 / 17), rises: 2, falls: 2, open: 2}},
		{"count", countWant},
		{"busy", countWant},
		{"count[1]", want{high: u(10), rises: 1, falls: 1, unknown: 1, open: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.channel, func(t *testing.T) {
			a := analyze(t, "testdata/icarus.vcd", capture.Spec{Channels: []string{tt.channel}})
			checkPulses(t, a.Channels[0], tt.want)
			if a.Tick != (capture.Resolution{Num: 1, Den: 1e9}) || a.End != 60 {
				t.Errorf("tick %v end %d", a.Tick, a.End)
			}
		})
	}
	a := analyze(t, "testdata/icarus.vcd", capture.Spec{Channels: []string{"irq"}, Between: []capture.Between{{
		From: capture.EdgeRef{Channel: "irq", Edge: capture.Rise}, To: capture.EdgeRef{Channel: "task_pin", Edge: capture.Rise}}}})
	if got := a.Between[0].Ticks.Values; !reflect.DeepEqual(got, u(7, 4)) {
		t.Errorf("irq to task_pin: %v, want [7 4]", got)
	}
	r, err := capture.Open("testdata/icarus.vcd")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if in := r.Info(); in.Version != "Icarus Verilog" || in.Signals[2].Range != "[3:0]" || in.Signals[2].Kind != "reg" {
		t.Errorf("version %q, count %+v", in.Version, in.Signals[2])
	}
}

// TestGHDL reads a VCD written by GHDL 2.0 (testdata/ghdl.vcd from
// testdata/ghdl.vhd: 1 fs ticks, std_logic values U, H, L, - and W) and
// checks the pulses reasoned from the testbench: clk is U until 3 ns,
// then rises at 8, 18, ..., 48 ns and falls 5 ns later (GHDL writes no
// time after the last change, so the capture ends at the fall at 53 ns,
// which no run after it confirms); pin is 0, H at 10, L at 14, 1 at 20, -
// at 23, 0 at 25, Z at 35, 0 at 40; bus4 is UUUU, 0000 at 3, 0101 at 8,
// W010 at 18, 0000 at 28.
func TestGHDL(t *testing.T) {
	const ns = 1e6 // ticks
	tests := []struct {
		channel string
		want    want
	}{
		{"clk", want{high: u(5*ns, 5*ns, 5*ns, 5*ns), low: u(5*ns, 5*ns, 5*ns, 5*ns), rise: u(10*ns, 10*ns, 10*ns, 10*ns), fall: u(10*ns, 10*ns, 10*ns),
			duty: f(0.5, 0.5, 0.5, 0.5), rises: 5, falls: 4, unknown: 1, open: 2}},
		{"pin", want{high: u(4 * ns), low: u(6 * ns), rise: u(10 * ns), duty: f(0.4), rises: 2, falls: 1, unknown: 2, open: 2}},
		{"bus4", want{high: u(20 * ns), rises: 1, falls: 1, unknown: 1, open: 1}},
		{"bus4[1]", want{high: u(10 * ns), rises: 1, falls: 1, unknown: 1, open: 1}},
		{"tb.bus4[3]", want{unknown: 1, open: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.channel, func(t *testing.T) {
			a := analyze(t, "testdata/ghdl.vcd", capture.Spec{Channels: []string{tt.channel}})
			checkPulses(t, a.Channels[0], tt.want)
			if a.Tick != (capture.Resolution{Num: 1, Den: 1e15}) || a.End != 53*ns {
				t.Errorf("tick %v end %d", a.Tick, a.End)
			}
		})
	}
}

// TestVerilator reads a VCD written by Verilator 5.006 from the same
// testbench (verilator --binary --trace --timing --top-module tb
// icarus.v, with the dump file renamed): two-state, so no x or z, an
// extra TOP scope, doubled spaces and empty lines. The expected pulses
// are read off the file: clk 0, rising at 8, 18, ..., 48 and falling 5
// later, the capture ending at 60; irq and task_pin as with Icarus; busy
// 0 until 8, then 1 to the end.
func TestVerilator(t *testing.T) {
	tests := []struct {
		channel string
		want    want
	}{
		{"clk", want{high: u(5, 5, 5, 5, 5), low: u(5, 5, 5, 5), rise: u(10, 10, 10, 10), fall: u(10, 10, 10, 10),
			duty: f(0.5, 0.5, 0.5, 0.5), rises: 5, falls: 5, open: 2}},
		{"TOP.tb.irq", want{high: u(2, 1), low: u(18), rise: u(20), fall: u(19), duty: f(0.1), rises: 2, falls: 2, open: 2}},
		{"task_pin", want{high: u(7, 4), low: u(10), rise: u(17), fall: u(14), duty: f(7.0 / 17), rises: 2, falls: 2, open: 2}},
		{"busy", want{rises: 1, open: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.channel, func(t *testing.T) {
			a := analyze(t, "testdata/verilator.vcd", capture.Spec{Channels: []string{tt.channel}})
			checkPulses(t, a.Channels[0], tt.want)
			if a.Tick != (capture.Resolution{Num: 1, Den: 1e9}) || a.End != 60 {
				t.Errorf("tick %v end %d", a.Tick, a.End)
			}
		})
	}
}
