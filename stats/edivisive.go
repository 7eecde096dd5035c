package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// EDivisiveOptions configures EDivisive. The zero value asks for the
// defaults.
type EDivisiveOptions struct {
	// Permutations is the number of random permutations of the permutation
	// test of each proposed change (default 199, as R's ecp). The smallest
	// p-value it can give is 1/(Permutations+1), so it must be at least
	// MinPermutations(Significance) (19 at 0.05): fewer could never accept
	// a change, and are refused.
	Permutations int
	// Significance is the level at which a proposed change is accepted:
	// its p-value must be at most this (default 0.05).
	Significance float64
	// MinSegment is the smallest number of points between change points,
	// and before the first and after the last (default 5, at least 2).
	MinSegment int
	// Seed seeds the permutations: the same series, options and seed give
	// the same answer.
	Seed uint64
}

// WithDefaults returns o with the defaults EDivisive applies in place of
// its zero fields: what a detection with o used, for a report to name.
func (o EDivisiveOptions) WithDefaults() EDivisiveOptions {
	if o.Permutations == 0 {
		o.Permutations = 199
	}
	if o.Significance == 0 {
		o.Significance = 0.05
	}
	if o.MinSegment == 0 {
		o.MinSegment = 5
	}
	return o
}

// ChangePoint is a change found by EDivisive.
type ChangePoint struct {
	// Index is the first point of the new segment: the series changes
	// between Index-1 and Index.
	Index int
	// P is the p-value of the permutation test that accepted the change
	// (the fraction of permutations, counting the observed order, whose
	// statistic was at least as large).
	P float64
	// Q is the scaled energy statistic of the split (in the series' unit):
	// larger is a clearer change.
	Q float64
}

