package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// MannWhitneyResult is the outcome of a two-sided Mann-Whitney U test.
type MannWhitneyResult struct {
	// U is the statistic of sample a: the number of pairs (a_i, b_j) with
	// a_i > b_j, ties counting one half (scipy's U1).
	U float64 `json:"u"`
	// P is the two-sided p-value.
	P float64 `json:"p"`
	// Exact is true when P comes from the exact null distribution of U,
	// false for the normal approximation.
	Exact bool `json:"exact"`
	// Ties is true when some value occurs more than once in a ∪ b.
	Ties bool `json:"ties"`
	NA   int  `json:"na"`
	NB   int  `json:"nb"`
}

// exactLimit bounds the work of the exact Mann-Whitney distribution
// (about min(na,nb) * max(na,nb) * na*nb/2 additions); above it the normal
// approximation is used even where scipy would compute the exact one.
const exactLimit = 4e8

// MannWhitneyU runs the two-sided Mann-Whitney U (Wilcoxon rank-sum) test
// of a against b, as scipy.stats.mannwhitneyu(a, b, use_continuity=True,
// alternative="two-sided", method="auto") does, with the same p-value:
//
//   - exact null distribution of U when there are no ties and at least one
//     sample has at most 8 values (scipy's "auto" rule; a huge other sample
//     falls back to the approximation, see exactLimit);
//   - otherwise the normal approximation with tie correction and
//     continuity correction.
//
// It fails for an empty sample or NaN values.
func MannWhitneyU(a, b []float64) (MannWhitneyResult, error) {
	na, nb := len(a), len(b)
	if na == 0 || nb == 0 {
		return MannWhitneyResult{}, fmt.Errorf("stats: Mann-Whitney test needs two non-empty samples, got %d and %d values", na, nb)
	}
	if slices.ContainsFunc(a, math.IsNaN) || slices.ContainsFunc(b, math.IsNaN) {
		return MannWhitneyResult{}, errors.New("stats: Mann-Whitney test got NaN values: remove them first")
	}
	// Rank a ∪ b with mid-ranks for ties; R1 is the rank sum of a.
	type obs struct {
		x   float64
		inA bool
	}
	all := make([]obs, 0, na+nb)
	for _, x := range a {
		all = append(all, obs{x, true})
	}
	for _, x := range b {
		all = append(all, obs{x, false})
	}
	slices.SortFunc(all, func(p, q obs) int {
		switch {
		case p.x < q.x:
			return -1
		case p.x > q.x:
			return 1
		}
		return 0
	})
	n := na + nb
	var r1, tieTerm float64
	ties := false
	for i := 0; i < n; {
		j := i + 1
		for j < n && all[j].x == all[i].x {
			j++
		}
		// Values i..j-1 share the mid-rank of ranks i+1..j.
		rank := float64(i+1+j) / 2
		for k := i; k < j; k++ {
			if all[k].inA {
				r1 += rank
			}
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieTerm += t*t*t - t
		}
		i = j
	}
	fa, fb := float64(na), float64(nb)
	u1 := r1 - fa*(fa+1)/2
	u2 := fa*fb - u1
	u := max(u1, u2)
	res := MannWhitneyResult{U: u1, Ties: ties, NA: na, NB: nb}
	s, l := min(na, nb), max(na, nb)
	if !ties && s <= 8 && float64(s)*float64(l)*fa*fb/2 <= exactLimit {
		res.Exact = true
		res.P = 2 * mwuExactSF(int(u), na, nb)
	} else {
		// Normal approximation: mean na*nb/2, variance with the tie
		// correction, and a continuity correction of 0.5 towards the mean.
		mu := fa * fb / 2
		fn := float64(n)
		sd := math.Sqrt(fa * fb / 12 * ((fn + 1) - tieTerm/(fn*(fn-1))))
		z := (u - mu - 0.5) / sd
		res.P = 2 * normalSF(z)
	}
	res.P = min(max(res.P, 0), 1)
	return res, nil
}

