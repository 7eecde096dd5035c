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
	// figure every sample agreed on. The cap of four significant digits
	// does not cut it.
	Exact bool
}

// Exactly is the precision of v known exactly, at resolution (0 or less:
// none): every digit down to the resolution's grid, and none beyond v's
// own last digit, so that no known zero is left out and none is added: a
// setting of 500000 ns is "500 µs" and one of 37123 ns "37.123 µs"; ten
// runs that all took 1.234 s on a 1 ns clock are "1.234 s", not
// "1.234000000 s"; six inputs of 5 are "5".
func Exactly(v, resolution float64) Precision {
	p := Precision{Resolution: ownPlace(v), Exact: true}
	if finitePositive(resolution) {
		p.Resolution = max(p.Resolution, resolution)
	}
	return p
}

// ownPlace is the place value of the last digit of v as written in
// fewest digits (1.234e9: 1e6; 37123: 1; 0.25: 0.01; 0 and non-finite
// values: 1).
func ownPlace(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 1
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(math.Abs(v), 'e', -1, 64), "e")
	e, _ := strconv.Atoi(exp)
	if p := pow10(float64(e - len(strings.Replace(mant, ".", "", 1)) + 1)); p > 0 {
		return p
	}
	return math.Abs(v) // a subnormal with more digits than 10^-323 has
}

// maxSignificant is how many significant digits a figure shows when
// neither its uncertainty nor its resolution limits it more: a single run
// of 1.008626872 s on a 1 ns clock prints as "1.009 s", since one run
// says nothing about the next one's fourth digit.
const maxSignificant = 4

// minSignificant is how many significant digits a figure keeps however
// uncertain it is, unless its resolution is coarser: a p90 of 14.3 µs
// known to ±30 µs prints as "14 µs", not "10 µs", which would read as a
// round figure and could sort below the median next to it.
const minSignificant = 2

// step returns the place of the last digit that v may show, in v's unit:
//   - never coarser than the grid of v on steps of Resolution (grid:
//     the place that writes v exactly when it is a whole number of
//     steps, else the place of the resolution's leading digit), so that
//     an observed value prints as itself: 2 minutes at a 60 s quantum is
//     "120 s", never "100 s";
//   - never finer than the uncertainty's leading digit, or its second
//     digit when the leading two are below 35 (the Particle Data Group's
//     rule: 0.12 keeps two digits, 0.5 one), but always minSignificant
//     significant digits of v;
//   - never more than maxSignificant significant digits of v, unless
//     the figure is Exact.
//
// The result is a power of ten, or 0 when v is 0 and nothing is known.
func (p Precision) step(v float64) float64 {
	step := 0.0
	if finitePositive(p.Resolution) {
		step = grid(v, p.Resolution)
	}
	mag := math.NaN()
	if a := math.Abs(v); finitePositive(a) {
		mag = magnitude(a)
	}
	if finitePositive(p.Uncertainty) {
		place := pow10(magnitude(p.Uncertainty))
		if p.Uncertainty/place < 3.55 {
			place /= 10
		}
		if !math.IsNaN(mag) {
			place = math.Min(place, pow10(mag-(minSignificant-1)))
		}
		step = math.Max(step, place)
	}
	if !math.IsNaN(mag) && !p.Exact {
		step = math.Max(step, pow10(mag-(maxSignificant-1)))
	}
	return step
}

