// Package plural writes counts of things in messages: "1 run", "2 runs",
// never "1 runs". Packages that import nothing of chronograph's but warn
// (stats, env) keep a copy of Count; keep them alike.
package plural

import (
	"strconv"
	"strings"
)

// Count returns n and noun, the noun in its plural form unless n is 1 or
// -1: Count(1, "run") is "1 run", Count(3, "run") "3 runs", Count(2,
// "latency") "2 latencies", Count(0, "process") "0 processes".
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Noun(n, noun)
}

// Noun returns noun in its singular form when n is 1 or -1 and in its
// plural form otherwise: for "%d of %d runs", Noun(total, "run").
func Noun(n int, noun string) string {
	if n == 1 || n == -1 {
		return noun
	}
	return Of(noun)
}

// Of returns the plural of an English noun by the regular rules: "es"
// after s, x, z, ch and sh ("processes", "switches"), "ies" for a y after
// a consonant ("latencies"), else "s".
func Of(noun string) string {
	switch {
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"), strings.HasSuffix(noun, "z"),
		strings.HasSuffix(noun, "ch"), strings.HasSuffix(noun, "sh"):
		return noun + "es"
	case len(noun) >= 2 && noun[len(noun)-1] == 'y' && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}

// Is returns the verb for n things: "is" for 1 (or -1), "are" otherwise.
func Is(n int) string {
	if n == 1 || n == -1 {
		return "is"
	}
	return "are"
}

// Was returns the verb for n things: "was" for 1 (or -1), "were"
// otherwise.
func Was(n int) string {
	if n == 1 || n == -1 {
		return "was"
	}
	return "were"
}
