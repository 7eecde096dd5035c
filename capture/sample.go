package capture

import (
	"math"
	"math/bits"
	"slices"
)

// Sample is one figure of a channel (its high widths, its periods, its
// duty cycles, the latencies of a Between), in time order: every value
// while there are at most Spec.Keep of them (or always, with Keep 0),
// binned beyond. What is exact and what is binned:
//
//   - N, Min and Max are exact, from every value;
//   - Mean and the population standard deviation (StdDev) are computed
//     from every value in float64 (Welford's method), not from bins;
//   - Values holds every value in time order while N <= Keep; past Keep
//     it is nil and Bins holds every value (those kept so far included);
//   - Bins of tick counts are exact below 2048 ticks (one bin per value)
//     and at most 1/1024 of their value wide above (ten bits of
//     mantissa: BinOf); bins of duty cycles are 1/65536 wide.
//
// So memory is bounded by Keep values and the bins (at most 2048 + 1024
// per power of two of the values, fewer in practice), not by the capture.
type Sample[T uint64 | float64] struct {
	Values   []T
	N        int
	Min, Max T
	Mean     float64
	m2       float64
	// Bins are the values binned, in increasing order (only the nonempty
	// bins), when N > Keep; nil otherwise.
	Bins []Bin[T]
	keep int
	bins map[uint64]int
}

// Bin is a bin of a Sample: Count values from Lo to Hi (both included for
// tick counts; Hi excluded for duty cycles, whose bins are [Lo, Hi)).
type Bin[T uint64 | float64] struct {
	Lo, Hi T
	Count  int
}

// Binned reports whether the sample's values were binned (N > Keep).
func (s *Sample[T]) Binned() bool { return s.bins != nil || s.Bins != nil }

// StdDev is the population standard deviation (divisor n) of every
// value, NaN when there are none.
func (s *Sample[T]) StdDev() float64 {
	if s.N == 0 {
		return math.NaN()
	}
	return math.Sqrt(s.m2 / float64(s.N))
}

func (s *Sample[T]) add(v T) {
	s.N++
	if s.N == 1 {
		s.Min, s.Max = v, v
	} else {
		s.Min, s.Max = min(s.Min, v), max(s.Max, v)
	}
	x := float64(v)
	d := x - s.Mean
	s.Mean += d / float64(s.N)
	s.m2 += float64(d * (x - s.Mean))
	if s.bins != nil {
		s.bins[binKey(v)]++
		return
	}
	s.Values = append(s.Values, v)
	if s.keep > 0 && len(s.Values) > s.keep {
		s.bins = make(map[uint64]int)
		for _, w := range s.Values {
			s.bins[binKey(w)]++
		}
		s.Values = nil
	}
}

// finish sorts the bins into Bins.
func (s *Sample[T]) finish() {
	if s.bins == nil {
		return
	}
	keys := make([]uint64, 0, len(s.bins))
	for k := range s.bins {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	s.Bins = make([]Bin[T], len(keys))
	for i, k := range keys {
		lo, hi := binBounds[T](k)
		s.Bins[i] = Bin[T]{Lo: lo, Hi: hi, Count: s.bins[k]}
	}
	s.bins = nil
}

// dutyScale is the number of bins of duty cycles from 0 to 1.
const dutyScale = 1 << 16

// exactBelow is the number of tick counts binned exactly (one bin each);
// above it a bin holds the values that agree in their top ten bits after
// the leading one (log-linear, as an HDR histogram of three digits).
const exactBelow = 2048

// BinOf returns the bin of a tick count: Lo to Hi, both included (Lo == Hi
// == v below 2048).
func BinOf(v uint64) (lo, hi uint64) { return binBounds[uint64](binKey(v)) }

func binKey[T uint64 | float64](v T) uint64 {
	switch x := any(v).(type) {
	case float64:
		return uint64(math.Min(math.Max(x, 0), 1) * dutyScale)
	case uint64:
		if x < exactBelow {
			return x
		}
		e := uint64(bits.Len64(x) - 11) // x>>e has 11 bits: 1024..2047
		return e<<11 | x>>e
	}
	return 0
}

func binBounds[T uint64 | float64](k uint64) (lo, hi T) {
	var z T
	if _, ok := any(z).(float64); ok {
		return T(float64(k) / dutyScale), T(float64(k+1) / dutyScale)
	}
	e, m := k>>11, k&(exactBelow-1)
	if e == 0 {
		return T(m), T(m)
	}
	l := m << e
	return T(l), T(l + (1<<e - 1))
}
