package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/chronograph/chronograph/internal/radix"
	"github.com/chronograph/chronograph/warn"
)

// MannWhitneyResult is the outcome of a two-sided Mann-Whitney U test.
type MannWhitneyResult struct {
	// U is the statistic of sample a: the number of pairs (a_i, b_j) with
	// a_i > b_j, ties counting one half (scipy's U1, go-moremath's U).
	U float64 `json:"u"`
	// P is the two-sided p-value. It is never below MinPValue(NA, NB).
	P float64 `json:"p"`
	// Exact is true when P comes from the exact null distribution of U
	// (given the ties), false for the normal approximation.
	Exact bool `json:"exact"`
	// Ties is true when some value occurs more than once in a ∪ b.
	Ties bool `json:"ties"`
	NA   int  `json:"na"`
	NB   int  `json:"nb"`
}

// Significant reports whether the test rejects "a and b come from the same
// distribution" at level alpha: P <= alpha (benchstat's rule too). It is
// the one rule of this package: CompareMedians uses it, and MinPValue and
// significanceWarning say when it cannot hold.
func (r MannWhitneyResult) Significant(alpha float64) bool { return r.P <= alpha }

// mannWhitneyExactLimit is the largest product na·nb of the sample sizes
// for which MannWhitneyU computes the exact null distribution of U: two
// samples of 50 (x/perf's limit without ties), or 10 and 250, or 1 and
// 2500. At the limit, with U at its mean (the costliest case), that takes
// about 1.8 million multiply-adds, 1.6 ms on one AMD EPYC vCPU
// (BenchmarkMannWhitneyExact), 3 % of what CompareMedians spends on its
// bootstrap interval for the same samples.
const mannWhitneyExactLimit = 2500

// MannWhitneyU runs the two-sided Mann-Whitney U (Wilcoxon rank-sum) test
// of a against b. Tied values get their mid-rank. How P is computed
// depends on the sample sizes only, never on the data:
//
//   - na·nb <= mannWhitneyExactLimit: exactly, from the null distribution of
//     U given the ties, that is the distribution of U over all
//     C(na+nb, na) equally likely ways to split the pooled values into
//     samples of na and nb (Mann and Whitney 1947 without ties; Klotz 1966
//     with ties): P = min(1, 2·min(P(U <= u), P(U >= u))). Without ties
//     this is scipy's method="exact" and x/perf's (go-moremath's) exact
//     test; with ties it is scipy.stats.permutation_test with U as the
//     statistic, and the distribution go-moremath computes.
//   - otherwise: the normal approximation with the tie-corrected variance
//     and a continuity correction of 1/2 (scipy's method="asymptotic",
//     go-moremath's approximation). When that falls below MinPValue, the
//     smallest p any data of these sizes can have, P is raised to it.
//
// So P is never below MinPValue(na, nb), and significanceWarning, which
// compares that floor with alpha, never contradicts P.
//
// P equals x/perf's (benchstat's, computed by go-moremath) where both use
// the same method and x/perf is right. It differs (1) where x/perf
// approximates and this is exact: with ties from 26 values per sample on,
// without from 51, while na·nb <= 2500 ({1} against thirty 2s: x/perf
// 1.2e-7, exact 2/31 = 0.065); (2) with ties, where x/perf doubles the
// lower tail of the first sample's U at min(U1, U2), which is right only
// for a symmetric distribution: {2,1,3,5} against {1,1,1,1,1} gives 0
// there, 0.095 here; {1} against {1,2} gives 4/3 there, 1 here; (3) when
// all values are equal, an error there (benchstat shows P=1). scipy's
// method="auto" is exact only without ties and with a sample of at most
// 8 values, for any size of the other.
//
// Cost: sorting, plus for the exact distribution about na²·nb²/3
// multiply-adds when u is near its mean and fewer in the tails (see
// mannWhitneyExactLimit). It fails for an empty sample or NaN values; when
// all values are equal P is 1.
func MannWhitneyU(a, b []float64) (MannWhitneyResult, error) {
	na, nb := len(a), len(b)
	if na == 0 || nb == 0 {
		return MannWhitneyResult{}, fmt.Errorf("stats: Mann-Whitney test needs two non-empty samples, got %d and %d values", na, nb)
	}
	if slices.ContainsFunc(a, math.IsNaN) || slices.ContainsFunc(b, math.IsNaN) {
		return MannWhitneyResult{}, errors.New("stats: Mann-Whitney test got NaN values: remove them first")
	}
	sa, sb := slices.Clone(a), slices.Clone(b)
	radix.Sort(sa)
	radix.Sort(sb)
	return mannWhitneySorted(sa, sb), nil
}

