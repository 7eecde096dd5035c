package capture

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/warn"
)

// vcdSource decodes a value change dump (IEEE 1364-2005 §18.2): the
// header (declarations up to $enddefinitions) when it is made, then one
// value change per call of next.
type vcdSource struct {
	s     *scanner
	codes map[string]int
	// code1 and code2 index the one- and two-character identifier codes
	// (most of them: sigrok writes '!' + channel) without a map look-up;
	// they hold the signal index + 1, 0 for none.
	code1  [128]int32
	code2  []int32
	width  []int
	real   []bool
	now    uint64
	last   uint64 // the latest #time
	inDump string // the open $dumpvars/$dumpall/$dumpon/$dumpoff, or ""
	bits   []byte
}

// headerKeywords are the declaration commands, not allowed after
// $enddefinitions nor inside another declaration.
var headerKeywords = map[string]bool{
	"$date": true, "$version": true, "$timescale": true, "$scope": true, "$upscope": true,
	"$var": true, "$enddefinitions": true,
}

// keywords are every VCD command: one inside a declaration means that
// declaration's $end is missing. (A word that merely starts with '$' is
// not one: '$' is an identifier code, sigrok's fourth channel.)
var keywords = map[string]bool{
	"$date": true, "$version": true, "$timescale": true, "$scope": true, "$upscope": true,
	"$var": true, "$enddefinitions": true, "$comment": true,
	"$dumpvars": true, "$dumpall": true, "$dumpon": true, "$dumpoff": true,
}

// maxSectionText bounds the text kept of a $date, $version or $comment.
const maxSectionText = 4096

func newVCD(r io.Reader) (*Reader, error) {
	v := &vcdSource{s: newScanner(r, "VCD", "word"), codes: map[string]int{}}
	rd := &Reader{info: Info{Format: VCD}, src: v}
	if err := v.header(&rd.info); err != nil {
		return nil, err
	}
	return rd, nil
}

// section returns the words up to the next $end. keep says whether to
// keep them (as one space-separated text, at most maxSectionText bytes);
// strict rejects a declaration keyword among them (a missing $end).
func (v *vcdSource) section(name string, keep, strict bool) (string, []string, error) {
	var text strings.Builder
	var words []string
	for {
		w, err := v.s.word()
		if err == io.EOF {
			return "", nil, v.s.truncated(name)
		}
		if err != nil {
			return "", nil, err
		}
		if string(w) == "$end" {
			return text.String(), words, nil
		}
		if strict && keywords[string(w)] {
			return "", nil, lineError(v.s.tokLine, "%s inside %s: its $end is missing", w, name)
		}
		if keep {
			if text.Len()+len(w) < maxSectionText {
				if text.Len() > 0 {
					text.WriteByte(' ')
				}
				text.Write(w)
			}
			if strict && len(words) < 16 {
				words = append(words, string(w))
			}
		}
	}
}

