package capture_test

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/capture"
	"github.com/chronograph/chronograph/internal/crosstest"
)

func readAll(t *testing.T, r *capture.Reader) []capture.Change {
	t.Helper()
	var out []capture.Change
	for {
		c, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		c.Bits = append([]byte(nil), c.Bits...)
		out = append(out, c)
	}
}

// TestInfo checks the metadata each format gives.
func TestInfo(t *testing.T) {
	tests := []struct {
		file       string
		format     capture.Format
		tick, res  capture.Resolution
		rate       uint64
		version    string
		device     string
		names      []string
		trigger    uint64
		hasTrigger bool
		warnings   []string
		end        uint64
	}{
		{file: "pulses.vcd", format: capture.VCD, tick: capture.Resolution{Num: 10, Den: 1e9}, res: capture.Resolution{Num: 10, Den: 1e9},
			version: "hand-written for chronograph's capture tests", names: []string{"top.clk", "top.irq", "top.task", "top.bus", "top.vref", "top.cpu.noisy"}, end: 60},
		{file: "demo-300.vcd", format: capture.VCD, tick: capture.Resolution{Num: 1, Den: 1e6}, res: capture.Resolution{Num: 1, Den: 1e6}, rate: 1e6,
			version: "libsigrok 0.5.2", names: []string{"libsigrok.D0", "libsigrok.D1", "libsigrok.D2"}, end: 300},
		{file: "demo-200.csv", format: capture.CSV, tick: capture.Resolution{Num: 1, Den: 2e6}, res: capture.Resolution{Num: 1, Den: 2e6}, rate: 2e6,
			version: "libsigrok 0.5.2", device: "Demo driver and pattern generator", names: []string{"D0", "D1", "D2"}, end: 200},
		{file: "latency.csv", format: capture.CSV, tick: capture.Resolution{Num: 1, Den: 2e6}, res: capture.Resolution{Num: 1, Den: 2e6}, rate: 2e6,
			version: "libsigrok 0.5.2", device: "hand-written for chronograph's capture tests", names: []string{"irq", "task"},
			trigger: 3, hasTrigger: true, warnings: []string{"capture-analog-ignored"}, end: 16},
		{file: "demo-300.sr", format: capture.Session, tick: capture.Resolution{Num: 1, Den: 1e6}, res: capture.Resolution{Num: 1, Den: 1e6}, rate: 1e6,
			version: "libsigrok 0.5.2", names: []string{"D0", "D1", "D2"}, end: 300},
		{file: "dumpoff.vcd", format: capture.VCD, tick: capture.Resolution{Num: 1, Den: 1e6}, res: capture.Resolution{Num: 1, Den: 1e6},
			names: []string{"t.sig", "t.other"}, end: 40},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, err := capture.Open("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			readAll(t, r)
			in := r.Info()
			var names, codes []string
			for _, s := range in.Signals {
				names = append(names, s.Name)
			}
			for _, w := range in.Warnings {
				codes = append(codes, w.Code)
			}
			got := []any{in.Format, in.Tick, in.Resolution(), in.SampleRate, in.Version, in.Device, names, in.Trigger, in.HasTrigger, codes, r.End()}
			want := []any{tt.format, tt.tick, tt.res, tt.rate, tt.version, tt.device, tt.names, tt.trigger, tt.hasTrigger, tt.warnings, tt.end}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("format, tick, resolution, rate, version, device, names, trigger, has trigger, warnings, end =\n%v, want\n%v", got, want)
			}
		})
	}
}

