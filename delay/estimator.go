package delay

import "math/bits"

// estimator tracks a high quantile of recent non-negative durations (the
// wake-up lateness) in O(1) memory and time: a histogram with four buckets
// per power of two (relative bucket width ≤ 19 %), whose counts are halved
// every halfLife samples so that old observations fade away.
//
// It is not safe for concurrent use; Sleeper guards it with a mutex.
type estimator struct {
	counts   [4 * 64]uint32
	total    uint32
	seen     uint32
	halfLife uint32
}

// bucketOf maps v ≥ 0 to its bucket: values below 8 have their own bucket,
// larger ones are split by their top three bits (leading one + two more).
func bucketOf(v int64) int {
	if v < 8 {
		if v < 0 {
			return 0
		}
		return int(v)
	}
	n := bits.Len64(uint64(v))       // 4..64
	sub := int(uint64(v)>>(n-3)) & 3 // the two bits after the leading one
	return 4*(n-2) + sub             // n=4 → 8..11, continuing 0..7 above
}

// bucketHigh is the largest value that falls in bucket b.
func bucketHigh(b int) int64 {
	if b < 8 {
		return int64(b)
	}
	n := b/4 + 2
	sub := int64(b % 4)
	lo := (4 + sub) << (n - 3)
	return lo + (1 << (n - 3)) - 1
}

func (e *estimator) add(v int64) {
	b := bucketOf(v)
	if b >= len(e.counts) {
		b = len(e.counts) - 1
	}
	e.counts[b]++
	e.total++
	e.seen++
	if e.halfLife > 0 && e.seen%e.halfLife == 0 {
		e.total = 0
		for i := range e.counts {
			e.counts[i] /= 2
			e.total += e.counts[i]
		}
	}
}

// quantile returns the upper edge of the bucket holding the q-th quantile
// (0 < q ≤ 1) of the recent values, and false when nothing was recorded.
func (e *estimator) quantile(q float64) (int64, bool) {
	if e.total == 0 {
		return 0, false
	}
	rank := uint32(float64(q*float64(e.total)) + 0.5)
	if rank < 1 {
		rank = 1
	}
	var cum uint32
	for b, c := range e.counts {
		cum += c
		if cum >= rank {
			return bucketHigh(b), true
		}
	}
	return bucketHigh(len(e.counts) - 1), true
}
