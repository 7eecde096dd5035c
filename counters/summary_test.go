package counters

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

func counted(name string, v float64, fraction float64) Count {
	c := Count{Event: Event{Name: name}}
	en := uint64(1000)
	scale(&c, uint64(v*fraction), en, uint64(float64(en)*fraction))
	return c
}

func TestSummarize(t *testing.T) {
	unsup := Count{Event: Event{Name: "cycles"}, State: NotSupported, Reason: msgNoPMUText}
	readings := []Reading{
		{Counts: []Count{counted("task-clock", 100, 1), unsup, counted("branches", 1000, 0.5)}},
		{Counts: []Count{counted("task-clock", 110, 1), unsup, {Event: Event{Name: "branches"}, State: NotCounted, Reason: "never scheduled"}}},
		{Counts: []Count{counted("task-clock", 120, 1), unsup, counted("branches", 3000, 0.25)}},
	}
	s := summarize(readings)
	if len(s) != 3 {
		t.Fatalf("%d summaries", len(s))
	}
	tc := s[0]
	if !tc.allCounted() || tc.Summary.Mean != 110 || tc.Summary.StdDevSample != 10 || tc.Scaled || tc.MinRunningFraction != 1 {
		t.Errorf("task-clock summary = %+v", tc)
	}
	// perf's ± is the standard error of the mean: 10/sqrt(3)/110.
	if want := 100 * 10 / math.Sqrt(3) / 110; math.Abs(tc.StdErrPercent-want) > 1e-9 {
		t.Errorf("StdErrPercent = %v, want %v", tc.StdErrPercent, want)
	}
	cy := s[1]
	if cy.State != NotSupported || cy.Counted != 0 || cy.Reason != msgNoPMUText || len(cy.Values) != 0 {
		t.Errorf("cycles summary = %+v, want not supported with no values", cy)
	}
	br := s[2]
	if br.Counted != 2 || br.allCounted() || !br.Scaled || br.MinRunningFraction != 0.25 || br.MeanRunningFraction != 0.375 ||
		!strings.Contains(br.Reason, "counted in 2 of 3 runs (never scheduled)") || br.Summary.Mean != 2000 {
		t.Errorf("branches summary = %+v", br)
	}
	if summarize(nil) != nil {
		t.Error("summarize(nil) != nil")
	}
}

const msgNoPMUText = "hardware counters are not available on this host"

func TestDerive(t *testing.T) {
	r := Reading{Counts: []Count{
		counted("cycles:u", 1000, 1), counted("instructions:u", 2500, 1),
		counted("branches", 400, 1), counted("branch-misses", 4, 1),
		counted("task-clock", 500, 1),
		{Event: Event{Name: "cache-misses"}, State: NotSupported, Reason: "x"},
		counted("cache-references", 100, 1),
	}}
	got := map[string]float64{}
	for _, d := range r.derived(time.Duration(1000)) {
		got[d.Name] = d.Value
	}
	want := map[string]float64{"ipc": 2.5, "branch_miss_rate": 0.01, "ghz": 2, "cpus_utilized": 0.5}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if _, ok := got["cache_miss_rate"]; ok {
		t.Error("cache_miss_rate derived from a count that was not counted")
	}
	if len(got) != len(want) {
		t.Errorf("derived %v, want only %v", got, want)
	}
	// Zero denominator: no figure.
	z := Reading{Counts: []Count{counted("cycles", 0, 1), counted("instructions", 5, 1)}}
	if d := z.derived(0); len(d) != 0 {
		t.Errorf("derived from zero cycles: %+v", d)
	}
	s := summarize([]Reading{r, r})
	ds := deriveSummaries(s, stats.Summary{N: 2, Mean: 1000})
	if len(ds) != len(want) {
		t.Errorf("deriveSummaries = %+v", ds)
	}
	for _, d := range ds {
		if d.Uncertainty != 0 {
			t.Errorf("%s: uncertainty %v from equal runs, want 0", d.Name, d.Uncertainty)
		}
	}
}

// TestDeriveUncertainty: the uncertainty of a ratio of means adds
// the relative uncertainties of its inputs in quadrature.
func TestDeriveUncertainty(t *testing.T) {
	means := map[string][2]float64{"instructions": {3000, 30}, "cycles": {1000, 40}, "task-clock": {800, 0}}
	ds := Derive(func(name string) (float64, float64, bool) {
		m, ok := means[name]
		return m[0], m[1], ok
	}, 1000, 10)
	got := map[string]result.Derived{}
	for _, d := range ds {
		got[d.Name] = d
	}
	ipc := got["ipc"]
	// 3 * sqrt(0.01² + 0.04²)
	if want := 3 * math.Sqrt(0.01*0.01+0.04*0.04); ipc.Value != 3 || math.Abs(ipc.Uncertainty-want) > 1e-12 {
		t.Errorf("ipc %+v, want 3 ± %v", ipc, want)
	}
	if cu := got["cpus_utilized"]; cu.Value != 0.8 || math.Abs(cu.Uncertainty-0.008) > 1e-12 {
		t.Errorf("cpus_utilized %+v, want 0.8 ± 0.008", cu)
	}
}
