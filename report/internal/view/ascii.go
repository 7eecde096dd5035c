package view

import "strings"

// asciiReplacer maps the typographic characters chrono prints to ASCII.
// The first pairs keep the labels of the command blocks aligned (the
// replacer prefers the earlier of two pairs matching at one place).
var asciiReplacer = strings.NewReplacer("mean ± σ:      ", "mean +/- sd:   ", "min … max:     ", "min ... max:   ", "µ", "u", "μ", "u", "±", "+/-", "…", "...", "–", "-", "—", "-", "σ", "sd",
	"×", "x", "≤", "<=", "≥", ">=", "→", "->", "·", "*", "√", "sqrt")

// ASCII replaces the non-ASCII characters chrono uses in text output by
// ASCII spellings (--style basic, or a terminal that cannot show them).
func ASCII(s string) string { return asciiReplacer.Replace(s) }
