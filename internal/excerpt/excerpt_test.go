package excerpt

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", `""`},
		{"abc", `"abc"`},
		{"a\nb\x00", `"a\nb\x00"`},
		{strings.Repeat("x", Max), `"` + strings.Repeat("x", Max) + `"`},
		{strings.Repeat("x", 50<<20), `"` + strings.Repeat("x", Max) + `"... (52428800 bytes)`},
		// The cut falls inside "é" (2 bytes): it moves back before it.
		{strings.Repeat("x", Max-1) + "é" + "yyyy", `"` + strings.Repeat("x", Max-1) + `"... (53 bytes)`},
	} {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%.60q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestClip(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`invalid character '"' after object key`, `invalid character '"' after object key`},
		{"a\nb\xffc\u2028", `a\nb\xffc\u2028`},
		{"json: cannot unmarshal number " + strings.Repeat("1", 1<<20) + " into Go struct field .version of type int",
			"json: cannot unmarshal number " + strings.Repeat("1", 2*Max-30) + " ...(1048504 bytes cut)... " + strings.Repeat("1", 6) + " into Go struct field .version of type int"},
	} {
		if got := Clip(tt.in); got != tt.want {
			t.Errorf("Clip(%.60q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzQuote(f *testing.F) {
	f.Add("abc")
	f.Add(strings.Repeat("é", 100))
	f.Add("\xff\xfe" + strings.Repeat("\x00", 60))
	f.Fuzz(func(t *testing.T, s string) {
		for name, got := range map[string]string{"Quote": Quote(s), "Clip": Clip(s)} {
			if strings.ContainsAny(got, "\n\r") || !utf8.ValidString(got) {
				t.Errorf("%s(%q) = %q: not one line of valid UTF-8", name, s, got)
			}
			if len(got) > 12*Max+40 {
				t.Errorf("%s(%q) is %d bytes long", name, s, len(got))
			}
		}
		if back, err := strconv.Unquote(Quote(s)); len(s) <= Max && (err != nil || back != s) {
			t.Errorf("Quote(%q) = %s does not read back", s, Quote(s))
		}
	})
}
