package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/result"
)

func TestClocksJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if code := execute([]string{"clocks", "--json", "--reads", "2000"}, &out, &errb); code != exitOK {
		t.Fatalf("chrono clocks --json: exit %d, stderr %q", code, errb.String())
	}
	d, err := result.Unmarshal(out.Bytes())
	if err != nil {
		t.Fatalf("output is not a result document: %v\n%s", err, out.String())
	}
	if d.Kind != "clocks" || d.Tool.Name != "chrono" || d.End.Before(d.Start) {
		t.Errorf("kind %q, tool %+v, start %v, end %v", d.Kind, d.Tool, d.Start, d.End)
	}
	sources := clock.Sources()
	if want := len(sources) + 2; len(d.Measurements) != want {
		t.Fatalf("%d measurements, want %d (one per clock, tsc, probe)", len(d.Measurements), want)
	}
	for i, src := range sources {
		m := d.Measurements[i]
		if m.Name != src.Name() {
			t.Errorf("measurement %d is %q, want %q", i, m.Name, src.Name())
		}
		props, _ := m.Details["props"].(map[string]any)
		if props == nil {
			t.Errorf("%s: no props in details", m.Name)
			continue
		}
		if src.Props().Err != nil {
			if props["unavailable"] == "" || len(m.Metrics) != 0 {
				t.Errorf("%s is unavailable but has metrics or no reason", m.Name)
			}
			continue
		}
		cost := m.Metric("read_cost")
		if m.Primary != "read_cost" || cost == nil || cost.Unit != "ns" || len(cost.Values) == 0 || cost.Summary == nil {
			t.Errorf("%s: primary %q, read_cost %+v", m.Name, m.Primary, cost)
			continue
		}
		if p50 := cost.Percentiles["p50"]; p50 <= 0 || p50 < cost.Summary.Min || p50 > cost.Summary.Max {
			t.Errorf("%s: p50 %v outside [%v, %v]", m.Name, p50, cost.Summary.Min, cost.Summary.Max)
		}
		if reads, _ := m.Details["reads"].(float64); reads < 2000 {
			t.Errorf("%s: %v reads, want at least 2000 (--reads)", m.Name, reads)
		}
	}
	tsc := d.Measurements[len(sources)]
	if tsc.Name != "tsc" || (tsc.Details["tsc"] == nil && tsc.Details["tsc_error"] == nil) {
		t.Errorf("tsc measurement: %+v", tsc)
	}
	probe := d.Measurements[len(sources)+1]
	if rec, _ := probe.Details["recommendation"].(map[string]any); probe.Name != "probe" || rec == nil || rec["reason"] == "" {
		t.Errorf("probe measurement: %+v", probe)
	}
}

func TestClocksText(t *testing.T) {
	var out, errb bytes.Buffer
	if code := execute([]string{"clocks", "-n", "2000"}, &out, &errb); code != exitOK {
		t.Fatalf("chrono clocks: exit %d, stderr %q", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{"CLOCK ", "go-monotonic", "CLOCK_MONOTONIC_RAW", "Timestamp counter\n", "Clocksource ", "Probe took "} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "Recommended for elapsed time: ") && !strings.Contains(text, "No recommendation: ") {
		t.Errorf("output has no recommendation:\n%s", text)
	}
	// Never a zero figure for a clock that was read.
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, " 0 ns ") || strings.Contains(line, " 0 ms ") {
			t.Errorf("zero duration printed: %q", line)
		}
	}
}

func TestClocksUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"clocks", "extra"}, "unknown command"},
		{[]string{"clocks", "--reads", "0"}, "--reads must be positive"},
		{[]string{"clocks", "--calibrate", "1ms"}, "--calibrate must be at least 10ms"},
		{[]string{"clocks", "--calibrate", "soon"}, "invalid argument"},
		{[]string{"clocks", "--bogus"}, "unknown flag"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		if code := execute(tt.args, &out, &errb); code != exitUsage {
			t.Errorf("%q: exit %d, want %d (stderr %q)", tt.args, code, exitUsage, errb.String())
		}
		if !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%q: stderr %q, want it to contain %q", tt.args, errb.String(), tt.want)
		}
	}
}

