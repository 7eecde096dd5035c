package profiles

import (
	"fmt"
	"math"
	"sort"

	"github.com/google/pprof/profile"
)

// Change is one figure per iteration before and after.
type Change struct {
	// Before and After are per iteration of their side, in the unit of
	// Diff.Unit.
	Before, After float64
	// Delta is After − Before.
	Delta float64
	// Share is Delta divided by the change of the profiles' total
	// (Diff.Total.Delta): the flat shares of all functions add up to 1,
	// and a function with share 0.8 accounts for 80 % of the change. It
	// is 0 when the total did not change (then no share is defined).
	Share float64
}

// FuncChange is how one function's time per iteration changed.
type FuncChange struct {
	// Name is the function's name as the profiles write it.
	Name string
	// Flat is the time in the function itself (it is the leaf of the
	// sample's stack; an inlined call counts as its own function).
	Flat Change
	// Cum is the time in the function and what it called (the function
	// is anywhere on the stack, counted once per sample).
	Cum Change
}

// Diff is the difference of two profiles per function, each side
// divided by its own number of iterations.
type Diff struct {
	// Unit is the unit of the values: "nanoseconds" (CPU time) or
	// "count" (samples).
	Unit string
	// BaseIterations and NewIterations are the divisors of the sides.
	BaseIterations, NewIterations float64
	// Total is the whole profile's time per iteration.
	Total Change
	// Funcs holds every function whose flat or cumulative time changed,
	// the largest |Flat.Delta| first, then the largest |Cum.Delta|, then
	// by name.
	Funcs []FuncChange
}

// Compare returns next − base per function, as pprof's -diff_base shows
// it (next is the new profile), with each side's values divided by its own iteration count (a
// benchmark's iterations, or a command's runs) so that profiles of runs
// of different lengths compare per iteration; give each side's total
// sample count instead to compare the profiles' shapes (pprof's
// -normalize). The values compared are CPU time in nanoseconds when both
// profiles have it, else sample counts.
func Compare(base, next *profile.Profile, baseIterations, nextIterations float64) (*Diff, error) {
	for _, it := range []struct {
		name string
		v    float64
	}{{"base", baseIterations}, {"new", nextIterations}} {
		if !(it.v > 0) || math.IsInf(it.v, 0) {
			return nil, fmt.Errorf("profiles: the %s profile's iteration count is %v: it must be positive and finite", it.name, it.v)
		}
	}
	if base == nil || next == nil {
		return nil, fmt.Errorf("profiles: comparing needs two profiles")
	}
	bi, ni, unit := commonIndex(base, next)
	if bi < 0 {
		return nil, fmt.Errorf("profiles: the profiles have no CPU value in common (base: %s; new: %s): compare two CPU profiles", sampleTypes(base), sampleTypes(next))
	}
	d := &Diff{Unit: unit, BaseIterations: baseIterations, NewIterations: nextIterations}
	bf, bc, bt := byFunction(base, bi)
	nf, nc, nt := byFunction(next, ni)
	d.Total = change(float64(bt)/baseIterations, float64(nt)/nextIterations)
	names := map[string]bool{}
	for _, m := range []map[string]int64{bf, bc, nf, nc} {
		for k := range m {
			names[k] = true
		}
	}
	for name := range names {
		fc := FuncChange{
			Name: name,
			Flat: change(float64(bf[name])/baseIterations, float64(nf[name])/nextIterations),
			Cum:  change(float64(bc[name])/baseIterations, float64(nc[name])/nextIterations),
		}
		if fc.Flat.Delta == 0 && fc.Cum.Delta == 0 {
			continue
		}
		if d.Total.Delta != 0 {
			fc.Flat.Share = fc.Flat.Delta / d.Total.Delta
			fc.Cum.Share = fc.Cum.Delta / d.Total.Delta
		}
		d.Funcs = append(d.Funcs, fc)
	}
	if d.Total.Delta != 0 {
		d.Total.Share = 1
	}
	sort.Slice(d.Funcs, func(i, j int) bool {
		a, b := d.Funcs[i], d.Funcs[j]
		if x, y := math.Abs(a.Flat.Delta), math.Abs(b.Flat.Delta); x != y {
			return x > y
		}
		if x, y := math.Abs(a.Cum.Delta), math.Abs(b.Cum.Delta); x != y {
			return x > y
		}
		return a.Name < b.Name
	})
	return d, nil
}

// change returns the Change from before to after, without its share.
func change(before, after float64) Change {
	return Change{Before: before, After: after, Delta: after - before}
}

// commonIndex returns the indices of the value both profiles measure,
// CPU nanoseconds preferred to sample counts, and its unit; -1 if none.
func commonIndex(a, b *profile.Profile) (int, int, string) {
	for _, t := range [][2]string{{typeCPU, unitNanos}, {typeSamples, unitCount}} {
		i, j := typeIndex(a, t[0], t[1]), typeIndex(b, t[0], t[1])
		if i >= 0 && j >= 0 {
			return i, j, t[1]
		}
	}
	return -1, -1, ""
}

// NoStack names the time of samples without a stack, so that the flat
// times add up to the total.
const NoStack = "[no stack]"

// byFunction sums the values at index idx per function: flat (the
// function is the sample's leaf) and cumulative (anywhere on its stack,
// once per sample), and in all.
func byFunction(p *profile.Profile, idx int) (flat, cum map[string]int64, all int64) {
	flat, cum = map[string]int64{}, map[string]int64{}
	var names []string
	var inMain []bool
	seen := map[string]bool{}
	for _, s := range p.Sample {
		v := s.Value[idx]
		all += v
		names, inMain = frames(p, s, names, inMain)
		if len(names) == 0 {
			names = append(names, NoStack)
		}
		flat[names[0]] += v
		clear(seen)
		for _, n := range names {
			if !seen[n] {
				seen[n] = true
				cum[n] += v
			}
		}
	}
	return flat, cum, all
}
