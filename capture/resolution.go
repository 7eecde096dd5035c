package capture

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// Resolution is the length of one tick of a capture's time axis, exactly:
// Num/Den seconds. A VCD's `$timescale 10 ns` is {10, 1e9}; a capture
// sampled at 3 MHz has ticks of {1, 3e6}. The zero Resolution is unknown
// (a VCD without $timescale): times are then counted in ticks of unknown
// length.
type Resolution struct {
	Num uint64 `json:"num"`
	Den uint64 `json:"den"`
}

// Known reports whether r is a length of time.
func (r Resolution) Known() bool { return r.Num > 0 && r.Den > 0 }

// nsPerTick is the length of a tick in nanoseconds, as a float64 (NaN when
// unknown).
func (r Resolution) nsPerTick() float64 {
	if !r.Known() {
		return math.NaN()
	}
	return float64(r.Num) * 1e9 / float64(r.Den)
}

// Nanoseconds is the length of ticks ticks in nanoseconds, as the float64
// nearest to it (NaN when r is unknown): the unit chronograph's
// statistics and digits rule take.
func (r Resolution) Nanoseconds(ticks uint64) float64 {
	return float64(ticks) * r.nsPerTick()
}

// Seconds is the length of ticks ticks in seconds (NaN when r is
// unknown).
func (r Resolution) Seconds(ticks uint64) float64 {
	if !r.Known() {
		return math.NaN()
	}
	return float64(ticks) * float64(r.Num) / float64(r.Den)
}

// NanosecondsOf converts a sample of tick counts (widths, periods,
// latencies) into nanoseconds, ready for stats.Summarize.
func (r Resolution) NanosecondsOf(ticks []uint64) []float64 {
	out := make([]float64, len(ticks))
	ns := r.nsPerTick()
	for i, t := range ticks {
		out[i] = float64(t) * ns
	}
	return out
}

// Duration is the length of ticks ticks as a time.Duration, and whether
// it is exact: false when r is unknown, when the length is not a whole
// number of nanoseconds (it is then rounded to the nearest), or when it
// overflows a Duration (it is then the largest Duration).
func (r Resolution) Duration(ticks uint64) (time.Duration, bool) {
	if !r.Known() {
		return 0, false
	}
	num := new(big.Int).SetUint64(ticks)
	num.Mul(num, new(big.Int).SetUint64(r.Num))
	num.Mul(num, big.NewInt(1e9))
	den := new(big.Int).SetUint64(r.Den)
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	exact := m.Sign() == 0
	if m.Lsh(m, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return time.Duration(math.MaxInt64), false
	}
	return time.Duration(q.Int64()), exact
}

// CeilTicks is the smallest number of ticks at least as long as d, and
// FloorTicks the largest not longer than d: a pulse of w ticks is shorter
// than d exactly when w < CeilTicks(d), and a latency of l ticks is within
// d exactly when l <= FloorTicks(d). Both are 0 when d <= 0 or r is
// unknown, and saturate at the largest uint64.
func (r Resolution) CeilTicks(d time.Duration) uint64 { return r.ticks(d, true) }

// FloorTicks: see CeilTicks.
func (r Resolution) FloorTicks(d time.Duration) uint64 { return r.ticks(d, false) }

func (r Resolution) ticks(d time.Duration, ceil bool) uint64 {
	if d <= 0 || !r.Known() {
		return 0
	}
	// ticks = d[ns] * Den / (Num * 1e9)
	num := new(big.Int).Mul(big.NewInt(int64(d)), new(big.Int).SetUint64(r.Den))
	den := new(big.Int).Mul(new(big.Int).SetUint64(r.Num), big.NewInt(1e9))
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	if ceil && m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsUint64() {
		return math.MaxUint64
	}
	return q.Uint64()
}

