package unit

import "testing"

// exactAt is the precision of a figure known exactly at resolution, or
// nothing known when resolution is not positive.
func exactAt(resolution float64) Precision {
	if !finitePositive(resolution) {
		return Precision{}
	}
	return Precision{Resolution: resolution, Exact: true}
}

// TestDurationExact: a figure known exactly at a resolution shows every
// digit of the resolution's grid.
func TestDurationExact(t *testing.T) {
	tests := []struct {
		ns, res float64
		want    string
	}{
		{800e3, 1, "800.000 µs"},
		{800e3, 1e3, "800 µs"},
		{0.8e6, 1e6, "800 µs"}, // 0.8 ms is never "0 ms" or "1 ms"
		{812345, 1000, "812 µs"},
		{812345, 1, "812.345 µs"},
		{812345, 10, "812.35 µs"},
		{1.5e9, 1e6, "1.500 s"},
		{1.5e9, 4e6, "1.500 s"}, // a 4 ms tick writes whole ms: 1.504 s is not "1.50 s"
		{25.4, 1, "25 ns"},
		{25.4, 0.1, "25.4 ns"},
		{0.4, 1, "0.4 ns"}, // never truncated to zero
		{0, 1, "0 ns"},
		{-2500, 1, "-2.500 µs"},
		{3e12, 1e6, "3000.000 s"},
		{999.6, 1, "1.000 µs"}, // rounding carries into the next unit
		{999.4, 1, "999 ns"},
		{999999.7, 1, "1.000000 ms"},
	}
	for _, tt := range tests {
		if got := Duration(tt.ns, exactAt(tt.res)); got != tt.want {
			t.Errorf("Duration(%g, exact at %g) = %q, want %q", tt.ns, tt.res, got, tt.want)
		}
	}
}

func TestDurationInNeverZero(t *testing.T) {
	if got := DurationIn(0.8e6, Second, exactAt(1e6)); got != "0.0008 s" {
		t.Errorf("DurationIn(0.8 ms, s) = %q, want 0.0008 s", got)
	}
	if got := DurationIn(0.8e6, Millisecond, exactAt(1e6)); got != "0.8 ms" {
		t.Errorf("DurationIn(0.8 ms, ms, res 1ms) = %q, want 0.8 ms", got)
	}
}

func TestParseValue(t *testing.T) {
	tests := []struct {
		in      string
		want    float64
		hasUnit bool
		bad     bool
	}{
		{"42", 42, false, false},
		{"-1.5", -1.5, false, false},
		{"1e3", 1000, false, false},
		{"12.5ms", 12.5e6, true, false},
		{"800us", 800e3, true, false},
		{"800µs", 800e3, true, false},
		{"3s", 3e9, true, false},
		{"7ns", 7, true, false},
		{"2m", 120e9, true, false},
		{"1h", 3600e9, true, false},
		{"ms", 0, false, true},
		{"12x", 0, false, true},
		{"1e", 0, false, true},
		{"NaN", 0, false, true},
		{"inf", 0, false, true},
		{"", 0, false, true},
	}
	for _, tt := range tests {
		got, hasUnit, err := ParseValue(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseValue(%q) = %g, want error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want || hasUnit != tt.hasUnit {
			t.Errorf("ParseValue(%q) = %g, %v, %v; want %g, %v", tt.in, got, hasUnit, err, tt.want, tt.hasUnit)
		}
	}
}

func TestParseUnit(t *testing.T) {
	for s, want := range map[string]Unit{"ns": Nanosecond, "us": Microsecond, "µs": Microsecond, "ms": Millisecond, "s": Second,
		"nanosecond": Nanosecond, "microseconds": Microsecond, "millisecond": Millisecond, "seconds": Second} {
		if u, err := ParseUnit(s); err != nil || u != want {
			t.Errorf("ParseUnit(%q) = %v, %v; want %v", s, u, err, want)
		}
	}
	if _, err := ParseUnit("min"); err == nil {
		t.Error("ParseUnit(min) succeeded, want error")
	}
}

func TestSigAndBytes(t *testing.T) {
	if got := Sig(1.23456, 3); got != "1.23" {
		t.Errorf("Sig = %q", got)
	}
	if got := Sig(123.456, 3); got != "123" {
		t.Errorf("Sig = %q", got)
	}
	if got := Sig(0.001234, 2); got != "0.0012" {
		t.Errorf("Sig = %q", got)
	}
	if got := FormatBytes(1536 * 1024); got != "1.50 MiB" {
		t.Errorf("FormatBytes = %q", got)
	}
	if got := FormatBytes(512); got != "512 B" {
		t.Errorf("FormatBytes = %q", got)
	}
}

// TestDurationInKeepsResolvedDigits: in a unit the user chose, every
// digit the resolution supports is printed; the 3-decimal cap of the
// automatic unit once rounded 850 µs to "0.0008 s".
func TestDurationInKeepsResolvedDigits(t *testing.T) {
	for _, tt := range []struct {
		ns, res float64
		u       Unit
		want    string
	}{
		{850e3, 1e3, Second, "0.000850 s"},
		{1e6, 1e3, Second, "0.001000 s"},
		{850e3, 100, Second, "0.0008500 s"},
		{1234567, 1, Millisecond, "1.234567 ms"},
		{1.5e9, 0, Second, "1.500 s"}, // unknown resolution: 3 decimals
		{1.5e9, 1e9, Second, "2 s"},
	} {
		if got := DurationIn(tt.ns, tt.u, exactAt(tt.res)); got != tt.want {
			t.Errorf("DurationIn(%g, %s, exact at %g) = %q, want %q", tt.ns, tt.u.Name, tt.res, got, tt.want)
		}
	}
}
