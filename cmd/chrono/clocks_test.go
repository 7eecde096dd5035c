package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
)

// TestClocksJSON runs the real probe (shortened) and checks the document's
// structure, never a timing figure.
func TestClocksJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if code := execute([]string{"clocks", "--json", "--reads", "2000"}, &out, &errb); code != exitOK {
		t.Fatalf("chrono clocks --json: exit %d, stderr %q", code, errb.String())
	}
	d := decodeStrict(t, out.Bytes())
	if d.Kind != result.KindClocks || d.Tool.Name != "chrono" || d.End.Before(d.Start) || d.Environment == nil {
		t.Errorf("kind %q, tool %+v, start %v, end %v, environment %v", d.Kind, d.Tool, d.Start, d.End, d.Environment != nil)
	}
	if strings.Join(d.Args, " ") != "chrono clocks --json --reads 2000" {
		t.Errorf("args %q", d.Args)
	}
	sources := clock.Sources()
	if len(d.Measurements) != len(sources) {
		t.Fatalf("%d measurements, want %d (one per clock)", len(d.Measurements), len(sources))
	}
	for i, src := range sources {
		m := d.Measurements[i]
		cd := m.Detail.Clock
		if m.Name != src.Name() || cd == nil {
			t.Errorf("measurement %d is %q (detail %v), want %q", i, m.Name, cd, src.Name())
			continue
		}
		// Unavailable: the clock, or on windows, whose monotonic clock is
		// too coarse to time batches of reads, its read cost.
		costless := runtime.GOOS != "linux" && strings.HasPrefix(cd.Unavailable, "clock: read cost not measurable")
		if src.Props().Err != nil || costless {
			if cd.Unavailable == "" || len(m.Metrics) != 0 || cd.Steps != nil {
				t.Errorf("%s is unavailable but has metrics or steps or no reason: %+v", m.Name, m)
			}
			continue
		}
		cost := m.Metric(result.MetricReadCost)
		if m.Primary != result.MetricReadCost || cost == nil || cost.Unit != "ns" || len(cost.Values) == 0 ||
			!(cost.Resolution > 0) || cost.Summary == nil {
			t.Errorf("%s: primary %q, read_cost %+v", m.Name, m.Primary, cost)
			continue
		}
		if p50 := cost.Percentiles["p50"]; p50 <= 0 || p50 < cost.Summary.Min || p50 > cost.Summary.Max {
			t.Errorf("%s: p50 %v outside [%v, %v]", m.Name, p50, cost.Summary.Min, cost.Summary.Max)
		}
		if cd.Steps == nil || cd.Steps.Reads < 2000 || cd.BatchReads < 1 {
			t.Errorf("%s: steps %+v, batch %d; want at least 2000 reads (--reads)", m.Name, cd.Steps, cd.BatchReads)
		}
	}
	run := d.Run.Clocks
	if run == nil || run.Reads != 2000 || run.Recommendation.Reason == "" || run.Elapsed <= 0 || (run.TSC == nil && run.TSCUnavailable == "") {
		t.Errorf("run: %+v", run)
	}
}

// decodeStrict decodes a document rejecting fields the types do not know:
// what a writer writes is what the schema (the Go types) says.
func decodeStrict(t *testing.T, data []byte) *result.Document {
	t.Helper()
	var d result.Document
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("strict decoding: %v\n%.2000s", err, data)
	}
	if d.Version != result.Version || d.Schema != result.Schema {
		t.Errorf("schema %q version %d", d.Schema, d.Version)
	}
	// ... and writing what was read gives the same document.
	var again bytes.Buffer
	if err := result.Encode(&again, &d); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.TrimSpace(again.Bytes()), bytes.TrimSpace(data)) {
		t.Errorf("the document does not round-trip:\n--- written again\n%.3000s\n--- read\n%.3000s", again.Bytes(), data)
	}
	return &d
}

func TestClocksUsage(t *testing.T) {
	dir := crosstest.TempDir(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"clocks", "extra"}, "unknown command"},
		{[]string{"clocks", "--reads", "0"}, "--reads 0: give at least 6"},
		{[]string{"clocks", "--reads", "1"}, "--reads 1: give at least 6 (the tick is taken from 5 changes of the value, which need 6 reads)"},
		{[]string{"clocks", "--reads", "5"}, "--reads 5: give at least 6"},
		{[]string{"clocks", "-n", "100"}, "unknown shorthand flag: 'n'"},
		{[]string{"clocks", "--calibrate", "1ms"}, "--calibrate must be at least 10ms"},
		{[]string{"clocks", "--calibrate", "soon"}, "invalid argument"},
		{[]string{"clocks", "--bogus"}, "unknown flag"},
		{[]string{"clocks", "--json", "--export-json", "-"}, "both write to standard output"},
		{[]string{"clocks", "--export-csv", dir}, "is a directory"},
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

