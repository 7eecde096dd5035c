package compare

import (
	"fmt"

	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/profiles"
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
// A measurement's profiles that cannot be compared get a Trace with Err;
// one without a profile on either side gets none.
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
		t := Trace{Measurement: c.Measurement, Per: n.Per}
		switch {
		case b.Per != n.Per:
			t.Err = fmt.Errorf("compare: the baseline's profile is per %s, the new one's per %s: they cannot be put on one footing", b.Per, n.Per)
		default:
			t.Diff, t.Err = profiles.Compare(b.Profile, n.Profile, b.Iterations, n.Iterations)
		}
		if t.Err == nil {
			t.Resolution = max(step(b, t.Diff.Unit), step(n, t.Diff.Unit))
		}
		d.Traces = append(d.Traces, t)
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
