package result

import (
	"bytes"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/chronograph/chronograph/clock"
)

// TestClocksRoundTrip: a clocks document reads and writes back byte for
// byte (the documentation's example, written by chrono clocks on a real
// host, and the seed document of every field), so the Go types hold all
// of the kind's JSON, in its order.
func TestClocksRoundTrip(t *testing.T) {
	for _, path := range []string{"../docs/examples/clocks.json", "testdata/documents/clocks-v2.json"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if d.Kind != KindClocks || d.Run.Clocks == nil || len(d.Measurements) == 0 {
			t.Fatalf("%s: kind %q, run %v, %d measurements: not a clocks document", path, d.Kind, d.Run.Clocks, len(d.Measurements))
		}
		var again bytes.Buffer
		if err := Encode(&again, d); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Bytes(), data) {
			t.Errorf("%s does not round-trip:\n--- written again\n%.3000s\n--- read\n%.3000s", path, again.Bytes(), data)
		}
	}
}

// TestClocksDocument: every clock is a measurement; a clock that was read
// has its read cost as a metric with the timing clock's resolution over
// the batch; an unavailable one has no metrics, no measured figures, and
// says why (never a zero cost); unknown facts are absent.
func TestClocksDocument(t *testing.T) {
	read := clock.Measured{Props: clock.Props{Name: "CLOCK_MONOTONIC", Kind: clock.Elapsed, Unit: "ns", Path: clock.PathVDSO, PathBasis: "inferred from cost: fake"},
		NominalNs: 1, NominalFrom: "clock_getres", BatchReads: 500,
		Steps:  &clock.Steps{TickNs: 30, TickBasis: clock.TickUpperBound, Changes: 90, TickChanges: 90, Reads: 100},
		CostNs: []float64{25, 24, 26}, CostMedianNs: 25, CostP99Ns: 25.98, CostMinNs: 24}
	gone := clock.Measured{Props: clock.Props{Name: "CLOCK_TAI", Kind: clock.Wall, Unit: "ns", Err: errors.New("clock: no TAI"), Unavailable: "clock: no TAI"}}
	errOnly := clock.Measured{Props: clock.Props{Name: "rdtsc", Kind: clock.Counter, Err: errors.New("clock: no counter")}}
	// Never timed, though it has figures: they are not the clock's.
	untimed := read
	untimed.Name, untimed.CostNs = "CLOCK_BOOTTIME", nil
	untimed.Cross = &clock.Cross{Mode: "shared-atomic", Threads: 2}
	// Read, but Go's monotonic clock could not time its batches (windows):
	// the reason is the clock's.
	untimable := clock.Measured{Props: clock.Props{Name: "CLOCK_REALTIME", Kind: clock.Wall, Unit: "ns"}, BatchReads: 500,
		Steps:           &clock.Steps{TickNs: 100, TickBasis: clock.TickObserved, Changes: 90, TickChanges: 90, Reads: 100},
		CostUnavailable: "clock: read cost not measurable on windows: too coarse"}
	s := clock.Survey{Clocks: []clock.Measured{read, gone, errOnly, untimed, untimable},
		Host: clock.Host{TSC: &clock.Info{Hz: 1e9, Source: "cpuid-15h"}, KernelTSCUnavailable: "no kernel log",
			ClocksourceUnavailable: "no sysfs", Reads: 100, Elapsed: 2 * time.Second}}
	s.Assess()
	d := ClocksDocument(&s, Meta{Tool: Tool{Name: "test"}})
	if d.Kind != KindClocks || d.End.Sub(d.Start) != 2*time.Second || len(d.Measurements) != 5 {
		t.Fatalf("document %+v", d)
	}
	m := d.Measurements[0]
	cost := m.Metric(MetricReadCost)
	if m.Name != "CLOCK_MONOTONIC" || m.Primary != MetricReadCost || cost == nil || cost.Unit != UnitNs || cost.Resolution != 1.0/500 || len(cost.Values) != 3 ||
		cost.PercentileMethod != "linear" || cost.Percentiles["p99"] != 25.98 || cost.Percentiles["p50"] != 25 || cost.Summary == nil || cost.Summary.Min != 24 {
		t.Errorf("read cost %+v", cost)
	}
	if cd := m.Detail.Clock; cd == nil || cd.Steps == nil || cd.Steps.TickNs != 30 || cd.Steps.TickBasis != clock.TickUpperBound || cd.Steps.TickChanges != 90 ||
		cd.BatchReads != 500 || cd.Cross != nil || cd.Unavailable != "" || cd.Kind != clock.Elapsed || cd.Path != clock.PathVDSO {
		t.Errorf("detail %+v", cd)
	}
	for i, want := range map[int]string{1: "clock: no TAI", 2: "clock: no counter", 3: "clock: no read was timed", 4: "clock: read cost not measurable on windows: too coarse"} {
		u := d.Measurements[i]
		if cd := u.Detail.Clock; len(u.Metrics) != 0 || u.Metrics == nil || u.Primary != "" || cd == nil || cd.Unavailable != want ||
			cd.Steps != nil || cd.BatchReads != 0 || cd.Cross != nil {
			t.Errorf("unavailable clock %s: %+v (detail %+v), want no figures and %q", u.Name, u, cd, want)
		}
	}
	// The survey itself is left as it was.
	if c := s.Clocks[3]; c.Unavailable != "" || c.Steps == nil || c.Cross == nil || c.BatchReads != 500 {
		t.Errorf("the survey's clock changed: %+v", c)
	}
	run := d.Run.Clocks
	if run == nil || run.TSC == nil || run.TSC.Invariant != nil || run.KernelTSC != nil || run.KernelTSCUnavailable != "no kernel log" ||
		run.Agreement != nil || run.Clocksource != nil || run.ClocksourceUnavailable != "no sysfs" || run.PathCheck != "inferred" ||
		run.Reads != 100 || run.Calibrate != 0 || run.Recommendation.Clock != "CLOCK_MONOTONIC" {
		t.Errorf("run %+v", run)
	}
	// The warnings are typed, with codes; the notes follow them.
	if len(d.Warnings) != len(s.Warnings)+len(s.Notes) {
		t.Errorf("%d warnings, want the survey's %d warnings and %d notes", len(d.Warnings), len(s.Warnings), len(s.Notes))
	}
	for _, w := range d.Warnings {
		if w.Code == "" || w.Severity == "" {
			t.Errorf("warning without code or severity: %+v", w)
		}
	}
}
