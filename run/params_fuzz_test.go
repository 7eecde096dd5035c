package run

import (
	"math/big"
	"slices"
	"strings"
	"testing"
)

// FuzzScanParam: ScanParam (-P NAME MIN MAX with -D STEP) never panics;
// an error is a usage error of one short line; a scan has between 1 and
// maxParamValues values, each at most 2*maxDecimalLen characters, all
// with the same number of decimals, starting at MIN, increasing by STEP
// exactly and ending within STEP of MAX.
func FuzzScanParam(f *testing.F) {
	for _, s := range [][4]string{
		{"n", "1", "4", ""}, {"n", "0.3", "0.7", "0.2"}, {"threads", "0", "1", "0.1"}, {"n", "-2", "0", ""},
		{"n", " 0.25", "1 ", "0.25"}, {"n", "1", "1e9", ""}, {"n", "0x10", "1p3", "1/2"}, {"n", "1", "99999", ""},
		{"n", "1", "100000", ""}, {"{n}", "1", "2", ""}, {"n", "5", "1", ""}, {"n", "1", "5", "-0.000"},
		{"n", "0", "9", "0." + strings.Repeat("0", 30) + "1"},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, name, min, max, step string) {
		p, err := ScanParam(name, min, max, step)
		if err != nil {
			checkUsageError(t, err, 500)
			return
		}
		if p.Name != name || len(p.Values) < 1 || len(p.Values) > maxParamValues {
			t.Fatalf("ScanParam(%q, %q, %q, %q) has name %q and %d values", name, min, max, step, p.Name, len(p.Values))
		}
		lo, _ := new(big.Rat).SetString(strings.TrimSpace(min))
		hi, _ := new(big.Rat).SetString(strings.TrimSpace(max))
		d := big.NewRat(1, 1)
		if step != "" {
			d, _ = new(big.Rat).SetString(strings.TrimSpace(step))
		}
		dec := decimalsOf(p.Values[0])
		for i, v := range p.Values {
			if len(v) > 2*maxDecimalLen || decimalsOf(v) != dec {
				t.Fatalf("value %d is %q (decimals of the first: %d)", i, v, dec)
			}
			got, ok := new(big.Rat).SetString(v)
			want := new(big.Rat).Add(lo, new(big.Rat).Mul(d, big.NewRat(int64(i), 1)))
			if !ok || got.Cmp(want) != 0 || got.Cmp(hi) > 0 {
				t.Fatalf("value %d is %q, want %s (at most %s)", i, v, want.FloatString(dec), hi.FloatString(dec))
			}
		}
		last, _ := new(big.Rat).SetString(p.Values[len(p.Values)-1])
		if new(big.Rat).Add(last, d).Cmp(hi) <= 0 {
			t.Fatalf("scan stops at %s, one step before the maximum %s", p.Values[len(p.Values)-1], max)
		}
	})
}

// FuzzListParam: ListParam (-L NAME a,b,c) never panics; an error is a
// usage error of one short line; the values joined by commas give back
// the list (escaped with \, and \\ where they hold those); the cartesian product of the list with itself under another
// name has len² combinations, or fails beyond maxParamValues; Substitute
// replaces {name} and leaves other text alone.
func FuzzListParam(f *testing.F) {
	f.Add("compiler", "gcc,clang", "make CC={compiler}")
	f.Add("n", "1,,2", "sleep {n}{x}{")
	f.Add("v", "a b,'q'", "{v}{v}}")
	f.Add("", "1", "")
	f.Add("x", strings.Repeat("1,", 400), "{x}")
	f.Add("v", `a\,b,c\\,d\e,`, "{v}")
	f.Fuzz(func(t *testing.T, name, values, cmd string) {
		p, err := ListParam(name, values)
		if err != nil {
			checkUsageError(t, err, 500)
			return
		}
		// Without backslashes the values are the list split at its
		// commas; with them, the values escaped again (\ and \,) give a
		// list that splits back to them.
		if !strings.Contains(values, `\`) && strings.Join(p.Values, ",") != values {
			t.Fatalf("ListParam(%q, %q) = %q", name, values, p.Values)
		}
		escaped := make([]string, len(p.Values))
		for i, v := range p.Values {
			escaped[i] = strings.NewReplacer(`\`, `\\`, ",", `\,`).Replace(v)
		}
		if again, err := ListParam(name, strings.Join(escaped, ",")); err != nil || !slices.Equal(again.Values, p.Values) {
			t.Fatalf("ListParam(%q, %q) = %q, but the values escaped again give %q, %v", name, values, p.Values, again.Values, err)
		}
		q := Param{Name: name + "2", Values: p.Values}
		combos, err := product([]Param{p, q})
		n := len(p.Values) * len(p.Values)
		switch {
		case n > maxParamValues:
			if err == nil {
				t.Fatalf("Product of %d combinations accepted", n)
			}
			checkUsageError(t, err, 500)
		case err != nil || len(combos) != n:
			t.Fatalf("Product = %d combinations, %v; want %d", len(combos), err, n)
		default:
			for _, c := range combos[:min(len(combos), 4)] {
				got := substitute(cmd, c)
				want := strings.ReplaceAll(cmd, "{"+name+"}", c[name])
				// (A command that also uses the other name gets both.)
				if !strings.Contains(cmd, "{"+q.Name+"}") && got != want {
					t.Fatalf("Substitute(%q, %q) = %q, want %q", cmd, c, got, want)
				}
			}
		}
		if _, err := product([]Param{p, p}); err == nil {
			t.Fatal("Product accepted the same parameter twice")
		}
	})
}

// TestScanParamBounds: the flags that size a scan are bounded. The most
// values a scan can have is maxParamValues (one more is refused); the
// numbers are at most maxDecimalLen characters, so a scan holds at most
// maxParamValues × 2·maxDecimalLen bytes of text; exponents, fractions and
// hexadecimal are refused before big.Rat would expand them; blanks around
// a number no longer shift its decimals (" 0.25" was printed with one).
func TestScanParamBounds(t *testing.T) {
	p, err := ScanParam("n", "1", "100000", "")
	if err != nil || len(p.Values) != maxParamValues {
		t.Errorf("1..100000: %d values, %v; want %d", len(p.Values), err, maxParamValues)
	}
	if _, err := ScanParam("n", "1", "100001", ""); err == nil || !strings.Contains(err.Error(), "more than 100000 values") {
		t.Errorf("1..100001: error %v, want more than 100000 values", err)
	}
	long := "0." + strings.Repeat("0", maxDecimalLen) + "1"
	if _, err := ScanParam("n", "0", "1", long); err == nil || !strings.Contains(err.Error(), "more than 40 characters") {
		t.Errorf("step of %d characters: error %v", len(long), err)
	}
	for _, bad := range []string{"1e1000000000", "1p1000000000", "0x10", "1/3", "1_000", "--1", "1..2", ".", "+", "∞", "NaN"} {
		if _, err := ScanParam("n", "0", bad, ""); err == nil || !strings.Contains(err.Error(), "not a decimal number") {
			t.Errorf("maximum %q: error %v, want not a decimal number", bad, err)
		}
	}
	p, err = ScanParam("n", " 0.25", "0.75 ", "0.25")
	if want := []string{"0.25", "0.50", "0.75"}; err != nil || strings.Join(p.Values, " ") != strings.Join(want, " ") {
		t.Errorf("blanks around the numbers: %q, %v; want %q", p.Values, err, want)
	}
	if _, err := ScanParam(strings.Repeat("n", 1<<20), "1", "2", ""); err == nil || len(err.Error()) > 300 {
		t.Errorf("1 MB name: error %.300v", err)
	}
}
