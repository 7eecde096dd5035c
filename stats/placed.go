package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// cpuDifferThreshold is how far apart (as a fraction: 0.05 = 5 %) the
// medians of two CPUs may be before PlacedMedianCI says that the CPUs
// differ and widens its interval to span them.
const cpuDifferThreshold = 0.05

// minCPUSamples is the fewest values a CPU needs to count in the decision
// whether CPUs differ.
const minCPUSamples = 3

// CPUMedian summarizes the values measured on one CPU.
type CPUMedian struct {
	CPU int `json:"cpu"`
	// Samples is the number of values measured on the CPU, in Blocks
	// blocks.
	Samples int `json:"samples"`
	Blocks  int `json:"blocks"`
	// Median is the median of the CPU's values, and CI its interval: the
	// order-statistic interval of the CPU's values (or their range, with
	// too few for one), widened to the range of the medians of the CPU's
	// blocks when it ran more than one.
	Median float64  `json:"median"`
	CI     Interval `json:"ci"`
}

// PlacedInterval is the confidence interval of a median measured in
// blocks on CPUs (see PlacedMedianCI), with the figures it is built from.
type PlacedInterval struct {
	// CI is the interval; its Method says which parts it joins.
	CI Interval
	// BlockMedians are the medians of the blocks, in the order of their
	// first value.
	BlockMedians []float64
	// PerCPU summarizes the values of every known CPU, in CPU order (nil
	// when no CPU is known), and CPUsDiffer is set when the medians of
	// two CPUs with at least 3 values differ by more than
	// cpuDifferThreshold.
	PerCPU     []CPUMedian
	CPUsDiffer bool
}

// PlacedMedianCI returns a confidence interval of the median of xs meant
// to hold for the next measurement too, when xs was measured in blocks
// (fresh invocations of the code, each with its own memory placement and
// thread) on possibly different CPUs: xs[i] was measured in block
// blocks[i], on CPU cpus[i] (-1: unknown, or the thread moved between
// CPUs during the measurement; cpus may be nil when no CPU is known).
//
// The interval is the hull of: the order-statistic interval of all values
// (MedianCI); the Student t interval of the mean of the block medians,
// when there are two blocks or more, so that it holds what varies between
// invocations and not only within one; and, when the medians of two CPUs
// with at least 3 values each differ by more than cpuDifferThreshold,
// every such CPU's interval (CPUMedian.CI), so that it spans the CPUs'
// levels. When no value is negative, the interval does not reach below 0
// (the t interval of a few scattered blocks can). It fails when none of
// the parts exists (too few values), returning the blocks' and CPUs'
// figures all the same.
func PlacedMedianCI(xs []float64, blocks, cpus []int, confidence float64) (PlacedInterval, error) {
	var p PlacedInterval
	if err := checkConfidence(confidence); err != nil {
		return p, err
	}
	if len(blocks) != len(xs) || (cpus != nil && len(cpus) != len(xs)) {
		return p, fmt.Errorf("stats: %d value%s with %d block%s and %d CPU%s: give one block and one CPU (or no CPUs) per value", len(xs), plural(len(xs)), len(blocks), plural(len(blocks)), len(cpus), plural(len(cpus)))
	}
	var parts []string
	have := false
	var err error
	widen := func(o Interval) {
		if !have {
			p.CI, have = o, true
			return
		}
		p.CI.Lo, p.CI.Hi = min(p.CI.Lo, o.Lo), max(p.CI.Hi, o.Hi)
	}
	if o, e := MedianCI(xs, confidence); e == nil {
		widen(o)
		parts = append(parts, fmt.Sprintf("order statistics of the %d samples", len(xs)))
	} else {
		err = e
	}
	p.BlockMedians = groupMedians(xs, blocks)
	if len(p.BlockMedians) >= 2 {
		widen(tInterval(p.BlockMedians, confidence))
		parts = append(parts, fmt.Sprintf("t-interval of the mean of the %d block medians (between-block variation)", len(p.BlockMedians)))
	}
	p.PerCPU = perCPU(xs, blocks, cpus, confidence)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range p.PerCPU {
		if c.Samples >= minCPUSamples {
			lo, hi = min(lo, c.Median), max(hi, c.Median)
		}
	}
	if lo > 0 && hi/lo-1 > cpuDifferThreshold {
		p.CPUsDiffer = true
		for _, c := range p.PerCPU {
			if c.Samples >= minCPUSamples {
				widen(c.CI)
			}
		}
		parts = append(parts, fmt.Sprintf("every CPU's interval, since two CPUs' medians differ by more than %g%%", 100*cpuDifferThreshold))
	}
	if !have {
		if err == nil {
			err = errors.New("stats: no values for an interval of the median")
		}
		return p, err
	}
	if p.CI.Lo < 0 && len(xs) > 0 && slices.Min(xs) >= 0 {
		// The t interval of a few scattered block medians can reach below
		// zero; values that cannot be negative (times, ratios of times)
		// have no median there.
		p.CI.Lo = 0
		parts = append(parts, "cut at 0 (no value is negative)")
	}
	p.CI.Confidence, p.CI.Coverage = confidence, 0
	p.CI.Method = "hull of: " + strings.Join(parts, "; ")
	return p, nil
}

// groupMedians returns the medians of xs grouped by key, groups in the
// order of their first value.
func groupMedians(xs []float64, key []int) []float64 {
	idx := map[int]int{}
	var groups [][]float64
	for i, x := range xs {
		g, ok := idx[key[i]]
		if !ok {
			g = len(groups)
			idx[key[i]] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], x)
	}
	out := make([]float64, len(groups))
	for i, g := range groups {
		out[i] = Median(g)
	}
	return out
}

