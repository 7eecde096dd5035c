package numbers

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/chronograph/chronograph/unit"
)

// TestParseDecimal: where parseDecimal reads a token, it gives what
// parseToken (strconv.ParseFloat and quantum) gives, bit for bit: value,
// quantum, suffix and multiplier; the common spellings take it (printf's
// %g, %f and %e of random values, integers, durations); the others are
// left to parseToken.
func TestParseDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	fast := 0
	check := func(tok string, wantFast bool) {
		t.Helper()
		v, q, mult, hasUnit, ok := parseDecimal([]byte(tok))
		if ok != wantFast {
			t.Errorf("%q: fast path %v, want %v", tok, ok, wantFast)
		}
		if !ok {
			return
		}
		fast++
		wv, wq, wmult, whas, msg := parseToken([]byte(tok))
		if msg != "" || math.Float64bits(v) != math.Float64bits(wv) || math.Float64bits(q) != math.Float64bits(wq) || mult != wmult || hasUnit != whas {
			t.Errorf("%q: %v (%#x) q %v ×%v %v, strconv %v (%#x) q %v ×%v %v %s", tok, v, math.Float64bits(v), q, mult, hasUnit,
				wv, math.Float64bits(wv), wq, wmult, whas, msg)
		}
	}
	for range 20000 {
		x := math.Exp(r.NormFloat64()*8) * float64(1-2*r.IntN(2))
		for _, f := range []byte{'g', 'f', 'e'} {
			tok := strconv.FormatFloat(x, f, r.IntN(12), 64)
			_, _, ok := parseDecimalNum(tok)
			check(tok, ok) // agreement wherever it is taken
			check(tok+"ms", ok)
		}
		check(strconv.FormatFloat(x, 'g', 6, 64), true)
		check(strconv.Itoa(r.IntN(1e9)), true)
		check(strconv.Itoa(r.IntN(1000))+"."+strconv.Itoa(r.IntN(1000))+[]string{"ns", "us", "µs", "μs", "ms", "s", "m", "h"}[r.IntN(8)], true)
	}
	for _, tok := range []string{"0", "-0", "+5", "5.", ".5", "-.5e-3", "1.e5", "1E5", "1e+05", "0.000", "-0.0ms", "12.5ms", "3s", "1h", "2m",
		"900719925474099", "900719925474099e7", "1e22", "1e-22", "0.0000000000000000000001", "123456789012345", "1.5µs"} {
		check(tok, true)
	}
	for _, tok := range []string{"", "-", ".", "e5", "1e", "1e+", "1.2.3", "1e5.5", "0x10", "0x1p-3", "inf", "NaN", "1_000", "1e23", "1e-23",
		"9007199254740993", "12345678901234567890", "1e400", "1e-400", "12.5mS", "ms", "5es", "1,5", "--5", "+-5", "5e--3", "١"} {
		check(tok, false)
	}
	if fast < 60000 {
		t.Errorf("only %d tokens took the fast path", fast)
	}
}

// FuzzParseDecimal: on any token parseDecimal either declines or agrees
// with parseToken bit for bit.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"1", "-0", "12.5ms", "0.697908", "1e22", "9007199254740991", ".5", "5.", "1e-22", "3.33234µs"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, tok []byte) {
		v, q, mult, hasUnit, ok := parseDecimal(tok)
		if !ok {
			return
		}
		wv, wq, wmult, whas, msg := parseToken(tok)
		if msg != "" || math.Float64bits(v) != math.Float64bits(wv) || math.Float64bits(q) != math.Float64bits(wq) || mult != wmult || hasUnit != whas {
			t.Fatalf("%q: %v q %v ×%v %v, strconv %v q %v ×%v %v %s", tok, v, q, mult, hasUnit, wv, wq, wmult, whas, msg)
		}
	})
}

