package clock

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/wine"
)

// quickProbe is a shortened probe for tests.
var quickProbe = ProbeOptions{Reads: 5000, Batches: 20, CrossThread: 5 * time.Millisecond, CoarseWait: 100 * time.Millisecond}

func TestProbeSanity(t *testing.T) {
	s := Probe(quickProbe)
	if len(s.Clocks) != len(Sources()) {
		t.Fatalf("%d results for %d sources", len(s.Clocks), len(Sources()))
	}
	if s.Reads != quickProbe.Reads || s.Calibrate != 0 || s.Elapsed <= 0 {
		t.Errorf("survey records reads %d, calibrate %v, elapsed %v; want %d, 0 and the time taken", s.Reads, s.Calibrate, s.Elapsed, quickProbe.Reads)
	}
	unmeasured := false // some clock's read cost could not be timed
	_, underWine := wine.Version()
	for _, r := range s.Clocks {
		p := r.Props
		if p.Err != nil {
			t.Logf("%s: unavailable: %v", p.Name, p.Err)
			if r.Steps != nil || r.Cross != nil || len(r.CostNs) != 0 {
				t.Errorf("%s is unavailable but has steps %+v, cross %+v, costs %v", p.Name, r.Steps, r.Cross, r.CostNs)
			}
			continue
		}
		st := r.Steps
		if st == nil {
			t.Errorf("%s: no steps", p.Name)
			continue
		}
		t.Logf("%-24s tick %10.1f ns  res %10.1f ns  cost %7.1f ns (p99 %7.1f)  back %d  cross %+v",
			p.Name, st.TickNs, r.NominalNs, r.CostMedianNs, r.CostP99Ns, st.BackwardSteps, r.Cross)
		if st.Reads < quickProbe.Reads {
			t.Errorf("%s: %d reads, want at least %d", p.Name, st.Reads, quickProbe.Reads)
		}
		// Monotonic clocks never step back on one thread. (Wall clocks may
		// be stepped by NTP; unordered counter reads are checked below.)
		if (p.Kind == Elapsed || p.Kind == CPUTime || (p.Kind == Counter && p.Ordered)) && st.BackwardSteps != 0 {
			t.Errorf("%s stepped back %d times on one thread (max %.0f ns)", p.Name, st.BackwardSteps, st.MaxBackwardNs)
		}
		// A tick is uncertain only when too few changes were counted (a
		// coarse clock on a loaded machine); otherwise it has a figure.
		switch {
		case st.Changes == 0 && underWine && (p.Name == "go-monotonic" || p.Name == "go-now"):
			// Windows's interrupt and system times, which Wine keeps: on a
			// loaded host they stood still past the probe's 100 ms wait
			// and then jumped (a real Windows host advances them every
			// clock tick).
			t.Logf("%s never changed over %d reads: under Wine Go's clocks can stand still for longer than the probe waits", p.Name, st.Reads)
		case st.Changes == 0:
			t.Errorf("%s never changed over %d reads", p.Name, st.Reads)
		case st.TickBasis == TickUncertain:
			if st.TickChanges >= MinTickChanges || st.TickNs != 0 {
				t.Errorf("%s: tick uncertain with %d changes counted, tick %v", p.Name, st.TickChanges, st.TickNs)
			}
		case st.TickNs <= 0 || st.TickChanges < MinTickChanges || (st.TickBasis != TickObserved && st.TickBasis != TickUpperBound):
			t.Errorf("%s: tick %v (%q) from %d changes", p.Name, st.TickNs, st.TickBasis, st.TickChanges)
		}
		// Where Go's monotonic clock is too coarse to time a batch of
		// reads (windows: the interrupt time), the cost is unavailable,
		// with the reason, and no figure. On Linux it always resolves.
		if r.CostUnavailable != "" {
			t.Logf("%s: %s", p.Name, r.CostUnavailable)
			if runtime.GOOS == "linux" || len(r.CostNs) != 0 || r.CostMedianNs != 0 || !strings.Contains(r.CostUnavailable, "too coarse") {
				t.Errorf("%s: cost unavailable on %s (%q) with %d batches, median %v", p.Name, runtime.GOOS, r.CostUnavailable, len(r.CostNs), r.CostMedianNs)
			}
			unmeasured = true
			continue
		}
		if r.CostMedianNs <= 0 || r.CostP99Ns < r.CostMedianNs || len(r.CostNs) != quickProbe.Batches || r.BatchReads < 1 {
			t.Errorf("%s: read cost median %v p99 %v over %d batches of %d reads", p.Name, r.CostMedianNs, r.CostP99Ns, len(r.CostNs), r.BatchReads)
		}
		// A read cannot be cheaper than a tenth of a nanosecond. (No upper
		// bound: a loaded host can make any read slow.)
		if r.CostMedianNs < 0.1 {
			t.Errorf("%s: implausible read cost %v ns", p.Name, r.CostMedianNs)
		}
		// Coarse clocks: the observed tick is at least their clock_getres
		// (half of it allowed for rounding); a preempted reader can only
		// see a larger step, so there is no upper bound.
		if p.Coarse && r.NominalNs > 0 && st.TickBasis != TickUncertain && st.TickNs < r.NominalNs/2 {
			t.Errorf("%s: observed tick %.0f ns, below half its clock_getres %.0f ns", p.Name, st.TickNs, r.NominalNs)
		}
		// (Whether a fine clock changes on most reads depends on its real
		// tick against the read cost: under an emulator the counter ticks
		// every 1 µs and a read costs 0.1 µs. Changes > 0 is checked above.)
		if c := r.Cross; c != nil {
			if c.Comparisons == 0 {
				t.Errorf("%s: the cross-thread check compared nothing", p.Name)
			}
			if (p.Kind == Elapsed || p.Ordered) && c.BackwardSteps != 0 {
				t.Errorf("%s stepped back %d times across threads (max %.0f ns; mode %s)", p.Name, c.BackwardSteps, c.MaxBackwardNs, c.Mode)
			}
		}
	}
	switch {
	case s.Recommendation.Clock != "":
	case unmeasured && strings.Contains(s.Recommendation.Reason, "read cost could be measured"):
		// No cost, no pick (the reason says so).
	default:
		t.Errorf("no recommendation: %s", s.Recommendation.Reason)
	}
	if s.PathCheck == "" {
		t.Errorf("no path check recorded")
	}
	t.Logf("recommendation: %+v", s.Recommendation)
	t.Logf("warnings: %q", s.Warnings)
}

