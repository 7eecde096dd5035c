package compare

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// GateOptions configure the regression gate (GateDocuments).
type GateOptions struct {
	// All compares every metric, not only the primary ones.
	All bool
	// Threshold is the smallest change that counts, as a fraction (0.05:
	// 5 %): a regression is slower by more than it, an improvement faster
	// by more than it (new/baseline below 1/(1+Threshold)).
	Threshold float64
	// AllowEnvMismatch compares documents from different machines or
	// configurations anyway (GateDocuments refuses them otherwise).
	AllowEnvMismatch bool
}

// Gate is the outcome of GateDocuments: the Diff with every change's
// verdict.
type Gate struct {
	Diff
	// EnvDiffs lists how the environments differ (empty: they match on
	// everything both record); EnvUnchecked what neither records.
	EnvDiffs, EnvUnchecked []string
	Threshold              float64
}

// Regressed reports whether some metric regressed: the gate fails.
func (g *Gate) Regressed() bool {
	for _, c := range g.Changes {
		if c.Verdict == Regression {
			return true
		}
	}
	return false
}

// EnvMismatchError is GateDocuments' refusal to compare documents from
// different environments.
type EnvMismatchError struct{ Diffs []string }

func (e *EnvMismatchError) Error() string {
	return "compare: the baseline and the new document come from different environments (" + strings.Join(e.Diffs, "; ") +
		"): a change may come from the machine, not the code; compare results from the same machine and configuration, or give --allow-env-mismatch to compare anyway"
}

// GateDocuments compares newer with baseline as a regression gate for
// CI. Every metric in both (Documents: recomputed from the samples) gets
// the ratio of medians with its bootstrap interval and the Mann-Whitney
// p, and the p-values are corrected for the number of comparisons with
// Holm's method. A metric
//
//   - regressed when its interval lies above 1+Threshold (slower by
//     more than the threshold, however the noise falls) and its corrected
//     p is at most stats.Alpha;
//   - improved when its interval lies below 1/(1+Threshold) and its
//     corrected p is at most stats.Alpha;
//   - did not change when its interval lies within [1/(1+Threshold),
//     1+Threshold];
//   - is undecided otherwise (too few samples, or an interval across a
//     threshold), with an estimate of the runs that would decide it.
//
// A deterministic metric (Deterministic: marked exact on both sides, as
// instruction counts are, or with every sample the same on both sides)
// needs no test and is not counted in Holm's correction: it regressed
// when its exact ratio exceeds 1+Threshold, improved when it is below
// 1/(1+Threshold), and did not change otherwise; with a threshold of 0,
// one instruction more is a regression. Change.Why says so.
//
// Metrics where more is better (units per second) count their inverse
// ratio as the slowdown. GateDocuments refuses (EnvMismatchError)
// documents whose environments differ in the CPU model, the kernel,
// GOMAXPROCS or the CPU speed profile (frequency driver, governors,
// boost, maximum frequencies), unless o.AllowEnvMismatch.
func GateDocuments(baseline, newer *result.Document, o GateOptions) (*Gate, error) {
	g := &Gate{Threshold: o.Threshold}
	g.EnvDiffs, g.EnvUnchecked = environments(baseline.Environment, newer.Environment)
	if len(g.EnvDiffs) > 0 && !o.AllowEnvMismatch {
		return nil, &EnvMismatchError{Diffs: g.EnvDiffs}
	}
	g.Diff = *Documents(baseline, newer, o.All)
	var ps []float64
	for _, c := range g.Changes {
		if c.Err == nil && c.Exact == "" {
			ps = append(ps, c.MannWhitney.P)
		}
	}
	adj := holm(ps)
	up, down := 1+o.Threshold, 1/(1+o.Threshold)
	k := 0
	for i := range g.Changes {
		c := &g.Changes[i]
		if c.Err != nil {
			c.Verdict, c.Why = Undecided, "no test: "+c.Err.Error()
			continue
		}
		if c.Exact != "" {
			// Deterministic: the exact ratio against the threshold.
			switch {
			case c.Slowdown > up:
				c.Verdict = Regression
			case c.Slowdown < down:
				c.Verdict = Improvement
			default:
				c.Verdict = NoChange
			}
			c.Why = "no test needed: " + c.Exact + "; the exact ratio against the threshold"
			continue
		}
		c.PHolm = adj[k]
		k++
		sig := c.PHolm <= stats.Alpha
		switch {
		case c.SlowLo > up && sig:
			c.Verdict = Regression
		case c.SlowHi < down && sig:
			c.Verdict = Improvement
		case c.SlowLo >= down && c.SlowHi <= up:
			c.Verdict = NoChange
		default:
			c.Verdict = Undecided
			c.Why = undecidedWhy(c, up, down)
			c.MoreRuns = moreRuns(c, up, down, min(c.NNew, c.NOld), len(ps))
		}
	}
	return g, nil
}

// HigherIsBetter reports whether more of a unit is better: a rate, units
// per second such as Go benchmarks' B/s. Every verdict takes the change
// of such a metric the other way round (lower is worse): the gate's and
// history's change points.
func HigherIsBetter(unit string) bool { return strings.HasSuffix(unit, "/s") }

