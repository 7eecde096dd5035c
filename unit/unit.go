// Package unit formats and parses the quantities chronograph prints:
// durations with automatically chosen units and no more digits than the
// measurement justifies, byte sizes, and counts.
//
// A displayed unit is not a resolution: a figure (Precision: Duration,
// DurationIn, DurationNear, NumberIn, Plain) never prints more digits
// than its resolution and uncertainty allow (and at most four significant
// digits), an observed value on its resolution's steps prints as itself
// (2 min on a 60 s quantum is "120 s"), no figure shows zeros it does not
// know (26.75 ms known to four digits is "26.75 ms" or "2.675e+04 µs",
// never "26750 µs"), and a non-zero value is never truncated to zero (0.8
// ms prints as "800 µs", not "0 ms").
//
// unit only formats and parses figures: it does not measure, compute
// statistics (package stats) or lay out tables (package report), and it
// imports nothing of chronograph's but internal helpers.
package unit

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/internal/excerpt"
)

// A Unit is a unit of time.
type Unit struct {
	// Name is the symbol printed after a value: "ns", "µs", "ms", "s".
	Name string
	// Nanos is the length of one Unit in nanoseconds.
	Nanos float64
}

// The units of time Duration chooses from.
var (
	Nanosecond  = Unit{"ns", 1}
	Microsecond = Unit{"µs", 1e3}
	Millisecond = Unit{"ms", 1e6}
	Second      = Unit{"s", 1e9}
)

var timeUnits = []Unit{Nanosecond, Microsecond, Millisecond, Second}

// ParseUnit parses a unit name: ns (or nanosecond), us (or µs,
// microsecond), ms (or millisecond), s (or second); plurals are accepted.
func ParseUnit(s string) (Unit, error) {
	switch strings.TrimSuffix(s, "s") {
	case "nanosecond":
		return Nanosecond, nil
	case "microsecond":
		return Microsecond, nil
	case "millisecond":
		return Millisecond, nil
	case "second":
		return Second, nil
	}
	switch s {
	case "ns":
		return Nanosecond, nil
	case "us", "µs", "μs":
		return Microsecond, nil
	case "ms":
		return Millisecond, nil
	case "s":
		return Second, nil
	}
	return Unit{}, fmt.Errorf("unit: unknown time unit %s: use ns, us, ms or s (or nanosecond, microsecond, millisecond, second)", excerpt.Quote(s))
}

// For returns the largest unit in which |ns| is at least 1 (nanoseconds
// for values below 1 ns, seconds for values of a second or more).
func For(ns float64) Unit {
	a := math.Abs(ns)
	u := Nanosecond
	for _, c := range timeUnits {
		if a >= c.Nanos {
			u = c
		}
	}
	return u
}

// number formats v with d decimals, adding decimals (up to 9) when a
// non-zero v below 1 would otherwise lose its first significant digit
// (0.8 with d=0 prints as "0.8", not "1" or "0").
func number(v float64, d int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	if a := math.Abs(v); a != 0 && a < 1 {
		d = max(d, min(9, int(-math.Floor(math.Log10(a)))))
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}

// Sig formats v with n significant digits in plain decimal notation
// (no exponent), for ratios and percentages: Sig(1.23456, 3) is "1.23".
func Sig(v float64, n int) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return number(v, 0)
	}
	mag := int(math.Floor(math.Log10(math.Abs(v))))
	d := max(0, n-1-mag)
	return strconv.FormatFloat(v, 'f', d, 64)
}

// FormatBytes formats a byte count with binary prefixes: "1.50 MiB".
func FormatBytes(b float64) string {
	const k = 1024
	a := math.Abs(b)
	switch {
	case a < k:
		return strconv.FormatFloat(b, 'f', 0, 64) + " B"
	case a < k*k:
		return Sig(b/k, 3) + " KiB"
	case a < k*k*k:
		return Sig(b/(k*k), 3) + " MiB"
	default:
		return Sig(b/(k*k*k), 3) + " GiB"
	}
}

// suffixes maps a duration suffix to its length in nanoseconds. Longer
// suffixes come first so that "ms" is not read as "m" + "s".
var suffixes = []struct {
	name  string
	nanos float64
}{
	{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"μs", 1e3}, {"ms", 1e6},
	{"s", 1e9}, {"m", 60e9}, {"h", 3600e9},
}

// SplitSuffix splits a duration suffix (ns, us, µs, ms, s, m, h) off tok:
// "12.5ms" gives "12.5", 1e6, true. Without a suffix it returns tok, 1,
// false.
func SplitSuffix(tok string) (num string, nanos float64, ok bool) {
	for _, s := range suffixes {
		if strings.HasSuffix(tok, s.name) {
			return tok[:len(tok)-len(s.name)], s.nanos, true
		}
	}
	return tok, 1, false
}

// ParseValue parses a number with an optional duration suffix (ns, us, µs,
// ms, s, m, h), as in "12.5ms", "800us", "3s" or "42". A value with a
// suffix is returned in nanoseconds with hasUnit true; a bare number is
// returned as written. The error says what is wrong with the token (not
// a number, out of range: 1e400, or 1e308h, which overflows in
// nanoseconds) and quotes at most a short prefix of it.
func ParseValue(tok string) (v float64, hasUnit bool, err error) {
	num, mult, hasUnit := SplitSuffix(tok)
	v, err = strconv.ParseFloat(num, 64)
	if errors.Is(err, strconv.ErrRange) || err == nil && hasUnit && math.IsInf(v*mult, 0) {
		return 0, false, fmt.Errorf("unit: %s is out of range: values must stay below 1.8e308 (durations in nanoseconds)", excerpt.Quote(tok))
	}
	if err != nil {
		return 0, false, fmt.Errorf("unit: %s is not a number (expected e.g. 12.5, 800us, 12.5ms, 3s)", excerpt.Quote(tok))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false, fmt.Errorf("unit: %s is not a finite number", excerpt.Quote(tok))
	}
	return v * mult, hasUnit, nil
}
