package run

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode"

	"github.com/chronograph/chronograph/internal/excerpt"
)

// A Param is a benchmark parameter: a name and the values it takes. In a
// command, "{name}" is replaced by each value in turn.
type Param struct {
	Name   string
	Values []string
}

// maxParamValues bounds a scan, so that a typo (-P n 1 1e9) fails fast
// instead of queuing a billion benchmarks.
const maxParamValues = 100000

// maxParamName bounds the length of a parameter's name.
const maxParamName = 64

// maxDecimalLen bounds the length of -P's and -D's numbers, and so the
// memory of a scan: at most maxParamValues values of at most
// 2*maxDecimalLen characters each.
const maxDecimalLen = 40

// ScanParam returns the parameter of a scan from min to max (inclusive) in
// steps of step, as -P/--parameter-scan with -D/--parameter-step-size. An
// empty step means 1. The values are computed in exact decimal arithmetic
// and printed with as many decimals as the most precise of min, max and
// step ("0.3", "0.5", "0.7"; never "0.30000000000000004").
func ScanParam(name, min, max, step string) (Param, error) {
	if err := checkParamName(name); err != nil {
		return Param{}, err
	}
	if step == "" {
		step = "1"
	}
	lo, err := parseDecimal(min)
	if err != nil {
		return Param{}, usagef("run: parameter %s: minimum %w", name, err)
	}
	hi, err := parseDecimal(max)
	if err != nil {
		return Param{}, usagef("run: parameter %s: maximum %w", name, err)
	}
	d, err := parseDecimal(step)
	if err != nil {
		return Param{}, usagef("run: parameter %s: step size %w", name, err)
	}
	if d.Sign() <= 0 {
		return Param{}, usagef("run: parameter %s: step size %s must be positive", name, strings.TrimSpace(step))
	}
	if lo.Cmp(hi) > 0 {
		return Param{}, usagef("run: parameter %s: minimum %s is larger than maximum %s: swap them", name, strings.TrimSpace(min), strings.TrimSpace(max))
	}
	decimals := max3(decimalsOf(min), decimalsOf(max), decimalsOf(step))
	n := new(big.Rat).Quo(new(big.Rat).Sub(hi, lo), d)
	count := new(big.Int).Quo(n.Num(), n.Denom()) // floor, n >= 0
	if count.Cmp(big.NewInt(maxParamValues)) >= 0 {
		return Param{}, usagef("run: parameter %s: %s..%s in steps of %s gives more than %d values: use a larger step (-D)", name, strings.TrimSpace(min), strings.TrimSpace(max), strings.TrimSpace(step), maxParamValues)
	}
	p := Param{Name: name}
	for i := int64(0); i <= count.Int64(); i++ {
		v := new(big.Rat).Add(lo, new(big.Rat).Mul(d, big.NewRat(i, 1)))
		p.Values = append(p.Values, v.FloatString(decimals))
	}
	return p, nil
}

// ListParam returns the parameter of -L/--parameter-list: the values are
// separated by commas and taken literally (no trimming), as hyperfine
// splits them: a backslash before a comma makes the comma part of the
// value and two backslashes are one (`-L v 'a\,b,c'` gives "a,b" and
// "c"); any other backslash is kept.
func ListParam(name, values string) (Param, error) {
	if err := checkParamName(name); err != nil {
		return Param{}, err
	}
	if values == "" {
		return Param{}, usagef("run: parameter %s has an empty list of values: give them as a,b,c", name)
	}
	return Param{Name: name, Values: splitList(values)}, nil
}

// splitList splits a -L list at the commas that are not escaped.
func splitList(s string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && (s[i+1] == ',' || s[i+1] == '\\'):
			cur.WriteByte(s[i+1])
			i++
		case c == ',':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(out, cur.String())
}

func checkParamName(name string) error {
	if name == "" {
		return usagef("run: a parameter needs a name, as in -L compiler gcc,clang")
	}
	if strings.ContainsAny(name, "{}") {
		return usagef("run: parameter name %s must not contain braces: it is written without them (-L n 1,2) and used as {n}", excerpt.Quote(name))
	}
	// The name is quoted as it is in every later message: keep it short
	// and on one line.
	if len(name) > maxParamName || strings.ContainsFunc(name, unicode.IsControl) {
		return usagef("run: parameter name %s must be at most %d characters, without control characters", excerpt.Quote(name), maxParamName)
	}
	return nil
}

// parseDecimal parses a decimal number: an optional sign, digits with
// an optional fraction ("1", "-0.25", ".5", "3."), surrounding blanks
// allowed, at most maxDecimalLen characters. No exponents, fractions,
// hexadecimal or underscores: big.Rat would take "1e1000000000" and
// compute a number of a billion digits.
func parseDecimal(s string) (*big.Rat, error) {
	t := strings.TrimSpace(s)
	if !isDecimal(t) {
		return nil, fmt.Errorf("%s is not a decimal number (e.g. 1, 0.25, -3)", excerpt.Quote(s))
	}
	if len(t) > maxDecimalLen {
		return nil, fmt.Errorf("%s has more than %d characters: give a shorter number", excerpt.Quote(t), maxDecimalLen)
	}
	r, ok := new(big.Rat).SetString(t)
	if !ok {
		return nil, fmt.Errorf("%s is not a decimal number (e.g. 1, 0.25, -3)", excerpt.Quote(s))
	}
	return r, nil
}

// isDecimal reports whether t is [+-]digits[.digits] with at least one
// digit.
func isDecimal(t string) bool {
	if t != "" && (t[0] == '+' || t[0] == '-') {
		t = t[1:]
	}
	digits, dots := 0, 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

// decimalsOf is the number of digits after the point of the decimal s.
func decimalsOf(s string) int {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

func max3(a, b, c int) int { return int(math.Max(float64(a), math.Max(float64(b), float64(c)))) }

// Product returns every combination of the parameters' values (the
// cartesian product), the first parameter varying fastest, as hyperfine
// orders them. No parameters give one empty combination.
func product(params []Param) ([]map[string]string, error) {
	total := 1
	for _, p := range params {
		if len(p.Values) == 0 {
			return nil, usagef("run: parameter %s has no values", p.Name)
		}
		total *= len(p.Values)
		if total > maxParamValues {
			return nil, usagef("run: the parameters give more than %d combinations: use fewer values", maxParamValues)
		}
	}
	seen := map[string]bool{}
	for _, p := range params {
		if seen[p.Name] {
			return nil, usagef("run: parameter %s is given twice: give each name once (-L takes a comma-separated list)", p.Name)
		}
		seen[p.Name] = true
	}
	out := make([]map[string]string, 0, total)
	idx := make([]int, len(params))
	for range total {
		m := make(map[string]string, len(params))
		for j, p := range params {
			m[p.Name] = p.Values[idx[j]]
		}
		out = append(out, m)
		for j := range idx { // odometer, first digit fastest
			idx[j]++
			if idx[j] < len(params[j].Values) {
				break
			}
			idx[j] = 0
		}
	}
	return out, nil
}

// Substitute replaces every "{name}" in s by the value of the parameter
// name. Braces that do not name a parameter are left alone.
func substitute(s string, values map[string]string) string {
	if len(values) == 0 || !strings.Contains(s, "{") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '{' {
			if j := strings.IndexByte(s[i:], '}'); j > 0 {
				if v, ok := values[s[i+1:i+j]]; ok {
					b.WriteString(v)
					i += j + 1
					continue
				}
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}