// TestUnresolved: batch times that a coarse timing clock gave (none, or
// multiples of one large step) make the read cost unmeasurable; times at
// nanosecond resolution do not.
func TestUnresolved(t *testing.T) {
	tests := []struct {
		name string
		dts  []time.Duration
		want string // in the reason; "" for resolved
	}{
		{"nanoseconds", []time.Duration{20013, 19998, 20480, 21007, 20002, 19999}, ""},
		{"one batch", []time.Duration{20013}, ""},
		{"fine steps, long batches", []time.Duration{1_000_000, 1_001_000, 1_000_000, 1_003_000}, ""},
		// A loaded Linux host: the pilot was preempted, the batches are
		// short, and the clock's 10 ns steps show; still resolved.
		{"short batches, 10 ns steps", []time.Duration{590, 600, 590, 610, 590, 590}, ""},
		{"one-read batches, 20 ns steps", []time.Duration{0, 20, 40, 20, 0}, ""},
		{"all zero", []time.Duration{0, 0, 0}, "did not advance over any of 3 batches"},
		{"coarse, some zero", []time.Duration{0, 15_625_000, 0, 0}, "took no time over 3 of 4 batches and at least 15.62 ms over the others"},
		{"multiples of a step", []time.Duration{13_900, 27_800, 13_900, 27_800, 41_700}, "advanced in steps of 13.90 µs over batches of 27.80 µs (median)"},
		{"all the same", []time.Duration{15_625_000, 15_625_000, 15_625_000}, "gave every batch the same time, 15.62 ms"},
		{"all the same, short", []time.Duration{590, 590, 590}, ""},
	}
	for _, tt := range tests {
		got := unresolved(tt.dts)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: unresolved(%v) = %q, want %q", tt.name, tt.dts, got, tt.want)
		}
	}
}

func TestParseKernelLog(t *testing.T) {
	tests := []struct {
		name, log string
		wantHz    float64
		wantOK    bool
	}{
		{"detected only", "<6>[    0.000081] tsc: Detected 2445.432 MHz processor\n", 2445432000, true},
		{"refined wins", "[0.0] tsc: Detected 2904.000 MHz processor\n[1.2] tsc: Refined TSC clocksource calibration: 2903.998 MHz\n", 2903998000, true},
		{"refined before detected still wins", "tsc: Refined TSC clocksource calibration: 2903.998 MHz\ntsc: Detected 2904.000 MHz processor\n", 2903998000, true},
		{"journal format", "Jan 01 00:00:00 host kernel: tsc: Detected 3000.123 MHz TSC\n", 3000123000, true},
		{"spaces around", "[0.0] tsc: Detected 2445.432 MHz processor  \t\r\n", 2445432000, true},
		{"none", "clocksource: Switched to clocksource tsc\ncpu MHz : 2445.432\n", 0, false},
		{"garbage number", "tsc: Detected 0.000 MHz processor\n", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, ok, err := parseKernelLog(strings.NewReader(tt.log), "test")
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.wantOK || k.Hz != tt.wantHz {
				t.Errorf("got %v Hz ok=%v, want %v Hz ok=%v", k.Hz, ok, tt.wantHz, tt.wantOK)
			}
			if ok && (strings.HasPrefix(k.Line, "<") || k.Line != strings.TrimSpace(k.Line) || k.ResolutionPPM <= 0 || k.ResolutionPPM > 1) {
				t.Errorf("line %q, resolution %v ppm", k.Line, k.ResolutionPPM)
			}
		})
	}
}

func TestKernelTSCAgreement(t *testing.T) {
	k, err := kernelTSCHz()
	if err != nil {
		t.Skip(err)
	}
	info, err := TSCInfo()
	if err != nil {
		t.Skip(err)
	}
	a := kernelAgreement(info, k)
	t.Logf("TSC %d Hz (%s, ±%.2f ppm), kernel %.0f Hz (%s): %+.3f ppm ± %.2g: %s", info.Hz, info.Source, info.ErrorPPM, k.Hz, k.From, a.DiffPPM, a.BoundPPM, a.Verdict)
	// Only a difference beyond 100 ppm with both error bounds is a
	// failure: a loaded host widens the calibration's brackets, and with
	// them its error bound, which makes the verdict inconclusive, not wrong.
	if a.Verdict == disagree {
		t.Errorf("TSC frequency %d Hz differs from the kernel's %.0f Hz by %.1f ppm ± %.2g (> %d)", info.Hz, k.Hz, a.DiffPPM, a.BoundPPM, maxKernelDiffPPM)
	}
}
