package unit

import (
	"math"
	"strconv"
)

// siPrefixes are the decimal prefixes SI writes, from the smallest: each
// a thousand times the one before.
var siPrefixes = []struct {
	name  string
	scale float64
}{{"n", 1e-9}, {"µ", 1e-6}, {"m", 1e-3}, {"", 1}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}}

// SI formats v, a figure of the SI unit symbol ("Hz"), with the decimal
// prefix that keeps its number at or above 1 and below 1000, and the
// digits p allows (p in v's own unit, as for Plain): SI(125000,
// Precision{Resolution: 1000}, "Hz") is "125 kHz", SI(1e7, Exactly(1e7,
// 0), "Hz") "10 MHz". Rounding can carry a figure into the next prefix
// (999960 Hz is "1.0000 MHz", as Duration carries); zero and figures beyond the
// prefixes keep the nearest one (0 Hz, 5e15 Hz in THz).
func SI(v float64, p Precision, symbol string) string {
	i := 3 // no prefix
	if a := math.Abs(v); a > 0 && !math.IsInf(a, 0) {
		for i > 0 && a < siPrefixes[i].scale {
			i--
		}
		for i < len(siPrefixes)-1 && a >= siPrefixes[i+1].scale {
			i++
		}
	}
	if i < len(siPrefixes)-1 {
		d := decimals(p.step(v), siPrefixes[i].scale)
		if r, err := strconv.ParseFloat(fixed(math.Abs(v)/siPrefixes[i].scale, d), 64); err == nil && r >= 1000 {
			i++
		}
	}
	text, alt := p.figure(v, siPrefixes[i].scale)
	if alt != "" {
		text = alt
	}
	return text + " " + siPrefixes[i].name + symbol
}