// FuzzReadPaths: Read of any input, with any options, gives what it gives
// reading one byte at a time (every token then crosses chunks and is
// gathered, not parsed in place) with every token read by strconv: the
// same values bit for bit, quantum, lines, skipped tokens and error
// message, byte for byte.
func FuzzReadPaths(f *testing.F) {
	for _, s := range []string{"1 2 3\n", "12.5ms 800us\n3s", "1\n2ms\n", "1 x 2", "\uFEFF1e400", "0.697908\n3.33234\n", "-0 +5 .5 5.",
		"1e22 1e23 9007199254740993", "\x00\x00\x00", "1,,2,\r\n3"} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(1))
	}
	units := []*unit.Unit{nil, &unit.Nanosecond, &unit.Millisecond}
	f.Fuzz(func(t *testing.T, in []byte, flags uint8) {
		opts := Options{SkipInvalid: flags&1 != 0, BareUnit: units[int(flags>>1)%len(units)]}
		got, gerr := Read(bytes.NewReader(in), "in", opts)
		want, werr := read(iotest.OneByteReader(bytes.NewReader(in)), "in", opts, false)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Fatalf("error %v, by strconv %v", gerr, werr)
		}
		if gerr != nil {
			return
		}
		same := len(got.Values) == len(want.Values)
		for i := 0; same && i < len(got.Values); i++ {
			same = math.Float64bits(got.Values[i]) == math.Float64bits(want.Values[i])
		}
		if !same || math.Float64bits(got.Quantum) != math.Float64bits(want.Quantum) || got.Lines != want.Lines ||
			got.Durations != want.Durations || got.Skipped != want.Skipped || got.FirstSkipped != want.FirstSkipped {
			t.Fatalf("got %+v, by strconv %+v", got, want)
		}
	})
}

// TestReadChunkBoundaries: an input of several 64 KiB chunks, with tokens
// across every chunk boundary (a bad one, a long one among them), reads
// as it does one byte at a time by strconv.
func TestReadChunkBoundaries(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var b bytes.Buffer
	for b.Len() < 300_000 {
		switch r.IntN(40) {
		case 0:
			b.WriteString("bad")
		case 1:
			b.WriteString(strings.Repeat("7", 300)) // longer than MaxToken
		default:
			b.WriteString(strconv.FormatFloat(math.Exp(r.NormFloat64()), 'g', 1+r.IntN(17), 64))
			if r.IntN(3) == 0 {
				b.WriteString("ms")
			}
		}
		b.WriteString([]string{"\n", " ", ",", "\r\n", "\t"}[r.IntN(5)])
	}
	opts := Options{SkipInvalid: true, BareUnit: &unit.Millisecond}
	got, err := Read(bytes.NewReader(b.Bytes()), "in", opts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := read(iotest.OneByteReader(bytes.NewReader(b.Bytes())), "in", opts, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Values) != len(want.Values) || got.Skipped != want.Skipped || got.FirstSkipped != want.FirstSkipped || got.Lines != want.Lines || got.Quantum != want.Quantum {
		t.Fatalf("got %d values, %d skipped (%s), %d lines, quantum %g; one byte at a time %d, %d (%s), %d, %g",
			len(got.Values), got.Skipped, got.FirstSkipped, got.Lines, got.Quantum, len(want.Values), want.Skipped, want.FirstSkipped, want.Lines, want.Quantum)
	}
	for i := range got.Values {
		if math.Float64bits(got.Values[i]) != math.Float64bits(want.Values[i]) {
			t.Fatalf("value %d: %v, one byte at a time %v", i, got.Values[i], want.Values[i])
		}
	}
	if got.Skipped < 100 {
		t.Errorf("only %d bad tokens: the input does not test them", got.Skipped)
	}
	// Without --skip-invalid the first bad token fails alike.
	_, gerr := Read(bytes.NewReader(b.Bytes()), "in", Options{BareUnit: &unit.Millisecond})
	_, werr := read(iotest.OneByteReader(bytes.NewReader(b.Bytes())), "in", Options{BareUnit: &unit.Millisecond}, false)
	if gerr == nil || fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Errorf("error %v, one byte at a time %v", gerr, werr)
	}
}
