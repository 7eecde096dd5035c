package result

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chronograph/chronograph/internal/excerpt"
	"github.com/chronograph/chronograph/internal/plural"
)

// kinds lists every kind of document, in the schema's order.
var kinds = []string{KindCommand, KindCounters, KindFunction, KindSleep, KindLatency, KindClocks, KindNumbers, KindEnv, KindTrace, KindScope, KindHistory, KindPulses}

// mayBeEmpty lists the kinds whose documents may hold no measurement: an
// environment alone, a dump without events, a program without scope
// timers, an empty history store. A document of another kind without measurements is damaged,
// unless it says it is incomplete (stopped before anything was measured).
var mayBeEmpty = []string{KindEnv, KindTrace, KindScope, KindHistory}

// metricUnits gives, per kind, the units docs/result-schema.md allows for
// the metrics it documents with a fixed unit. Renderers rely on them (a
// command's wall is in ns); metrics of other names (a counter event, a
// unit of Go's b.ReportMetric read from go test -bench) keep the unit they
// were written with.
var metricUnits = map[string]map[string][]string{
	KindCommand: withNames(map[string][]string{
		UnitNs:    {"wall", "user", "sys", "wall_raw", "user_raw", "sys_raw", "task-clock", "cpu-clock", "task-clock_raw", "cpu-clock_raw"},
		UnitBytes: {"max_rss"},
		UnitCount: {"minor_faults", "major_faults", "vol_cs", "invol_cs",
			"instructions", "l1_misses", "ll_misses", "estimated_cycles",
			"instructions_raw", "l1_misses_raw", "ll_misses_raw", "estimated_cycles_raw"},
		UnitOne: {"exit_code", "signal"},
		UnitCPU: {"cpu"},
	}),
	KindCounters: withNames(map[string][]string{
		UnitNs:  {"wall", "user", "sys", "task-clock", "cpu-clock"},
		UnitOne: {"exit_code", "signal"},
	}),
	KindFunction: withNames(map[string][]string{
		UnitNsPerOp:    {"wall", "cpu_time"},
		UnitCountPerOp: {"allocs", "instructions", "l1_misses", "ll_misses", "estimated_cycles"},
		UnitBytesPerOp: {"bytes"},
		UnitNs:         {"latency", "elapsed", "cpu_read_subtracted"},
		UnitCount: {"iterations", "ticks", "gc_cycles", "vol_ctx_switches", "invol_ctx_switches", "minor_faults",
			"major_faults", "timer_stops"},
		UnitCPU: {"cpu", "cpu_end"},
		UnitOne: {"ipc"},
	}),
	KindSleep:   withNames(map[string][]string{UnitNs: {"achieved", "overshoot", "cpu"}}),
	KindLatency: withNames(map[string][]string{UnitNs: {"latency"}}),
	KindClocks:  withNames(map[string][]string{UnitNs: {"read_cost"}}),
	KindNumbers: {"value": {UnitNs, UnitOne}},
	KindTrace:   withNames(map[string][]string{UnitNs: {"duration", "interval", "gap"}}),
	KindScope:   withNames(map[string][]string{UnitNs: {"duration"}}),
	KindPulses: withNames(map[string][]string{UnitNs: {PulseHigh, PulseLow, PulseRisePeriod, PulseFallPeriod, PulseLatency},
		UnitOne: {PulseDuty}, UnitHz: {PulseFrequency}}),
}

// withNames turns a map of unit to metric names into one of metric name
// to its unit.
func withNames(byUnit map[string][]string) map[string][]string {
	out := map[string][]string{}
	for u, names := range byUnit {
		for _, n := range names {
			out[n] = []string{u}
		}
	}
	return out
}

// schemaUnits returns the units the schema allows for metric name in a
// document of kind, or nil when it leaves the unit to the writer.
func schemaUnits(kind, name string) []string {
	if us := metricUnits[kind][name]; us != nil {
		return us
	}
	if (kind == KindCommand || kind == KindCounters) && strings.HasSuffix(name, "_running") {
		return []string{UnitOne} // the fraction of a run a counter counted
	}
	return nil
}

