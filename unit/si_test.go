package unit

import "testing"

func TestSI(t *testing.T) {
	for _, c := range []struct {
		v    float64
		p    Precision
		want string
	}{
		{125000, Precision{Resolution: 1000}, "125 kHz"},
		{125000, Precision{}, "125.0 kHz"}, // four significant digits, none known beyond
		{125000, Precision{Uncertainty: 10000}, "125 kHz"},
		{140800, Precision{Uncertainty: 1000}, "140.8 kHz"},
		{1e7, Exactly(1e7, 0), "10 MHz"}, // every sample agreed: exactly 10 MHz
		{2.5e6, Exactly(2.5e6, 0), "2.5 MHz"},
		{76923.08, Precision{}, "76.92 kHz"},
		{999960, Precision{}, "1.0000 MHz"}, // carried into the next prefix, with the digits of 999960 (as Duration carries)
		{999.4, Precision{Resolution: 1}, "999 Hz"},
		{50, Precision{Resolution: 1}, "50 Hz"},
		{0.25, Precision{}, "250.0 mHz"},
		{0, Precision{}, "0 Hz"},
		{-3e9, Precision{Resolution: 1e6}, "-3.000 GHz"},
		{5e15, Precision{}, "5000 THz"},
	} {
		if got := SI(c.v, c.p, "Hz"); got != c.want {
			t.Errorf("SI(%g, %+v) = %q, want %q", c.v, c.p, got, c.want)
		}
	}
}