// MannWhitneyUSorted is MannWhitneyU of samples already sorted in
// increasing order (view.Series.Sorted, a document's sorted copy): the
// same result with no copy and no sort. Unsorted input gives a wrong
// result; an empty sample or NaN values are the same errors.
func MannWhitneyUSorted(sa, sb []float64) (MannWhitneyResult, error) {
	if len(sa) == 0 || len(sb) == 0 || math.IsNaN(sa[0]) || math.IsNaN(sb[0]) || math.IsNaN(sa[len(sa)-1]) || math.IsNaN(sb[len(sb)-1]) {
		return MannWhitneyU(sa, sb) // its error
	}
	return mannWhitneySorted(sa, sb), nil
}

// mannWhitneySorted is MannWhitneyU of sorted, non-empty samples sa and
// sb without NaN: it ranks sa ∪ sb by merging them (the pooled order of
// the values, which is all the ranks depend on), with no sort.
func mannWhitneySorted(sa, sb []float64) MannWhitneyResult {
	na, nb := len(sa), len(sb)
	n := na + nb
	// Rank sa ∪ sb with mid-ranks for ties; R1 is the rank sum of sa.
	var r1, tieTerm float64
	var groups []int // sizes of the groups of equal values, in increasing order
	for i, ia, ib := 0, 0, 0; i < n; {
		var x float64
		if ib == nb || ia < na && sa[ia] <= sb[ib] {
			x = sa[ia]
		} else {
			x = sb[ib]
		}
		ca, cb := 0, 0
		for ia+ca < na && sa[ia+ca] == x {
			ca++
		}
		for ib+cb < nb && sb[ib+cb] == x {
			cb++
		}
		ia, ib = ia+ca, ib+cb
		j := i + ca + cb
		// Values i..j-1 share the mid-rank of ranks i+1..j.
		rank := float64(float64(i+1+j) / 2)
		for range ca {
			r1 += rank
		}
		t := j - i
		groups = append(groups, t)
		tieTerm += float64(float64(t)*float64(t)*float64(t)) - float64(t)
		i = j
	}
	fa, fb := float64(na), float64(nb)
	u1 := r1 - float64(fa*(fa+1)/2)
	res := MannWhitneyResult{U: u1, Ties: len(groups) < n, NA: na, NB: nb}
	if na <= mannWhitneyExactLimit && nb <= mannWhitneyExactLimit && na*nb <= mannWhitneyExactLimit {
		res.Exact = true
		// The distribution is computed for the smaller sample (cheaper);
		// W = 2U is an integer.
		m, w := na, float64(2*u1)
		if nb < na {
			m, w = nb, float64(2*(float64(fa*fb)-u1))
		}
		lower, upper := mwuExactTails(groups, m, int(math.Round(w)))
		res.P = min(1, 2*min(lower, upper))
		return res
	}
	// Normal approximation: mean na*nb/2, variance with the tie
	// correction, and a continuity correction of 0.5 towards the mean.
	mu := float64(fa * fb / 2)
	fn := float64(n)
	sd := math.Sqrt(fa * fb / 12 * ((fn + 1) - tieTerm/float64(fn*(fn-1))))
	z := (max(u1, float64(fa*fb)-u1) - mu - 0.5) / sd
	res.P = min(max(2*normalSF(z), MinPValue(na, nb)), 1)
	return res
}

// mwuExactTails returns P(W <= w) and P(W >= w) for W = 2U, U the
// Mann-Whitney statistic of a sample of m values, under the null
// hypothesis that every split of the pooled values is equally likely;
// groups are the sizes of the groups of equal pooled values in increasing
// order of value. It counts the splits with W <= w (mwuCounts) from the
// end of the distribution that w is in, so the work is bounded by the
// distance of w from that end.
func mwuExactTails(groups []int, m, w int) (lower, upper float64) {
	total := 0
	for _, t := range groups {
		total += t
	}
	mn := m * (total - m) // the mean of W
	switch {
	case w < 0:
		return 0, 1
	case w > 2*mn:
		return 1, 0
	case w > mn:
		// Mirror: with the groups in decreasing order of value the
		// sample's statistic is 2mn - W.
		rev := slices.Clone(groups)
		slices.Reverse(rev)
		lo, up := mwuExactTails(rev, m, 2*mn-w)
		return up, lo
	}
	c := mwuCounts(groups, m, w)
	var lt float64 // splits with W < w
	for _, x := range c[:w] {
		lt += x
	}
	le := lt + c[w]
	splits := binomial(total, m)
	// P(W >= w) = 1 - P(W < w); it is at least 1/(mn+1) here (w is at
	// most the mean), so the subtraction loses no relative precision
	// that matters.
	return le / splits, (splits - lt) / splits
}