// fakeSurvey is a survey as a host might produce it (with the
// default --reads), with the conclusions derived by clock.Survey.Assess.
func fakeSurvey(cs clock.Clocksource, monoPath, monoDesc string, monoCost float64, info clock.Info) clock.Survey {
	res := func(name string, kind clock.Kind, path, desc string, cost float64) clock.Measured {
		costs := []float64{cost, cost * 1.01, cost * 0.99, cost * 1.02, cost, cost * 2, cost * 1.01, cost * 0.98, cost, cost * 1.03}
		return clock.Measured{Props: clock.Props{Name: name, Kind: kind, Unit: "ns", Path: path, Description: desc,
			PathBasis: "measured: fake"}, NominalNs: 1, BatchReads: 800,
			Steps:        &clock.Steps{TickNs: 40, TickBasis: clock.TickUpperBound, Changes: 100, TickChanges: 100, Reads: 100},
			CostMedianNs: cost, CostP99Ns: cost * 2, CostMinNs: cost * 0.98, CostNs: costs,
			Cross: &clock.Cross{Mode: "shared-atomic", Threads: 2, CPUs: []int{0, 1}, Pinned: true, Comparisons: 1000}}
	}
	wall := res("CLOCK_REALTIME", clock.Wall, clock.PathVDSO, "clock_gettime(CLOCK_REALTIME) through the vDSO", monoCost)
	wall.Cross = nil
	ctr := res("rdtsc", clock.Counter, clock.PathInstruction, "RDTSC", 9.5)
	ctr.Unit, ctr.NominalNs, ctr.NominalFrom, ctr.Steps.TickNs, ctr.Steps.TickBasis = "ticks", 0.385, "1/frequency", 0.385, clock.TickObserved
	ctr.Cross.BackwardSteps, ctr.Cross.MaxBackwardNs = 12, 80.4
	// A coarse clock read on a loaded machine: one change counted in the
	// time bound, so its tick is uncertain.
	coarse := res("CLOCK_MONOTONIC_COARSE", clock.Elapsed, clock.PathVDSO, "clock_gettime(CLOCK_MONOTONIC_COARSE) through the vDSO", 6.6)
	coarse.Coarse, coarse.NominalNs, coarse.NominalFrom = true, 4e6, "clock_getres"
	coarse.Steps = &clock.Steps{TickBasis: clock.TickUncertain, Changes: 3, TickChanges: 1, Reads: 812345}
	missing := clock.Measured{Props: clock.Props{Name: "CLOCK_TAI", Kind: clock.Wall, Unit: "ns", Path: clock.PathVDSO,
		Unavailable: "clock: CLOCK_TAI is not available on this platform", Err: clock.ErrUnavailable}}
	s := clock.Survey{
		Clocks: []clock.Measured{
			res("go-monotonic", clock.Elapsed, monoPath, "time.Since(base)", monoCost),
			wall, missing,
			res("CLOCK_MONOTONIC", clock.Elapsed, monoPath, monoDesc, monoCost),
			coarse,
			res("CLOCK_THREAD_CPUTIME_ID", clock.CPUTime, clock.PathSyscall, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) system call", 1500),
			ctr,
		},
		Host: clock.Host{
			TSC:         &info,
			KernelTSC:   &clock.KernelTSC{Hz: 2_596_150_000, From: "kernel log", Line: "tsc: Detected 2596.150 MHz processor", ResolutionPPM: 0.19},
			Clocksource: &cs,
			Reads:       20000,
			Elapsed:     time.Second,
		},
	}
	s.Assess()
	return s
}

func calibrated(hz uint64, errPPM float64, window time.Duration) clock.Info {
	invariant := true
	return clock.Info{Hz: hz, Source: "calibrated", ErrorPPM: errPPM, Invariant: &invariant,
		Calibration: &clock.Calibration{Reference: "CLOCK_MONOTONIC_RAW", Window: window, Segments: 5,
			SegmentHz: []float64{float64(hz) - 50, float64(hz) + 10, float64(hz), float64(hz) + 30, float64(hz) - 20}, SpreadPPM: 0.031, BracketNs: []float64{40, 41, 39, 40, 60, 40}}}
}

