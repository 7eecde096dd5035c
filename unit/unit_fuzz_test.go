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

// FuzzFormat: Duration, DurationIn, DurationNear, NumberIn and Plain (the
// one digits rule) never panic for any finite figure and precision; they
// print one short line, a finite number of the figure's sign in a unit of
// time (DurationNear may move to the unit that suits the figure), and:
//   - parsed back, it is the figure rounded at the printed digits: within
//     half a step of its last printed digit (the last decimal, or the last
//     non-zero digit of a whole number: "690" is known to tens);
//   - it never shows whole-number zeros below the figure's step in four
//     or more whole digits, unless the figure is on its resolution's
//     grid, printed at that grid (3600 s on a 60 s grid);
//   - a sample on its resolution's grid prints exactly (within a
//     millionth of the grid): every figure of up to maxSignificant
//     significant digits on the grid, every one when it is Exact; the
//     grid is one of the quanta of inputs and clocks (whole minutes,
//     hours, tenths of hours, a 4 ms or 25 ns tick, 1e-300, 1, 0.1).
func FuzzFormat(f *testing.F) {
	for _, c := range [][3]float64{
		{692518, 1, 55000}, {1.008626872e9, 1, 0}, {0.8e6, 1e6, 0}, {0.4, 1, 0}, {0, 0, 0}, {-2500, 1, 0}, {999.6, 1, 0},
		{4e6, 4e6, 20e6}, {math.MaxFloat64, 0, 0}, {-math.MaxFloat64, 1, 1e300}, {5e-324, 5e-324, 0}, {0, 5e-324, 0},
		{1e-300, 0, 1e-310}, {123.456, 1e300, 0}, {9.9999e307, 0, 0},
		// Issue 18: 2 min at a 60 s quantum printed "100 s", 1.5 h at 360 s
		// "5000 s"; 26.75 ms in µs "26750 µs", a mean "2600 µs".
		{120e9, 60e9, 0}, {5400e9, 360e9, 0}, {3600e9, 60e9, 0}, {26.7498e6, 1, 0}, {2.6123e6, 0, 6.1e6}, {1860e9, 0, 500e9},
		{12e6, 4e6, 0}, {5, 1, 0}, {-7, 1, 0}, {1e-300, 1e-300, 0}, {6e-170, 1e-170, 1e-170},
	} {
		f.Add(c[0], c[1], c[2], uint8(0))
		f.Add(c[0], c[1], c[2], uint8(1))
	}
	// Samples on a grid (k steps of the quantum that ui/4 picks): 2 and 7
	// minutes, -3 minutes in ms, 1 hour, 1.5 h, 12 ms at a 4 ms tick,
	// 75 ns at 25 ns, 6e-300, 1234 (maxSignificant digits), 12345.
	for _, c := range []struct {
		k  float64
		ui uint8
	}{{2, 3}, {7, 0}, {-3, 2}, {1, 4}, {15, 8}, {3, 16}, {3, 21}, {6, 32}, {1234, 27}, {12345, 25}} {
		f.Add(c.k, 0.0, 0.0, c.ui)
	}
	units := []Unit{Nanosecond, Microsecond, Millisecond, Second}
	f.Fuzz(func(t *testing.T, v, res, unc float64, ui uint8) {
		for _, x := range []float64{v, res, unc} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return
			}
		}
		u := units[int(ui)%len(units)]
		checkFigures(t, v, Precision{Resolution: math.Abs(res), Uncertainty: math.Abs(unc)}, u)
		// A sample on a grid: k whole steps of one of the quanta.
		quanta := []float64{60e9, 3600e9, 360e9, 36e9, 4e6, 25, 1, 0.1, 1e-300, 1e3, 1e9}
		q := quanta[int(ui/4)%len(quanta)]
		k := math.Trunc(math.Mod(v, 1e9))
		if math.IsInf(k*q, 0) {
			return
		}
		for _, exact := range []bool{false, true} {
			p := Precision{Resolution: q, Exact: exact}
			checkFigures(t, k*q, p, u)
			// Its digits: those of the whole number of grid places.
			m := strings.TrimRight(strconv.FormatFloat(math.Abs(math.Round(k*q/grid(k*q, q))), 'f', -1, 64), "0")
			if !exact && len(m) > maxSignificant {
				continue // more digits than a sample shows
			}
			for name, s := range texts(k*q, p, u) {
				got, _ := parseFigure(t, name, s)
				if math.Abs(got-k*q) > q*1e-6+math.Abs(k*q)*1e-15 {
					t.Fatalf("%s(%g = %g × %g, %+v) = %q: a sample on its grid, not printed exactly", name, k*q, k, q, p, s)
				}
			}
		}
	})
}

