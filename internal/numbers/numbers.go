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
	"io/fs"
	"math"
	"slices"
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
// constant. When r tells its size (a regular file), the room for the
// values is made at once, from the first chunk's count (up to maxPresize
// values; untouched room costs address space, not memory). Plain
// decimals, nearly every token, are parsed in place without strconv
// (parseDecimal), to the same float64s.
func Read(r io.Reader, name string, opts Options) (*Data, error) { return read(r, name, opts, true) }

// read is Read; fast false reads every token by strconv (parseToken), as
// the tests compare.
func read(r io.Reader, name string, opts Options, fast bool) (*Data, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if b, _ := br.Peek(len(bom)); bytes.Equal(b, bom) {
		br.Discard(len(bom))
	}
	s := scanner{name: name, opts: opts, d: &Data{Quantum: math.Inf(1), Durations: opts.BareUnit != nil}, line: 1, fast: fast}
	s.tok = make([]byte, 0, MaxToken)
	buf := make([]byte, 1<<16)
	var last byte
	sawInput := false
	size := sizeOf(r)
	for {
		n, err := br.Read(buf)
		if n > 0 {
			if perr := s.scan(buf[:n]); perr != nil {
				return s.d, perr
			}
			if !sawInput {
				s.d.Values = presize(s.d.Values, n, size)
			}
			sawInput = true
			last = buf[n-1]
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

// sizeOf returns how many bytes r holds when it says (a regular file, a
// bytes.Reader or strings.Reader), else -1.
func sizeOf(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Len() int }:
		return int64(r.Len())
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size()
		}
	}
	return -1
}

// maxPresize bounds the values presize makes room for (16 Mi values,
// 128 MiB of address space).
const maxPresize = 1 << 24

// presize makes room in values, read from the first n bytes of an input
// of size bytes (-1: unknown), for the values of the whole input at the
// same density, up to maxPresize: one allocation instead of a growth by
// steps that copies and leaves behind four times the values' memory.
func presize(values []float64, n int, size int64) []float64 {
	if size <= int64(n) || len(values) == 0 {
		return values
	}
	want := min(int64(float64(len(values))*float64(size)/float64(n)*1.01)+64, maxPresize)
	if want <= int64(cap(values)) {
		return values
	}
	return slices.Grow(values, int(want)-len(values))
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
	bare, suffixed  int  // counts of each kind of token
	fast            bool // try parseDecimal first
	firstBare       string
	firstSuffixed   string
}

