package view

import (
	"fmt"
	"strings"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

// instructionLines are the lines of a function measurement of the
// instruction mode (bench.Options.Instructions): the instructions per
// iteration, exact or not and why, the simulated cache figures with the
// caches and the cycle model, and valgrind's cost. The figures are read
// from the metrics (the samples), the rest from the mode's details.
func instructionLines(m *result.Measurement, o Options) []string {
	mode := m.Detail.Function.Instructions
	fig := func(name string) (string, bool) {
		met := m.Metric(name)
		if met == nil || len(met.Values) == 0 {
			return "", false
		}
		s := o.Series(met)
		p := s.AtQuantile(0.5)
		p.Exact = p.Exact || met.Exact
		return countText(s.Summary.Median, p), true
	}
	ins, ok := fig("instructions")
	if !ok || mode == nil {
		return []string{"instructions: no samples"}
	}
	exact := "not exact (see the warnings; the median of the repeats)"
	if ins := m.Metric("instructions"); ins.Exact {
		exact = "exact"
	}
	src := mode.Source
	if mode.Valgrind != "" {
		src += ", " + mode.Valgrind
	}
	var its []string
	for _, n := range mode.Iterations {
		its = append(its, fmt.Sprint(n))
	}
	fixed := ""
	for _, e := range mode.Events {
		if e.Event == "instructions" {
			fixed = fmt.Sprintf(", fixed cost %s per region (cancelled)", countText(e.Fixed, unit.Precision{Resolution: 1}))
		}
	}
	ls := []string{
		fmt.Sprintf("instructions: %s per iteration, %s (%s of regions of %s iterations%s; %s)", ins, exact,
			plural.Count(mode.Repeats, "repeat"), strings.Join(its, ", "), fixed, src),
	}
	if mode.CacheSim {
		var parts []string
		for _, f := range []struct{ name, label string }{{"l1_misses", "L1 misses"}, {"ll_misses", "LL misses"}, {"estimated_cycles", "estimated cycles"}} {
			if v, ok := fig(f.name); ok {
				parts = append(parts, f.label+" "+v)
			}
		}
		ls = append(ls, fmt.Sprintf("cache (simulated: %s): %s per iteration; %s", mode.Caches, strings.Join(parts, ", "), mode.CycleModel))
	}
	cost := fmt.Sprintf("valgrind: longest region %s", unit.Duration(mode.LongestRegionNs, unit.Precision{Resolution: 1000}))
	if mode.Slowdown > 0 {
		cost = fmt.Sprintf("valgrind: the loop ran %s× slower than natively (%s/op against %s/op), longest region %s",
			unit.Plain(mode.Slowdown, unit.Precision{Resolution: 1}), unit.Duration(mode.SimulatedNsPerOp, unit.Precision{Resolution: 1}),
			unit.Duration(mode.NativeNsPerOp, unit.Precision{Resolution: 0.1}), unit.Duration(mode.LongestRegionNs, unit.Precision{Resolution: 1000}))
	}
	ls = append(ls, cost+"; "+strings.Join(mode.Runtime, " "))
	return append(ls, hardwareLines(m, o)...)
}

// hardwareLines are the hardware's counts of an instruction-mode
// measurement (bench.Instructions.Hardware, perf_event_open, counted
// natively), labelled as the hardware's, or why there are none.
func hardwareLines(m *result.Measurement, o Options) []string {
	fd := m.Detail.Function
	var parts []string
	n := 0
	for _, c := range fd.Counters {
		met := m.Metric(c.Event)
		if met == nil || len(met.Values) == 0 {
			continue
		}
		s := o.Series(met)
		n = max(n, s.N())
		part := c.Event + " " + countText(s.Summary.Median, countPrecision(s))
		if c.Note != "" {
			part += " (" + c.Note + ")"
		}
		parts = append(parts, part)
	}
	var ls []string
	if len(parts) > 0 {
		of := plural.Count(n, "sample")
		if fd.Calibration != nil {
			of += fmt.Sprintf(" of %d iterations", fd.Calibration.Iterations)
		}
		ls = append(ls, fmt.Sprintf("hardware (perf_event_open, natively; the hardware's count, not the simulation's): %s per iteration (median of %s, net of an empty sample's counts)",
			strings.Join(parts, ", "), of))
	}
	for _, u := range fd.CountersUnavailable {
		ls = append(ls, "hardware: "+u.Event+": not available: "+u.Reason)
	}
	return ls
}
