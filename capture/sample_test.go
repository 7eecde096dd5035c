package capture_test

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/capture"
)

// vcd writes a VCD of 1 ns ticks with the 1-bit signals names ("!", "\"",
// ... as their codes) and the changes given as "TIME CODE VALUE" lines.
func vcd(names []string, changes ...string) string {
	var b strings.Builder
	b.WriteString("$timescale 1 ns $end\n$scope module top $end\n")
	for i, n := range names {
		fmt.Fprintf(&b, "$var wire 1 %c %s $end\n", '!'+i, n)
	}
	b.WriteString("$upscope $end\n$enddefinitions $end\n")
	last := ""
	for _, c := range changes {
		f := strings.Fields(c)
		if f[0] != last {
			b.WriteString("#" + f[0] + "\n")
			last = f[0]
		}
		b.WriteString(f[2] + f[1] + "\n")
	}
	return b.String()
}

func analyzeText(t *testing.T, text string, spec capture.Spec) *capture.Analysis {
	t.Helper()
	r, err := capture.NewReader(strings.NewReader(text), capture.VCD)
	if err != nil {
		t.Fatal(err)
	}
	a, err := capture.Analyze(r, spec)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestKeepBins: past Spec.Keep values a figure is binned; its count,
// extremes, mean and standard deviation stay those of every value, its
// bins hold every value (one bin per value below 2048 ticks), and the
// glitches listed stop at Keep while GlitchCount counts them all.
func TestKeepBins(t *testing.T) {
	// clk: high 3, low 5000, high 3, low 5000, ... (10 high pulses), and a
	// 1 ns glitch in every low pulse.
	var ch []string
	tm := uint64(0)
	for i := 0; i < 11; i++ {
		ch = append(ch, fmt.Sprintf("%d ! 1", tm), fmt.Sprintf("%d ! 0", tm+3))
		ch = append(ch, fmt.Sprintf("%d ! 1", tm+100), fmt.Sprintf("%d ! 0", tm+101))
		tm += 5003
	}
	ch = append(ch, fmt.Sprintf("%d ! 1", tm))
	text := vcd([]string{"clk"}, ch...)
	all := analyzeText(t, text, capture.Spec{MinWidth: 2}).Channels[0]
	kept := analyzeText(t, text, capture.Spec{MinWidth: 2, Keep: 4}).Channels[0]
	if all.High.Binned() || len(all.High.Values) != 10 || all.High.Bins != nil {
		t.Fatalf("keep 0: high %+v, want 10 values and no bins", all.High)
	}
	if !kept.High.Binned() || kept.High.Values != nil {
		t.Fatalf("keep 4: high %+v, want binned", kept.High)
	}
	if got, want := kept.High.Bins, []capture.Bin[uint64]{{Lo: 3, Hi: 3, Count: 10}}; !reflect.DeepEqual(got, want) {
		t.Errorf("high bins %v, want %v", got, want)
	}
	lo, hi := capture.BinOf(5000)
	if got, want := kept.Low.Bins, []capture.Bin[uint64]{{Lo: lo, Hi: hi, Count: 10}}; !reflect.DeepEqual(got, want) {
		t.Errorf("low bins %v, want %v", got, want)
	}
	if lo > 5000 || hi < 5000 || float64(hi-lo+1) > 5000.0/1024 {
		t.Errorf("BinOf(5000) = %d..%d: not a bin of at most 1/1024 of the value around it", lo, hi)
	}
	for _, pair := range [][2]*capture.Sample[uint64]{{&all.High, &kept.High}, {&all.Low, &kept.Low}, {&all.RisePeriods, &kept.RisePeriods}} {
		a, k := pair[0], pair[1]
		if a.N != k.N || a.Min != k.Min || a.Max != k.Max || a.Mean != k.Mean || a.StdDev() != k.StdDev() {
			t.Errorf("binned figures %d %d..%d mean %v sd %v, kept %d %d..%d mean %v sd %v", k.N, k.Min, k.Max, k.Mean, k.StdDev(), a.N, a.Min, a.Max, a.Mean, a.StdDev())
		}
		n := 0
		for _, b := range k.Bins {
			n += b.Count
		}
		if n != k.N {
			t.Errorf("bins hold %d values of %d", n, k.N)
		}
	}
	if all.Low.Min != 5000 || all.Low.Max != 5000 || all.Low.Mean != 5000 || all.Low.StdDev() != 0 {
		t.Errorf("low %d..%d mean %v sd %v, want all 5000", all.Low.Min, all.Low.Max, all.Low.Mean, all.Low.StdDev())
	}
	if all.GlitchCount != 11 || len(all.Glitches) != 11 || kept.GlitchCount != 11 || len(kept.Glitches) != 4 {
		t.Errorf("glitches %d listed of %d (keep 0), %d of %d (keep 4); want 11 of 11, 4 of 11",
			len(all.Glitches), all.GlitchCount, len(kept.Glitches), kept.GlitchCount)
	}
	if !kept.Duty.Binned() || kept.Duty.N != all.Duty.N || len(kept.Duty.Bins) != 1 || kept.Duty.Bins[0].Lo > 3.0/5003 || kept.Duty.Bins[0].Hi <= 3.0/5003 {
		t.Errorf("duty bins %v (n %d), want one bin around %v", kept.Duty.Bins, kept.Duty.N, 3.0/5003)
	}
	if s := (capture.Sample[uint64]{}); !math.IsNaN(s.StdDev()) {
		t.Errorf("empty sample: stddev %v, want NaN", s.StdDev())
	}
}

// TestBinOf checks the bins of tick counts: exact below 2048, contiguous,
// increasing and at most 1/1024 of their value wide above.
func TestBinOf(t *testing.T) {
	prev := uint64(0)
	for _, v := range []uint64{0, 1, 2047, 2048, 2049, 2050, 4095, 4096, 1 << 40, 1<<40 + 12345, math.MaxUint64} {
		lo, hi := capture.BinOf(v)
		if v < 2048 && (lo != v || hi != v) {
			t.Errorf("BinOf(%d) = %d..%d, want exact", v, lo, hi)
		}
		if lo > v || hi < v || lo < prev || float64(hi-lo) > float64(v)/1024 {
			t.Errorf("BinOf(%d) = %d..%d", v, lo, hi)
		}
		if hi < math.MaxUint64 {
			if l2, _ := capture.BinOf(hi + 1); l2 != hi+1 {
				t.Errorf("BinOf(%d) ends at %d but the next bin starts at %d", v, hi, l2)
			}
		}
		prev = lo
	}
}

// TestBetweenOutOfOrder: with a MinWidth, an edge is confirmed only
// later, so edges of two channels are confirmed out of time order; the
// pairing, made as the capture is read, still takes them in time order.
func TestBetweenOutOfOrder(t *testing.T) {
	// MinWidth 5. irq rises at 10 (confirmed once 15 passes), task rises at
	// 12 (confirmed at 17), irq rises again at 30, task at 30 (same time:
	// latency 0), irq rises at 50 and task at 51, irq's 60 rise is left
	// pending at the end. Task's 1 ns pulse at 62 is a glitch: no edge.
	text := vcd([]string{"irq", "task"},
		"0 ! 0", "0 \" 0",
		"10 ! 1", "12 \" 1", "20 ! 0", "22 \" 0",
		"30 ! 1", "30 \" 1", "40 ! 0", "40 \" 0",
		"50 ! 1", "51 \" 1", "55 ! 0", "58 \" 0",
		"60 ! 1", "62 \" 1", "63 \" 0", "70 ! 1")
	irq, task := capture.EdgeRef{Channel: "irq", Edge: capture.Rise}, capture.EdgeRef{Channel: "task", Edge: capture.Rise}
	a := analyzeText(t, text, capture.Spec{MinWidth: 5, Between: []capture.Between{{From: irq, To: task}, {From: task, To: irq}}})
	l := a.Between[0]
	if !reflect.DeepEqual(l.Ticks.Values, []uint64{2, 0, 1}) || l.Unmatched != 1 || l.Extra != 0 || l.Unprompted != 0 {
		t.Errorf("irq to task: %v (unmatched %d, extra %d, unprompted %d), want [2 0 1] and 1 unmatched", l.Ticks.Values, l.Unmatched, l.Extra, l.Unprompted)
	}
	// task to irq: irq's rises at 10 and 50 come unprompted; at 30 the
	// task rise (From edges first at one time) is extra, 12 still
	// pending, and irq's answers 12; then 51 -> 60.
	l = a.Between[1]
	if !reflect.DeepEqual(l.Ticks.Values, []uint64{18, 9}) || l.Extra != 1 || l.Unprompted != 2 {
		t.Errorf("task to irq: %v (extra %d, unprompted %d), want [18 9], 1 extra, 2 unprompted", l.Ticks.Values, l.Extra, l.Unprompted)
	}
}
