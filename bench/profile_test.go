package bench

import (
	"bytes"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/profiles"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/warn"
)

// TestMeasuredOnly: the filter keeps the samples labelled "sample" and
// nothing else: not the other phases, not unlabelled samples (other
// goroutines), not a sample with two values of the label.
func TestMeasuredOnly(t *testing.T) {
	fn := &profile.Function{ID: 1, Name: "main.work"}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: fn}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000,
		Function: []*profile.Function{fn}, Location: []*profile.Location{loc},
	}
	tests := []struct {
		labels []string // nil: unlabelled
		n      int64
		kept   bool
	}{
		{[]string{PhaseSetup}, 1, false},
		{[]string{PhaseCalibration}, 2, false},
		{[]string{PhaseWarmup}, 4, false},
		{[]string{PhaseProbe}, 8, false},
		{[]string{PhaseSample}, 16, true},
		{nil, 32, false},
		{[]string{PhaseSample, PhaseWarmup}, 64, false},
		{[]string{PhaseSample}, 128, true},
	}
	var want int64
	for _, tt := range tests {
		s := &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{tt.n, tt.n * p.Period}}
		if tt.labels != nil {
			s.Label = map[string][]string{ProfileLabel: tt.labels}
		}
		p.Sample = append(p.Sample, s)
		if tt.kept {
			want += tt.n
		}
	}
	got := measuredOnly(p)
	n, err := profiles.Samples(got)
	if err != nil || n != want {
		t.Fatalf("measuredOnly kept %d samples (%v), want %d", n, err, want)
	}
	if len(p.Sample) != len(tests) {
		t.Errorf("measuredOnly changed its input: %d samples left of %d", len(p.Sample), len(tests))
	}
	if measuredOnly(nil) != nil {
		t.Error("measuredOnly(nil) is not nil")
	}
}

var spinSink uint64

// spin is real CPU work: the profile's samples need some.
func spin(b *B) {
	x := uint64(b.n)
	for b.Loop() {
		for i := 0; i < 1000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	spinSink = x
}

// labelsOf returns the values of ProfileLabel in p's samples, with the
// number of samples of each ("" for unlabelled ones).
func labelsOf(p *profile.Profile) map[string]int64 {
	out := map[string]int64{}
	for _, s := range p.Sample {
		out[strings.Join(s.Label[ProfileLabel], ",")] += s.Value[0]
	}
	return out
}

// TestProfileBoundary runs a real benchmark with Options.Profile: the
// whole profile (every goroutine, from the first measured sample to the
// last) holds no calibration sample at all, since the profiler starts
// after calibration; it may hold the later blocks' probes and
// re-warming samples and the function's setup, labelled so; the kept
// profile holds only the measured samples' CPU time; its document
// refers to it, and SaveProfiles writes it beside the document.
func TestProfileBoundary(t *testing.T) {
	if runtime.GOOS == "windows" {
		crosstest.SkipUnderWine(t, "the measured CPU time comes from GetThreadTimes, which Wine charges coarsely, so the bound on the profile's samples cannot be derived from it")
	}
	r, err := Run("spin", spin, &Options{Profile: true, Target: 20 * time.Millisecond, Samples: 20, WarmupSamples: 5, Blocks: 4})
	if err != nil {
		t.Fatal(err)
	}
	if r.Profile == nil || r.profileAll == nil {
		t.Fatalf("no profile recorded; warnings: %v", r.Warnings)
	}
	all := labelsOf(r.profileAll)
	for l := range all {
		if !slices.Contains([]string{PhaseSetup, PhaseProbe, PhaseWarmup, PhaseSample, ""}, l) {
			t.Errorf("the whole profile holds %d samples labelled %q: the profiler ran outside the measured blocks", all[l], l)
		}
	}
	kept := labelsOf(r.Profile)
	if len(kept) != 1 || kept[PhaseSample] == 0 {
		t.Fatalf("the kept profile's labels are %v, want samples labelled %q only", kept, PhaseSample)
	}
	if kept[PhaseSample] != all[PhaseSample] {
		t.Errorf("the kept profile has %d measured samples, the whole one %d", kept[PhaseSample], all[PhaseSample])
	}
	// The measured samples' CPU time bounds what the profile can hold
	// (one profiler tick per 10 ms of CPU, a tick of slack either side
	// of every block).
	var cpu float64
	for _, s := range r.Samples {
		cpu += s.CPUNs
	}
	if max := int64(cpu/10e6) + 2*4 + 2; cpu > 0 && kept[PhaseSample] > max {
		t.Errorf("%d profile samples from %.0f ns of measured CPU time: more than %d, so other work is in it", kept[PhaseSample], cpu, max)
	}

	d := Document(result.Meta{}, r)
	ref := d.Measurements[0].Profile
	want := result.ProfileRef{Source: ProfileSource, Samples: kept[PhaseSample], Iterations: r.ProfileIterations(), Per: "iteration"}
	if ref == nil || *ref != want {
		t.Fatalf("the document's profile reference is %+v, want %+v", ref, want)
	}
	docPath := filepath.Join(crosstest.TempDir(t), "bench.json")
	if err := SaveProfiles(docPath, d, r); err != nil {
		t.Fatal(err)
	}
	if ref.File != "bench.0.pprof" {
		t.Errorf("the profile's file is %q, want bench.0.pprof", ref.File)
	}
	back, err := profiles.Read(profiles.Resolve(docPath, ref.File))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := profiles.Samples(back); n != ref.Samples {
		t.Errorf("the saved profile holds %d samples, the document says %d", n, ref.Samples)
	}
}

// TestProfileBusy: with a CPU profile already running (go test
// -cpuprofile), Run measures without one and says why.
func TestProfileBusy(t *testing.T) {
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		t.Skipf("a CPU profile is running already (go test -cpuprofile?): %v", err)
	}
	defer pprof.StopCPUProfile()
	r, err := Run("spin", spin, &Options{Profile: true, Target: time.Millisecond, Samples: 5, Blocks: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Profile != nil {
		t.Error("a profile was recorded while another one ran")
	}
	if !slices.ContainsFunc(r.Warnings, func(w warn.Warning) bool { return w.Code == warnProfile }) {
		t.Errorf("no %s warning in %v", warnProfile, r.Warnings)
	}
	if d := Document(result.Meta{}, r); d.Measurements[0].Profile != nil {
		t.Error("the document refers to a profile that was not recorded")
	}
}

// TestCompareRefusesProfile: interleaved rounds of several cases have
// no one benchmark to profile.
func TestCompareRefusesProfile(t *testing.T) {
	_, err := Compare([]Case{{Name: "a", F: spin}, {Name: "b", F: spin}}, &Options{Profile: true})
	if err == nil || !strings.Contains(err.Error(), "Options.Profile") {
		t.Fatalf("Compare with Profile: %v, want a refusal naming Options.Profile", err)
	}
}
