package unit

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

// checkError checks that err is one short line starting with "unit: ".
func checkError(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); !strings.HasPrefix(msg, "unit: ") || strings.ContainsAny(msg, "\n\r") || len(msg) > 400 {
		t.Fatalf("error is not one short line starting with \"unit: \" (%d bytes): %.1000q", len(msg), msg)
	}
}

// FuzzParseValue: ParseValue (durations in flags and in `chrono stats`
// input: "12.5ms", "800us", "3s", "42") and SplitSuffix never panic; an
// error is one short line; SplitSuffix splits the token into a number and
// a suffix that give it back; an accepted value is finite and is the
// number times the suffix's length.
func FuzzParseValue(f *testing.F) {
	for _, s := range []string{"12.5ms", "800us", "800µs", "800μs", "3s", "42", "1.5m", "2h", "1e308h", "-1e308",
		"1e400", "-0", "NaN", "inf", "0x1p-2ms", "1_000", "ms", "", " 1s", "1 s", strings.Repeat("9", 400) + "ns"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		num, nanos, ok := SplitSuffix(tok)
		if ok && (!strings.HasPrefix(tok, num) || len(num) >= len(tok) || !(nanos >= 1)) || !ok && (num != tok || nanos != 1) {
			t.Fatalf("SplitSuffix(%q) = %q, %g, %v", tok, num, nanos, ok)
		}
		v, hasUnit, err := ParseValue(tok)
		if err != nil {
			checkError(t, err)
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || hasUnit != ok {
			t.Fatalf("ParseValue(%q) = %g, %v", tok, v, hasUnit)
		}
		x, err := strconv.ParseFloat(num, 64)
		if err != nil || v != x*nanos {
			t.Fatalf("ParseValue(%q) = %g, want %g × %g", tok, v, x, nanos)
		}
	})
}

// FuzzParseUnit: ParseUnit (-u/--time-unit) never panics, accepts the
// four units by their symbols and long names (plural too) and nothing
// else, and its error is one short line.
func FuzzParseUnit(f *testing.F) {
	for _, s := range []string{"ns", "us", "µs", "μs", "ms", "s", "m", "", "NS", "seconds", "microsecond", "sss", strings.Repeat("s", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ParseUnit(s)
		if err != nil {
			checkError(t, err)
			return
		}
		long := map[Unit]string{Nanosecond: "nanosecond", Microsecond: "microsecond", Millisecond: "millisecond", Second: "second"}
		if _, known := long[u]; !known || s != u.Name && strings.TrimSuffix(s, "s") != long[u] && !(u == Microsecond && (s == "us" || s == "μs")) {
			t.Fatalf("ParseUnit(%q) = %+v", s, u)
		}
	})
}

// FuzzFormat: Duration, DurationIn and Plain (the one digits rule) never
// panic for any finite figure and precision; they print one short line,
// a finite number (never NaN or Inf for a finite figure) that is within
// five steps (Precision.Step: rounding to tens where the step is a 4 ms
// tick) or 1e-12 units of the figure, and of the figure's sign.
func FuzzFormat(f *testing.F) {
	for _, c := range [][3]float64{
		{692518, 1, 55000}, {1.008626872e9, 1, 0}, {0.8e6, 1e6, 0}, {0.4, 1, 0}, {0, 0, 0}, {-2500, 1, 0}, {999.6, 1, 0},
		{4e6, 4e6, 20e6}, {math.MaxFloat64, 0, 0}, {-math.MaxFloat64, 1, 1e300}, {5e-324, 5e-324, 0}, {0, 5e-324, 0},
		{1e-300, 0, 1e-310}, {123.456, 1e300, 0}, {9.9999e307, 0, 0},
	} {
		f.Add(c[0], c[1], c[2], uint8(0))
	}
	units := []Unit{Nanosecond, Microsecond, Millisecond, Second}
	f.Fuzz(func(t *testing.T, v, res, unc float64, ui uint8) {
		for _, x := range []float64{v, res, unc} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return
			}
		}
		p := Precision{Resolution: math.Abs(res), Uncertainty: math.Abs(unc)}
		step := p.Step(v)
		u := units[int(ui)%len(units)]
		for _, c := range []struct {
			name, s, unit string
			scale         float64
		}{
			{"Plain", Plain(v, p), "", 1},
			{"DurationIn", DurationIn(v, u, p), u.Name, u.Nanos},
			{"Duration", Duration(v, p), "", 0},
		} {
			s := c.s
			if len(s) > 400 || strings.ContainsAny(s, "\n\r") {
				t.Fatalf("%s(%g, %+v) = %q", c.name, v, p, s)
			}
			scale := c.scale
			if c.name == "Duration" {
				num, name, ok := strings.Cut(s, " ")
				if !ok {
					t.Fatalf("Duration(%g, %+v) = %q: no unit", v, p, s)
				}
				uu, err := ParseUnit(name)
				if err != nil {
					t.Fatalf("Duration(%g, %+v) = %q: %v", v, p, s, err)
				}
				s, scale = num, uu.Nanos
			} else if c.unit != "" {
				s = strings.TrimSuffix(s, " "+c.unit)
			}
			got, err := strconv.ParseFloat(s, 64)
			if errors.Is(err, strconv.ErrRange) && math.Abs(v/scale) > 1.79e308 && strings.HasPrefix(s, "-") == (v < 0) {
				continue // 1.7977e308 rounded to "1798" and zeros: right, but above the largest float64
			}
			if err != nil || math.IsInf(got, 0) || got*v < 0 {
				t.Fatalf("%s(%g, %+v) = %q: not a finite number of the figure's sign", c.name, v, p, c.s)
			}
			want := v / scale
			tol := math.Max(5*step/scale, 1e-12)*(1+1e-9) + math.Abs(want)*1e-15
			if math.Abs(got-want) > tol {
				t.Fatalf("%s(%g, %+v) = %q, %g away from %g (step %g)", c.name, v, p, c.s, math.Abs(got-want), want, step)
			}
		}
	})
}

// TestFormatExtremes: figures at the ends of the float64 range print as
// numbers with the digits the rule allows: a zero figure with a
// resolution near the largest float64 printed as "NaN" (0/Inf*Inf), and
// one with a subnormal resolution in seconds converted +Inf decimals to
// an int (undefined: "NaN" on amd64). ParseValue refuses a value that
// overflows in nanoseconds instead of returning +Inf.
func TestFormatExtremes(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Plain(math.MaxFloat64, Precision{}), "1.798e+308"},
		{Plain(-math.MaxFloat64, Precision{Resolution: 1e308}), "-2e+308"},
		{Plain(0, Precision{Resolution: 1.7e308}), "0"},
		{DurationIn(0, Second, Precision{Resolution: 5e-324}), "0.000000000000 s"},
		{Duration(-math.MaxFloat64, Precision{Resolution: 1}), "-1.798e+299 s"},
		{Plain(12345, Precision{Resolution: 10}), "12350"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	if _, _, err := ParseValue("1e308h"); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("ParseValue(1e308h): error %v, want out of range (it returned +Inf)", err)
	}
}