// fakeClocks makes chrono clocks use s (with the options it was given,
// as Probe records them) and a fixed environment for the rest of the test.
func fakeClocks(t *testing.T, s clock.Survey) {
	t.Helper()
	probe, envf := clocksProbe, clocksEnv
	t.Cleanup(func() { clocksProbe, clocksEnv = probe, envf })
	clocksProbe = func(o clock.ProbeOptions) clock.Survey {
		s.Reads, s.Calibrate = o.Reads, o.Calibrate
		return s
	}
	clocksEnv = func() *env.Host {
		return &env.Host{Counters: &env.Counters{Summary: "hardware counters: no (no PMU exposed); software counters: yes"}}
	}
}

// TestClocksGolden: what chrono clocks prints (from a fake probe) is the
// golden text, and chrono report of its saved document prints the same,
// byte for byte, in every format.
func TestClocksGolden(t *testing.T) {
	fakeClocks(t, fakeSurvey(clock.Clocksource{Current: "tsc", Available: []string{"tsc", "kvm-clock"}}, clock.PathVDSO,
		"clock_gettime(CLOCK_MONOTONIC) through the vDSO", 25, calibrated(2_596_150_100, 0.4, 100*time.Millisecond)))
	dir := crosstest.TempDir(t)
	doc, md, csv := filepath.Join(dir, "c.json"), filepath.Join(dir, "c.md"), filepath.Join(dir, "c.csv")
	live, errs, code := runChrono(t, "", "clocks", "--export-json", doc, "--export-markdown", md, "--export-csv", csv)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "clocks.golden", []byte(live))
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	decodeStrict(t, data)
	sameAsReport(t, doc, live, "text")
	for path, format := range map[string]string{md: "markdown", csv: "csv"} {
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "clocks.golden."+format, want)
		sameAsReport(t, doc, string(want), format)
	}
}

// sameAsReport checks that chrono report renders the document at path in
// format as want.
func sameAsReport(t *testing.T, path, want, format string) {
	t.Helper()
	got, errs, code := runChrono(t, "", "report", "--format", format, path)
	if code != exitOK {
		t.Fatalf("report --format %s: exit %d: %s", format, code, errs)
	}
	if got != want {
		t.Errorf("chrono report --format %s differs from the live output:\n--- report\n%s\n--- live\n%s", format, got, want)
	}
}

func TestClocksTextFakes(t *testing.T) {
	good := calibrated(2_596_150_100, 0.4, 100*time.Millisecond)
	tests := []struct {
		name      string
		s         clock.Survey
		want, not []string
	}{
		{"kvm-clock without tsc",
			fakeSurvey(clock.Clocksource{Current: "kvm-clock", Available: []string{"kvm-clock"}}, clock.PathVDSO,
				"clock_gettime(CLOCK_MONOTONIC) through the vDSO", 45, good),
			[]string{"clocksource           kvm-clock (available: kvm-clock)", "tsc is not among them", "agrees within 100 ppm"},
			[]string{"select it", "echo tsc"}},
		{"kvm-clock with tsc",
			fakeSurvey(clock.Clocksource{Current: "kvm-clock", Available: []string{"kvm-clock", "tsc"}}, clock.PathVDSO,
				"clock_gettime(CLOCK_MONOTONIC) through the vDSO", 45, good),
			[]string{"tsc is available: select it"}, nil},
		{"vDSO fallback",
			fakeSurvey(clock.Clocksource{Current: "hpet", Available: []string{"hpet", "acpi_pm"}}, clock.PathSyscall,
				"clock_gettime(CLOCK_MONOTONIC) through the vDSO (the vDSO falls back to the system call)", 1400, good),
			[]string{"elapsed  syscall", "the vDSO cannot read clocksource hpet, so every read is a system call"},
			[]string{"select it"}},
		{"short calibration",
			fakeSurvey(clock.Clocksource{Current: "tsc", Available: []string{"tsc"}}, clock.PathVDSO,
				"clock_gettime(CLOCK_MONOTONIC) through the vDSO", 25, calibrated(2_596_160_000, 180, 10*time.Millisecond)),
			[]string{"± 180 ppm: cannot tell whether it is within 100 ppm", "--calibrate 50ms"},
			[]string{"agrees within", "DISAGREES"}},
		{"clear disagreement",
			fakeSurvey(clock.Clocksource{Current: "tsc", Available: []string{"tsc"}}, clock.PathVDSO,
				"clock_gettime(CLOCK_MONOTONIC) through the vDSO", 25, calibrated(2_597_000_000, 2, 100*time.Millisecond)),
			[]string{"DISAGREES by more than 100 ppm", "recalibrate over a longer window"},
			[]string{"agrees within"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fakeClocks(t, tt.s)
			text, errs, code := runChrono(t, "", "clocks")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("output lacks %q:\n%s", w, text)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(text, n) {
					t.Errorf("output has %q:\n%s", n, text)
				}
			}
			// An unavailable clock shows why, never a zero cost.
			if !strings.Contains(text, "CLOCK_TAI  clock: CLOCK_TAI is not available") || strings.Contains(text, " 0 ns") {
				t.Errorf("unavailable clock:\n%s", text)
			}
		})
	}
}