// fakeClocksReport is a probe report as a host might produce it, with
// the conclusions derived by clock.Report.Assess.
func fakeClocksReport(cs clock.Clocksource, monoPath, monoDesc string, monoCost float64, info clock.Info) clock.Report {
	res := func(name string, kind clock.Kind, path, desc string, cost float64) clock.Result {
		return clock.Result{Props: clock.Props{Name: name, Kind: kind, Unit: "ns", Path: path, Description: desc,
			PathBasis: "measured: fake"}, NominalNs: 1, TickNs: 40, Changes: 100, Reads: 100,
			CostMedianNs: cost, CostP99Ns: cost * 2, CostMinNs: cost, CostNs: []float64{cost}}
	}
	rep := clock.Report{
		Results: []clock.Result{
			res("go-monotonic", clock.Elapsed, monoPath, "time.Since(base)", monoCost),
			res("CLOCK_MONOTONIC", clock.Elapsed, monoPath, monoDesc, monoCost),
			res("CLOCK_THREAD_CPUTIME_ID", clock.CPUTime, clock.PathSyscall, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) system call", 1500),
		},
		TSC:         &info,
		Kernel:      &clock.KernelTSC{Hz: 2_596_150_000, From: "kernel log", Line: "tsc: Detected 2596.150 MHz processor", ResolutionPPM: 0.19},
		Clocksource: &cs,
		Elapsed:     time.Second,
	}
	rep.Assess()
	return rep
}

func TestClocksTextFakes(t *testing.T) {
	calibrated := func(hz uint64, errPPM float64, window time.Duration) clock.Info {
		return clock.Info{Hz: hz, Source: clock.FromCalibration, ErrorPPM: errPPM, InvariantKnown: true, Invariant: true,
			Calibration: &clock.Calibration{Reference: "CLOCK_MONOTONIC_RAW", Window: window, Segments: 5}}
	}
	good := calibrated(2_596_150_100, 0.4, 100*time.Millisecond)
	tests := []struct {
		name      string
		rep       clock.Report
		want, not []string
	}{
		{"kvm-clock without tsc",
			fakeClocksReport(clock.Clocksource{Current: "kvm-clock", Available: []string{"kvm-clock"}}, clock.PathVDSO,
				"clock_gettime(CLOCK_MONOTONIC) through the vDSO", 45, good),
			[]string{"Clocksource   kvm-clock (available: kvm-clock)", "tsc is not among them", "agrees within 1e-4"},
			[]string{"select it", "echo tsc"}},
		{"kvm-clock with tsc",
			fakeClocksReport(clock.Clocksource{Current: "kvm-clock", Available: []string{"kvm-clock", "tsc"}}, clock.PathVDSO,
				"clock_gettime(CLOCK_MONOTONIC) through the vDSO", 45, good),
			[]string{"tsc is available: select it"}, nil},
		{"vDSO fallback",
			fakeClocksReport(clock.Clocksource{Current: "hpet", Available: []string{"hpet", "acpi_pm"}}, clock.PathSyscall,
				"clock_gettime(CLOCK_MONOTONIC) through the vDSO (the vDSO falls back to the system call)", 1400, good),
			[]string{"elapsed  syscall", "the vDSO cannot read clocksource hpet, so every read is a system call"},
			[]string{"select it"}},
		{"short calibration",
			fakeClocksReport(clock.Clocksource{Current: "tsc", Available: []string{"tsc"}}, clock.PathVDSO,
				"clock_gettime(CLOCK_MONOTONIC) through the vDSO", 25, calibrated(2_596_160_000, 180, 10*time.Millisecond)),
			[]string{"± 180 ppm: cannot tell whether it is within 100 ppm", "--calibrate 50ms"},
			[]string{"agrees within", "DISAGREES"}},
		{"clear disagreement",
			fakeClocksReport(clock.Clocksource{Current: "tsc", Available: []string{"tsc"}}, clock.PathVDSO,
				"clock_gettime(CLOCK_MONOTONIC) through the vDSO", 25, calibrated(2_597_000_000, 2, 100*time.Millisecond)),
			[]string{"DISAGREES by more than 1e-4", "recalibrate over a longer window"},
			[]string{"agrees within"}},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if err := writeClocksText(&out, tt.rep); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: output lacks %q:\n%s", tt.name, w, text)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(text, n) {
				t.Errorf("%s: output has %q:\n%s", tt.name, n, text)
			}
		}
	}
}