// mwuExactSF returns P(U >= u) under the null hypothesis for samples of
// sizes m and n without ties. By symmetry it is P(U <= m*n - u), the sum of
// the counts f(m, n, k) for k <= m*n - u over C(m+n, m), where f counts the
// arrangements with statistic k (Mann and Whitney's recurrence
// f(m, n, k) = f(m-1, n, k-n) + f(m, n-1, k)). Only additions of
// non-negative numbers, so no cancellation.
func mwuExactSF(u, m, n int) float64 {
	kmax := m*n - u
	if kmax < 0 {
		return 0
	}
	if m > n {
		m, n = n, m // f is symmetric in m and n; keep the small one inner
	}
	// f[i][k] holds f(i, j, k) for the current j (outer loop).
	f := make([][]float64, m+1)
	for i := range f {
		f[i] = make([]float64, kmax+1)
	}
	// j = 0: f(i, 0, k) = 1 if k == 0.
	for i := range f {
		f[i][0] = 1
	}
	for j := 1; j <= n; j++ {
		// f(i, j, k) = f(i-1, j, k-j) + f(i, j-1, k): roles swapped (the
		// recurrence is symmetric), i increasing so f[i-1] is already at j.
		for i := 1; i <= m; i++ {
			fi, fp := f[i], f[i-1]
			for k := kmax; k >= j; k-- {
				fi[k] += fp[k-j]
			}
		}
	}
	var sum float64
	for _, c := range f[m] {
		sum += c
	}
	return sum / binomial(m+n, m)
}

// binomial returns C(n, k) in floating point.
func binomial(n, k int) float64 {
	k = min(k, n-k)
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	if c < 1<<53 {
		c = math.Round(c) // remove the rounding of the divisions
	}
	return c
}

// MinPValue returns the smallest two-sided p-value an exact Mann-Whitney
// test can give for samples of sizes na and nb: 2 / C(na+nb, na), reached
// when the samples do not overlap at all.
func MinPValue(na, nb int) float64 {
	if na <= 0 || nb <= 0 {
		return 1
	}
	return min(1, 2/binomial(na+nb, na))
}

// MinSamplesForSignificance returns the smallest n such that an exact
// two-sided Mann-Whitney test of two samples of n values each can reach
// p <= alpha at all (4 for alpha = 0.05: 2/C(8,4) = 0.029, while
// 2/C(6,3) = 0.1). It returns 0 for alpha outside (0, 1].
func MinSamplesForSignificance(alpha float64) int {
	if !(alpha > 0 && alpha <= 1) {
		return 0
	}
	n := 1
	for MinPValue(n, n) > alpha {
		n++
	}
	return n
}

// SignificanceWarning returns a warning when samples of sizes na and nb
// are too small for the Mann-Whitney test ever to reach p <= alpha.
func SignificanceWarning(na, nb int, alpha float64) (Warning, bool) {
	if MinPValue(na, nb) <= alpha {
		return Warning{}, false
	}
	return warnf(WarnNoSignificance,
		"with %d and %d samples no difference can be significant at alpha=%g (the smallest possible p is %.3g): take at least %d samples of each",
		na, nb, alpha, MinPValue(na, nb), MinSamplesForSignificance(alpha)), true
}

// WelchResult is the outcome of Welch's two-sample t-test.
type WelchResult struct {
	T  float64 `json:"t"`  // t statistic of mean(a) - mean(b)
	DF float64 `json:"df"` // Welch-Satterthwaite degrees of freedom
	P  float64 `json:"p"`  // two-sided p-value
}

// WelchT runs Welch's unequal-variance t-test of mean(a) = mean(b), as
// scipy.stats.ttest_ind(a, b, equal_var=False) does. Each sample needs at
// least 2 values, and they must not both be constant; NaN values are an
// error.
func WelchT(a, b []float64) (WelchResult, error) {
	na, nb := len(a), len(b)
	if na < 2 || nb < 2 {
		return WelchResult{}, fmt.Errorf("stats: Welch's t-test needs at least 2 values per sample, got %d and %d", na, nb)
	}
	if slices.ContainsFunc(a, math.IsNaN) || slices.ContainsFunc(b, math.IsNaN) {
		return WelchResult{}, errors.New("stats: Welch's t-test got NaN values: remove them first")
	}
	ma, va := meanVar(a)
	mb, vb := meanVar(b)
	vna, vnb := va/float64(na), vb/float64(nb)
	if vna+vnb == 0 {
		return WelchResult{}, errors.New("stats: Welch's t-test is undefined when both samples are constant")
	}
	df := (vna + vnb) * (vna + vnb) / (vna*vna/float64(na-1) + vnb*vnb/float64(nb-1))
	t := (ma - mb) / math.Sqrt(vna+vnb)
	return WelchResult{T: t, DF: df, P: 2 * studentTSF(math.Abs(t), df)}, nil
}

