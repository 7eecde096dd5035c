// Package numbers reads streams of numbers for `chrono stats`: one or more
// per line, separated by whitespace or commas, each optionally carrying a
// duration suffix (ns, us, µs, ms, s, m, h). It is built for large and
// hostile inputs: a million lines take a fraction of a second, memory per
// token is bounded (MaxToken), and an error quotes at most a short prefix
// of the bad token, with its line and column.
//
// Document turns what Read found into a result document of kind "numbers"
// (docs/result-schema.md).
package numbers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

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
	// the digits worth printing. 0 when no token says (no numbers).
	Quantum float64
	// Skipped counts invalid tokens skipped with Options.SkipInvalid;
	// FirstSkipped describes the first of them (its position and a short
	// quoted prefix).
	Skipped      int
	FirstSkipped string
	// Lines is the number of lines read.
	Lines int
}

// MaxToken is the longest token (in bytes) Read takes for a number; a
// longer one is a bad token, read past without being kept, so memory per
// token is bounded whatever the input (50 MB of NUL bytes is one token).
const MaxToken = 256

// quoteMax is how many bytes of a bad token an error quotes.
const quoteMax = 24

// bom is the UTF-8 byte order mark some editors put at the start of a file.
var bom = []byte{0xEF, 0xBB, 0xBF}

// Read reads all numbers from r. name labels errors (a file name or
// "stdin"). A bad token is an error naming its line and column and quoting
// at most a short prefix of it, unless opts.SkipInvalid is set. A UTF-8
// byte order mark at the start is skipped. It reads r in 64 KiB chunks and
// keeps at most MaxToken bytes of a token: memory is the values plus a
// constant.
func Read(r io.Reader, name string, opts Options) (*Data, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if b, _ := br.Peek(len(bom)); bytes.Equal(b, bom) {
		br.Discard(len(bom))
	}
	s := scanner{name: name, opts: opts, d: &Data{Quantum: math.Inf(1), Durations: opts.BareUnit != nil}, line: 1}
	s.tok = make([]byte, 0, MaxToken)
	buf := make([]byte, 1<<16)
	var last byte
	sawInput := false
	for {
		n, err := br.Read(buf)
		if n > 0 {
			sawInput = true
			last = buf[n-1]
			if perr := s.scan(buf[:n]); perr != nil {
				return s.d, perr
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return s.d, fmt.Errorf("numbers: reading %s: %w", name, err)
		}
	}
	if err := s.endToken(); err != nil {
		return s.d, err
	}
	d := s.d
	d.Lines = s.line - 1
	if sawInput && last != '\n' {
		d.Lines++ // a last line without its newline
	}
	if s.suffixed > 0 {
		if opts.BareUnit == nil && s.bare > 0 {
			return d, fmt.Errorf("%s: a bare number is mixed with durations (first duration at %s): pass -u/--time-unit ns|us|ms|s to say what bare numbers are", s.firstBare, s.firstSuffixed)
		}
		d.Durations = true
	}
	if math.IsInf(d.Quantum, 1) {
		d.Quantum = 0
	}
	return d, nil
}

// scanner splits chunks of input into tokens and parses them.
type scanner struct {
	name string
	opts Options
	d    *Data
	// line and col are the position of the next byte (col 0-based).
	line, col int
	// tok holds the first MaxToken bytes of the current token, tokLen its
	// full length, tokLine and tokCol where it started (col 1-based).
	tok             []byte
	tokLen          int
	tokLine, tokCol int
	bare, suffixed  int // counts of each kind of token
	firstBare       string
	firstSuffixed   string
}

func (s *scanner) scan(chunk []byte) error {
	for _, c := range chunk {
		if isSep(c) {
			if s.tokLen > 0 {
				if err := s.endToken(); err != nil {
					return err
				}
			}
			if c == '\n' {
				s.line++
				s.col = 0
			} else {
				s.col++
			}
			continue
		}
		if s.tokLen == 0 {
			s.tokLine, s.tokCol = s.line, s.col+1
		}
		s.col++
		s.tokLen++
		if s.tokLen <= MaxToken {
			s.tok = append(s.tok, c)
			continue
		}
		if !s.opts.SkipInvalid && s.tokLen == MaxToken+1 {
			// Fail now: reading the rest of a huge token would only
			// cost time.
			return fmt.Errorf("%s: a token longer than %d bytes, starting %s, is not a number (%s)",
				s.loc(), MaxToken, quote(s.tok), fixHint)
		}
	}
	return nil
}

// fixHint says how to write numbers, and how to go on despite bad tokens.
const fixHint = "write numbers like 12.5, 800us, 12.5ms or 3s; or pass --skip-invalid to count and skip bad tokens"

func (s *scanner) loc() string { return fmt.Sprintf("%s:%d:%d", s.name, s.tokLine, s.tokCol) }

// endToken parses the token gathered so far, if any.
func (s *scanner) endToken() error {
	if s.tokLen == 0 {
		return nil
	}
	defer func() { s.tok, s.tokLen = s.tok[:0], 0 }()
	if s.tokLen > MaxToken {
		return s.bad(fmt.Sprintf("a token of %d bytes, starting %s, is not a number", s.tokLen, quote(s.tok)),
			fmt.Sprintf("%s (%d bytes)", quote(s.tok), s.tokLen))
	}
	tok := string(s.tok)
	num, mult, hasUnit := unit.SplitSuffix(tok)
	v, err := strconv.ParseFloat(num, 64)
	if strings.ContainsAny(num, "xX") {
		// strconv reads hexadecimal floats (0x1p-3); their written digits
		// say nothing of their precision, and nobody logs them.
		err = strconv.ErrSyntax
	}
	switch {
	case errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0):
		return s.bad(fmt.Sprintf("%s is out of range: a float64 holds magnitudes up to 1.8e308", quote(s.tok)), quote(s.tok))
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return s.bad(fmt.Sprintf("%s is not a number", quote(s.tok)), quote(s.tok))
	case math.IsNaN(v) || math.IsInf(v, 0):
		return s.bad(fmt.Sprintf("%s is not a finite number", quote(s.tok)), quote(s.tok))
	}
	// (A magnitude below the smallest subnormal, 1e-400, reads as 0 or
	// the nearest subnormal: correctly rounded, so it is accepted.)
	q := quantum(num)
	switch {
	case hasUnit:
		s.suffixed++
		if s.firstSuffixed == "" {
			s.firstSuffixed = s.loc()
		}
		v *= mult
		q *= mult
	case s.opts.BareUnit != nil:
		v *= s.opts.BareUnit.Nanos
		q *= s.opts.BareUnit.Nanos
		s.bare++
	default:
		s.bare++
		if s.firstBare == "" {
			s.firstBare = s.loc()
		}
	}
	if math.IsInf(v, 0) {
		return s.bad(fmt.Sprintf("%s is out of range in nanoseconds: a float64 holds magnitudes up to 1.8e308", quote(s.tok)), quote(s.tok))
	}
	if q > 0 && q < s.d.Quantum {
		s.d.Quantum = q
	}
	s.d.Values = append(s.d.Values, v)
	return nil
}