// TestVCDDetails: aliases, ranges, date and comments, vector values
// extended to the width, reals.
func TestVCDDetails(t *testing.T) {
	r, err := capture.Open("testdata/pulses.vcd")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	in := r.Info()
	if in.Date != "Mon Dec 1 12:00:00 2026" || len(in.Comments) != 1 || !strings.HasPrefix(in.Comments[0], "Known widths") {
		t.Errorf("date %q, comments %q", in.Date, in.Comments)
	}
	clk := in.Signals[0]
	if clk.Code != "!" || !reflect.DeepEqual(clk.Aliases, []string{"top.cpu.clk"}) || clk.Kind != "wire" {
		t.Errorf("clk = %+v", clk)
	}
	bus := in.Signals[3]
	if bus.Width != 4 || bus.Range != "[3:0]" {
		t.Errorf("bus = %+v", bus)
	}
	if !in.Signals[4].Real() {
		t.Errorf("vref is not real: %+v", in.Signals[4])
	}
	var values []string
	var levels []capture.Level
	var reals []float64
	for _, c := range readAll(t, r) {
		switch c.Signal {
		case 3:
			values = append(values, string(c.Bits))
			levels = append(levels, c.Level)
		case 4:
			reals = append(reals, c.Real)
		}
	}
	wantValues := []string{"0000", "0101", "0000", "1x00", "0x00", "0000", "0010", "zzzz", "0000"}
	L, H, X, Z := capture.Low, capture.High, capture.Unknown, capture.HighZ
	wantLevels := []capture.Level{L, H, L, H, X, L, H, Z, L}
	if !reflect.DeepEqual(values, wantValues) || !reflect.DeepEqual(levels, wantLevels) {
		t.Errorf("bus values %q levels %v, want %q %v", values, levels, wantValues, wantLevels)
	}
	if want := []float64{0, 1.5, 0, 2.5e-3, 0}; !reflect.DeepEqual(reals, want) {
		t.Errorf("vref %v, want %v", reals, want)
	}
}

