package view

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/result"
)

func TestHistogramLine(t *testing.T) {
	// 64 samples: 16 columns; 1..7 eight times each, 8 seven times, one
	// outlier.
	var xs []float64
	for i := range 63 {
		xs = append(xs, float64(1+i%8)+float64(i/8)*0.01)
	}
	xs = append(xs, 16)
	s := NewSeries(&result.Metric{Unit: result.UnitNs, Values: xs, Resolution: 0.01})
	got := HistogramLine(s, ChartWidth, Options{})
	if want := "1.00 ns ███████▇       ▁ 16.00 ns"; got != want {
		t.Errorf("HistogramLine:\n got %q\nwant %q", got, want)
	}
	if got := HistogramLine(s, ChartWidth, Options{Style: "basic"}); got != "1.00 ns #######*       . 16.00 ns" {
		t.Errorf("basic: %q", got)
	}
	// A long tail: log columns.
	tail := NewSeries(&result.Metric{Unit: result.UnitNs, Values: []float64{1, 1, 1, 10, 1000}, Resolution: 1})
	if got := HistogramLine(tail, 8, Options{}); !strings.HasSuffix(got, "(log x)") || !strings.HasPrefix(got, "1 ns █ ▃    ▃ 1.000 µs") {
		t.Errorf("long tail: %q", got)
	}
	// Equal values: one column in the middle.
	flat := NewSeries(&result.Metric{Unit: result.UnitCount, Values: []float64{3, 3, 3}})
	if got := HistogramLine(flat, 8, Options{}); got != "3     █    3" {
		t.Errorf("equal values: %q", got)
	}
	if HistogramLine(NewSeries(&result.Metric{Unit: "ns"}), 8, Options{}) != "" {
		t.Error("an empty series has a line")
	}
}

func TestHistogramLineBinned(t *testing.T) {
	// Bins [0,10) 4, [10,20) 0, [20,40) 8, overflow 1, over [5, 45] in
	// 8 columns of 5: the first bin (from the minimum) fills column 0, the
	// third spreads evenly over columns 3 to 6, the overflow is the last.
	h := &result.Histogram{Bounds: []float64{0, 10, 20, 40}, Counts: []int64{4, 0, 8}, Overflow: 1, Min: 5, Max: 45, Mean: 22}
	s := NewSeries(&result.Metric{Unit: result.UnitNs, Histogram: h, Resolution: 1})
	counts, logX := columnCounts(s, 5, 45, 8)
	if logX || fmt.Sprint(counts) != "[4 0 0 2 2 2 2 1]" {
		t.Errorf("columns %v (log x %v), want [4 0 0 2 2 2 2 1]", counts, logX)
	}
	if got := HistogramLine(s, 8, Options{}); got != "5 ns █  ▄▄▄▄▂ 45 ns" {
		t.Errorf("binned line %q", got)
	}
}

func TestSparkline(t *testing.T) {
	if got := Sparkline([]float64{1, 2, 3, 4, 5, 6, 7, 8}, 8, Options{}); got != "▁▂▃▄▅▆▇█" {
		t.Errorf("ramp: %q", got)
	}
	if got := Sparkline([]float64{1, 2, 3, 4, 5, 6, 7, 8}, 8, Options{Style: "basic"}); got != "._-:=+*#" {
		t.Errorf("basic ramp: %q", got)
	}
	// 16 values in 4 columns: each the median of 4.
	xs := []float64{9, 1, 1, 1, 2, 2, 2, 50, 3, 3, 3, 3, 4, 4, 4, 4}
	if got := Sparkline(xs, 4, Options{}); got != "▁▃▆█" {
		t.Errorf("downsampled: %q", got)
	}
	if got := Sparkline([]float64{5, 5, 5}, 8, Options{}); got != "▁▁▁" {
		t.Errorf("flat: %q", got)
	}
	if Sparkline(nil, 8, Options{}) != "" {
		t.Error("no values: a line")
	}
}

func TestChartLines(t *testing.T) {
	// 100 samples cycling through 100..109 ns: 20 columns, and a sequence
	// of medians of 3 (or 4) consecutive samples.
	var xs []float64
	for i := range 100 {
		xs = append(xs, 100+float64(i%10))
	}
	got := ChartLines(&result.Metric{Unit: result.UnitNs, Values: xs, Resolution: 1}, "  ", Options{})
	want := []string{
		"  distribution  100 ns █ █ █ █ █  █ █ █ █ █ 109 ns",
		"  sequence      ▁▄▇▁▃▆█▂▆█▂▅█▁▄█▁▄▇▁▃▆█▂▆█▂▅█▁▄█ (100 samples in run order, median of each 3 samples)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ChartLines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ChartLines(&result.Metric{Unit: "ns"}, "", Options{}) != nil {
		t.Error("no samples: lines")
	}
}