func (v *vcdSource) header(in *Info) error {
	var scopes []string
	type decl struct {
		code string
		line int
	}
	declared := map[string]decl{}
	timescaleLine := 0
	for {
		w, err := v.s.word()
		if err == io.EOF {
			return lineError(v.s.last(), "truncated: the file ends before $enddefinitions (the header is incomplete)")
		}
		if err != nil {
			return err
		}
		line := v.s.tokLine
		kw := string(w)
		switch kw {
		case "$date", "$version", "$comment":
			text, _, err := v.section(kw, true, kw != "$comment")
			if err != nil {
				return err
			}
			switch kw {
			case "$date":
				in.Date = text
			case "$version":
				in.Version = text
			default:
				in.Comments = append(in.Comments, text)
			}
		case "$timescale":
			text, _, err := v.section(kw, true, true)
			if err != nil {
				return err
			}
			if timescaleLine > 0 {
				return lineError(line, "a second $timescale (the first is on line %d)", timescaleLine)
			}
			res, err := parseTimescale(text)
			if err != nil {
				return lineError(line, "%v", err)
			}
			in.Tick, timescaleLine = res, line
		case "$scope":
			_, words, err := v.section(kw, true, true)
			if err != nil {
				return err
			}
			if len(words) != 2 {
				return lineError(line, "$scope wants a type and a name ($scope module top $end), not %q", strings.Join(words, " "))
			}
			scopes = append(scopes, words[1])
		case "$upscope":
			if _, _, err := v.section(kw, false, true); err != nil {
				return err
			}
			if len(scopes) == 0 {
				return lineError(line, "$upscope without an open $scope")
			}
			scopes = scopes[:len(scopes)-1]
		case "$var":
			_, words, err := v.section(kw, true, true)
			if err != nil {
				return err
			}
			if len(words) < 4 {
				return lineError(line, "$var wants a type, a size, an identifier code and a name ($var wire 1 ! clk $end), not %q", strings.Join(words, " "))
			}
			sig, err := newVar(words, scopes)
			if err != nil {
				return lineError(line, "%v", err)
			}
			if d, ok := declared[sig.Name]; ok {
				if d.code != sig.Code {
					return lineError(line, "signal %s declared twice (line %d and line %d), with identifier codes %q and %q: a capture names each signal once", sig.Name, d.line, line, d.code, sig.Code)
				}
				continue
			}
			declared[sig.Name] = decl{sig.Code, line}
			if i, ok := v.codes[sig.Code]; ok {
				// Another name of the same variable (IEEE 1364 §18.2.3.8:
				// several $var may share one identifier code).
				s := &in.Signals[i]
				if s.Width != sig.Width || s.Real() != sig.Real() {
					return lineError(line, "identifier code %q declared as %s %d bits wide and as %s %d bits wide", sig.Code, s.Kind, s.Width, sig.Kind, sig.Width)
				}
				s.Aliases = append(s.Aliases, sig.Name)
				continue
			}
			v.addCode(sig.Code, len(in.Signals))
			in.Signals = append(in.Signals, sig)
			v.width = append(v.width, sig.Width)
			v.real = append(v.real, sig.Real())
		case "$enddefinitions":
			if _, _, err := v.section(kw, false, true); err != nil {
				return err
			}
			if len(in.Signals) == 0 {
				return lineError(line, "no $var before $enddefinitions: the capture has no signals")
			}
			if !in.Tick.Known() {
				in.Warnings = append(in.Warnings, warn.New("capture-no-timescale",
					"the VCD has no $timescale: times are counted in ticks of unknown length",
					"write the capture with a $timescale (every simulator and sigrok can)"))
			}
			in.SampleRate = sigrokRate(in)
			return nil
		default:
			if len(w) > 0 && w[0] == '$' {
				// An extension (GTKWave's $attrbegin, ...): skipped.
				if _, _, err := v.section(kw, false, false); err != nil {
					return err
				}
				continue
			}
			return lineError(line, "%q before $enddefinitions: not a VCD declaration", clip(w))
		}
	}
}

// sigrokRate reads the sample rate from the comment sigrok writes in a
// VCD ("Acquisition with 3/13 channels at 1 MHz"), 0 when there is none.
func sigrokRate(in *Info) uint64 {
	if !strings.HasPrefix(in.Version, "libsigrok") {
		return 0
	}
	for _, c := range in.Comments {
		if _, rate, ok := strings.Cut(c, " channels at "); ok && strings.HasPrefix(c, "Acquisition with ") {
			if hz, err := parseSampleRate(rate); err == nil {
				return hz
			}
		}
	}
	return 0
}

// newVar reads the words of a $var declaration.
func newVar(words, scopes []string) (Signal, error) {
	kind, size, code, ref := words[0], words[1], words[2], words[3]
	width, err := strconv.Atoi(size)
	if err != nil || width < 1 || width > maxToken {
		return Signal{}, fmt.Errorf("$var %s: size %q is not a positive number of bits", ref, size)
	}
	for i := 0; i < len(code); i++ {
		if code[i] < '!' || code[i] > '~' {
			return Signal{}, fmt.Errorf("$var %s: identifier code %q is not printable ASCII (IEEE 1364 §18.2.3.8)", ref, code)
		}
	}
	rng := strings.Join(words[4:], "")
	if rng == "" {
		if i := strings.IndexByte(ref, '['); i > 0 && strings.HasSuffix(ref, "]") {
			ref, rng = ref[:i], ref[i:]
		}
	}
	name := strings.Join(append(append([]string{}, scopes...), ref), ".")
	s := Signal{Name: name, Width: width, Kind: kind, Code: code}
	if rng != "" {
		if strings.Contains(rng, ":") {
			s.Range = rng
		} else {
			s.Name += rng // one bit of a vector declared on its own: "data[3]"
		}
	}
	return s, nil
}