// undecidedWhy says why a change is undecided.
func undecidedWhy(c *Change, up, down float64) string {
	if stats.MinPValue(c.NNew, c.NOld) > stats.Alpha {
		return fmt.Sprintf("too few samples (%d and %d): no test of them can reach p ≤ %s", c.NOld, c.NNew, strconv.FormatFloat(stats.Alpha, 'g', -1, 64))
	}
	switch {
	case c.SlowLo > up || c.SlowHi < down:
		return fmt.Sprintf("beyond the threshold, but p = %s after Holm's correction", unit.PValue(c.PHolm))
	case c.SlowHi > up:
		return "the interval reaches beyond the threshold of a regression"
	case c.SlowLo < down:
		return "the interval reaches beyond the threshold of an improvement"
	}
	return "the interval and the test disagree"
}

// moreRuns estimates the runs of each side that would decide a change:
// an interval's width shrinks as 1/√n, so n runs become n·(w/d)², where
// w is the interval's half-width in log ratio and d the distance from
// the ratio to the nearest threshold; and at least enough for the test
// to reach stats.Alpha after Holm's correction over m tests (the
// smallest p of n and n values, times m, at most alpha). It returns 0
// when the ratio sits on a threshold (no number of runs decides), -1
// when n is unknown.
func moreRuns(c *Change, up, down float64, n, m int) int {
	if n <= 0 || !(c.Slowdown > 0) || !(c.SlowLo > 0) || !(c.SlowHi > 0) {
		return -1
	}
	lr := math.Log(c.Slowdown)
	w := math.Max(lr-math.Log(c.SlowLo), math.Log(c.SlowHi)-lr)
	d := math.Min(math.Abs(lr-math.Log(up)), math.Abs(lr-math.Log(down)))
	if d < 1e-3 {
		return 0
	}
	need := float64(n) * (w / d) * (w / d)
	sig := 1
	for stats.MinPValue(sig, sig)*float64(max(1, m)) > stats.Alpha {
		sig++
	}
	need = math.Max(need, float64(sig))
	if need > 1e9 {
		return 0
	}
	return max(1, int(math.Ceil(need))-n)
}

// holm returns Holm's step-down adjusted p-values of ps (in their
// order): with the p-values sorted increasing, p(1) ≤ … ≤ p(m), the
// adjusted p(i) is max over j ≤ i of min(1, (m−j+1)·p(j)). Rejecting the
// hypotheses whose adjusted p is at most alpha keeps the chance of any
// false rejection among all m at most alpha (Holm 1979). NaNs stay NaN
// and count in m.
func holm(ps []float64) []float64 {
	m := len(ps)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		pa, pb := ps[a], ps[b]
		switch {
		case math.IsNaN(pa) && math.IsNaN(pb):
			return 0
		case math.IsNaN(pa):
			return 1
		case math.IsNaN(pb):
			return -1
		case pa < pb:
			return -1
		case pa > pb:
			return 1
		}
		return 0
	})
	out := make([]float64, m)
	run := 0.0
	for r, i := range idx {
		if math.IsNaN(ps[i]) {
			out[i] = math.NaN()
			continue
		}
		run = math.Max(run, math.Min(1, float64(m-r)*ps[i]))
		out[i] = run
	}
	return out
}

// environments compares two environments on what decides whether their
// figures are comparable: the CPU model, the kernel release, GOMAXPROCS
// and the CPU speed profile (frequency driver, governors, boost, each
// CPU's maximum frequency). A field known in one environment only
// differs ("unknown in the baseline"); one known in neither is listed in
// unchecked. A missing environment knows nothing.
func environments(old, cur *env.Host) (diffs, unchecked []string) {
	get := func(h *env.Host, f func(*env.Host) string) string {
		if h == nil {
			return ""
		}
		return f(h)
	}
	for _, f := range []struct {
		name string
		f    func(*env.Host) string
	}{
		{"CPU model", func(h *env.Host) string { return h.CPU.Model }},
		{"kernel", func(h *env.Host) string { return h.System.KernelRelease }},
		{"GOMAXPROCS", func(h *env.Host) string {
			if h.Go.GOMAXPROCS == 0 {
				return ""
			}
			return strconv.Itoa(h.Go.GOMAXPROCS)
		}},
		{"CPU speed profile", (*env.Host).SpeedProfile},
	} {
		a, b := get(old, f.f), get(cur, f.f)
		switch {
		case a == "" && b == "":
			unchecked = append(unchecked, f.name)
		case a == "":
			diffs = append(diffs, f.name+" unknown in the baseline, "+strconv.Quote(b)+" in the new document")
		case b == "":
			diffs = append(diffs, f.name+" "+strconv.Quote(a)+" in the baseline, unknown in the new document")
		case a != b:
			diffs = append(diffs, f.name+" "+strconv.Quote(a)+" in the baseline, "+strconv.Quote(b)+" in the new document")
		}
	}
	return diffs, unchecked
}