// bad fails with msg, or counts the token as skipped (described by desc)
// with Options.SkipInvalid.
func (s *scanner) bad(msg, desc string) error {
	if !s.opts.SkipInvalid {
		return fmt.Errorf("%s: %s (%s)", s.loc(), msg, fixHint)
	}
	if s.d.Skipped == 0 {
		s.d.FirstSkipped = s.loc() + ": " + desc
	}
	s.d.Skipped++
	return nil
}

// quote quotes at most quoteMax bytes of tok (cut at a rune boundary), with
// "…" after it when it was cut.
func quote(tok []byte) string {
	if len(tok) <= quoteMax {
		return strconv.Quote(string(tok))
	}
	cut := quoteMax
	for cut > quoteMax-utf8.UTFMax && cut > 0 && !utf8.RuneStart(tok[cut]) {
		cut--
	}
	return strconv.Quote(string(tok[:cut])) + "…"
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
	// 10^exp as "1e<exp>" reads: the float64 nearest to it, as the
	// values themselves are read (math.Pow(10, -170) is one unit of the
	// last place below 1e-170, and the value 1e-170 would not be a
	// whole number of its quantum).
	q, err := strconv.ParseFloat("1e"+strconv.Itoa(exp), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0
	}
	return q // (0 below the subnormals, +Inf above the largest float64)
}

// ErrEmpty is returned by callers when the input held no numbers.
var ErrEmpty = errors.New("no numbers in the input: give a file with numbers (one or more per line) or pipe them in")