func (v *vcdSource) addCode(code string, i int) {
	v.codes[code] = i
	switch len(code) {
	case 1:
		v.code1[code[0]] = int32(i + 1)
	case 2:
		if v.code2 == nil {
			v.code2 = make([]int32, 94*94)
		}
		v.code2[int(code[0]-'!')*94+int(code[1]-'!')] = int32(i + 1)
	}
}

func (v *vcdSource) lookup(id []byte) (int, bool) {
	switch len(id) {
	case 1:
		if c := id[0]; c < 128 {
			if x := v.code1[c]; x > 0 {
				return int(x - 1), true
			}
		}
		return 0, false
	case 2:
		if v.code2 != nil && id[0] >= '!' && id[0] <= '~' && id[1] >= '!' && id[1] <= '~' {
			if x := v.code2[int(id[0]-'!')*94+int(id[1]-'!')]; x > 0 {
				return int(x - 1), true
			}
		}
		return 0, false
	}
	i, ok := v.codes[string(id)]
	return i, ok
}

// bitValue maps a VCD value character to '0', '1', 'x' or 'z', or 0 for
// a character that is not a value. Besides 0, 1, x and z (either case) it
// takes the other std_logic letters some VHDL tools write: U, W and - as
// x, L and H as 0 and 1.
func bitValue(c byte) byte {
	switch c {
	case '0', 'l', 'L':
		return '0'
	case '1', 'h', 'H':
		return '1'
	case 'x', 'X', 'u', 'U', 'w', 'W', '-':
		return 'x'
	case 'z', 'Z':
		return 'z'
	}
	return 0
}

func (v *vcdSource) end() uint64 { return v.last }

func (v *vcdSource) next(c *Change) error {
	for {
		w, err := v.s.word()
		if err == io.EOF {
			if v.inDump != "" {
				return v.s.truncated(v.inDump)
			}
			return io.EOF
		}
		if err != nil {
			return err
		}
		switch w[0] {
		case '#':
			t, ok := parseTime(w[1:])
			if !ok {
				return lineError(v.s.tokLine, "time %q is not a whole number of ticks", clip(w))
			}
			if t < v.now {
				return lineError(v.s.tokLine, "time #%d comes after #%d: the times of a VCD never decrease", t, v.now)
			}
			v.now, v.last = t, t
		case 'b', 'B':
			return v.vector(c, w)
		case 'r', 'R':
			return v.realValue(c, w)
		case '$':
			if err := v.command(w); err != nil {
				return err
			}
		default:
			b := bitValue(w[0])
			if b == 0 {
				return lineError(v.s.tokLine, "%q is not a value change (0, 1, x or z and a code, b..., r...) nor a #time", clip(w))
			}
			line := v.s.tokLine
			i, ok := v.lookup(w[1:])
			if !ok {
				if len(w) == 1 {
					return lineError(line, "value %q has no identifier code after it", w)
				}
				return lineError(line, "unknown identifier code %q: no $var declares it", clip(w[1:]))
			}
			if v.real[i] {
				return lineError(line, "%q gives a bit to a real variable (write r<number> %s)", clip(w), clip(w[1:]))
			}
			*c = Change{Time: v.now, Signal: i, Level: levelOf(b)}
			if v.width[i] > 1 {
				v.bits = append(v.bits[:0], b)
				c.Bits, c.Level = v.extend(i)
			}
			return nil
		}
	}
}

// command handles a $keyword among the value changes.
func (v *vcdSource) command(w []byte) error {
	kw := string(w)
	switch kw {
	case "$dumpvars", "$dumpall", "$dumpon", "$dumpoff":
		if v.inDump != "" {
			return lineError(v.s.tokLine, "%s inside %s: its $end is missing", kw, v.inDump)
		}
		v.inDump = kw
	case "$end":
		if v.inDump == "" {
			return lineError(v.s.tokLine, "$end without a $dumpvars, $dumpall, $dumpon or $dumpoff before it")
		}
		v.inDump = ""
	default:
		if headerKeywords[kw] {
			return lineError(v.s.tokLine, "%s after $enddefinitions: declarations belong in the header", kw)
		}
		// $comment, or an extension: skipped to its $end.
		if _, _, err := v.section(kw, false, false); err != nil {
			return err
		}
	}
	return nil
}

