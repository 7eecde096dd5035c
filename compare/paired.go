package compare

import (
	"fmt"
	"strings"

	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// Rounds are one case's samples of an interleaved comparison (package
// bench's Compare), in round order.
type Rounds struct {
	// Name names the case.
	Name string
	// NsPerOp are the rounds' times per operation.
	NsPerOp []float64
	// Blocks are the rounds' blocks (as Options.Blocks ran them) and CPUs
	// their CPUs, -1 where the thread changed CPU during the round (nil:
	// unknown).
	Blocks, CPUs []int
}

// Paired is the paired comparison of case B against the baseline A.
type Paired struct {
	A, B string
	// PairedRatio holds the rounds' ratios A/B (above 1: B was faster),
	// their median with its interval, and the test.
	stats.PairedRatio
	// Err says why there is no interval (too few rounds).
	Err error
}

// PairedRounds compares the rounds of b with those of the baseline a,
// round by round (stats.ComparePaired at stats.Confidence and
// stats.Alpha): the median of the paired ratios a/b with the hull of the
// sign-test interval, the blocks' t interval (a's blocks) and, when the
// ratio differs between CPUs, every CPU's interval. A round's CPU is
// known when both cases ran on it from start to end. Rounds beyond the
// shorter side are left out.
func PairedRounds(a, b Rounds) Paired {
	n := min(len(a.NsPerOp), len(b.NsPerOp))
	var cpus []int
	if a.CPUs != nil && b.CPUs != nil {
		cpus = make([]int, n)
		for i := range cpus {
			cpus[i] = -1
			if a.CPUs[i] >= 0 && a.CPUs[i] == b.CPUs[i] {
				cpus[i] = a.CPUs[i]
			}
		}
	}
	p := Paired{A: a.Name, B: b.Name}
	p.PairedRatio, p.Err = stats.ComparePaired(a.NsPerOp[:n], b.NsPerOp[:n], a.Blocks[:n], cpus, stats.Confidence, stats.Alpha)
	return p
}

// Conclusion is the plain conclusion of p: "b is 1.31x faster than a
// [1.28, 1.34]", "... slower ...", "no significant difference ..." or
// "too few rounds for a verdict ...", and whether the ratio differs
// between CPUs.
func (p Paired) Conclusion() string {
	a, b, r := p.A, p.B, p.PairedRatio
	ci := r.Placed.CI
	var v string
	switch {
	case p.Err != nil:
		return fmt.Sprintf("too few rounds for a verdict (median ratio %s): %v", unit.Ratio(r.Median, r.Median, r.Median), p.Err)
	case r.Significant && ci.Lo > 1:
		v = fmt.Sprintf("%s is %sx faster than %s [%s, %s]", b, unit.Ratio(r.Median, ci.Lo, ci.Hi), a, unit.Ratio(ci.Lo, ci.Lo, ci.Hi), unit.Ratio(ci.Hi, ci.Lo, ci.Hi))
	case r.Significant && ci.Hi < 1:
		lo, hi := 1/ci.Hi, 1/ci.Lo
		v = fmt.Sprintf("%s is %sx slower than %s [%s, %s]", b, unit.Ratio(1/r.Median, lo, hi), a, unit.Ratio(lo, lo, hi), unit.Ratio(hi, lo, hi))
	default:
		v = fmt.Sprintf("no significant difference between %s and %s (ratio %s [%s, %s], p = %s)",
			a, b, unit.Ratio(r.Median, ci.Lo, ci.Hi), unit.Ratio(ci.Lo, ci.Lo, ci.Hi), unit.Ratio(ci.Hi, ci.Lo, ci.Hi), unit.PValue(r.MannWhitney.P))
	}
	if r.Placed.CPUsDiffer {
		var parts []string
		for _, c := range r.Placed.PerCPU {
			parts = append(parts, fmt.Sprintf("CPU %d %s", c.CPU, unit.Ratio(c.Median, c.CI.Lo, c.CI.Hi)))
		}
		v += "; the ratio differs between CPUs (" + strings.Join(parts, ", ") + "): the interval spans them"
	}
	return v
}