// TestLookup: full names, aliases, leaves, bit selects and their errors.
func TestLookup(t *testing.T) {
	r, err := capture.Open("testdata/pulses.vcd")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	in := r.Info()
	tests := []struct {
		name string
		want capture.Channel
		err  string
	}{
		{name: "top.clk", want: capture.Channel{Name: "top.clk", Signal: 0, Bit: -1}},
		{name: "top.cpu.clk", want: capture.Channel{Name: "top.clk", Signal: 0, Bit: -1}},
		{name: "clk", want: capture.Channel{Name: "top.clk", Signal: 0, Bit: -1}},
		{name: "noisy", want: capture.Channel{Name: "top.cpu.noisy", Signal: 5, Bit: -1}},
		{name: "bus[0]", want: capture.Channel{Name: "top.bus[0]", Signal: 3, Bit: 0}},
		{name: "top.bus[3]", want: capture.Channel{Name: "top.bus[3]", Signal: 3, Bit: 3}},
		{name: "bus[4]", err: "capture: \"bus[4]\": top.bus has no bit 4 (width 4[3:0])"},
		{name: "bus[a]", err: "capture: \"bus[a]\": bit select [a] is not a bit number"},
		{name: "vref[0]", err: "has no bit 0"},
		{name: "nope", err: "capture: no signal \"nope\" in the capture (it has top.clk, top.irq, top.task, top.bus, top.vref, top.cpu.noisy)"},
	}
	for _, tt := range tests {
		got, err := in.Lookup(tt.name)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Lookup(%q) error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
	// A leaf two signals share is ambiguous.
	amb := "$timescale 1 ns $end $scope module a $end $var wire 1 ! x $end $upscope $end $scope module b $end $var wire 1 \" x $end $upscope $end $enddefinitions $end"
	r2, err := capture.NewReader(strings.NewReader(amb), capture.VCD)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r2.Info().Lookup("x"); err == nil || !strings.Contains(err.Error(), "names both a.x and b.x") {
		t.Errorf("ambiguous leaf: %v", err)
	}
}

// TestRangeMSBFirst: with a declared range [0:7], bit 0 is the most
// significant.
func TestRangeMSBFirst(t *testing.T) {
	in := "$timescale 1 ns $end $var wire 8 ! d [0:7] $end $enddefinitions $end #0 b10000000 ! #3 b0 ! #4"
	r, err := capture.NewReader(strings.NewReader(in), capture.VCD)
	if err != nil {
		t.Fatal(err)
	}
	a, err := capture.Analyze(r, capture.Spec{Channels: []string{"d[0]", "d[7]"}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Channels[0].Falls != 1 || a.Channels[1].Falls != 0 {
		t.Errorf("d[0] falls %d, d[7] falls %d; want 1, 0", a.Channels[0].Falls, a.Channels[1].Falls)
	}
}

// TestErrors: every bad capture gives one line, "capture: line N: ...",
// naming the problem.
func TestErrors(t *testing.T) {
	hdr := "$timescale 1 ns $end\n$scope module t $end\n$var wire 1 ! a $end\n$var wire 4 \" v $end\n$var real 64 # r $end\n$upscope $end\n$enddefinitions $end\n"
	csvHdr := "; Samplerate: 1 MHz\nD0,D1\n"
	tests := []struct {
		name, in, want string
	}{
		{"truncated header", "$timescale 1 ns $end\n$scope module t $end\n$var wire 1 ! a $end\n", "capture: line 3: truncated: the file ends before $enddefinitions"},
		{"truncated section", "$timescale 1 ns", "capture: line 1: truncated: the file ends inside $timescale"},
		{"truncated vector", hdr + "#0\nb0101", "capture: line 9: truncated: the file ends inside the value change \"b0101\""},
		{"truncated dumpvars", hdr + "#0\n$dumpvars\n0!\n", "capture: line 10: truncated: the file ends inside $dumpvars"},
		{"wrong timescale", "$timescale 5 ns $end\n", "capture: line 1: timescale \"5 ns\" is not 1, 10 or 100"},
		{"unsupported unit", "\n$timescale\n  1 ks\n$end\n", "capture: line 2: timescale \"1 ks\" has unit \"ks\""},
		{"second timescale", "$timescale 1 ns $end\n$timescale 1 us $end\n", "capture: line 2: a second $timescale (the first is on line 1)"},
		{"non-monotonic", hdr + "#10\n1!\n#5\n0!\n", "capture: line 10: time #5 comes after #10"},
		{"bad time", hdr + "#1e3\n", "capture: line 8: time \"#1e3\" is not a whole number"},
		{"time overflow", hdr + "#18446744073709551616\n", "capture: line 8: time \"#18446744073709551616\" is not a whole number"},
		{"binary junk", "\x7fELF\x02\x01\x01\x00", "capture: line 1: binary data (byte 0x7f): not a text CSV capture"},
		{"binary in a VCD", hdr + "#0\n1!\x00\x00", "capture: line 9: binary data (byte 0x00): not a text VCD capture"},
		{"1-byte VCD", "$", "capture: line 1: truncated: the file ends inside $"},
		{"1-byte CSV", "x", "capture: line 1: no samples: the CSV ends before its first row"},
		{"1-byte newline", "\n", "capture: line 1: no samples"},
		{"empty", "", "capture: line 1: no samples"},
		{"channel named twice", "$timescale 1 ns $end\n$var wire 1 ! a $end\n$var wire 1 \" a $end\n$enddefinitions $end\n", "capture: line 3: signal a declared twice (line 2 and line 3)"},
		{"code two widths", "$timescale 1 ns $end\n$var wire 1 ! a $end\n$var wire 2 ! b $end\n$enddefinitions $end\n", "capture: line 3: identifier code \"!\" declared as wire 1 bits wide and as wire 2 bits wide"},
		{"unknown code", hdr + "#0\n1?\n", "capture: line 9: unknown identifier code \"?\""},
		{"unknown vector code", hdr + "#0\nb1 ?\n", "capture: line 9: unknown identifier code \"?\""},
		{"value without code", hdr + "#0\n1\n", "capture: line 9: value \"1\" has no identifier code"},
		{"not a value", hdr + "#0\nq!\n", "capture: line 9: \"q!\" is not a value change"},
		{"vector too wide", hdr + "#0\nb10101 \"\n", "capture: line 9: vector value of 5 bits for a 4-bit variable"},
		{"bad vector bit", hdr + "#0\nb1021 \"\n", "capture: line 9: vector value \"b1021\": '2' is not 0, 1, x or z"},
		{"real to a bit", hdr + "#0\nr1.5 !\n", "capture: line 9: real value \"r1.5\" given to a 1-bit variable"},
		{"bit to a real", hdr + "#0\n1#\n", "capture: line 9: \"1#\" gives a bit to a real variable"},
		{"bad real", hdr + "#0\nrabc #\n", "capture: line 9: real value \"rabc\" is not a number"},
		{"var after header", hdr + "#0\n$var wire 1 $ b $end\n", "capture: line 9: $var after $enddefinitions"},
		{"stray end", hdr + "#0\n$end\n", "capture: line 9: $end without a $dumpvars"},
		{"missing end", "$timescale 1 ns $end\n$var wire 1 ! a\n$var wire 1 \" b $end\n", "capture: line 3: $var inside $var: its $end is missing"},
		{"upscope", "$timescale 1 ns $end\n$upscope $end\n", "capture: line 2: $upscope without an open $scope"},
		{"bad size", "$timescale 1 ns $end\n$var wire 0 ! a $end\n", "capture: line 2: $var a: size \"0\" is not a positive number of bits"},
		{"no vars", "$timescale 1 ns $end\n$enddefinitions $end\n", "capture: line 2: no $var before $enddefinitions"},
		{"junk in header", "$timescale 1 ns $end\nhello\n", "capture: line 2: \"hello\" before $enddefinitions"},
		{"csv ragged row", csvHdr + "0,1\n1,1\n1\n", "capture: line 5: row has 1 fields, the first row has 2 (a ragged row"},
		{"csv ragged label", "D0,D1,D2\n0,1\n", "capture: line 2: row has 2 fields, the label line has 3"},
		{"csv bad value", csvHdr + "0,1\n0,2\n", "capture: line 4: channel D1: value \"2\" is not 0 or 1"},
		{"csv channel twice", "D0,D0\n0,1\n", "capture: line 2: channel D0 named twice"},
		{"csv time backwards", "; Samplerate: 1 MHz\nmicroseconds,logic\n1,0\n3,1\n2,0\n", "capture: line 5: time 2 after 3: the times of the rows must increase"},
		{"csv time off the period", "; Samplerate: 2 MHz\nnanoseconds,logic\n500,0\n700,1\n", "capture: line 4: time 700 is not a whole number of sample periods (500 per sample at 2000000 Hz)"},
		{"csv time unit", "; Samplerate: 2 MHz\nmicroseconds,logic\n1,0\n2,1\n", "capture: line 2: the time column is in microseconds, but sigrok writes the times of a 2000000 Hz capture in nanoseconds"},
		{"csv bad rate", "; Samplerate: fast\n0\n", "capture: line 1: sample rate \" fast\" is not a number of hertz"},
		{"csv channel count", "; Channels (3/8): D0, D1, D2\n0,1\n", "capture: line 2: the header lists 3 channels, the rows have 2 channel columns"},
		{"csv analog only", "A0\n0.5\n", "capture: line 2: no logic channels"},
	}
	oneLine := regexp.MustCompile(`^capture: line [0-9]+: [^\n]+$`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(crosstest.TempDir(t), "capture")
			if err := os.WriteFile(path, []byte(tt.in), 0o644); err != nil {
				t.Fatal(err)
			}
			err := readFile(path)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tt.want) || !oneLine.MatchString(msg) {
				t.Errorf("error\n%s\nwant one line starting\n%s", msg, tt.want)
			}
		})
	}
}