// mwuCounts returns c[v] for v = 0..wmax: the number of ways to choose
// which m of the pooled values (in groups of equal values of the given
// sizes, increasing) belong to the sample such that W = 2U = v.
//
// It walks the groups in order, keeping for every k (sample values among
// the groups so far) the counts by W so far. Putting r of a group of t
// values in the sample, after k sample values and p - k others below it,
// adds r·(2(p-k) + t - r) to W (each of the r beats the p-k others below
// and ties with the t-r others in the group) in C(t, r) ways. States that
// cannot end at or below wmax (the remaining m-k sample values will each
// beat at least the p-k others already placed) are not kept, and rows are
// updated in place from the largest k down, so memory is (m+1)·(wmax+1)
// counts. Counts are float64: exact up to 2^53, then rounded, each a sum
// of non-negative terms, so there is no cancellation.
func mwuCounts(groups []int, m, wmax int) []float64 {
	total := 0
	for _, t := range groups {
		total += t
	}
	others := total - m
	stride := wmax + 1
	buf := make([]float64, (m+1)*stride)
	row := func(k int) []float64 { return buf[k*stride : (k+1)*stride] }
	buf[0] = 1 // no values placed yet: one way, W = 0
	coef := make([]float64, m+1)
	p := 0 // pooled values placed so far
	for _, t := range groups {
		p2 := p + t
		coef[0] = 1
		for r := 1; r <= min(t, m); r++ {
			coef[r] = coef[r-1] * float64(t-r+1) / float64(r) // C(t, r)
		}
		// k2 sample values among the first p2: k2 <= m, and at most
		// `others` non-sample values among them.
		for k2 := min(m, p2); k2 >= max(0, p2-others); k2-- {
			// W so far must leave room for the remaining m-k2 sample
			// values, each beating the p2-k2 others already placed.
			lim := wmax - 2*(m-k2)*(p2-k2)
			if lim < 0 {
				continue // never read again (see below)
			}
			dst := row(k2) // r = 0: the counts of (k2, p) carry over
			// r of this group in the sample, coming from k = k2-r <= p.
			for r := max(1, k2-p); r <= min(t, k2); r++ {
				k := k2 - r
				shift := r * (2*(p-k) + t - r)
				if shift > lim {
					break // shift grows with r
				}
				// Row k holds W <= 2k(p-k) only.
				hi := min(lim, shift+2*k*(p-k))
				src := row(k)[:hi-shift+1]
				d := dst[shift : hi+1]
				cf := coef[r]
				for i, x := range src {
					d[i] += float64(cf * x)
				}
			}
		}
		// Why stale entries are never read: row k2 is valid up to lim
		// (the r = 0 term keeps the old, larger limit's values), and
		// a later read of it at shift s for k2+r goes up to
		// lim(k2+r, p2+t') - s <= lim(k2, p2), because that difference
		// is (t'-r)(r-2(m-k2)) <= 0.
		p = p2
	}
	return row(m)
}

// binomial returns C(n, k) in floating point (exact below 2^53; +Inf when
// it overflows).
func binomial(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
		if math.IsInf(c, 1) {
			return c
		}
	}
	if c < 1<<53 {
		c = math.Round(c) // remove the rounding of the divisions
	}
	return c
}

// MinPValue returns the smallest p-value MannWhitneyU can return for
// samples of sizes na and nb: 2 / C(na+nb, na), the exact p-value of two
// samples that do not overlap at all (with ties the smallest attainable p
// is larger still). MannWhitneyU never returns less, approximation
// included. It is 1 when a size is not positive.
func MinPValue(na, nb int) float64 {
	if na <= 0 || nb <= 0 {
		return 1
	}
	return min(1, 2/binomial(na+nb, na))
}

// minSamplesForSignificance returns the smallest n such that a two-sided
// Mann-Whitney test of two samples of n values each can reach p <= alpha
// at all (4 for alpha = 0.05: 2/C(8,4) = 0.029, while 2/C(6,3) = 0.1). It
// returns 0 for alpha outside (0, 1].
func minSamplesForSignificance(alpha float64) int {
	if !(alpha > 0 && alpha <= 1) {
		return 0
	}
	n := 1
	for MinPValue(n, n) > alpha {
		n++
	}
	return n
}

// significanceWarning returns a warning when samples of sizes na and nb
// are too small for the Mann-Whitney test ever to reach p <= alpha: when
// MinPValue(na, nb) > alpha. MannWhitneyU's P is then above alpha for any
// data, so Significant and CompareMedians never say "significant" while
// this warns.
func significanceWarning(na, nb int, alpha float64) (warn.Warning, bool) {
	if MinPValue(na, nb) <= alpha {
		return warn.Warning{}, false
	}
	return warnf(warnNoSignificance,
		"with %d and %d samples no difference can be significant at alpha=%g (the smallest possible p is %.3g) >> take at least %d samples of each",
		na, nb, alpha, MinPValue(na, nb), minSamplesForSignificance(alpha)), true
}