func (s *scanner) scan(chunk []byte) error {
	for i := 0; i < len(chunk); {
		c := chunk[i]
		if isSep[c] {
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
			i++
			continue
		}
		// A token starts here, or goes on from the last chunk.
		j := i + 1
		for j < len(chunk) && !isSep[chunk[j]] {
			j++
		}
		part := chunk[i:j]
		i = j
		if s.tokLen == 0 {
			s.tokLine, s.tokCol = s.line, s.col+1
		}
		s.col += len(part)
		if s.tokLen == 0 && j < len(chunk) && len(part) <= MaxToken {
			// The whole token is in this chunk: parse it in place.
			s.tokLen = len(part)
			err := s.token(part)
			s.tokLen = 0
			if err != nil {
				return err
			}
			continue
		}
		if keep := MaxToken - len(s.tok); keep > 0 {
			s.tok = append(s.tok, part[:min(keep, len(part))]...)
		}
		s.tokLen += len(part)
		if !s.opts.SkipInvalid && s.tokLen > MaxToken {
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

// endToken parses the token gathered in s.tok so far, if any.
func (s *scanner) endToken() error {
	if s.tokLen == 0 {
		return nil
	}
	defer func() { s.tok, s.tokLen = s.tok[:0], 0 }()
	if s.tokLen > MaxToken {
		return s.bad(fmt.Sprintf("a token of %d bytes, starting %s, is not a number", s.tokLen, quote(s.tok)),
			fmt.Sprintf("%s (%d bytes)", quote(s.tok), s.tokLen))
	}
	return s.token(s.tok)
}

// token parses one whole token of at most MaxToken bytes, tok: a plain
// decimal by parseDecimal, anything else (and a decimal parseDecimal
// cannot read exactly) by strconv, as parseToken does.
func (s *scanner) token(tok []byte) error {
	var (
		v, q, mult float64
		hasUnit    bool
		ok         bool
	)
	if s.fast {
		v, q, mult, hasUnit, ok = parseDecimal(tok)
	}
	if !ok {
		var msg string
		if v, q, mult, hasUnit, msg = parseToken(tok); msg != "" {
			return s.bad(msg, quote(tok))
		}
	}
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
		return s.bad(fmt.Sprintf("%s is out of range in nanoseconds: a float64 holds magnitudes up to 1.8e308", quote(tok)), quote(tok))
	}
	if q > 0 && q < s.d.Quantum {
		s.d.Quantum = q
	}
	s.d.Values = append(s.d.Values, v)
	return nil
}

// parseToken reads any token by strconv.ParseFloat, after its duration
// suffix: the value as written, its quantum (see quantum), the suffix's
// multiplier and whether it had one; or, for a token that is not a finite
// number, what is wrong with it (msg).
func parseToken(b []byte) (v, q, mult float64, hasUnit bool, msg string) {
	tok := string(b)
	num, mult, hasUnit := unit.SplitSuffix(tok)
	v, err := strconv.ParseFloat(num, 64)
	if strings.ContainsAny(num, "xX") {
		// strconv reads hexadecimal floats (0x1p-3); their written digits
		// say nothing of their precision, and nobody logs them.
		err = strconv.ErrSyntax
	}
	switch {
	case errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0):
		return 0, 0, 0, false, fmt.Sprintf("%s is out of range: a float64 holds magnitudes up to 1.8e308", quote(b))
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, 0, 0, false, fmt.Sprintf("%s is not a number", quote(b))
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, 0, 0, false, fmt.Sprintf("%s is not a finite number", quote(b))
	}
	// (A magnitude below the smallest subnormal, 1e-400, reads as 0 or
	// the nearest subnormal: correctly rounded, so it is accepted.)
	return v, quantum(num), mult, hasUnit, ""
}

// parseDecimal reads the common token fast: a decimal
// [+-]digits[.digits][(e|E)[+-]digits], with at least one digit before
// the exponent, optionally followed by a duration suffix, whose value is
// m·10^k with a whole m below 2^53 and |k| <= 22. Both m and 10^k are
// exact float64s then, so one multiplication or division rounds
// correctly: the float64 strconv.ParseFloat returns, bit for bit (this is
// strconv's own exact path, Clinger's). q is 10^k, the token's quantum
// (the place value of its last written digit, as quantum computes it).
// ok is false for anything else (other spellings, more digits, larger
// exponents, bad tokens), which parseToken reads instead.
func parseDecimal(b []byte) (v, q, mult float64, hasUnit bool, ok bool) {
	if len(b) == 0 {
		return
	}
	mult = 1
	if c := b[len(b)-1]; (c < '0' || c > '9') && c != '.' {
		// Every suffix ends in a letter. (string(b) of a short token
		// that does not escape is not allocated.)
		num, m, has := unit.SplitSuffix(string(b))
		if !has {
			return
		}
		v, q, ok = parseDecimalNum(num)
		return v, q, m, true, ok
	}
	v, q, ok = parseDecimalNum(b)
	return v, q, mult, false, ok
}

// maxExact is the bound below which whole numbers are exact float64s
// (2^53).
const maxExact = 1 << 53

// exact10 holds the powers of ten that are exact float64s, 10^0 to 10^22,
// and inexact10 the float64s nearest 10^0 to 10^-22 (as Go reads a
// constant: correctly rounded, as strconv reads "1e-5").
var (
	exact10   = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}
	inexact10 = [...]float64{1e-0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18, 1e-19, 1e-20, 1e-21, 1e-22}
)

// parseDecimalNum is parseDecimal of a number without suffix.
func parseDecimalNum[T string | []byte](s T) (v, q float64, ok bool) {
	i, n := 0, len(s)
	neg := false
	if i < n && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var m uint64
	digits, frac := 0, 0 // significant digits in m; digits after the point
	sawDigit, sawDot := false, false
	for ; i < n; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			sawDigit = true
			if sawDot {
				frac++
			}
			if m == 0 && c == '0' {
				continue // a leading zero
			}
			if digits++; digits > 15 && m >= (maxExact-9)/10 {
				return 0, 0, false // m may reach 2^53: strconv's
			}
			m = m*10 + uint64(c-'0')
			continue
		case c == '.' && !sawDot:
			sawDot = true
			continue
		}
		break
	}
	if !sawDigit {
		return 0, 0, false
	}
	exp := 0
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := false
		if i < n && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i == n {
			return 0, 0, false
		}
		for ; i < n; i++ {
			c := s[i]
			if c < '0' || c > '9' || exp > 1000 {
				return 0, 0, false
			}
			exp = exp*10 + int(c-'0')
		}
		if eneg {
			exp = -exp
		}
	}
	if i != n {
		return 0, 0, false
	}
	k := exp - frac
	switch {
	case k >= 0 && k < len(exact10):
		v, q = float64(m)*exact10[k], exact10[k]
	case k < 0 && -k < len(exact10):
		v, q = float64(m)/exact10[-k], inexact10[-k]
	default:
		return 0, 0, false
	}
	if neg {
		v = -v
	}
	return v, q, true
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

// isSep marks the bytes that separate tokens: whitespace and commas.
var isSep = [256]bool{' ': true, '\t': true, ',': true, '\n': true, '\r': true, '\v': true, '\f': true}

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
