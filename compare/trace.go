package compare

import (
	"errors"
	"fmt"

	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/profiles"
	"github.com/chronograph/chronograph/result"
)

// Profile is a measurement's CPU profile with what its values cover:
// Iterations of Per ("iteration": a benchmark's measured iterations;
// "run": a command's profiled runs), as result.ProfileRef records them.
type Profile struct {
	Profile    *profile.Profile
	Iterations float64
	Per        string
}

// Trace is where a measurement's change went: the differential profile
// of its two sides (profiles.Compare, new − baseline per iteration, the
// functions whose time changed most first).
type Trace struct {
	Measurement string
	// Diff is the differential profile; nil when Err says why there is
	// none.
	Diff *profiles.Diff
	Err  error
	// Per is what one iteration of Diff is ("iteration", "run").
	Per string
	// Resolution is the step of Diff's figures, in its unit: one
	// profiler sample per iteration of the coarser side (its sampling
	// period in ns, or 1 sample, over its iterations).
	Resolution float64
}

// TraceTop is how many functions a trace's views list.
const TraceTop = 10

// TraceSlower adds to d a Trace of every measurement that got slower
// and has a profile on both sides (base for d.Baseline's measurements,
// next for d.Newer's, by name): in a gate, a measurement with a
// regression; in a plain diff, one with a significant change to slower.
// Each is TraceRuns of one profile a side. A measurement's profiles that
// cannot be compared get a Trace with Err; one without a profile on
// either side gets none.
func (d *Diff) TraceSlower(base, next map[string]Profile) {
	seen := map[string]bool{}
	for _, c := range d.Changes {
		if seen[c.Measurement] || !slower(c) {
			continue
		}
		b, okB := base[c.Measurement]
		n, okN := next[c.Measurement]
		if !okB || !okN {
			continue
		}
		seen[c.Measurement] = true
		d.Traces = append(d.Traces, TraceRuns(c.Measurement, []Profile{b}, []Profile{n}))
	}
}

// slower reports whether c is a change to slower: a gate's regression,
// or outside a gate a significant slowdown.
func slower(c Change) bool {
	if c.Verdict != "" {
		return c.Verdict == Regression
	}
	return c.Err == nil && c.NoCI == "" && c.Significant && c.Slowdown > 1
}

// step is one profiler sample of p per iteration, in unit ("count": 1
// sample; "nanoseconds": the sampling period, when p has one in ns).
func step(p Profile, unit string) float64 {
	s := 1.0
	if unit == "nanoseconds" && p.Profile.Period > 0 && p.Profile.PeriodType != nil && p.Profile.PeriodType.Unit == "nanoseconds" {
		s = float64(p.Profile.Period)
	}
	return s / p.Iterations
}

// TraceRuns is the Trace of a change between the runs of a series
// (chrono history check): base and next hold the profiles of a few runs
// on either side of it. Each side is merged with its runs weighted
// equally: each run's profile divided by its own iterations first
// (profiles.Merge ByFactor, weights 1/Iterations), so that a side's
// figures are the mean over its runs of the time per iteration, and
// one long run does not outweigh the others. The Diff's BaseIterations
// and NewIterations are then the iterations each side covers in all,
// and the Resolution is one profiler sample of the coarsest run over
// its side's run count. A side without profiles, or profiles that cannot
// be merged or compared, gives a Trace with Err.
func TraceRuns(measurement string, base, next []Profile) Trace {
	t := Trace{Measurement: measurement}
	b, errB := mergeRuns(base, "old")
	n, errN := mergeRuns(next, "new")
	if t.Err = errors.Join(errB, errN); t.Err != nil {
		return t
	}
	if b.Per != n.Per {
		t.Err = fmt.Errorf("compare: the old side's profiles are per %s, the new side's per %s: they cannot be put on one footing", b.Per, n.Per)
		return t
	}
	t.Per = n.Per
	if t.Diff, t.Err = profiles.Compare(b.Profile, n.Profile, b.Iterations, n.Iterations); t.Err != nil {
		return t
	}
	for _, side := range [][]Profile{base, next} {
		for _, p := range side {
			t.Resolution = max(t.Resolution, step(p, t.Diff.Unit)/float64(len(side)))
		}
	}
	t.Diff.BaseIterations, t.Diff.NewIterations = iterations(base), iterations(next)
	return t
}

// mergeRuns merges the profiles of one side of a change, each run
// weighted equally per iteration (see TraceRuns), and returns the
// merged profile with the divisor that makes its values the mean over
// the runs of the time per iteration.
func mergeRuns(ps []Profile, side string) (Profile, error) {
	if len(ps) == 0 {
		return Profile{}, fmt.Errorf("compare: no profiles on the %s side", side)
	}
	in := make([]profiles.Weighted, len(ps))
	for i, p := range ps {
		if p.Profile == nil || !(p.Iterations > 0) {
			return Profile{}, fmt.Errorf("compare: profile %d of the %s side has no profile or no iterations", i+1, side)
		}
		if p.Per != ps[0].Per {
			return Profile{}, fmt.Errorf("compare: the %s side's profiles are per %s and per %s: they cannot be merged", side, ps[0].Per, p.Per)
		}
		in[i] = profiles.Weighted{Profile: p.Profile, Weight: 1 / p.Iterations}
	}
	if len(ps) == 1 {
		return ps[0], nil
	}
	m, err := profiles.Merge(in, profiles.ByFactor)
	if err != nil {
		return Profile{}, fmt.Errorf("compare: merging the %s side's profiles: %w", side, err)
	}
	// Merge multiplied run i's values by Factors[i] = c/Iterations_i for
	// one constant c: the sum is c times the sum of the runs' times per
	// iteration, so c times the run count makes it their mean.
	c := float64(m.Factors[0] * ps[0].Iterations)
	return Profile{Profile: m.Profile, Iterations: float64(c * float64(len(ps))), Per: ps[0].Per}, nil
}

// iterations is how many iterations the profiles cover in all.
func iterations(ps []Profile) float64 {
	var n float64
	for _, p := range ps {
		n += p.Iterations
	}
	return n
}

// Record is the trace as a result document holds it
// (result.ProfileTrace): the functions whose time changed most (at most
// TraceTop) and the count of the others, or, without a differential
// profile, the reason as its note.
func (t Trace) Record() *result.ProfileTrace {
	if t.Err != nil || t.Diff == nil {
		why := "no differential profile"
		if t.Err != nil {
			why = t.Err.Error()
		}
		return &result.ProfileTrace{Note: why}
	}
	d := t.Diff
	r := &result.ProfileTrace{Unit: d.Unit, Per: t.Per, BaseIterations: d.BaseIterations, NewIterations: d.NewIterations,
		Resolution: t.Resolution, Total: recordChange(d.Total), Funcs: []result.ProfileFuncChange{}}
	for i, f := range d.Funcs {
		if i == TraceTop {
			r.MoreFuncs = len(d.Funcs) - TraceTop
			break
		}
		r.Funcs = append(r.Funcs, result.ProfileFuncChange{Name: f.Name, Flat: *recordChange(f.Flat), Cum: *recordChange(f.Cum)})
	}
	return r
}

func recordChange(c profiles.Change) *result.ProfileChange {
	return &result.ProfileChange{Before: c.Before, After: c.After, Delta: c.Delta, Share: c.Share}
}
