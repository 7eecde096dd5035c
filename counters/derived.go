package counters

import (
	"strings"
	"time"
)

// Derived is a figure computed from counts, such as instructions per
// cycle.
type Derived struct {
	// Name identifies the figure: "ipc", "branch_miss_rate", ...
	Name string `json:"name"`
	// Value is the figure, in Unit ("1" for plain ratios, "fraction" for
	// rates in [0, 1], "GHz", "CPUs", "count/op", "ns/op").
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	// Label is the human description, as perf stat prints it
	// ("insn per cycle", "of all branches").
	Label string `json:"label"`
	// Of names the event the figure is printed next to.
	Of string `json:"of"`
}

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
	{name: "i1_miss_rate", num: "I1mr", den: "Ir", unit: "fraction", label: "I1 miss rate (simulated)"},
	{name: "d1_miss_rate", nums: []string{"D1mr", "D1mw"}, dens: []string{"Dr", "Dw"}, num: "D1mr", den: "Dr", unit: "fraction", label: "D1 miss rate (simulated)"},
	{name: "ll_miss_rate", nums: []string{"ILmr", "DLmr", "DLmw"}, dens: []string{"Ir", "Dr", "Dw"}, num: "DLmr", den: "Ir", unit: "fraction", label: "LL miss rate (simulated)"},
}

// Derive computes the derived figures that the available values allow.
// value returns the value of an event by name (without modifier) and
// whether it was counted; wall is the elapsed time (0 if unknown), used
// for "CPUs utilized". A figure is left out when any of its inputs was not
// counted or its denominator is 0: it is never computed from a missing
// count.
func Derive(value func(name string) (float64, bool), wall time.Duration) []Derived {
	var out []Derived
	sum := func(names []string) (float64, bool) {
		var t float64
		for _, n := range names {
			v, ok := value(n)
			if !ok {
				return 0, false
			}
			t += v
		}
		return t, true
	}
	for _, r := range ratios {
		nums, dens := r.nums, r.dens
		if nums == nil {
			nums, dens = []string{r.num}, []string{r.den}
		}
		n, ok1 := sum(nums)
		d, ok2 := sum(dens)
		if !ok1 || !ok2 || d == 0 {
			continue
		}
		out = append(out, Derived{Name: r.name, Value: n / d, Unit: r.unit, Label: r.label, Of: r.num})
	}
	if tc, ok := value("task-clock"); ok && wall > 0 {
		out = append(out, Derived{Name: "cpus_utilized", Value: tc / float64(wall.Nanoseconds()), Unit: "CPUs", Label: "CPUs utilized", Of: "task-clock"})
	}
	return out
}

// Derived returns the derived figures of the reading (see Derive).
func (r Reading) Derived(wall time.Duration) []Derived {
	return Derive(valueLookup(func(yield func(string, float64)) {
		for _, c := range r.Counts {
			if c.IsCounted() {
				yield(c.Event.Name, c.Value)
			}
		}
	}), wall)
}

// DeriveSummaries returns the derived figures of the means of summaries
// (ratios of means, as perf stat prints them); wall is the mean elapsed
// time. Only events counted in every run are used.
func DeriveSummaries(sums []EventSummary, wall time.Duration) []Derived {
	return Derive(valueLookup(func(yield func(string, float64)) {
		for _, s := range sums {
			if s.AllCounted() {
				yield(s.Event.Name, s.Summary.Mean)
			}
		}
	}), wall)
}

// PerOp divides every counted value of the reading by ops (the number of
// operations the reading covers), e.g. instructions/op for a benchmark.
// It returns nothing when ops <= 0.
func (r Reading) PerOp(ops float64) []Derived {
	if ops <= 0 {
		return nil
	}
	var out []Derived
	for _, c := range r.Counts {
		if !c.IsCounted() {
			continue
		}
		out = append(out, Derived{Name: c.Event.Name + "/op", Value: c.Value / ops, Unit: c.Event.Unit + "/op", Label: c.Event.Name + " per op", Of: c.Event.Name})
	}
	return out
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
