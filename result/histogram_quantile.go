package result

import (
	"math"
	"sort"
)

// Quantile returns the q-quantile (0..1) of the binned samples by the
// linear definition (numpy's default), as for raw values: between the
// order statistics at the ranks around q·(n-1), each read from its bin.
// The k-th of c values in a bin sits at the middle of the k-th c-th of
// it; the smallest and largest samples are the exact Min and Max, an
// underflow counts as Min and an overflow as Max. So a quantile between
// two values in distant bins lies between them, as it does for raw
// values. It is NaN for an empty histogram.
func (h *Histogram) Quantile(q float64) float64 {
	cum := h.cumulative()
	n := cum[len(cum)-1] + h.Overflow
	if n == 0 {
		return math.NaN()
	}
	rank := float64(math.Min(math.Max(q, 0), 1) * float64(n-1)) // 0-based, as the linear definition
	k := int64(math.Floor(rank))
	lo := h.orderStat(cum, k, n)
	if f := rank - float64(k); f > 0 {
		return lo + float64(f*(h.orderStat(cum, k+1, n)-lo))
	}
	return lo
}

// cumulative returns the cumulative counts of h: cum[i] = Underflow +
// Counts[0..i).
func (h *Histogram) cumulative() []int64 {
	cum := make([]int64, len(h.Counts)+1)
	cum[0] = h.Underflow
	for i, c := range h.Counts {
		cum[i+1] = cum[i] + c
	}
	return cum
}

// orderStat estimates the k-th smallest (0-based) of the n binned values
// (cum: h.cumulative()): the exact minimum and maximum at the ends, an
// underflow as the minimum, an overflow as the maximum, else a point in
// its bin.
func (h *Histogram) orderStat(cum []int64, k, n int64) float64 {
	switch {
	case k <= 0 || k < cum[0]:
		return h.Min
	case k >= n-1 || k >= cum[len(cum)-1]:
		return h.Max
	}
	i := sort.Search(len(h.Counts), func(i int) bool { return cum[i+1] > k })
	c := h.Counts[i]
	v := h.Bounds[i] + float64((float64(k-cum[i])+0.5)/float64(c)*(h.Bounds[i+1]-h.Bounds[i]))
	return math.Min(math.Max(v, h.Min), h.Max)
}
