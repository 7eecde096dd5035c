package unit

import (
	"math"
	"strconv"
	"testing"
)

func TestDurationPrecision(t *testing.T) {
	tests := []struct {
		ns   float64
		p    Precision
		want string
	}{
		// A p99 of a few hundred samples: its interval is tens of µs wide.
		{692518, Precision{Resolution: 1, Uncertainty: 55000}, "690 µs"},
		{692518, Precision{Resolution: 1, Uncertainty: 12000}, "693 µs"}, // leading digits 12 < 35: two digits
		{692518, Precision{Resolution: 1, Uncertainty: 400}, "692.5 µs"},
		// One run on a 1 ns clock: four significant digits, not nine.
		{1.008626872e9, Precision{Resolution: 1}, "1.009 s"},
		{812345, Precision{Resolution: 1000}, "812 µs"},
		{812345, Precision{Resolution: 1}, "812.3 µs"},
		{0.8e6, Precision{Resolution: 1e6}, "800 µs"}, // never "0 ms" or "1 ms"
		{25.4, Precision{Resolution: 1}, "25 ns"},
		{25.4, Precision{Resolution: 0.1}, "25.4 ns"},
		{0.4, Precision{Resolution: 1}, "0.4 ns"}, // never truncated to zero
		{0, Precision{Resolution: 1}, "0 ns"},
		{0, Precision{}, "0 ns"},
		{-2500, Precision{Resolution: 1}, "-2.500 µs"},
		{999.6, Precision{Resolution: 1}, "1.000 µs"}, // carries into the next unit
		{999.4, Precision{Resolution: 1}, "999 ns"},
		{4e6, Precision{Resolution: 4e6}, "4 ms"},
		{12.95e6, Precision{Resolution: 1, Uncertainty: 0.4e6}, "12.9 ms"},
		{7e3, Precision{Uncertainty: 20e3}, "7.0 µs"}, // uncertainty larger than the value: two digits, not 0 or 10
		{14.3e3, Precision{Resolution: 1, Uncertainty: 30e3}, "14 µs"},
		{4e6, Precision{Resolution: 4e6, Uncertainty: 20e6}, "4 ms"}, // the resolution wins over the two digits
		{1.7e308, Precision{Resolution: 1}, "1.700e+299 s"},
	}
	for _, tt := range tests {
		if got := Duration(tt.ns, tt.p); got != tt.want {
			t.Errorf("Duration(%g, %+v) = %q, want %q", tt.ns, tt.p, got, tt.want)
		}
	}
}

func TestDurationIn(t *testing.T) {
	tests := []struct {
		ns   float64
		u    Unit
		p    Precision
		want string
	}{
		{850e3, Second, Precision{Resolution: 1e3}, "0.000850 s"},
		{0.8e6, Second, Precision{Resolution: 1e6}, "0.0008 s"},
		{0, Second, Precision{Resolution: 1e3}, "0.000000 s"},
		{1.008626872e9, Second, Precision{Resolution: 1}, "1.009 s"},
		{2.5e6, Millisecond, Precision{Resolution: 1, Uncertainty: 0.3e6}, "2.50 ms"},
	}
	for _, tt := range tests {
		if got := DurationIn(tt.ns, tt.u, tt.p); got != tt.want {
			t.Errorf("DurationIn(%g, %s, %+v) = %q, want %q", tt.ns, tt.u.Name, tt.p, got, tt.want)
		}
	}
}

func TestPlain(t *testing.T) {
	tests := []struct {
		v    float64
		p    Precision
		want string
	}{
		{1.2345678, Precision{Uncertainty: 0.05}, "1.23"},
		{1.2345678, Precision{Uncertainty: 0.5}, "1.2"},
		{1234567, Precision{Resolution: 1}, "1.235e+06"},            // "1235000" would claim three zeros it does not know
		{1200000, Precision{Resolution: 1}, "1.200e+06"},            // four significant digits, however many zeros follow
		{1200000, Precision{Resolution: 1e5}, "1200000"},            // on a grid of 100000: its zeros are known
		{1234567, Precision{Resolution: 1, Exact: true}, "1234567"}, // a deterministic count keeps every digit
		{48.5, Precision{Uncertainty: 0.9}, "48.5"},                 // a mean of counts is finer than a count
		{48.6, Precision{Resolution: 1, Uncertainty: 0.9}, "49"},
		{3, Precision{Resolution: 1}, "3"},
		{-0.0001, Precision{Resolution: 1}, "-0.0001"},
		// Beyond 1e15 or below 1e-6: exponent form, same digits (never
		// 309 digits for 1.7e308, never 0 for 1e-20).
		{1.7e308, Precision{}, "1.700e+308"},
		{-1e308, Precision{Resolution: 1}, "-1.000e+308"},
		{1.7e308, Precision{Uncertainty: 2e306}, "1.700e+308"},
		{1.7e308, Precision{Uncertainty: 5e307}, "1.7e+308"},
		{1e-20, Precision{}, "1.000e-20"},
		{1.5e-20, Precision{Resolution: 1e-20}, "2e-20"},
		{123456789012345, Precision{Resolution: 1}, "1.235e+14"},
		{1234567890123456, Precision{Resolution: 1}, "1.235e+15"},
		{0.000001234, Precision{}, "0.000001234"},
	}
	for _, tt := range tests {
		if got := Plain(tt.v, tt.p); got != tt.want {
			t.Errorf("Plain(%g, %+v) = %q, want %q", tt.v, tt.p, got, tt.want)
		}
	}
}