// grid returns the place of the last digit that v, a value observed on
// steps of r (a clock's tick, the quantum of input numbers), may show:
//   - for a v that is a whole number of steps, the coarsest power of ten
//     at or below r's leading digit that writes v exactly, so that an
//     observed value prints as itself: 2 min on steps of 60 s at 10 s
//     ("120 s", never "100 s"); 1.1 h on steps of 0.1 h = 360 s at 10 s
//     ("3960 s"); 75 ns on a 25 ns tick at 1 ns; 12 ms on a 4 ms tick
//     at 1 ms;
//   - for any other v (a mean, a value between the steps of a measured
//     tick of 541 ns), the place of r's leading digit (100 ns), so that
//     a value rounded there moves by less than half a step.
//
// It is never coarser than r, and a power of ten but for a subnormal r
// (r itself). r must be finite and positive.
func grid(v, r float64) float64 {
	lead := magnitude(r)
	g := pow10(lead)
	if g == 0 {
		return r // a subnormal step: no power of ten at or below it
	}
	// A whole number of steps, but for the rounding of the inputs and
	// the division (a few units of 1e-16, relative), where float64 still
	// tells whole numbers apart.
	whole := func(x float64) bool {
		return math.Abs(x) < 1e15 && math.Abs(x-math.Round(x)) <= 1e-9+float64(1e-15*math.Abs(x))
	}
	if v != 0 && whole(v/r) {
		// r has at most maxSignificant digits where v can be written
		// exactly on its steps.
		for e := lead; e > lead-maxSignificant; e-- {
			p := pow10(e)
			if p == 0 {
				break
			}
			if whole(v / p) {
				return p
			}
		}
	}
	return g
}

// pow10 is 10^e for a whole e, the float64 nearest to it (as 1e-170 is
// read), 0 below the subnormals and +Inf above the largest float64.
// math.Pow10 is a product of two table entries, one unit of the last
// place off for 169 of these exponents (1e-170 among them), and a
// figure's magnitude, compared with it, would come out a decade low.
func pow10(e float64) float64 {
	switch {
	case e < minPow10:
		return 0
	case e >= minPow10+float64(len(pow10s)):
		return math.Inf(1)
	}
	return pow10s[int(e)-minPow10]
}

// magnitude returns the exponent of |x|'s leading decimal digit,
// floor(log10 |x|), exactly: math.Log10 is off by 16 for the subnormals
// (it gives -307.95 for 5e-324). x must be finite and non-zero.
func magnitude(x float64) float64 {
	x = math.Abs(x)
	var m float64
	if x < 0x1p-1022 {
		m = math.Floor(float64(math.Log10(x*0x1p64)) - float64(64*math.Log10(2)))
	} else {
		m = math.Floor(math.Log10(x))
	}
	// Log10 may round across a power of ten: step to the right one.
	if p := pow10(m + 1); p <= x {
		m++
	} else if p := pow10(m); p > x && p > 0 {
		m--
	}
	return m
}

