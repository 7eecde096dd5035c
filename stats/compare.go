package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/chronograph/chronograph/internal/quantile"
	"github.com/chronograph/chronograph/internal/radix"
)

// welchResult is the outcome of Welch's two-sample t-test.
type welchResult struct {
	T  float64 `json:"t"`  // t statistic of mean(a) - mean(b)
	DF float64 `json:"df"` // Welch-Satterthwaite degrees of freedom
	P  float64 `json:"p"`  // two-sided p-value
}

// welchT runs Welch's unequal-variance t-test of mean(a) = mean(b), as
// scipy.stats.ttest_ind(a, b, equal_var=False) does. Each sample needs at
// least 2 values, and they must not both be constant; NaN values are an
// error.
func welchT(a, b []float64) (welchResult, error) {
	na, nb := len(a), len(b)
	if na < 2 || nb < 2 {
		return welchResult{}, fmt.Errorf("stats: Welch's t-test needs at least 2 values per sample, got %d and %d", na, nb)
	}
	if slices.ContainsFunc(a, math.IsNaN) || slices.ContainsFunc(b, math.IsNaN) {
		return welchResult{}, errors.New("stats: Welch's t-test got NaN values: remove them first")
	}
	// t and df do not change when both samples are scaled alike: scaled
	// by a power of two, the variances of values near 1e-170 do not
	// underflow, nor those near 1e300 overflow.
	e := scaleExp(a, b)
	ma, va := meanVar(a, e)
	mb, vb := meanVar(b, e)
	vna, vnb := va/float64(na), vb/float64(nb)
	if vna+vnb == 0 {
		return welchResult{}, errors.New("stats: Welch's t-test is undefined when both samples are constant")
	}
	df := (vna + vnb) * (vna + vnb) / (vna*vna/float64(na-1) + vnb*vnb/float64(nb-1))
	t := (ma - mb) / math.Sqrt(vna+vnb)
	return welchResult{T: t, DF: df, P: 2 * studentTSF(math.Abs(t), df)}, nil
}

// meanVar returns the mean and the sample variance (divisor n-1) of
// xs·2^-e, by two passes as numpy does (scaledMoments).
func meanVar(xs []float64, e int) (mean, variance float64) {
	mean, ss := scaledMoments(xs, e)
	return mean, ss / float64(len(xs)-1)
}

// hodgesLehmann returns the Hodges-Lehmann estimate of the shift between a
// and b: the median of all len(a)*len(b) differences a_i - b_j (the average
// of the two middle ones for an even count). It is the estimate that goes
// with the Mann-Whitney test, robust to outliers. Small samples sort the
// differences; large ones select the middle differences without storing
// them, in O((len(a)+len(b)) log) time and O(len(a)+len(b)) memory. NaN
// for an empty sample or NaN values.
func hodgesLehmann(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 || slices.ContainsFunc(a, math.IsNaN) || slices.ContainsFunc(b, math.IsNaN) {
		return math.NaN()
	}
	if len(a)*len(b) <= hlSortLimit {
		return hodgesLehmannSort(a, b)
	}
	return hodgesLehmannSelect(a, b)
}

// hlSortLimit is the number of differences up to which hodgesLehmann
// stores and sorts them.
const hlSortLimit = 1 << 20

func hodgesLehmannSort(a, b []float64) float64 {
	d := make([]float64, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			d = append(d, x-y)
		}
	}
	radix.Sort(d)
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
	h := float64(0.5 * float64(n-1)) // linear 0.5 quantile of n values (0-based)
	i := int(h)
	x := kth(i + 1)
	if i+1 >= n {
		return x
	}
	return quantile.Lerp(x, kth(i+2), h-float64(i))
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