// readFile opens and reads a whole capture, returning its first error.
func readFile(path string) error {
	r, err := capture.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	for {
		if _, err := r.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// TestSessionErrors: damaged session files.
func TestSessionErrors(t *testing.T) {
	good, err := os.ReadFile("testdata/demo-300.sr")
	if err != nil {
		t.Fatal(err)
	}
	members := readZip(t, good)
	tests := []struct {
		name   string
		change func(m map[string][]byte)
		want   string
	}{
		{"no metadata", func(m map[string][]byte) { delete(m, "metadata") }, "capture: no member \"metadata\": not a sigrok session file"},
		{"version 3", func(m map[string][]byte) { m["version"] = []byte("3") }, "capture: version: session file version \"3\": this reader knows versions 1 and 2"},
		{"channel twice", func(m map[string][]byte) {
			m["metadata"] = bytes.Replace(m["metadata"], []byte("probe2=D1"), []byte("probe2=D0"), 1)
		}, "capture: metadata: channel D0 named twice (probe1 and probe2)"},
		{"bad unitsize", func(m map[string][]byte) {
			m["metadata"] = bytes.Replace(m["metadata"], []byte("unitsize=1"), []byte("unitsize=0"), 1)
		}, "capture: metadata: unitsize \"0\" is not a number of bytes from 1 to 64"},
		{"probe beyond unitsize", func(m map[string][]byte) {
			m["metadata"] = bytes.Replace(m["metadata"], []byte("probe3=D2"), []byte("probe9=D2"), 1)
		}, "capture: metadata: probe9 is beyond the 8 bits of a 1-byte sample"},
		{"missing chunk", func(m map[string][]byte) { m["logic-1-3"] = m["logic-1-1"] }, "capture: logic-1-2 is missing"},
		{"cut sample", func(m map[string][]byte) {
			m["metadata"] = bytes.Replace(m["metadata"], []byte("unitsize=1"), []byte("unitsize=7"), 1)
		}, "capture: logic-1-1: its length is not a whole number of 7-byte samples"},
		{"bad rate", func(m map[string][]byte) {
			m["metadata"] = bytes.Replace(m["metadata"], []byte("samplerate=1 MHz"), []byte("samplerate=1 Mhz?"), 1)
		}, "capture: metadata: sample rate \"1 Mhz?\" is not a number of hertz"},
		{"ini junk", func(m map[string][]byte) { m["metadata"] = append(m["metadata"], []byte("junk\n")...) }, "capture: metadata: line 13: \"junk\" is not key=value in a [section]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := map[string][]byte{}
			for k, v := range members {
				m[k] = append([]byte(nil), v...)
			}
			tt.change(m)
			path := filepath.Join(crosstest.TempDir(t), "f.sr")
			if err := os.WriteFile(path, writeZip(t, m), 0o644); err != nil {
				t.Fatal(err)
			}
			err := readFile(path)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line starting %q", err, tt.want)
			}
		})
	}
	// Not a zip at all, but starting like one.
	path := filepath.Join(crosstest.TempDir(t), "f.sr")
	if err := os.WriteFile(path, []byte("PK\x03\x04junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := readFile(path); err == nil || !strings.HasPrefix(err.Error(), "capture: not a sigrok session file (a zip)") {
		t.Errorf("junk zip: %v", err)
	}
}

// TestResolution: exact conversions between ticks and durations.
func TestResolution(t *testing.T) {
	us := capture.Resolution{Num: 1, Den: 1e6}
	ps10 := capture.Resolution{Num: 10, Den: 1e12}
	mhz3 := capture.Resolution{Num: 1, Den: 3e6}
	if d, ok := us.Duration(7); d != 7*time.Microsecond || !ok {
		t.Errorf("7 us = %v %v", d, ok)
	}
	if d, ok := ps10.Duration(150); d != 2*time.Nanosecond || ok {
		t.Errorf("150 x 10 ps = %v %v, want 2ns (rounded from 1.5), inexact", d, ok)
	}
	if d, ok := mhz3.Duration(3); d != time.Microsecond || !ok {
		t.Errorf("3 ticks at 3 MHz = %v %v", d, ok)
	}
	if g, w := mhz3.CeilTicks(time.Microsecond), uint64(3); g != w {
		t.Errorf("ceil 1us at 3 MHz = %d, want %d", g, w)
	}
	if g, w := mhz3.CeilTicks(500*time.Nanosecond), uint64(2); g != w {
		t.Errorf("ceil 500ns at 3 MHz = %d, want %d", g, w)
	}
	if g, w := mhz3.FloorTicks(500*time.Nanosecond), uint64(1); g != w {
		t.Errorf("floor 500ns at 3 MHz = %d, want %d", g, w)
	}
	if g := us.Nanoseconds(3); g != 3000 {
		t.Errorf("3 us = %v ns", g)
	}
	if g := us.NanosecondsOf([]uint64{1, 2}); !reflect.DeepEqual(g, []float64{1000, 2000}) {
		t.Errorf("NanosecondsOf = %v", g)
	}
	if !math.IsNaN((capture.Resolution{}).Nanoseconds(1)) {
		t.Error("an unknown resolution gives a number")
	}
	for r, s := range map[capture.Resolution]string{us: "1 us", ps10: "10 ps", mhz3: "1/3000000 s", {}: "unknown", {Num: 100, Den: 1}: "100 s"} {
		if r.String() != s {
			t.Errorf("%#v.String() = %q, want %q", r, r.String(), s)
		}
	}
	if !mhz3.Coarser(capture.Resolution{Num: 1, Den: 1e9}) || us.Coarser(us) {
		t.Error("Coarser")
	}
}

// TestInfoResolution: a sigrok VCD of a 3 MHz capture has 1 ns ticks, but
// its resolution is the sample period.
func TestInfoResolution(t *testing.T) {
	in := "$version libsigrok 0.5.2 $end\n$comment\n  Acquisition with 1/8 channels at 3 MHz\n$end\n$timescale 1 ns $end\n$scope module libsigrok $end\n$var wire 1 ! D0 $end\n$upscope $end\n$enddefinitions $end\n#0 1!\n#333 0!\n#666\n"
	r, err := capture.NewReader(strings.NewReader(in), capture.VCD)
	if err != nil {
		t.Fatal(err)
	}
	info := r.Info()
	if info.SampleRate != 3e6 || info.Tick != (capture.Resolution{Num: 1, Den: 1e9}) || info.Resolution() != (capture.Resolution{Num: 1, Den: 3e6}) {
		t.Errorf("rate %d tick %v resolution %v", info.SampleRate, info.Tick, info.Resolution())
	}
}

// TestNoTimescale: a VCD without $timescale reads, with a warning.
func TestNoTimescale(t *testing.T) {
	r, err := capture.NewReader(strings.NewReader("$var wire 1 ! a $end $enddefinitions $end #0 0! #5 1! #7 0! #9"), capture.VCD)
	if err != nil {
		t.Fatal(err)
	}
	a, err := capture.Analyze(r, capture.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if w := r.Info().Warnings; len(w) != 1 || w[0].Code != "capture-no-timescale" {
		t.Errorf("warnings %v", w)
	}
	if a.Tick.Known() || !reflect.DeepEqual(a.Channels[0].High.Values, []uint64{2}) {
		t.Errorf("tick %v, high %v", a.Tick, a.Channels[0].High.Values)
	}
}

// TestBOMAndCRLF: a byte order mark and CRLF line ends change nothing.
func TestBOMAndCRLF(t *testing.T) {
	for _, format := range []capture.Format{capture.VCD, capture.CSV} {
		var plain string
		if format == capture.VCD {
			plain = "$timescale 1 ns $end\n$var wire 1 ! a $end\n$enddefinitions $end\n#0 0!\n#5 1!\n#7 0!\n#9\n"
		} else {
			plain = "; Samplerate: 1 GHz\na\n0\n0\n1\n0\n"
		}
		for _, in := range []string{plain, "\xef\xbb\xbf" + plain, strings.ReplaceAll(plain, "\n", "\r\n")} {
			r, err := capture.NewReader(strings.NewReader(in), format)
			if err != nil {
				t.Fatalf("%s %q: %v", format, in, err)
			}
			a, err := capture.Analyze(r, capture.Spec{})
			if err != nil {
				t.Fatalf("%s %q: %v", format, in, err)
			}
			if p := a.Channels[0]; p.Channel.Name != "a" || p.Rises != 1 || p.Falls != 1 {
				t.Errorf("%s %q: %+v", format, in, p)
			}
		}
	}
}
