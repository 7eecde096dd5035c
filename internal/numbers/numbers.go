// Package numbers reads streams of numbers for `chrono stats`: one or more
// per line, separated by whitespace or commas, each optionally carrying a
// duration suffix (ns, us, µs, ms, s, m, h). It is built for large inputs:
// a million lines take a fraction of a second.
package numbers

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/unit"
)

// Options control how tokens are read.
type Options struct {
	// BareUnit, when non-nil, is the unit of numbers written without a
	// suffix; they are converted to nanoseconds.
	BareUnit *unit.Unit
	// SkipInvalid counts and skips bad tokens instead of failing.
	SkipInvalid bool
}

// Data is what Read found.
type Data struct {
	// Values holds every number in input order: in nanoseconds when
	// Durations is true, as written otherwise.
	Values []float64
	// Durations reports whether the values are durations in nanoseconds
	// (some token had a suffix, or Options.BareUnit was set).
	Durations bool
	// Quantum is the finest step the input can express, in the unit of
	// Values: the place value of the last written digit of the most
	// precise token (12.5ms has a quantum of 0.1 ms = 1e5 ns). It bounds
	// the digits worth printing.
	Quantum float64
	// Skipped counts invalid tokens skipped with Options.SkipInvalid;
	// FirstSkipped describes the first of them.
	Skipped      int
	FirstSkipped string
	// Lines is the number of lines read.
	Lines int
}

// Read reads all numbers from r. name labels errors (a file name or
// "stdin"). A bad token is an error naming its line and column, unless
// opts.SkipInvalid is set.
func Read(r io.Reader, name string, opts Options) (*Data, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	d := &Data{Quantum: math.Inf(1), Durations: opts.BareUnit != nil}
	var (
		bare, suffixed int // counts of each kind of token
		firstBare      string
		firstSuffixed  string
	)
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: gather it whole.
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) > 0 {
			d.Lines++
			s := string(line)
			col := 0
			for col < len(s) {
				// Skip separators.
				for col < len(s) && isSep(s[col]) {
					col++
				}
				start := col
				for col < len(s) && !isSep(s[col]) {
					col++
				}
				if start == col {
					break
				}
				tok := s[start:col]
				num, mult, hasUnit := unit.SplitSuffix(tok)
				v, perr := strconv.ParseFloat(num, 64)
				if perr == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
					perr = errNotFinite
				}
				if perr != nil {
					loc := fmt.Sprintf("%s:%d:%d", name, d.Lines, start+1)
					if !opts.SkipInvalid {
						return d, fmt.Errorf("%s: %q is not a number (write numbers like 12.5, 800us, 12.5ms or 3s; or pass --skip-invalid to count and skip bad tokens)", loc, tok)
					}
					if d.Skipped == 0 {
						d.FirstSkipped = fmt.Sprintf("%s: %q", loc, tok)
					}
					d.Skipped++
					continue
				}
				q := quantum(num)
				switch {
				case hasUnit:
					suffixed++
					if firstSuffixed == "" {
						firstSuffixed = fmt.Sprintf("%s:%d:%d", name, d.Lines, start+1)
					}
					v *= mult
					q *= mult
				case opts.BareUnit != nil:
					v *= opts.BareUnit.Nanos
					q *= opts.BareUnit.Nanos
					bare++
				default:
					bare++
					if firstBare == "" {
						firstBare = fmt.Sprintf("%s:%d:%d", name, d.Lines, start+1)
					}
				}
				if q > 0 && q < d.Quantum {
					d.Quantum = q
				}
				d.Values = append(d.Values, v)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return d, fmt.Errorf("numbers: reading %s: %w", name, err)
		}
	}
	if suffixed > 0 {
		if opts.BareUnit == nil && bare > 0 {
			return d, fmt.Errorf("%s: a bare number is mixed with durations (first duration at %s): pass --unit ns|us|ms|s to say what bare numbers are", firstBare, firstSuffixed)
		}
		d.Durations = true
	}
	if math.IsInf(d.Quantum, 1) {
		d.Quantum = 0
	}
	return d, nil
}

func isSep(c byte) bool {
	return c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// quantum returns the place value of the last written digit of a
// number as written: "12.5" -> 0.1, "800" -> 1, "1.25e3" -> 10. It returns
// 0 when it cannot tell.
func quantum(num string) float64 {
	exp := 0
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(num[i+1:], "+"))
		if err != nil {
			return 0
		}
		exp, num = e, num[:i]
	}
	if i := strings.IndexByte(num, '.'); i >= 0 {
		exp -= len(num) - i - 1
	}
	if exp >= 0 && exp < len(pow10) {
		return pow10[exp]
	}
	if exp < 0 && -exp < len(pow10) {
		return 1 / pow10[-exp]
	}
	return math.Pow(10, float64(exp))
}

var pow10 = [...]float64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12}

var errNotFinite = errors.New("not finite")

// ErrEmpty is returned by callers when the input held no numbers.
var ErrEmpty = errors.New("no numbers in the input: give a file with numbers (one or more per line) or pipe them in")
