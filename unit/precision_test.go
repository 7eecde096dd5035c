package unit

import "testing"

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
		{1234567, Precision{Resolution: 1}, "1235000"},
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
		{123456789012345, Precision{Resolution: 1}, "123500000000000"},
		{1234567890123456, Precision{Resolution: 1}, "1.235e+15"},
		{0.000001234, Precision{}, "0.000001234"},
	}
	for _, tt := range tests {
		if got := Plain(tt.v, tt.p); got != tt.want {
			t.Errorf("Plain(%g, %+v) = %q, want %q", tt.v, tt.p, got, tt.want)
		}
	}
}