// meanVar returns the mean and the sample variance (divisor n-1) of xs,
// by two passes as numpy does.
func meanVar(xs []float64) (mean, variance float64) {
	mean = kahanSum(xs) / float64(len(xs))
	var ss float64
	for _, x := range xs {
		d := x - mean
		ss += d * d
	}
	return mean, ss / float64(len(xs)-1)
}

// HodgesLehmann returns the Hodges-Lehmann estimate of the shift between a
// and b: the median of all len(a)*len(b) differences a_i - b_j (the average
// of the two middle ones for an even count). It is the estimate that goes
// with the Mann-Whitney test, robust to outliers. Small samples sort the
// differences; large ones select the middle differences without storing
// them, in O((len(a)+len(b)) log) time and O(len(a)+len(b)) memory. NaN
// for an empty sample or NaN values.
func HodgesLehmann(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 || slices.ContainsFunc(a, math.IsNaN) || slices.ContainsFunc(b, math.IsNaN) {
		return math.NaN()
	}
	if len(a)*len(b) <= hlSortLimit {
		return hodgesLehmannSort(a, b)
	}
	return hodgesLehmannSelect(a, b)
}

// hlSortLimit is the number of differences up to which HodgesLehmann
// stores and sorts them.
const hlSortLimit = 1 << 20

func hodgesLehmannSort(a, b []float64) float64 {
	d := make([]float64, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			d = append(d, x-y)
		}
	}
	slices.Sort(d)
	return linearQuantile(d, 0.5)
}

// hodgesLehmannSelect finds the middle differences by bisection over the
// float64 values in their bit order: count(v), the number of differences
// <= v, is computed by a two-pointer walk over sorted a and b (rounded
// subtraction is monotone in each operand), and the k-th smallest
// difference is the smallest float64 v with count(v) >= k, found exactly in
// at most 64 steps.
func hodgesLehmannSelect(a, b []float64) float64 {
	sa := slices.Sorted(slices.Values(a))
	sb := slices.Sorted(slices.Values(b))
	na, nb := len(sa), len(sb)
	count := func(v float64) int {
		// The b_j with a_i - b_j <= v form a suffix of sb, which grows as
		// a_i decreases; j is its start.
		c, j := 0, nb
		for _, x := range slices.Backward(sa) {
			for j > 0 && x-sb[j-1] <= v {
				j--
			}
			c += nb - j
		}
		return c
	}
	kth := func(k int) float64 { // 1-based
		lo, hi := sa[0]-sb[nb-1], sa[na-1]-sb[0] // count(lo) >= 1, count(hi) = all
		if count(lo) >= k {
			return lo
		}
		// Invariant: count(lo) < k <= count(hi).
		for {
			mid := midFloat(lo, hi)
			if mid == lo || mid == hi {
				return hi
			}
			if count(mid) >= k {
				hi = mid
			} else {
				lo = mid
			}
		}
	}
	n := na * nb
	h := 0.5 * float64(n-1) // linear 0.5 quantile of n values (0-based)
	i := int(h)
	x := kth(i + 1)
	if i+1 >= n {
		return x
	}
	return lerp(x, kth(i+2), h-float64(i))
}

// midFloat returns a float64 halfway between lo < hi in the order of
// float64 values (so bisection ends after at most 64 steps).
func midFloat(lo, hi float64) float64 {
	key := func(f float64) int64 { // order-preserving map to integers
		u := int64(math.Float64bits(f))
		if u < 0 {
			u = math.MinInt64 - u
		}
		return u
	}
	unkey := func(k int64) float64 {
		if k < 0 {
			k = math.MinInt64 - k
		}
		return math.Float64frombits(uint64(k))
	}
	kl, kh := key(lo), key(hi)
	// kh - kl may exceed MaxInt64; as uint64 it is exact.
	return unkey(kl + int64((uint64(kh)-uint64(kl))/2))
}