func finitePositive(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

// decimals returns how many decimals of a unit of length scale (in the
// figure's unit) a step allows. It is negative when the step is coarser
// than 10 units (a step of 10 µs in µs allows -1: round to tens).
func decimals(step, scale float64) int {
	if !finitePositive(step) {
		return 0 // a zero figure with nothing known about it
	}
	// A difference of logarithms: scale/step overflows to +Inf for a
	// subnormal step. Clamped before the conversion, as int(±Inf) is not
	// defined.
	return int(math.Max(-400, math.Min(400, magnitude(scale)-magnitude(step))))
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
		mag := int(magnitude(v))
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

// figure formats v, a figure in units of length scale (the figure's unit),
// with the digits p allows. When that text would show zeros that are not
// known (whole-number digits below the step: the zeros of "26750" for
// 26.75 thousand known to four digits) in a number of four or more whole
// digits, it also returns the figure in exponent form, alt ("2.675e+04").
// Up to three whole digits (690, 800) are how a figure reads in the unit
// that suits it. The zeros of a value on its resolution's grid, printed
// at that grid, are known: every value on the grid has them (3600 s for
// one hour on a 60 s grid).
func (p Precision) figure(v, scale float64) (text, alt string) {
	step := p.step(v)
	d := decimals(step, scale)
	x := v / scale
	text = fixed(x, d)
	if d >= 0 || math.IsNaN(x) || math.IsInf(x, 0) || strings.ContainsAny(text, "e") {
		return text, ""
	}
	if whole := strings.TrimPrefix(text, "-"); len(whole) < 4 {
		return text, ""
	}
	if finitePositive(p.Resolution) && step <= grid(v, p.Resolution) {
		if r, err := strconv.ParseFloat(text, 64); err == nil && math.Abs(r-x) <= 1e-12*math.Abs(x) {
			return text, ""
		}
	}
	return text, exponent(x, d)
}

// exponent formats v in exponent form with the digits d decimals of
// fixed(v, d) would show (d < 0: a step of 10^-d): 26749.8 at d = -1 is
// "2.675e+04". It rounds half away from zero, as fixed does.
func exponent(v float64, d int) string {
	mag := int(magnitude(v)) // before rounding: 99999 at a step of 10 is 1.000e+05
	d = max(d, -mag)         // its first significant digit, as fixed keeps it
	if d < 0 {
		p := pow10(float64(-d))
		if r := math.Round(v/p) * p; !math.IsInf(r, 0) {
			v = r
		}
	}
	return strconv.FormatFloat(v, 'e', max(mag+d, 0), 64)
}

// Duration formats ns nanoseconds in the largest unit that keeps the
// value at or above 1 (ns, µs, ms, s), with the digits p allows:
// Duration(692518, Precision{Resolution: 1, Uncertainty: 40000}) is
// "690 µs" (a p99 from a few hundred samples), Duration(812345,
// Precision{Resolution: 1000}) is "812 µs". A figure of a thousand
// seconds or more whose last digits are not known is written in exponent
// form (1860 s known to ±500 s is "1.9e+03 s", not "1900 s").
func Duration(ns float64, p Precision) string {
	u := For(ns)
	// Rounding can carry a value into the next unit: 999.6 ns at a 1 ns
	// step is "1.000 µs", not "1000 ns".
	for i, c := range timeUnits[:len(timeUnits)-1] {
		if c != u {
			continue
		}
		d := decimals(p.step(ns), u.Nanos)
		if r, err := strconv.ParseFloat(fixed(math.Abs(ns)/u.Nanos, d), 64); err == nil && r >= 1000 {
			u = timeUnits[i+1]
		}
		break
	}
	text, alt := p.figure(ns, u.Nanos)
	if alt != "" {
		text = alt
	}
	return text + " " + u.Name
}

// DurationIn formats ns nanoseconds in the unit u the user chose, with
// the digits p allows (850 µs known to 1 µs is "0.000850 s" in seconds).
// A figure that would show whole-number zeros it does not know in u
// stays in u in exponent form: 26.75 ms known to four digits is
// "2.675e+04 µs", not "26750 µs"; a mean known to ±0.9 ms "2.6e+03 µs".
func DurationIn(ns float64, u Unit, p Precision) string {
	return NumberIn(ns, u, p) + " " + u.Name
}

// DurationNear formats ns nanoseconds in u, the unit of the figures
// around it (a line's unit, taken from its median), as DurationIn does;
// a figure that would show whole-number zeros it does not know in u is
// written in the unit that suits it, as Duration writes it: beside a
// median of 706 µs, a maximum of 26.75 ms is "26.75 ms", not "26750 µs",
// a mean known to ±0.9 ms "2.6 ms", not "2600 µs".
func DurationNear(ns float64, u Unit, p Precision) string {
	text, alt := p.figure(ns, u.Nanos)
	if alt != "" {
		return Duration(ns, p)
	}
	return text + " " + u.Name
}

// NumberIn is DurationIn without the unit's name, for table cells whose
// column names the unit: a figure that would show whole-number zeros it
// does not know is written in exponent form in u ("2.675e+04").
func NumberIn(ns float64, u Unit, p Precision) string {
	text, alt := p.figure(ns, u.Nanos)
	if alt != "" {
		return alt
	}
	return text
}

// Plain formats a dimensionless figure (a count, a ratio, a rate) with the
// digits p allows; one that would show whole-number zeros it does not know
// is written in exponent form (1234567 known to four digits is
// "1.235e+06", not "1235000").
func Plain(v float64, p Precision) string {
	text, alt := p.figure(v, 1)
	if alt != "" {
		return alt
	}
	return text
}
