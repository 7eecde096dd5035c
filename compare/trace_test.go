package compare

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// cpuProfile is a profile of CPU time: ns per function, each its own
// one-frame stack, at a 10 ms period.
func cpuProfile(ns map[string]int64) *profile.Profile {
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000}
	id := uint64(1)
	for name, v := range ns {
		f := &profile.Function{ID: id, Name: name}
		l := &profile.Location{ID: id, Line: []profile.Line{{Function: f}}}
		p.Function, p.Location = append(p.Function, f), append(p.Location, l)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{l}, Value: []int64{v}})
		id++
	}
	return p
}

// TestTraceSlower: the measurement that regressed, with profiles on
// both sides, gets its differential profile per run (the slowed
// function first, at one sample per run of the side with fewer runs);
// the unchanged one gets none, nor does a regression without a profile
// on one side; profiles per different units are refused.
func TestTraceSlower(t *testing.T) {
	walls := map[string][]float64{"slow": spread(1e6, 20), "same": spread(1e6, 20), "noprof": spread(1e6, 20), "units": spread(1e6, 20)}
	newer := map[string][]float64{"slow": spread(2e6, 20), "same": spread(1e6, 20), "noprof": spread(2e6, 20), "units": spread(2e6, 20)}
	order := []string{"slow", "same", "noprof", "units"}
	g, err := GateDocuments(document("cpu", walls, order), document("cpu", newer, order), GateOptions{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	base := map[string]Profile{
		"slow":  {cpuProfile(map[string]int64{"main.f": 4e8, "main.g": 4e8}), 4, "run"},
		"same":  {cpuProfile(map[string]int64{"main.f": 1e8}), 1, "run"},
		"units": {cpuProfile(map[string]int64{"main.f": 1e8}), 1, "iteration"},
	}
	next := map[string]Profile{
		"slow":   {cpuProfile(map[string]int64{"main.f": 1.2e9, "main.g": 2e8}), 2, "run"},
		"same":   {cpuProfile(map[string]int64{"main.f": 1e8}), 1, "run"},
		"noprof": {cpuProfile(map[string]int64{"main.f": 1e8}), 1, "run"},
		"units":  {cpuProfile(map[string]int64{"main.f": 1e8}), 1, "run"},
	}
	g.TraceSlower(base, next)
	if len(g.Traces) != 2 {
		t.Fatalf("%d traces, want those of slow and units: %+v", len(g.Traces), g.Traces)
	}
	tr := g.Traces[0]
	if tr.Measurement != "slow" || tr.Err != nil || tr.Diff == nil {
		t.Fatalf("trace %+v, want slow's differential profile", tr)
	}
	// Per run: main.f 100 ms -> 600 ms, main.g 100 ms -> 100 ms.
	if f := tr.Diff.Funcs[0]; f.Name != "main.f" || f.Flat.Before != 1e8 || f.Flat.After != 6e8 || f.Flat.Share != 1 {
		t.Errorf("first function %+v, want main.f from 100 ms to 600 ms per run, all of the change", f)
	}
	if math.Abs(tr.Resolution-5e6) > 1e-6 || tr.Per != "run" {
		t.Errorf("resolution %v per %s, want 5 ms (10 ms over 2 runs) per run", tr.Resolution, tr.Per)
	}
	if u := g.Traces[1]; u.Measurement != "units" || u.Err == nil || !strings.Contains(u.Err.Error(), "per iteration") {
		t.Errorf("trace %+v, want units refused for profiles per iteration and per run", u)
	}
}

// TestTraceRuns: each side's runs are merged with every run weighted
// equally per run, whatever its length: the old side's runs of 2 and 4
// runs spend 100 ms and 300 ms per run in main.f (mean 200 ms), the new
// side's one run 500 ms, so main.f grew by 300 ms per run; the
// iterations are the sides' totals, the resolution one 10 ms sample of
// the new side's single run (the coarsest); a side without
// profiles, or with profiles per different units, is refused.
func TestTraceRuns(t *testing.T) {
	base := []Profile{
		{cpuProfile(map[string]int64{"main.f": 2e8, "main.g": 2e8}), 2, "run"},
		{cpuProfile(map[string]int64{"main.f": 12e8, "main.g": 4e8}), 4, "run"},
	}
	next := []Profile{{cpuProfile(map[string]int64{"main.f": 5e8, "main.g": 1e8}), 1, "run"}}
	tr := TraceRuns("m", base, next)
	if tr.Err != nil || tr.Diff == nil {
		t.Fatalf("TraceRuns: %v", tr.Err)
	}
	f := tr.Diff.Funcs[0]
	if f.Name != "main.f" || math.Abs(f.Flat.Before-2e8) > 1 || math.Abs(f.Flat.After-5e8) > 1 {
		t.Errorf("first function %+v, want main.f from 200 ms to 500 ms per run", f)
	}
	if len(tr.Diff.Funcs) != 1 {
		t.Errorf("functions %+v, want main.f alone (main.g takes 100 ms per run on both sides)", tr.Diff.Funcs)
	}
	if tr.Diff.BaseIterations != 6 || tr.Diff.NewIterations != 1 {
		t.Errorf("iterations %v and %v, want the sides' totals 6 and 1", tr.Diff.BaseIterations, tr.Diff.NewIterations)
	}
	if math.Abs(tr.Resolution-1e7) > 1e-6 {
		t.Errorf("resolution %v, want 10 ms (one sample of the new side's single run)", tr.Resolution)
	}
	rec := tr.Record()
	if rec.Total == nil || rec.Funcs[0].Name != "main.f" || rec.Per != "run" || rec.BaseIterations != 6 {
		t.Errorf("Record: %+v", rec)
	}
	if tr := TraceRuns("m", nil, next); tr.Err == nil || !strings.Contains(tr.Err.Error(), "no profiles on the old side") || tr.Record().Note == "" {
		t.Errorf("no old profiles: %v, want an error naming the old side", tr.Err)
	}
	mixed := append(slices.Clone(base), Profile{cpuProfile(map[string]int64{"main.f": 1}), 1, "iteration"})
	if tr := TraceRuns("m", mixed, next); tr.Err == nil || !strings.Contains(tr.Err.Error(), "per run and per iteration") {
		t.Errorf("mixed units: %v, want them refused", tr.Err)
	}
}