// EDivisive finds the change points of a series of numbers with the
// E-divisive means method of Matteson and James (2014, "A nonparametric
// approach for multiple change point analysis of multivariate data"), as
// MongoDB's performance CI and Apache Otava use it for benchmark histories:
//
//  1. For a segment [s, e) and each split τ (leaving at least MinSegment
//     points on each side) take X = xs[s:τ] and Y = xs[τ:e], m and n
//     points, and the energy distance with alpha = 1,
//     E = 2/(mn)·Σ|Xi−Yj| − Σ_{i<k}|Xi−Xk|/C(m,2) − Σ_{j<k}|Yj−Yk|/C(n,2),
//     scaled as Q = mn/(m+n)·E. The best split of the segment maximizes Q.
//  2. Of all current segments, the one whose best split has the largest Q
//     proposes a change. A permutation test decides it: the segment's
//     points are shuffled Permutations times and the largest Q of each
//     shuffle computed; the p-value is (1 + the number at least as large
//     as the observed Q)/(Permutations + 1).
//  3. When p ≤ Significance the change is accepted, the segment is split
//     there and step 2 repeats; otherwise the search stops (as in R's ecp).
//
// The energy distance sees changes of any kind in the distribution (the
// level, the spread), not only of the mean. Each scan costs O(n log n)
// (univariate distances summed by rank in a Fenwick tree), so one test
// costs O(Permutations·n log n). The result is ordered by Index. A series
// shorter than 2·MinSegment has no change. NaN or infinite values are
// refused with an error.
func EDivisive(xs []float64, o EDivisiveOptions) ([]ChangePoint, error) {
	o = o.WithDefaults()
	switch {
	case !(o.Significance > 0 && o.Significance < 1):
		return nil, fmt.Errorf("stats: E-divisive significance level %v is not in (0, 1): give e.g. 0.05", o.Significance)
	case o.Permutations < MinPermutations(o.Significance):
		need := MinPermutations(o.Significance)
		return nil, fmt.Errorf("stats: E-divisive with %d permutations can never accept a change at p ≤ %g: the p-value (1 + k)/(n + 1) of n permutations is at least 1/(n + 1); give at least %d (199 is usual)",
			o.Permutations, o.Significance, need)
	case o.MinSegment < 2:
		return nil, fmt.Errorf("stats: E-divisive minimum segment %d is below 2: a segment of one point has no spread; give at least 2", o.MinSegment)
	}
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("stats: E-divisive got %v at index %d: remove NaN and infinite values first", x, i)
		}
	}
	n := len(xs)
	if n < 2*o.MinSegment {
		return nil, nil
	}
	// Center and scale the values: Q scales with the values (alpha = 1), so
	// the tests do not change, and the sums by rank lose less to rounding.
	med := Median(xs)
	scale := 0.0
	for _, x := range xs {
		scale = math.Max(scale, math.Abs(x-med))
	}
	if scale == 0 {
		return nil, nil // constant: nothing changes
	}
	z := make([]float64, n)
	for i, x := range xs {
		z[i] = (x - med) / scale
	}

	r := newRand(o.Seed)
	type segment struct {
		s, e int
		tau  int
		q    float64
	}
	scan := newEnergyScan(n)
	best := func(s, e int) segment {
		tau, q := scan.best(z[s:e], o.MinSegment)
		return segment{s: s, e: e, tau: s + tau, q: q}
	}
	segs := []segment{best(0, n)}
	var found []ChangePoint
	perm, permRank := make([]float64, n), make([]int, n)
	for {
		// The segment whose best split is the clearest proposes a change.
		k := -1
		for i, sg := range segs {
			if sg.tau > sg.s && (k < 0 || sg.q > segs[k].q) {
				k = i
			}
		}
		if k < 0 || !(segs[k].q > 0) {
			break
		}
		sg := segs[k]
		// Permutation test, stopped early once the change cannot be
		// accepted any more (more exceedances than the level allows).
		// A permutation moves values with their ranks, so the segment is
		// sorted once, not once per permutation.
		p, pr := perm[:sg.e-sg.s], permRank[:sg.e-sg.s]
		copy(p, z[sg.s:sg.e])
		scan.prepare(p)
		copy(pr, scan.rank[:len(p)])
		limit := int(math.Floor(o.Significance*float64(o.Permutations+1))) - 1
		over := 0
		for range o.Permutations {
			r.Shuffle(len(p), func(i, j int) { p[i], p[j], pr[i], pr[j] = p[j], p[i], pr[j], pr[i] })
			if _, q := scan.scan(p, pr, o.MinSegment); q >= sg.q*(1-1e-12) {
				over++
				if over > limit {
					break
				}
			}
		}
		if over > limit {
			break
		}
		found = append(found, ChangePoint{Index: sg.tau, P: float64(1+over) / float64(o.Permutations+1), Q: sg.q * scale})
		segs = slices.Replace(segs, k, k+1, best(sg.s, sg.tau), best(sg.tau, sg.e))
	}
	slices.SortFunc(found, func(a, b ChangePoint) int { return a.Index - b.Index })
	return found, nil
}

// MinPermutations returns the fewest permutations with which EDivisive's
// test can accept a change at the significance level: its p-value is
// (1 + k)/(n + 1) for k of n permutations at least as extreme as the
// observed order, never below 1/(n + 1), so n must be at least
// 1/level − 1: 19 at 0.05, 99 at 0.01. It is the smallest n ≥ 1 for which
// EDivisive's acceptance rule (at most ⌊level·(n+1)⌋ − 1 exceedances)
// allows one; 0 for a level outside (0, 1).
func MinPermutations(level float64) int {
	if !(level > 0 && level < 1) {
		return 0
	}
	if 1/level > 1<<53 {
		return math.MaxInt // no count of permutations can be afforded
	}
	n := max(1, int(math.Ceil(1/level))-1)
	for n > 1 && math.Floor(level*float64(n)) >= 1 {
		n-- // the rounding of 1/level overshot
	}
	for math.Floor(level*float64(n+1)) < 1 {
		n++
	}
	return n
}

// energyScan holds the scratch space of one scan over a segment's splits.
type energyScan struct {
	idx          []int
	rank         []int
	sorted       []float64
	prefix       []float64 // prefix[i] = sum of the i smallest values
	bitN, bitSum []float64 // Fenwick tree over ranks of the left part
}

