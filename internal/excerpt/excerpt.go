// Package excerpt quotes untrusted input in error messages: at most a
// short prefix of it, on one line, so that a 50 MB token or a binary file
// gives a readable error rather than one as large as the input.
//
// It imports nothing but the standard library, so that the packages that
// import nothing else of chronograph's (stats, unit, env) may use it.
package excerpt

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Max is the most bytes of the input that Quote shows.
const Max = 48

// Quote returns s quoted as strconv.Quote quotes it (double quotes,
// control characters and invalid UTF-8 escaped, so always one line) when
// s is at most Max bytes long. A longer s is cut to its first Max bytes,
// at a character boundary, and followed by its length:
// "abc..."... (51200 bytes). The result is at most 4*Max+30 bytes long.
func Quote(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	cut := Max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if cut == 0 { // no character boundary near the start: invalid UTF-8
		cut = Max
	}
	return strconv.Quote(s[:cut]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// Clip returns msg, an error text that may hold pieces of the input
// (such as an error of encoding/json or package time), on one line and
// short: control characters and invalid UTF-8 are escaped, and a text
// longer than 3*Max bytes keeps its first 2*Max and last Max bytes around
// a note of how much was cut. The result is at most 12*Max+40 bytes long.
func Clip(msg string) string {
	if len(msg) <= 3*Max {
		return oneLine(msg)
	}
	h, t := 2*Max, len(msg)-Max
	for h > 0 && !utf8.RuneStart(msg[h]) {
		h--
	}
	for t < len(msg) && !utf8.RuneStart(msg[t]) {
		t++
	}
	return oneLine(msg[:h]) + " ...(" + strconv.Itoa(t-h) + " bytes cut)... " + oneLine(msg[t:])
}

// oneLine escapes the control characters, line and paragraph
// separators and invalid UTF-8 bytes of s as strconv.Quote would, and
// leaves everything else (quotes included) as it is.
func oneLine(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteByte("0123456789abcdef"[s[i]>>4])
			b.WriteByte("0123456789abcdef"[s[i]&15])
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