// fakeBareSurvey is a survey of a host that tells little: no counter, no
// kernel figure, no clocksource, no clock that passed the checks; one
// clock unavailable with an error but no text of its own, one that was
// never timed.
func fakeBareSurvey() clock.Survey {
	s := clock.Survey{
		Clocks: []clock.Measured{
			{Props: clock.Props{Name: "go-monotonic", Kind: clock.Elapsed, Unit: "ns", Path: "runtime", PathBasis: "the Go runtime's own clock"},
				NominalNs: 1, NominalFrom: "unit (time.Duration)", Steps: &clock.Steps{Reads: 100, TickBasis: clock.TickUncertain}},
			{Props: clock.Props{Name: "CLOCK_MONOTONIC", Kind: clock.Elapsed, Unit: "ns", Err: clock.ErrUnavailable}},
		},
		Host: clock.Host{
			TSCUnavailable:         "clock: no timestamp counter support on riscv64: clock: not available on this platform",
			KernelTSCUnavailable:   "clock: reading the kernel's TSC frequency is supported on Linux only",
			ClocksourceUnavailable: "clock: the kernel clocksource is a Linux sysfs file",
			Reads:                  20000,
			Elapsed:                1234567 * time.Nanosecond,
		},
	}
	s.Assess()
	return s
}

// TestClocksDocumentGolden: the clocks document of each fake survey, with
// its times, tool and environment fixed, is the golden JSON, byte for
// byte, and reads back to the same bytes. (The document's shape is the
// schema: a change here is a change of docs/result-schema.md.)
func TestClocksDocumentGolden(t *testing.T) {
	good := calibrated(2_596_150_100, 0.4, 100*time.Millisecond)
	vdso := "clock_gettime(CLOCK_MONOTONIC) through the vDSO"
	uncal := clock.Info{Hz: 2_400_000_000, Source: "cpuid-15h"}
	asked := fakeSurvey(clock.Clocksource{Current: "kvm-clock", Available: []string{"kvm-clock"}}, clock.PathVDSO, vdso, 45, uncal)
	asked.Reads, asked.Calibrate = 6, 500*time.Millisecond
	cases := []struct {
		name string
		s    clock.Survey
	}{
		{"tsc", fakeSurvey(clock.Clocksource{Current: "tsc", Available: []string{"tsc", "kvm-clock"}}, clock.PathVDSO, vdso, 25, good)},
		{"kvm-clock, exact counter, calibrate asked", asked},
		{"vDSO fallback", fakeSurvey(clock.Clocksource{Current: "hpet", Available: []string{"hpet", "acpi_pm"}}, clock.PathSyscall,
			vdso+" (the vDSO falls back to the system call)", 1400, good)},
		{"short calibration", fakeSurvey(clock.Clocksource{Current: "tsc", Available: []string{"tsc"}}, clock.PathVDSO, vdso, 25,
			calibrated(2_596_160_000, 180, 10*time.Millisecond))},
		{"clear disagreement", fakeSurvey(clock.Clocksource{Current: "tsc", Available: []string{"tsc"}}, clock.PathVDSO, vdso, 25,
			calibrated(2_597_000_000, 2, 100*time.Millisecond))},
		{"nothing known", fakeBareSurvey()},
	}
	end := time.Date(2025, 6, 7, 8, 9, 10, 111213141, time.UTC)
	var all bytes.Buffer
	for _, c := range cases {
		d := result.ClocksDocument(&c.s, result.Meta{Tool: result.Tool{Name: "chrono", Version: "v0.0.0-golden", GoVersion: "go1.26", Revision: "abc"}})
		took := d.End.Sub(d.Start)
		d.End, d.Start = end, end.Add(-took)
		d.Args = []string{"chrono", "clocks", "--json"}
		d.Environment = &env.Host{Counters: &env.Counters{Summary: "hardware counters: no (no PMU exposed); software counters: yes"}}
		var b bytes.Buffer
		if err := result.Encode(&b, d); err != nil {
			t.Fatal(err)
		}
		decodeStrict(t, b.Bytes())
		fmt.Fprintf(&all, "=== %s\n%s", c.name, b.Bytes())
	}
	golden(t, "clocks-documents.golden", all.Bytes())
}