// TestExactSamples: a value on its resolution's grid (an input of whole
// minutes, hours or tenths of an hour, a tick of 4 ms or 25 ns, a
// quantum of 1e-300, a single integer) prints exactly; the grid was once
// widened to the power of ten above the resolution, so that 2 minutes at
// a 60 s quantum printed as "100 s", 1.5 h at 360 s as "5000 s", 12 ms at
// a 4 ms tick as "10 ms".
func TestExactSamples(t *testing.T) {
	const (
		sec  = 1e9
		min  = 60 * sec
		hour = 3600 * sec
	)
	for _, tt := range []struct {
		got, want string
	}{
		{Duration(2*min, Precision{Resolution: min}), "120 s"},
		{Duration(7*min, Precision{Resolution: min}), "420 s"},
		{Duration(-3*min, Precision{Resolution: min}), "-180 s"},
		{Duration(hour, Precision{Resolution: min}), "3600 s"}, // its zeros are known: every digit is the value's
		{Duration(2*min, Precision{Resolution: min, Uncertainty: 30 * sec}), "120 s"},
		{Duration(1.5*hour, Precision{Resolution: 0.1 * hour}), "5400 s"},
		{Duration(2.5*hour, Precision{Resolution: 0.1 * hour}), "9000 s"},
		{Duration(1.1*hour, Precision{Resolution: 0.1 * hour}), "3960 s"},
		{Duration(1.01*hour, Precision{Resolution: 0.01 * hour}), "3636 s"},
		{DurationIn(2*min, Millisecond, Precision{Resolution: min}), "120000 ms"},
		{NumberIn(1.5*hour, Second, Precision{Resolution: 0.1 * hour}), "5400"},
		{Duration(12e6, Precision{Resolution: 4e6}), "12 ms"},
		{Duration(1.504e9, Precision{Resolution: 4e6}), "1.504 s"},
		{Duration(75, Precision{Resolution: 25}), "75 ns"},
		{Duration(0.8e6, Precision{Resolution: 1e6}), "800 µs"}, // not on the grid: one significant digit, never 0
		{Plain(5, Precision{Resolution: 1}), "5"},
		{Plain(-5, Precision{Resolution: 1}), "-5"},
		{Plain(1e-300, Precision{Resolution: 1e-300}), "1e-300"},
		{Plain(6e-300, Precision{Resolution: 1e-300}), "6e-300"},
		{Plain(3.5e-300, Precision{Uncertainty: 2e-300}), "3.5e-300"},
		{Plain(1.7e308, Precision{Resolution: 1e307}), "1.7e+308"},
		{Plain(1.2e300, Precision{Resolution: 1e299}), "1.2e+300"},
		{Plain(5, Precision{Resolution: 1, Exact: true}), "5"}, // six 5s: exact, no "5.000"
		{Plain(0.1+0.2, Precision{Resolution: 0.1}), "0.3"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestNoUnknownZeros: a figure never shows whole-number zeros below its
// step in four or more whole digits: in the unit of a line (its
// median's) it moves to the unit that suits it; in a unit the user chose,
// a table cell or a plain number it is written in exponent form; in
// seconds beyond 999 s too. `chrono run -N true` printed "mean ± σ 2600 µs
// ± 6100 µs", "max 26750 µs" and "p95 11000 µs" beside "26.75 ms".
func TestNoUnknownZeros(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{DurationNear(26.7498e6, Microsecond, Precision{Resolution: 1}), "26.75 ms"},
		{DurationNear(2.6123e6, Microsecond, Precision{Uncertainty: 0.9e6}), "2.6 ms"},
		{DurationNear(6.1e6, Microsecond, Precision{Uncertainty: 0.9e6}), "6.1 ms"},
		{DurationNear(10.98e6, Microsecond, Precision{Resolution: 1, Uncertainty: 5e6}), "11 ms"},
		{DurationNear(10.98e6, Microsecond, Precision{Resolution: 1, Uncertainty: 2e6}), "11.0 ms"}, // ±2.0 ms: two digits of it
		{DurationNear(2.6e6, Microsecond, Precision{Uncertainty: 0.9e6}), "2.6 ms"},                 // exactly 2600 µs, but an estimate: ±0.9 ms
		{DurationNear(26e6, Microsecond, Precision{Resolution: 1e6}), "26000 µs"},                   // on a 1 ms grid: the zeros are the value's
		{DurationNear(10e6, Microsecond, Precision{Resolution: 1}), "10.00 ms"},                     // exactly 10 ms, but four digits of a 1 ns grid
		{DurationNear(692518, Microsecond, Precision{Resolution: 1, Uncertainty: 55000}), "690 µs"},
		{DurationNear(706.6e3, Microsecond, Precision{Resolution: 1}), "706.6 µs"},
		{DurationIn(26.7498e6, Microsecond, Precision{Resolution: 1}), "2.675e+04 µs"},
		{DurationIn(2.6123e6, Microsecond, Precision{Uncertainty: 0.9e6}), "2.6e+03 µs"},
		{DurationIn(26e6, Microsecond, Precision{Resolution: 1e6}), "26000 µs"},
		{DurationIn(-26.7498e6, Nanosecond, Precision{Resolution: 1}), "-2.675e+07 ns"},
		{NumberIn(26.7498e6, Microsecond, Precision{Resolution: 1}), "2.675e+04"},
		{NumberIn(2.6123e6, Microsecond, Precision{Uncertainty: 0.9e6}), "2.6e+03"},
		{Duration(1860e9, Precision{Uncertainty: 500e9}), "1.9e+03 s"},
		{Duration(-1860e9, Precision{Uncertainty: 500e9}), "-1.9e+03 s"},
		{Duration(3565.2e9, Precision{Resolution: 60e9, Uncertainty: 100e9}), "3.57e+03 s"},
		{Plain(12345, Precision{Resolution: 10}), "1.235e+04"},
		{Plain(99999, Precision{}), "1.000e+05"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestGrid: the place that writes a value on steps of r exactly, else
// the place of r's leading digit.
func TestGrid(t *testing.T) {
	for _, tt := range []struct{ v, r, want float64 }{
		{120e9, 60e9, 1e10}, {3600e9, 60e9, 1e10}, {3600e9, 3600e9, 1e11}, {5400e9, 360e9, 1e11}, {3960e9, 360e9, 1e10},
		{3636e9, 36e9, 1e9}, {12e6, 4e6, 1e6}, {75, 25, 1}, {100, 25, 10}, {0.3, 0.1, 0.1}, {6e-300, 1e-300, 1e-300},
		{1100, 550, 100}, {1650, 550, 10}, {10113, 550, 100}, {10113, 541, 100}, {83.33, 41.666666, 10}, {1234, 1, 1},
		{0, 60e9, 1e10}, {7, 0.0013908205841446453, 0.001}, {5e-324, 5e-324, 5e-324}, {1.7e308, 1.7e308, 1e307},
	} {
		if got := grid(tt.v, tt.r); got != tt.want {
			t.Errorf("grid(%g, %g) = %g, want %g", tt.v, tt.r, got, tt.want)
		}
	}
}

// TestNonFinite: NaN and ±Inf print as they did: "NaN", "+Inf", "-Inf".
func TestNonFinite(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Duration(math.NaN(), Precision{Resolution: 1}), "NaN ns"},
		{Duration(math.Inf(1), Precision{Resolution: 1}), "+Inf s"},
		{Duration(math.Inf(-1), Precision{}), "-Inf s"},
		{DurationIn(math.Inf(1), Millisecond, Precision{}), "+Inf ms"},
		{NumberIn(math.NaN(), Microsecond, Precision{Uncertainty: 3}), "NaN"},
		{Plain(math.Inf(-1), Precision{Exact: true}), "-Inf"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

// TestMagnitude: the decade of every power of ten as it is read ("1e-170")
// and of the float64 just below it; math.Log10 is 16 decades off among
// the subnormals, and math.Pow10 one unit of the last place off for 1e-170
// and 168 other powers, which put 1e-170 in the decade below (and printed
// it as "1.0e-170").
func TestMagnitude(t *testing.T) {
	for e := -323; e <= 308; e++ {
		x, err := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := magnitude(x); got != float64(e) {
			t.Errorf("magnitude(1e%d) = %g", e, got)
		}
		if below := math.Nextafter(x, 0); below > 0 && magnitude(below) != float64(e-1) && e > -323 {
			t.Errorf("magnitude(just below 1e%d) = %g", e, magnitude(below))
		}
		if pow10(float64(e)) != x {
			t.Errorf("pow10(%d) = %g, not the float64 nearest 1e%d", e, pow10(float64(e)), e)
		}
	}
	for _, tt := range []struct{ got, want string }{
		{Plain(1e-170, Precision{Resolution: 1e-170}), "1e-170"},
		{Plain(6e-170, Precision{Resolution: 1e-170}), "6e-170"},
		{Plain(5e-324, Precision{Resolution: 5e-324}), "5e-324"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
