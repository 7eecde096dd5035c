package clock

import (
	"strings"
	"testing"
	"time"
)

func TestKernelAgreement(t *testing.T) {
	kernel := KernelTSC{Hz: 2_596_150_000, ResolutionPPM: 0.19}
	cal := func(hz uint64, errPPM float64, window time.Duration) Info {
		return Info{Hz: hz, Source: fromCalibration, ErrorPPM: errPPM, Calibration: &Calibration{Window: window}}
	}
	tests := []struct {
		name    string
		info    Info
		verdict string
		settle  time.Duration
		reason  string
	}{
		{"agrees", cal(2_596_160_000, 2, 100*time.Millisecond), agree, 0, ""},
		{"disagrees", cal(2_597_000_000, 2, 100*time.Millisecond), disagree, 0, ""},
		// A 10 ms calibration good to ±180 ppm with a 4 ppm difference:
		// the bound straddles the limit. Room 100-4-0.19 = 95.8 ppm, so
		// 10 ms * 180/95.8 * 1.5 = 28 ms, rounded up to 50 ms.
		{"short calibration", cal(2_596_160_000, 180, 10*time.Millisecond), inconclusive, 50 * time.Millisecond, "enough to decide"},
		// 99.9 ppm off: within the kernel's resolution of the limit.
		{"at the limit", cal(2_596_409_350, 5, 100*time.Millisecond), inconclusive, 0, "no calibration can decide"},
		// An exact hardware figure with the same difference agrees.
		{"exact", Info{Hz: 2_596_160_000, Source: fromCPUID15h}, agree, 0, ""},
	}
	for _, tt := range tests {
		a := kernelAgreement(tt.info, kernel)
		if a.Verdict != tt.verdict || a.SettleWindow != tt.settle || !strings.Contains(a.Reason, tt.reason) || a.LimitPPM != maxKernelDiffPPM {
			t.Errorf("%s: %+v, want %s settle %v reason ~%q", tt.name, a, tt.verdict, tt.settle, tt.reason)
		}
	}
}

func TestNiceDuration(t *testing.T) {
	for in, want := range map[time.Duration]time.Duration{
		time.Millisecond: 10 * time.Millisecond, 28 * time.Millisecond: 50 * time.Millisecond,
		100 * time.Millisecond: 100 * time.Millisecond, 101 * time.Millisecond: 200 * time.Millisecond,
		3 * time.Second: 5 * time.Second,
	} {
		if got := niceDuration(in); got != want {
			t.Errorf("niceDuration(%v) = %v, want %v", in, got, want)
		}
	}
}

// fakeMeasured is a probed clock with the given cost and path.
func fakeMeasured(name string, kind Kind, cost float64, path string) Measured {
	return Measured{Props: Props{Name: name, Kind: kind, Path: path, Description: "clock_gettime(" + name + ") through the vDSO"},
		CostMedianNs: cost, Steps: &Steps{TickNs: 30, Changes: 10, Reads: 10}}
}

func TestRecommendTies(t *testing.T) {
	rs := []Measured{
		fakeMeasured("go-monotonic", Elapsed, 26, PathVDSO),
		fakeMeasured("CLOCK_MONOTONIC", Elapsed, 24, PathVDSO),
		fakeMeasured("CLOCK_MONOTONIC_RAW", Elapsed, 25, PathVDSO),
		fakeMeasured("CLOCK_BOOTTIME", Elapsed, 24.5, PathVDSO),
	}
	rec := recommend(rs, nil)
	if rec.Clock != "go-monotonic" || !strings.Contains(rec.Reason, "a tie") || !strings.Contains(rec.Reason, "(clock.MonotonicRaw.Read, 25 ns, vdso)") {
		t.Errorf("ties: %+v", rec)
	}
	// go-monotonic 2x dearer: no tie; the raw clock is the cheapest.
	rs[0].CostMedianNs, rs[1].CostMedianNs, rs[3].CostMedianNs = 60, 30, 40
	rec = recommend(rs, nil)
	if rec.Clock != "CLOCK_MONOTONIC_RAW" || strings.Contains(rec.Reason, "a tie") || strings.Contains(rec.Reason, "must not slew") {
		t.Errorf("raw cheapest: %+v", rec)
	}
	// Backward steps disqualify.
	rs[2].Steps.BackwardSteps = 1
	if rec = recommend(rs, nil); rec.Clock != "CLOCK_MONOTONIC" || !strings.Contains(rec.Reason, "read it with clock.Monotonic.Read;") {
		t.Errorf("raw stepped back: %+v", rec)
	}
}

func TestClocksourceWarnings(t *testing.T) {
	fell := fakeMeasured("CLOCK_MONOTONIC", Elapsed, 900, PathSyscall)
	fell.Props.Description += " (the vDSO falls back to the system call)"
	ok := fakeMeasured("CLOCK_MONOTONIC", Elapsed, 40, PathVDSO)
	tests := []struct {
		name      string
		cs        *Clocksource
		r         Measured
		want, not []string
	}{
		{"kvm-clock, tsc offered", &Clocksource{Current: "kvm-clock", Available: []string{"kvm-clock", "tsc"}}, ok,
			[]string{`"kvm-clock"`, "40 ns, vdso", "echo tsc"}, []string{"system call"}},
		{"kvm-clock only", &Clocksource{Current: "kvm-clock", Available: []string{"kvm-clock"}}, ok,
			[]string{"tsc is not among them"}, []string{"select it", "echo tsc"}},
		{"fallback, tsc offered", &Clocksource{Current: "hpet", Available: []string{"hpet", "acpi_pm", "tsc"}}, fell,
			[]string{"CLOCK_MONOTONIC: the vDSO cannot read clocksource hpet", "900 ns", "echo tsc"}, nil},
		{"fallback, no tsc", &Clocksource{Current: "kvm-clock", Available: []string{"kvm-clock"}}, fell,
			[]string{"system call", "tsc is not among them"}, []string{"select it"}},
		{"tsc", &Clocksource{Current: "tsc", Available: []string{"tsc", "kvm-clock"}}, ok, nil, []string{"clocksource"}},
	}
	for _, tt := range tests {
		var lines []string
		for _, x := range clocksourceWarnings(&Survey{Host: Host{Clocksource: tt.cs}, Clocks: []Measured{tt.r}}) {
			if x.Code == "" || x.Next == "" {
				t.Errorf("%s: warning without a code or a next step: %+v", tt.name, x)
			}
			lines = append(lines, x.String())
		}
		w := strings.Join(lines, "\n")
		for _, s := range tt.want {
			if !strings.Contains(w, s) {
				t.Errorf("%s: %q lacks %q", tt.name, w, s)
			}
		}
		for _, s := range tt.not {
			if strings.Contains(w, s) {
				t.Errorf("%s: %q contains %q", tt.name, w, s)
			}
		}
	}
}