func newEnergyScan(n int) *energyScan {
	return &energyScan{
		idx: make([]int, n), rank: make([]int, n), sorted: make([]float64, n),
		prefix: make([]float64, n+1), bitN: make([]float64, n+1), bitSum: make([]float64, n+1),
	}
}

// best returns the split τ of z (the first index of the right part, with
// at least minSeg points on each side) that maximizes the scaled energy
// statistic Q, and that Q; τ = 0 when z is too short to split.
//
// Moving the split one point to the right moves x = z[τ] from the right
// part to the left. With the sum of |x − Xi| over the left part (dl) and
// over the right part without x (dr), the within-left sum W grows by dl,
// the within-right sum V shrinks by dr, and the between sum B changes by
// dr − dl. dl comes from a Fenwick tree of counts and sums by rank of the
// left part; dr from the sums of the whole segment by rank minus the left
// part's.
func (s *energyScan) best(z []float64, minSeg int) (int, float64) {
	if len(z) < 2*minSeg {
		return 0, 0
	}
	s.prepare(z)
	return s.scan(z, s.rank[:len(z)], minSeg)
}

// prepare ranks the values of z (s.rank, 1-based, in z's order) and sums
// them in rank order (s.prefix).
func (s *energyScan) prepare(z []float64) {
	n := len(z)
	idx, rank, sorted, prefix := s.idx[:n], s.rank[:n], s.sorted[:n], s.prefix[:n+1]
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(z[a], z[b]) })
	for r, i := range idx {
		rank[i] = r + 1 // 1-based for the Fenwick tree
		sorted[r] = z[i]
		prefix[r+1] = prefix[r] + z[i]
	}
}

// scan is best's scan over the splits of z, whose values have the ranks
// rank within the values prepared last (the same values in any order).
func (s *energyScan) scan(z []float64, rank []int, minSeg int) (int, float64) {
	n := len(z)
	if n < 2*minSeg {
		return 0, 0
	}
	sorted, prefix := s.sorted[:n], s.prefix[:n+1]
	bitN, bitSum := s.bitN[:n+1], s.bitSum[:n+1]
	clear(bitN)
	clear(bitSum)
	total := prefix[n]
	// Start with everything on the right: V is the sum of all pairwise
	// distances, Σ_r sorted[r]·(2r − n + 1) over 0-based ranks.
	var W, V, B float64
	for r, x := range sorted {
		V += float64(x * float64(2*r-n+1))
	}
	bestTau, bestQ := 0, math.Inf(-1)
	sumLeft := 0.0
	for t := 0; t < n-minSeg; t++ {
		x, rk := z[t], rank[t]
		// Left part (z[:t]): count and sum of the values ranked below x.
		var cl, sl float64
		for i := rk - 1; i > 0; i -= i & -i {
			cl += bitN[i]
			sl += bitSum[i]
		}
		m := float64(t)
		dl := float64(x*cl) - sl + (sumLeft - sl) - float64(x*(m-cl))
		// Right part without x (z[t+1:]): the whole segment below x by
		// rank, minus the left part's.
		cr, sr := float64(rk-1)-cl, prefix[rk-1]-sl
		nr := float64(n - t - 1)
		sumRight := total - sumLeft - x
		dr := float64(x*cr) - sr + (sumRight - sr) - float64(x*(nr-cr))
		W += dl
		V -= dr
		B += dr - dl
		for i := rk; i <= n; i += i & -i {
			bitN[i]++
			bitSum[i] += x
		}
		sumLeft += x
		tau := t + 1
		if tau < minSeg {
			continue
		}
		a, b := float64(tau), float64(n-tau)
		e := 2 * B / (a * b)
		if tau > 1 {
			e -= W / (a * (a - 1) / 2)
		}
		if n-tau > 1 {
			e -= V / (b * (b - 1) / 2)
		}
		if q := a * b / (a + b) * e; q > bestQ {
			bestTau, bestQ = tau, q
		}
	}
	return bestTau, bestQ
}
