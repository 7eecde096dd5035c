package view

import (
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/clock"
)

// TestWindowsBlock: the Windows timers are shown with their figures, or
// unavailable with the reason; under Wine the block says whose figures
// they are.
func TestWindowsBlock(t *testing.T) {
	yes := true
	windows := &clock.Windows{
		QPCHz:      10_000_000,
		Timer:      &clock.TimerResolution{Coarsest: 15_625_000, Finest: 500_000, Current: time.Millisecond},
		Adjustment: &clock.TimeAdjustment{Adjustment: 156_250 * 100, Increment: 156_250 * 100},
		QPCvsTSC: &clock.QPCvsTSC{QPCHz: 10_000_000, TSCHz: 2_592_000_000, TSCSource: "calibrated", Ratio: 259.2, ErrorPPM: 0.9,
			Invariant: &yes, Reading: "10 MHz with an invariant TSC"},
	}
	wine := &clock.Windows{Wine: "8.0", QPCHz: 10_000_000,
		TimerUnavailable:      "clock: under Wine 8.0 NtQueryTimerResolution answers ...",
		AdjustmentUnavailable: "clock: under Wine 8.0 GetSystemTimeAdjustment answers ...",
		QPCvsTSCUnavailable:   "clock: no timestamp counter to relate QPC to: none"}
	tests := []struct {
		name string
		w    *clock.Windows
		want []string
	}{
		{"windows", windows, []string{
			"QPC frequency|10000000 Hz (QueryPerformanceFrequency; a tick is 100 ns)",
			"QPC vs TSC|259.2 TSC ticks per QPC tick (TSC 2592.000000 MHz, calibrated, error ≤ 0.90 ppm): 10 MHz with an invariant TSC",
			"timer resolution|current 1 ms, finest 500 µs, coarsest 15.625 ms (NtQueryTimerResolution)",
			"time adjustment|increment 15.625 ms per clock interrupt, adjustment 15.625 ms, enabled (GetSystemTimeAdjustment)",
		}},
		{"wine", wine, []string{
			"Wine|8.0: these are Wine's figures, not Windows's",
			"QPC frequency|10000000 Hz (QueryPerformanceFrequency; a tick is 100 ns)",
			"QPC vs TSC|unavailable: clock: no timestamp counter to relate QPC to: none",
			"timer resolution|unavailable: clock: under Wine 8.0 NtQueryTimerResolution answers ...",
			"time adjustment|unavailable: clock: under Wine 8.0 GetSystemTimeAdjustment answers ...",
		}},
	}
	for _, tt := range tests {
		b := windowsBlock(tt.w)
		var got []string
		for _, r := range b.Table.Rows {
			got = append(got, r[0].Text+"|"+r[1].Text)
		}
		if g, w := strings.Join(got, "\n"), strings.Join(tt.want, "\n"); g != w {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, g, w)
		}
	}
}