// texts are the five renderings of v with precision p (u: the unit of
// DurationIn and NumberIn).
func texts(v float64, p Precision, u Unit) map[string]string {
	return map[string]string{
		"Plain":                  Plain(v, p),
		"DurationIn " + u.Name:   DurationIn(v, u, p),
		"DurationNear " + u.Name: DurationNear(v, u, p),
		"NumberIn " + u.Name:     NumberIn(v, u, p) + " " + u.Name,
		"Duration":               Duration(v, p),
	}
}

// parseFigure reads a text of texts back: its value (in ns for the
// durations, whatever unit it names) and the length of its unit.
func parseFigure(t *testing.T, name, s string) (value, scale float64) {
	t.Helper()
	num, scale := s, 1.0
	if name != "Plain" {
		n, un, ok := strings.Cut(s, " ")
		if !ok {
			t.Fatalf("%s = %q: no unit", name, s)
		}
		uu, err := ParseUnit(un)
		if err != nil {
			t.Fatalf("%s = %q: %v", name, s, err)
		}
		num, scale = n, uu.Nanos
	}
	x, err := strconv.ParseFloat(num, 64)
	if errors.Is(err, strconv.ErrRange) && !math.IsInf(x, 0) {
		err = nil // a subnormal, read as well as it can be
	}
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return x * scale, scale // 1.7977e308 rounded to "1.798e+308": right, but above the largest float64
		}
		t.Fatalf("%s = %q: not a number: %v", name, s, err)
	}
	return x * scale, scale
}

// checkFigures checks the properties of FuzzFormat that hold for every
// figure: one short line, a finite number of the figure's sign (in the
// unit given, for DurationIn and NumberIn), within half a step of its
// last printed digit, no unknown whole-number zeros.
func checkFigures(t *testing.T, v float64, p Precision, u Unit) {
	t.Helper()
	for name, s := range texts(v, p, u) {
		if len(s) > 400 || strings.ContainsAny(s, "\n\r") {
			t.Fatalf("%s(%g, %+v) = %q", name, v, p, s)
		}
		if (strings.HasPrefix(name, "DurationIn ") || strings.HasPrefix(name, "NumberIn ")) && !strings.HasSuffix(s, " "+u.Name) {
			t.Fatalf("%s(%g, %+v) = %q: not in the unit given", name, v, p, s)
		}
		got, scale := parseFigure(t, name, s)
		num, _, _ := strings.Cut(s, " ")
		if name == "Plain" {
			num = s
		}
		if math.IsInf(got, 0) || got*v < 0 || got != 0 && strings.HasPrefix(num, "-") != (v < 0) {
			if math.IsInf(got, 0) && math.Abs(v) > 1.79e308 {
				continue // rounded above the largest float64, as above
			}
			t.Fatalf("%s(%g, %+v) = %q: not a finite number of the figure's sign", name, v, p, s)
		}
		last := lastDigitStep(num) * scale
		// (A figure among the subnormals in its unit, 2.53e-324 µs, is
		// as far from the nearest float64 as a subnormal step.)
		if tol := last/2*(1+1e-9) + math.Abs(v)*1e-15 + 5e-324*scale; math.Abs(got-v) > tol {
			t.Fatalf("%s(%g, %+v) = %q: %g away from the figure, more than half the last digit's step %g", name, v, p, s, math.Abs(got-v), last)
		}
		mant, _, isExp := strings.Cut(strings.TrimPrefix(num, "-"), "e")
		onGrid := p.Resolution > 0 && p.step(v) <= grid(v, p.Resolution) && math.Abs(got-v) <= 1e-12*math.Abs(v)
		if step := p.step(v) / scale; !isExp && !strings.Contains(mant, ".") && len(mant) >= 4 && step >= 10*(1-1e-9) && !onGrid {
			t.Fatalf("%s(%g, %+v) = %q: whole-number zeros below the step %g that are not known", name, v, p, s, step)
		}
	}
}

// lastDigitStep is the place value of a printed number's last digit: its
// last decimal, else its last non-zero whole digit ("690": 10; "0": 1),
// in exponent form that of the mantissa's ("2.675e+04": 10).
func lastDigitStep(num string) float64 {
	num = strings.TrimPrefix(num, "-")
	mant, exp, isExp := strings.Cut(num, "e")
	e := 0
	if isExp {
		e, _ = strconv.Atoi(exp)
	}
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		e -= len(mant) - i - 1
	} else if trimmed := strings.TrimRight(mant, "0"); trimmed != "" {
		e += len(mant) - len(trimmed)
	}
	return math.Pow(10, float64(e))
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
		{Plain(12345, Precision{Resolution: 10}), "1.235e+04"}, // not 12350: its last zero is not known
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	if _, _, err := ParseValue("1e308h"); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("ParseValue(1e308h): error %v, want out of range (it returned +Inf)", err)
	}
}