// perCPU summarizes the values of every known CPU, in CPU order; nil when
// no CPU is known.
func perCPU(xs []float64, blocks, cpus []int, confidence float64) []CPUMedian {
	if cpus == nil {
		return nil
	}
	byCPU := map[int][]int{} // CPU -> indexes into xs
	for i, c := range cpus {
		if c >= 0 {
			byCPU[c] = append(byCPU[c], i)
		}
	}
	var out []CPUMedian
	for _, cpu := range slices.Sorted(func(yield func(int) bool) {
		for c := range byCPU {
			if !yield(c) {
				return
			}
		}
	}) {
		var vs []float64
		var bs []int
		for _, i := range byCPU[cpu] {
			vs, bs = append(vs, xs[i]), append(bs, blocks[i])
		}
		bm := groupMedians(vs, bs)
		r := CPUMedian{CPU: cpu, Samples: len(vs), Blocks: len(bm), Median: Median(vs)}
		if iv, err := MedianCI(vs, confidence); err == nil {
			r.CI = iv
		} else {
			r.CI = Interval{Lo: slices.Min(vs), Hi: slices.Max(vs), Confidence: confidence, Method: "range of the samples (too few for order statistics)"}
		}
		if len(bm) >= 2 {
			r.CI.Lo, r.CI.Hi = min(r.CI.Lo, slices.Min(bm)), max(r.CI.Hi, slices.Max(bm))
			r.CI.Method += ", widened to the range of the block medians"
			r.CI.Coverage = 0
		}
		out = append(out, r)
	}
	return out
}

// tInterval returns the Student t confidence interval of the mean of xs
// (at least 2 values): mean ± t(1-(1-c)/2, n-1) · s/√n.
func tInterval(xs []float64, confidence float64) Interval {
	n := float64(len(xs))
	m := Mean(xs)
	e := scaleExp(xs)
	_, ss := scaledMoments(xs, e)
	sd := math.Ldexp(math.Sqrt(ss/(n-1)), e)
	h := tQuantile(1-float64((1-confidence)/2), n-1) * sd / math.Sqrt(n)
	return Interval{Lo: m - h, Hi: m + h, Confidence: confidence, Method: "student-t"}
}

// tQuantile returns the p quantile (0.5 < p < 1) of Student's t
// distribution with df degrees of freedom, by bisection on its survival
// function (studentTSF): to ~1e-12 relative.
func tQuantile(p, df float64) float64 {
	lo, hi := 0.0, 1.0
	for 1-studentTSF(hi, df) < p {
		lo, hi = hi, 2*hi
	}
	for range 100 {
		mid := (lo + hi) / 2
		if 1-studentTSF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// PairedRatio compares two series measured in interleaved rounds: round i
// of a and round i of b ran one right after the other, with the same
// iteration count, in the same block and, where known, on the same CPU.
type PairedRatio struct {
	// Ratios are the rounds' ratios a[i]/b[i] (rounds with b[i] <= 0 are
	// left out): above 1, b was faster in that round.
	Ratios []float64
	// Median is the median ratio, and Placed its interval (see
	// PlacedMedianCI: the sign-test interval of the ratios, the t interval
	// of the blocks' median ratios, and every CPU's interval when the
	// ratio differs between CPUs).
	Median float64
	Placed PlacedInterval
	// MannWhitney is the two-sided Mann-Whitney U test of a against b.
	MannWhitney MannWhitneyResult
	// Significant is true when the test rejects equality at level alpha
	// (P <= alpha) and the interval excludes 1.
	Significant bool
}

// ComparePaired computes the paired ratios of a against b (ns per
// operation of interleaved rounds, say), their median with its placed
// interval at the given confidence, the Mann-Whitney U test of a against
// b, and whether the difference is significant at level alpha. blocks[i]
// is round i's block and cpus[i] its CPU (-1 when unknown, or when a and
// b did not both run on it from start to end; nil when none is known).
// It fails when there are too few rounds for an interval or a test; the
// ratios and their median are filled in then.
func ComparePaired(a, b []float64, blocks, cpus []int, confidence, alpha float64) (PairedRatio, error) {
	var r PairedRatio
	n := min(len(a), len(b))
	if len(blocks) < n || (cpus != nil && len(cpus) < n) {
		return r, fmt.Errorf("stats: %d round%s with %d block%s and %d CPU%s: give one block and one CPU (or no CPUs) per round", n, plural(n), len(blocks), plural(len(blocks)), len(cpus), plural(len(cpus)))
	}
	var rb, rc []int
	for i := range n {
		if b[i] > 0 {
			r.Ratios = append(r.Ratios, a[i]/b[i])
			rb = append(rb, blocks[i])
			if cpus != nil {
				rc = append(rc, cpus[i])
			}
		}
	}
	if cpus != nil && rc == nil {
		rc = []int{}
	}
	r.Median = Median(r.Ratios)
	var err error
	r.Placed, err = PlacedMedianCI(r.Ratios, rb, rc, confidence)
	mw, mwErr := MannWhitneyU(a[:n], b[:n])
	if mwErr != nil {
		mw.P = math.NaN()
		if err == nil {
			err = mwErr
		}
	}
	r.MannWhitney = mw
	if err != nil {
		return r, err
	}
	ci := r.Placed.CI
	r.Significant = mw.Significant(alpha) && (ci.Lo > 1 || ci.Hi < 1)
	return r, nil
}
