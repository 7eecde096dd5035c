package clock

import (
	"errors"
	"testing"
	"time"

	"github.com/chronograph/chronograph/result"
)

// TestDocument: every clock is a measurement; a clock that was read has
// its read cost as a metric with the timing clock's resolution over the
// batch; an unavailable one has no metrics, no measured figures, and says
// why (never a zero cost); unknown facts are absent.
func TestDocument(t *testing.T) {
	read := Measured{Props: Props{Name: "CLOCK_MONOTONIC", Kind: Elapsed, Unit: "ns", Path: PathVDSO, PathBasis: "inferred from cost: fake"},
		NominalNs: 1, NominalFrom: "clock_getres", TickNs: 30, TickBasis: result.TickUpperBound, Changes: 90, TickChanges: 90, Reads: 100, BatchSize: 500,
		CostNs: []float64{25, 24, 26}, CostMedianNs: 25, CostP99Ns: 25.98, CostMinNs: 24}
	gone := Measured{Props: Props{Name: "CLOCK_TAI", Kind: Wall, Unit: "ns", Err: errors.New("clock: no TAI"), Unavailable: "clock: no TAI"}}
	rep := Survey{Clocks: []Measured{read, gone}, TSC: &Info{Hz: 1e9, Source: FromCPUID15h}, KernelError: "no kernel log",
		ClocksourceError: "no sysfs", Elapsed: 2 * time.Second}
	rep.Assess()
	d := rep.Document(ProbeOptions{Reads: 100}, result.Tool{Name: "test"})
	if d.Kind != result.KindClocks || d.End.Sub(d.Start) != 2*time.Second || len(d.Measurements) != 2 {
		t.Fatalf("document %+v", d)
	}
	m := d.Measurements[0]
	cost := m.Metric(MetricReadCost)
	if m.Primary != MetricReadCost || cost == nil || cost.Unit != result.UnitNs || cost.Resolution != 1.0/500 || len(cost.Values) != 3 ||
		cost.PercentileMethod != "linear" || cost.Percentiles["p99"] != 25.98 {
		t.Errorf("read cost %+v", cost)
	}
	if cd := m.Detail.Clock; cd == nil || cd.Steps == nil || cd.Steps.TickNs != 30 || cd.Steps.TickBasis != result.TickUpperBound || cd.Steps.TickChanges != 90 ||
		cd.BatchReads != 500 || cd.Cross != nil || cd.Unavailable != "" {
		t.Errorf("detail %+v", cd)
	}
	// An uncertain tick: the document says so, with the changes counted,
	// and holds no tick figure.
	unsure := read
	unsure.TickNs, unsure.TickBasis, unsure.Changes, unsure.TickChanges = 0, result.TickUncertain, 3, 1
	if st := unsure.measurement().Detail.Clock.Steps; st.TickBasis != result.TickUncertain || st.TickNs != 0 || st.TickChanges != 1 || st.Changes != 3 {
		t.Errorf("uncertain tick in the document: %+v", st)
	}
	u := d.Measurements[1]
	if cd := u.Detail.Clock; len(u.Metrics) != 0 || u.Primary != "" || cd == nil || cd.Unavailable != "clock: no TAI" || cd.Steps != nil || cd.BatchReads != 0 {
		t.Errorf("unavailable clock %+v (detail %+v)", u, cd)
	}
	run := d.Run.Clocks
	if run == nil || run.TSC == nil || run.TSC.Invariant != nil || run.KernelTSC != nil || run.KernelTSCUnavailable != "no kernel log" ||
		run.Agreement != nil || run.Clocksource != nil || run.ClocksourceUnavailable != "no sysfs" || run.PathCheck != "inferred" ||
		run.Reads != 100 || run.CalibrateNs != 0 || run.Recommendation.Clock != "CLOCK_MONOTONIC" {
		t.Errorf("run %+v", run)
	}
	// The warnings are typed, with codes.
	for _, w := range d.Warnings {
		if w.Code == "" || w.Severity == "" {
			t.Errorf("warning without code or severity: %+v", w)
		}
	}
	// Defaults are recorded as the probe used them.
	if d := rep.Document(ProbeOptions{}, result.Tool{}); d.Run.Clocks.Reads != 20000 {
		t.Errorf("default reads %d", d.Run.Clocks.Reads)
	}
}