// Coarser reports whether r is a longer tick than o (an unknown
// Resolution is never coarser).
func (r Resolution) Coarser(o Resolution) bool {
	if !r.Known() {
		return false
	}
	if !o.Known() {
		return true
	}
	// r.Num/r.Den > o.Num/o.Den  <=>  r.Num*o.Den > o.Num*r.Den
	a := new(big.Int).Mul(new(big.Int).SetUint64(r.Num), new(big.Int).SetUint64(o.Den))
	b := new(big.Int).Mul(new(big.Int).SetUint64(o.Num), new(big.Int).SetUint64(r.Den))
	return a.Cmp(b) > 0
}

// String writes r as a VCD timescale does when it is one ("1 us",
// "100 ps"), as a sample period otherwise ("1/3000000 s"), and "unknown"
// for the zero Resolution.
func (r Resolution) String() string {
	if !r.Known() {
		return "unknown"
	}
	for _, u := range timeUnits {
		if r.Den == u.den && (r.Num == 1 || r.Num == 10 || r.Num == 100) {
			return strconv.FormatUint(r.Num, 10) + " " + u.name
		}
	}
	return fmt.Sprintf("%d/%d s", r.Num, r.Den)
}

var timeUnits = []struct {
	name string
	den  uint64
}{
	{"s", 1}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}, {"ps", 1e12}, {"fs", 1e15},
}

// parseTimescale reads the text of a VCD $timescale section: 1, 10 or 100,
// then s, ms, us, ns, ps or fs, with or without a space between them.
func parseTimescale(s string) (Resolution, error) {
	t := strings.Join(strings.Fields(s), "")
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	num, unit := t[:i], t[i:]
	if num != "1" && num != "10" && num != "100" {
		return Resolution{}, fmt.Errorf("timescale %q is not 1, 10 or 100 of s, ms, us, ns, ps or fs (IEEE 1364 §18.2.3.4)", strings.TrimSpace(s))
	}
	n, _ := strconv.ParseUint(num, 10, 64)
	for _, u := range timeUnits {
		if unit == u.name {
			return Resolution{Num: n, Den: u.den}, nil
		}
	}
	return Resolution{}, fmt.Errorf("timescale %q has unit %q, not s, ms, us, ns, ps or fs (IEEE 1364 §18.2.3.4)", strings.TrimSpace(s), unit)
}

// parseSampleRate reads a sample rate as sigrok writes it
// (sr_samplerate_string: "1 MHz", "2.5 kHz", "200 Hz"; sr_parse_sizestring
// also takes "1m", "1 M" and a bare number of hertz) and returns it in
// hertz, which must be a positive whole number.
func parseSampleRate(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(strings.TrimSuffix(t, "Hz"), "hz")
	t = strings.TrimSpace(t)
	mult := uint64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'k', 'K':
			mult = 1e3
		case 'm', 'M':
			mult = 1e6
		case 'g', 'G':
			mult = 1e9
		case 't', 'T':
			mult = 1e12
		}
		if mult != 1 {
			t = strings.TrimSpace(t[:n-1])
		}
	}
	whole, frac, _ := strings.Cut(t, ".")
	bad := fmt.Errorf("sample rate %q is not a number of hertz (as sigrok writes it: \"1 MHz\", \"2.5 kHz\")", s)
	if whole == "" || !digitsOnly(whole) || !digitsOnly(frac) {
		return 0, bad
	}
	w, err := strconv.ParseUint(whole, 10, 64)
	if err != nil {
		return 0, bad
	}
	hi, lo := bits.Mul64(w, mult)
	if hi != 0 {
		return 0, bad
	}
	rate := lo
	scale := mult
	for _, c := range frac {
		scale /= 10
		if scale == 0 {
			if c != '0' {
				return 0, fmt.Errorf("sample rate %q is not a whole number of hertz", s)
			}
			continue
		}
		var carry uint64
		rate, carry = bits.Add64(rate, uint64(c-'0')*scale, 0)
		if carry != 0 {
			return 0, bad
		}
	}
	if rate == 0 {
		return 0, fmt.Errorf("sample rate %q is zero", s)
	}
	return rate, nil
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