// validate checks the invariants readers rely on: a kind this package
// knows, measurements (for the kinds that always have some), every metric
// named and in the unit the schema gives it, the per-sample metrics of a
// measurement of one length, histograms well formed and the primary
// metric present. Its errors are one line and name the fix.
func (d *Document) validate() error {
	if !slices.Contains(kinds, d.Kind) {
		if d.Kind == "" {
			return fmt.Errorf(`result: the document has no "kind": give one of %s (see docs/result-schema.md)`, strings.Join(kinds, ", "))
		}
		return fmt.Errorf("result: unknown document kind %s (this chrono reads %s): pass a chrono result document, or upgrade chrono if a newer one wrote it",
			excerpt.Quote(d.Kind), strings.Join(kinds, ", "))
	}
	if len(d.Measurements) == 0 && !d.Incomplete && !slices.Contains(mayBeEmpty, d.Kind) {
		return fmt.Errorf(`result: the %s document holds no measurements ("measurements" is empty or missing): pass the whole document a run wrote, or measure again`, d.Kind)
	}
	for i := range d.Measurements {
		if err := d.Measurements[i].validate(d.Kind, i); err != nil {
			return err
		}
	}
	if d.Kind == KindPulses && len(d.Measurements) > 0 && d.Run.Pulses == nil {
		return fmt.Errorf(`result: the pulses document has no "run.pulses" (the capture it read): pass the whole document chrono pulses wrote`)
	}
	return nil
}

// validate checks one measurement (number i) of a document of kind.
func (m *Measurement) validate(kind string, i int) error {
	if m.Name == "" {
		return fmt.Errorf("result: measurement %d has no name", i)
	}
	for _, met := range m.Metrics {
		if met.Name == "" {
			return fmt.Errorf("result: measurement %s has a metric without a name", excerpt.Quote(m.Name))
		}
		if us := schemaUnits(kind, met.Name); us != nil && !slices.Contains(us, met.Unit) {
			return fmt.Errorf("result: measurement %s: metric %s has unit %s, but the schema puts a %s document's %s in %s: write its values in %s (docs/result-schema.md)",
				excerpt.Quote(m.Name), excerpt.Quote(met.Name), excerpt.Quote(met.Unit), kind, excerpt.Quote(met.Name), strings.Join(us, " or "), us[0])
		}
		if met.Histogram != nil {
			if err := met.Histogram.validate(); err != nil {
				return fmt.Errorf("result: measurement %s, metric %s: %w", excerpt.Quote(m.Name), excerpt.Quote(met.Name), err)
			}
		}
	}
	if err := m.checkLengths(); err != nil {
		return err
	}
	if m.Primary != "" && m.Metric(m.Primary) == nil {
		return fmt.Errorf("result: measurement %s: primary metric %s is missing", excerpt.Quote(m.Name), excerpt.Quote(m.Primary))
	}
	switch kind {
	case KindHistory:
		return m.Detail.History.validate(m)
	case KindPulses:
		return m.Detail.Pulses.validate(m)
	}
	return nil
}

// checkLengths checks that the per-sample metrics of m (every metric but
// the binned ones) hold one value per sample, and names the metric that
// differs: the length most of them share is taken as the samples' (of
// lengths equally common, the first metric's), so a truncated metric is
// named, not the whole ones beside it.
func (m *Measurement) checkLengths() error {
	count := map[int]int{}
	var lengths []int // in the order first seen
	total := 0
	for _, met := range m.Metrics {
		if met.Histogram != nil {
			continue // binned: no per-sample values to line up
		}
		n := len(met.Values)
		if count[n] == 0 {
			lengths = append(lengths, n)
		}
		count[n]++
		total++
	}
	if len(lengths) < 2 {
		return nil
	}
	want := lengths[0]
	for _, n := range lengths[1:] {
		if count[n] > count[want] {
			want = n
		}
	}
	i := slices.IndexFunc(m.Metrics, func(met Metric) bool { return met.Histogram == nil && len(met.Values) != want })
	others := "the other " + plural.Count(total-1, "metric")
	switch {
	case total == 2:
		others = "the other metric"
	case count[want] < total-1:
		others = fmt.Sprintf("%d of the other %d metrics", count[want], total-1)
	}
	return fmt.Errorf("result: measurement %s: metric %s has %s, %s %d (every metric holds one value per sample): the document is damaged or was cut short",
		excerpt.Quote(m.Name), excerpt.Quote(m.Metrics[i].Name), plural.Count(len(m.Metrics[i].Values), "value"), others, want)
}

func (h *Histogram) validate() error {
	if len(h.Bounds) != len(h.Counts)+1 {
		return fmt.Errorf("histogram has %s for %s (want one more bound than counts)", plural.Count(len(h.Bounds), "bound"), plural.Count(len(h.Counts), "count"))
	}
	for i := 1; i < len(h.Bounds); i++ {
		if !(h.Bounds[i] > h.Bounds[i-1]) {
			return fmt.Errorf("histogram bounds do not increase at %d (%v, %v)", i, h.Bounds[i-1], h.Bounds[i])
		}
	}
	for _, c := range append([]int64{h.Underflow, h.Overflow}, h.Counts...) {
		if c < 0 {
			return fmt.Errorf("histogram has a negative count (%d)", c)
		}
	}
	return nil
}