// identifier reads the word after a vector or real value: its
// identifier code.
func (v *vcdSource) identifier(value []byte) (int, int, error) {
	line := v.s.tokLine
	id, err := v.s.word()
	if err == io.EOF {
		return 0, line, v.s.truncated(fmt.Sprintf("the value change %q (no identifier code after it)", clip(value)))
	}
	if err != nil {
		return 0, line, err
	}
	i, ok := v.lookup(id)
	if !ok {
		return 0, line, lineError(v.s.tokLine, "unknown identifier code %q: no $var declares it", clip(id))
	}
	return i, line, nil
}

func (v *vcdSource) vector(c *Change, w []byte) error {
	// Keep the value: the next word may move the scanner's buffer.
	v.bits = v.bits[:0]
	for _, ch := range w[1:] {
		b := bitValue(ch)
		if b == 0 {
			return lineError(v.s.tokLine, "vector value %q: %q is not 0, 1, x or z", clip(w), ch)
		}
		v.bits = append(v.bits, b)
	}
	if len(v.bits) == 0 {
		return lineError(v.s.tokLine, "vector value %q has no bits", clip(w))
	}
	value := append([]byte(nil), w[:min(len(w), 16)]...)
	i, line, err := v.identifier(value)
	if err != nil {
		return err
	}
	if v.real[i] {
		return lineError(line, "vector value %q given to a real variable", clip(value))
	}
	if len(v.bits) > v.width[i] {
		return lineError(line, "vector value of %d bits for a %d-bit variable", len(v.bits), v.width[i])
	}
	*c = Change{Time: v.now, Signal: i}
	c.Bits, c.Level = v.extend(i)
	if v.width[i] == 1 {
		c.Bits = nil
	}
	return nil
}

// extend widens v.bits to the width of signal i (IEEE 1364 §18.2.1: a
// leftmost 0 or 1 extends with 0, x with x, z with z) and returns it
// with its reduction-OR level.
func (v *vcdSource) extend(i int) ([]byte, Level) {
	if pad := v.width[i] - len(v.bits); pad > 0 {
		fill := v.bits[0]
		if fill == '1' {
			fill = '0'
		}
		n := len(v.bits)
		for k := 0; k < pad; k++ {
			v.bits = append(v.bits, 0)
		}
		copy(v.bits[pad:], v.bits[:n])
		for k := 0; k < pad; k++ {
			v.bits[k] = fill
		}
	}
	level, allZ := Low, true
	for _, b := range v.bits {
		switch b {
		case '1':
			return v.bits, High
		case 'x':
			level, allZ = Unknown, false
		case 'z':
			level = Unknown
		default:
			allZ = false
		}
	}
	if level == Unknown && allZ {
		level = HighZ
	}
	return v.bits, level
}

func (v *vcdSource) realValue(c *Change, w []byte) error {
	f, err := strconv.ParseFloat(string(w[1:]), 64)
	if err != nil && !isRange(err) {
		return lineError(v.s.tokLine, "real value %q is not a number", clip(w))
	}
	value := append([]byte(nil), w[:min(len(w), 16)]...)
	i, line, err := v.identifier(value)
	if err != nil {
		return err
	}
	if !v.real[i] {
		return lineError(line, "real value %q given to a %d-bit variable (write b<bits> or 0/1)", clip(value), v.width[i])
	}
	*c = Change{Time: v.now, Signal: i, Real: f, Level: realLevel(f)}
	return nil
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// parseTime reads the decimal digits of a #time.
func parseTime(b []byte) (uint64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var t uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if t > (math.MaxUint64-d)/10 {
			return 0, false
		}
		t = t*10 + d
	}
	return t, true
}

// clip shortens a quoted word for an error message.
func clip(b []byte) string {
	const n = 40
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}
