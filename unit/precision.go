package unit

import (
	"math"
	"strconv"
	"strings"
)

// Precision says how finely a figure is known, in the figure's own unit
// (nanoseconds for durations). It is the one rule for printed digits:
// every renderer asks a Precision how many digits a figure may show.
//
// Resolution is the step of the figure itself: for an observed value (a
// sample, a minimum, a maximum) the instrument's step (a clock's observed
// tick, the quantum of input numbers, the microsecond of getrusage); a
// mean of n such values is finer than the instrument, so give it no
// resolution and let its uncertainty decide. Uncertainty is the
// half-width of the statistic's confidence interval: a median or a
// percentile estimated from n samples is not known to the nanosecond even
// with a 1 ns clock. Either may be 0 (unknown or none).
type Precision struct {
	Resolution  float64
	Uncertainty float64
	// Exact marks a figure known exactly at its resolution: a
	// deterministic count (instructions counted by a simulator), or a
	// figure every sample agreed on. MaxSignificant does not cut it.
	Exact bool
}

// MaxSignificant is how many significant digits a figure shows when
// neither its uncertainty nor its resolution limits it more: a single run
// of 1.008626872 s on a 1 ns clock prints as "1.009 s", since one run
// says nothing about the next one's fourth digit.
const MaxSignificant = 4

// MinSignificant is how many significant digits a figure keeps however
// uncertain it is, unless its resolution is coarser: a p90 of 14.3 µs
// known to ±30 µs prints as "14 µs", not "10 µs", which would read as a
// round figure and could sort below the median next to it.
const MinSignificant = 2

// Step returns the place of the last digit that v may show, in v's unit:
//   - never finer than Resolution;
//   - never finer than the uncertainty's leading digit, or its second
//     digit when the leading two are below 35 (the Particle Data Group's
//     rule: 0.12 keeps two digits, 0.5 one), but always MinSignificant
//     significant digits of v;
//   - never more than MaxSignificant significant digits of v, unless
//     the figure is Exact.
//
// The result is a power of ten (times 1, 2, 4 or 5 when the resolution
// is such a step, e.g. a 4 ms tick), or 0 when v is 0 and nothing is
// known.
func (p Precision) Step(v float64) float64 {
	step := 0.0
	if finitePositive(p.Resolution) {
		step = p.Resolution
	}
	mag := math.NaN()
	if a := math.Abs(v); finitePositive(a) {
		mag = math.Floor(math.Log10(a))
	}
	if finitePositive(p.Uncertainty) {
		place := math.Pow(10, math.Floor(math.Log10(p.Uncertainty)))
		if p.Uncertainty/place < 3.55 {
			place /= 10
		}
		if !math.IsNaN(mag) {
			place = math.Min(place, math.Pow(10, mag-(MinSignificant-1)))
		}
		step = math.Max(step, place)
	}
	if !math.IsNaN(mag) && !p.Exact {
		step = math.Max(step, math.Pow(10, mag-(MaxSignificant-1)))
	}
	return step
}

func finitePositive(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

// decimals returns how many decimals of a unit of length scale (in the
// figure's unit) a step allows. It is negative when the step is coarser
// than 10 units (a step of 10 µs in µs allows -1: round to tens).
func decimals(step, scale float64) int {
	if !finitePositive(step) {
		return 0 // a zero figure with nothing known about it
	}
	// Clamped before the conversion: scale/step overflows to +Inf for a
	// subnormal step, and int(+Inf) is not defined.
	return int(math.Max(-400, math.Min(400, math.Floor(math.Log10(scale/step)+1e-9))))
}

// Magnitudes beyond which fixed writes exponent form: plain digits of
// 1e15 and more, or of less than 1e-6, are unreadable (a value near 1e308
// would print as 309 digits, one of 1e-20 as zero).
const (
	maxFixedMag = 15
	minFixedMag = -7
)

// fixed formats v with d decimals; a negative d rounds to 10^-d (tens,
// hundreds) and prints no decimals. A non-zero v that would print as
// zero gets one significant digit instead: 0.8 with d = 0 is "0.8",
// never "1" or "0". Values of 1e15 and more, or below 1e-6, are written
// in exponent form with the same significant digits (1.700e+308).
func fixed(v float64, d int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	if v != 0 {
		mag := int(math.Floor(math.Log10(math.Abs(v))))
		if -d > mag { // the first significant digit is finer than the step
			d = -mag
		}
		if mag >= maxFixedMag || mag <= minFixedMag {
			return strconv.FormatFloat(v, 'e', min(max(mag+d, 0), 16), 64)
		}
	}
	if d < 0 {
		if v != 0 { // (0 stays 0: 0/p*p is NaN when p overflows)
			p := math.Pow(10, float64(-d))
			v = math.Round(v/p) * p
		}
		d = 0
	}
	d = min(d, 12)
	s := strconv.FormatFloat(v, 'f', d, 64)
	if s == "-0" || strings.HasPrefix(s, "-0.") && strings.Trim(s[1:], "0.") == "" {
		s = s[1:]
	}
	return s
}

// Duration formats ns nanoseconds in the largest unit that keeps the
// value at or above 1 (ns, µs, ms, s), with the digits p allows:
// Duration(692518, Precision{Resolution: 1, Uncertainty: 40000}) is
// "690 µs" (a p99 from a few hundred samples), Duration(812345,
// Precision{Resolution: 1000}) is "812 µs".
func Duration(ns float64, p Precision) string {
	step := p.Step(ns)
	u := For(ns)
	// Rounding can carry a value into the next unit: 999.6 ns at a 1 ns
	// step is "1.000 µs", not "1000 ns".
	for i, c := range timeUnits[:len(timeUnits)-1] {
		if c != u {
			continue
		}
		d := decimals(step, u.Nanos)
		if r, err := strconv.ParseFloat(fixed(math.Abs(ns)/u.Nanos, d), 64); err == nil && r >= 1000 {
			u = timeUnits[i+1]
		}
		break
	}
	return fixed(ns/u.Nanos, decimals(step, u.Nanos)) + " " + u.Name
}

// DurationIn formats ns nanoseconds in the unit u the user chose, with
// the digits p allows (850 µs known to 1 µs is "0.000850 s" in seconds).
func DurationIn(ns float64, u Unit, p Precision) string {
	return NumberIn(ns, u, p) + " " + u.Name
}

// NumberIn is DurationIn without the unit's name, for table cells whose
// column names the unit.
func NumberIn(ns float64, u Unit, p Precision) string {
	return fixed(ns/u.Nanos, decimals(p.Step(ns), u.Nanos))
}

// Plain formats a dimensionless figure (a count, a ratio, a rate) with the
// digits p allows.
func Plain(v float64, p Precision) string {
	return fixed(v, decimals(p.Step(v), 1))
}
