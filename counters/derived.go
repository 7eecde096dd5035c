package counters

import (
	"math"
	"strings"
	"time"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// ratio is a derived figure num/den.
type ratio struct {
	name, num, den, unit, label string
	// extra numerator and denominator terms (summed), for the simulated
	// cache miss rates.
	nums, dens []string
}

var ratios = []ratio{
	{name: "ipc", num: "instructions", den: "cycles", unit: "1", label: "insn per cycle"},
	{name: "branch_miss_rate", num: "branch-misses", den: "branches", unit: "fraction", label: "of all branches"},
	{name: "cache_miss_rate", num: "cache-misses", den: "cache-references", unit: "fraction", label: "of all cache refs"},
	{name: "l1d_load_miss_rate", num: "L1-dcache-load-misses", den: "L1-dcache-loads", unit: "fraction", label: "of all L1-dcache loads"},
	{name: "llc_load_miss_rate", num: "LLC-load-misses", den: "LLC-loads", unit: "fraction", label: "of all LLC loads"},
	{name: "frontend_stall_fraction", num: "stalled-cycles-frontend", den: "cycles", unit: "fraction", label: "frontend cycles idle"},
	{name: "backend_stall_fraction", num: "stalled-cycles-backend", den: "cycles", unit: "fraction", label: "backend cycles idle"},
	{name: "ghz", num: "cycles", den: "task-clock", unit: "GHz", label: "GHz"},
	// Simulated (cachegrind) miss rates, as cachegrind's own summary.
	{name: "i1_miss_rate", num: "I1mr", den: "instructions", unit: "fraction", label: "I1 miss rate (simulated)"},
	{name: "d1_miss_rate", nums: []string{"D1mr", "D1mw"}, dens: []string{"Dr", "Dw"}, num: "D1mr", den: "Dr", unit: "fraction", label: "D1 miss rate (simulated)"},
	{name: "ll_miss_rate", nums: []string{"ILmr", "DLmr", "DLmw"}, dens: []string{"instructions", "Dr", "Dw"}, num: "DLmr", den: "instructions", unit: "fraction", label: "LL miss rate (simulated)"},
}

// deriveValues computes the derived figures that the available values
// allow. value returns the value of an event by name (without modifier) and
// whether it was counted; wall is the elapsed time (0 if unknown), used
// for "CPUs utilized". A figure is left out when any of its inputs was not
// counted or its denominator is 0: it is never computed from a missing
// count.
func deriveValues(value func(name string) (float64, bool), wall time.Duration) []result.Derived {
	return derive(func(name string) (float64, float64, bool) {
		v, ok := value(name)
		return v, 0, ok
	}, float64(wall.Nanoseconds()), 0)
}

// Derive computes the figures derived from events' means (IPC, miss
// rates, GHz, CPUs utilized), as perf stat prints them beside the
// counts: mean returns an event's mean by name (without modifier, e.g.
// "instructions") and the half-width of its ~95 % interval (see
// stats.MeanUncertainty), and wall and wallUnc are the mean elapsed time
// and its uncertainty in ns. Each figure's Uncertainty is propagated
// from its inputs' (relative uncertainties added in quadrature), so that
// it prints with the digits the runs support.
func Derive(mean func(name string) (v, unc float64, ok bool), wall, wallUnc float64) []result.Derived {
	return derive(mean, wall, wallUnc)
}

func derive(value func(name string) (float64, float64, bool), wall, wallUnc float64) []result.Derived {
	var out []result.Derived
	sum := func(names []string) (float64, float64, bool) {
		var t, u2 float64
		for _, n := range names {
			v, u, ok := value(n)
			if !ok {
				return 0, 0, false
			}
			t += v
			u2 += float64(u * u)
		}
		return t, math.Sqrt(u2), true
	}
	for _, r := range ratios {
		nums, dens := r.nums, r.dens
		if nums == nil {
			nums, dens = []string{r.num}, []string{r.den}
		}
		n, un, ok1 := sum(nums)
		d, ud, ok2 := sum(dens)
		if !ok1 || !ok2 || d == 0 {
			continue
		}
		out = append(out, result.Derived{Name: r.name, Value: n / d, Unit: r.unit, Label: r.label, Of: r.num, Uncertainty: ratioUncertainty(n, un, d, ud)})
	}
	if tc, u, ok := value("task-clock"); ok && wall > 0 {
		out = append(out, result.Derived{Name: "cpus_utilized", Value: tc / wall, Unit: "CPUs", Label: "CPUs utilized", Of: "task-clock", Uncertainty: ratioUncertainty(tc, u, wall, wallUnc)})
	}
	return out
}

// ratioUncertainty propagates the uncertainties un and ud of n and d to
// n/d (to first order, relative uncertainties in quadrature).
func ratioUncertainty(n, un, d, ud float64) float64 {
	if un == 0 && ud == 0 {
		return 0
	}
	r := n / d
	return math.Sqrt(un*un/(d*d) + r*r*ud*ud/(d*d))
}

// derived returns the derived figures of the reading (see deriveValues).
func (r Reading) derived(wall time.Duration) []result.Derived {
	return deriveValues(valueLookup(func(yield func(string, float64)) {
		for _, c := range r.Counts {
			if c.IsCounted() {
				yield(c.Event.Name, c.Value)
			}
		}
	}), wall)
}

// deriveSummaries returns the derived figures of the means of summaries
// (ratios of means, as perf stat prints them), with their uncertainties;
// wall summarizes the elapsed times (ns). Only events counted in every run
// are used.
func deriveSummaries(sums []eventSummary, wall stats.Summary) []result.Derived {
	means := map[string][2]float64{}
	base := map[string][2]float64{}
	for _, s := range sums {
		if !s.allCounted() {
			continue
		}
		m := [2]float64{s.Summary.Mean, stats.MeanUncertainty(s.Summary)}
		means[s.Event.Name] = m
		b, _, _ := strings.Cut(s.Event.Name, ":")
		if _, ok := base[b]; !ok {
			base[b] = m
		}
	}
	return Derive(func(name string) (float64, float64, bool) {
		m, ok := means[name]
		if !ok {
			m, ok = base[name]
		}
		return m[0], m[1], ok
	}, wall.Mean, stats.MeanUncertainty(wall))
}

// valueLookup builds a lookup by event name from (name, value) pairs. A
// name with a modifier (cycles:u) also answers for its base name, unless
// the base name itself is present, so that IPC is derived from
// cycles:u and instructions:u.
func valueLookup(each func(yield func(string, float64))) func(string) (float64, bool) {
	exact := map[string]float64{}
	base := map[string]float64{}
	each(func(name string, v float64) {
		exact[name] = v
		b, _, _ := strings.Cut(name, ":")
		if _, ok := base[b]; !ok {
			base[b] = v
		}
	})
	return func(name string) (float64, bool) {
		if v, ok := exact[name]; ok {
			return v, true
		}
		v, ok := base[name]
		return v, ok
	}
}
