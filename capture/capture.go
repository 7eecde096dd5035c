package capture

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/warn"
)

// Format is the kind of a capture file.
type Format string

const (
	// VCD is an IEEE 1364 value change dump (sigrok-cli -O vcd, PulseView,
	// Verilator, Icarus Verilog, GHDL).
	VCD Format = "vcd"
	// CSV is sigrok's CSV output (sigrok-cli -O csv).
	CSV Format = "csv"
	// Session is a sigrok session file (.sr: a zip of metadata and raw
	// logic samples; sigrok-cli -o FILE.sr, PulseView's Save).
	Session Format = "sr"
)

// Level is the value of a signal, or of one bit of it, at one time.
type Level uint8

const (
	// Low is 0 (or a vector whose every bit is 0, or a real 0).
	Low Level = iota
	// High is 1 (or a vector with a bit at 1, or a nonzero real).
	High
	// Unknown is VCD's x (and, for a vector, no bit at 1 but one at x or
	// z; for a real, NaN): the level is not known.
	Unknown
	// HighZ is VCD's z, a released line: its level is not known either.
	HighZ
)

// Known reports whether l is Low or High.
func (l Level) Known() bool { return l <= High }

func (l Level) String() string {
	switch l {
	case Low:
		return "0"
	case High:
		return "1"
	case Unknown:
		return "x"
	case HighZ:
		return "z"
	}
	return "?"
}

// Signal is one variable of a capture: a logic-analyzer channel, or a
// simulator's wire, reg, vector or real.
type Signal struct {
	// Name is the full name: the VCD scopes and the reference joined by
	// dots ("top.cpu.irq", "libsigrok.D0"), with its bit range when the
	// declaration has one ("top.data[7:0]" is Name "top.data" and Range
	// "[7:0]"); a sigrok channel's name ("D0").
	Name string `json:"name"`
	// Aliases are further full names of the same variable (VCD $var
	// declarations that share one identifier code).
	Aliases []string `json:"aliases,omitempty"`
	// Width is the number of bits (1 for a logic-analyzer channel, 64 for
	// a real).
	Width int `json:"width"`
	// Kind is the VCD var type ("wire", "reg", "real", "integer", ...), or
	// "logic" for a sigrok channel.
	Kind string `json:"kind"`
	// Range is the bit range of a VCD vector as declared ("[7:0]"), or "".
	Range string `json:"range,omitempty"`
	// Code is the VCD identifier code (empty for sigrok formats).
	Code string `json:"code,omitempty"`
}

// Real reports whether s holds real numbers rather than bits.
func (s Signal) Real() bool {
	return s.Kind == "real" || s.Kind == "realtime" || s.Kind == "shortreal"
}

// Info describes a capture: what the reader knows before the first change.
type Info struct {
	Format Format `json:"format"`
	// Tick is the length of one unit of Change.Time: the VCD $timescale,
	// or the sample period of a sigrok capture.
	Tick Resolution `json:"tick"`
	// SampleRate is the logic analyzer's sample rate in hertz, 0 when
	// the capture does not say (a simulator's VCD). For a VCD written by
	// sigrok it is read from the header comment.
	SampleRate uint64 `json:"sample_rate_hz,omitempty"`
	// Signals are the capture's variables; Change.Signal indexes them.
	Signals []Signal `json:"signals"`
	// Date is the VCD $date, or the date of a sigrok CSV header.
	Date string `json:"date,omitempty"`
	// Version is what wrote the capture: the VCD $version ("libsigrok
	// 0.5.2", "Icarus Verilog", "GHDL v0"), or the sigrok version of a CSV
	// or session file.
	Version string `json:"version,omitempty"`
	// Device is the acquisition device, when the capture names it
	// (sigrok's CSV header: "Demo driver and pattern generator").
	Device string `json:"device,omitempty"`
	// Comments are the VCD $comment texts of the header.
	Comments []string `json:"comments,omitempty"`
	// Trigger is the time of the trigger, in ticks, when HasTrigger: the
	// first row of a sigrok CSV written with trigger=true whose Trigger
	// column is 1, known once Next has read that row (after io.EOF at the
	// latest). Neither VCD nor sigrok 0.5's session files record it.
	Trigger    uint64 `json:"trigger,omitempty"`
	HasTrigger bool   `json:"has_trigger,omitempty"`
	// Warnings are conditions that weaken what the capture says (no
	// $timescale, an ambiguous channel map, ...).
	Warnings []warn.Warning `json:"warnings,omitempty"`
}

// Resolution is the finest time step the capture can show: the sample
// period when a sample rate is known and is coarser than the tick (sigrok
// writes a 3 MHz capture in a VCD of 1 ns ticks), the tick otherwise.
// The digits rule uses it: a 1 MHz capture does not print nanoseconds.
func (in *Info) Resolution() Resolution {
	if in.SampleRate > 0 {
		p := Resolution{Num: 1, Den: in.SampleRate}
		if p.Coarser(in.Tick) {
			return p
		}
	}
	return in.Tick
}

// Channel is what pulse analysis reads: a whole signal (a vector is
// High when any bit is 1, see Level) or one bit of it.
type Channel struct {
	// Name is the name the channel is reported by: the signal's full
	// name, with "[i]" for a bit.
	Name string
	// Signal indexes Info.Signals.
	Signal int
	// Bit is the bit read, counted from the least significant (0), or -1
	// for the whole signal.
	Bit int
}

// Lookup finds a channel by name: a signal's full name or alias
// ("libsigrok.D0"), or the last part of it when only one signal ends so
// ("D0"), either optionally followed by a bit select "[i]" of a vector
// (i is the declared index: with Range "[0:7]", bit 0 is the most
// significant one).
func (in *Info) Lookup(name string) (Channel, error) {
	if i, err := in.find(name); err == nil {
		return Channel{Name: in.Signals[i].Name, Signal: i, Bit: -1}, nil
	} else if !strings.HasSuffix(name, "]") {
		return Channel{}, err
	}
	open := strings.LastIndexByte(name, '[')
	if open <= 0 {
		return Channel{}, fmt.Errorf("capture: no signal %q in the capture (it has %s)", name, in.names())
	}
	base, sel := name[:open], name[open+1:len(name)-1]
	i, err := in.find(base)
	if err != nil {
		return Channel{}, err
	}
	s := in.Signals[i]
	k, err := strconv.Atoi(sel)
	if err != nil {
		return Channel{}, fmt.Errorf("capture: %q: bit select [%s] is not a bit number", name, sel)
	}
	pos, ok := bitPosition(s, k)
	if !ok || s.Real() {
		return Channel{}, fmt.Errorf("capture: %q: %s has no bit %d (width %d%s)", name, s.Name, k, s.Width, s.Range)
	}
	return Channel{Name: s.Name + "[" + sel + "]", Signal: i, Bit: pos}, nil
}

// bitPosition maps a declared bit index to its position from the least
// significant bit.
func bitPosition(s Signal, k int) (int, bool) {
	pos := k
	if s.Range != "" {
		var msb, lsb int
		if _, err := fmt.Sscanf(s.Range, "[%d:%d]", &msb, &lsb); err == nil {
			pos = k - lsb
			if msb < lsb {
				pos = lsb - k
			}
		}
	}
	return pos, pos >= 0 && pos < s.Width
}

func (in *Info) find(name string) (int, error) {
	for i, s := range in.Signals {
		if s.Name == name {
			return i, nil
		}
		for _, a := range s.Aliases {
			if a == name {
				return i, nil
			}
		}
	}
	found := -1
	for i, s := range in.Signals {
		if leaf(s.Name) == name || leafAlias(s, name) {
			if found >= 0 && found != i {
				return 0, fmt.Errorf("capture: %q names both %s and %s: give the full name", name, in.Signals[found].Name, s.Name)
			}
			found = i
		}
	}
	if found < 0 {
		return 0, fmt.Errorf("capture: no signal %q in the capture (it has %s)", name, in.names())
	}
	return found, nil
}

func leaf(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

func leafAlias(s Signal, name string) bool {
	for _, a := range s.Aliases {
		if leaf(a) == name {
			return true
		}
	}
	return false
}

func (in *Info) names() string {
	var b strings.Builder
	for i, s := range in.Signals {
		if i == 8 {
			fmt.Fprintf(&b, ", ... (%d in all)", len(in.Signals))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.Name)
	}
	if b.Len() == 0 {
		return "no signals"
	}
	return b.String()
}

// Change is one value change: at Time, Signal took a new value.
type Change struct {
	// Time is in ticks of Info.Tick since the capture's time zero; it
	// never decreases from one change to the next.
	Time uint64
	// Signal indexes Info.Signals.
	Signal int
	// Level is the value as a level: for one bit its value; for a vector
	// the reduction OR of its bits (High when a bit is 1, Low when all
	// are 0, Unknown otherwise: Verilog's |v); for a real High when
	// nonzero, Unknown when NaN.
	Level Level
	// Bits is the value of a vector, most significant bit first, one
	// byte per bit ('0', '1', 'x', 'z'), extended to the signal's width
	// as IEEE 1364 §18.2.1 says. It is nil for a 1-bit signal and a real,
	// and valid only until the next call of Next.
	Bits []byte
	// Real is the value of a real variable.
	Real float64
}

// Bit is the level of bit pos (from the least significant, 0) of c.
func (c Change) Bit(pos int) Level {
	if c.Bits == nil {
		if pos == 0 {
			return c.Level
		}
		return Low
	}
	if pos < 0 || pos >= len(c.Bits) {
		return Unknown
	}
	return levelOf(c.Bits[len(c.Bits)-1-pos])
}

func levelOf(b byte) Level {
	switch b {
	case '0':
		return Low
	case '1':
		return High
	case 'z':
		return HighZ
	}
	return Unknown
}

func realLevel(v float64) Level {
	switch {
	case math.IsNaN(v):
		return Unknown
	case v == 0:
		return Low
	}
	return High
}

// changeQueue hands out, one per call, the changes of one sample (a CSV
// row, a sample of a session file): the signals whose level changed.
type changeQueue struct {
	pending []int
	levels  []Level
	now     uint64
}

// pop sets c to the next queued change, calling refill to queue more
// until there is one or it fails (io.EOF at the end).
func (q *changeQueue) pop(c *Change, refill func() error) error {
	for len(q.pending) == 0 {
		if err := refill(); err != nil {
			return err
		}
	}
	i := q.pending[0]
	q.pending = q.pending[1:]
	*c = Change{Time: q.now, Signal: i, Level: q.levels[i]}
	return nil
}

// source is one format's decoder.
type source interface {
	next(c *Change) error
	end() uint64
}

// Reader reads a capture one change at a time, in memory bounded by the
// longest line (not by the file's size).
type Reader struct {
	info   Info
	src    source
	closer io.Closer
	err    error
	cur    Change
}

// Info describes the capture (its header).
func (r *Reader) Info() *Info { return &r.info }

// Next returns the next value change; io.EOF after the last one. Any
// other error is final: a one-line "capture: line N: ..." (or
// "capture: MEMBER: ..." inside a session file).
func (r *Reader) Next() (Change, error) {
	if r.err != nil {
		return Change{}, r.err
	}
	// r.cur, not a local: a pointer through the interface would make
	// the Change escape, an allocation per change.
	if err := r.src.next(&r.cur); err != nil {
		r.err = err
		return Change{}, err
	}
	return r.cur, nil
}

// End is the last time the capture reached, in ticks: the last #time of
// a VCD (sigrok writes one after the last change), the time of the last
// sample of a sigrok capture. It is final once Next returned io.EOF.
func (r *Reader) End() uint64 { return r.src.end() }

// Close closes the file Open opened.
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	err := r.closer.Close()
	r.closer = nil
	return err
}

// Open opens a capture file and reads its header. The format comes from
// the content: a zip is a sigrok session file, text whose first word
// starts with '$' a VCD, other text a sigrok CSV.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("capture: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("capture: %w", err)
	}
	var head [4]byte
	n, _ := io.ReadFull(f, head[:])
	if string(head[:n]) == "PK\x03\x04" {
		r, err := NewSessionReader(f, st.Size())
		if err != nil {
			f.Close()
			return nil, err
		}
		r.closer = f
		return r, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("capture: %w", err)
	}
	br := bufio.NewReaderSize(f, 1<<16)
	format := CSV
	if peek, _ := br.Peek(512); isVCD(peek) {
		format = VCD
	}
	r, err := NewReader(br, format)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closer = f
	return r, nil
}

// isVCD reports whether the first word of a text is a VCD keyword.
func isVCD(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	head = bytes.TrimLeft(head, " \t\r\n\f\v")
	return len(head) > 0 && head[0] == '$'
}

// NewReader reads a VCD or a sigrok CSV capture from r, and reads its
// header now. Use NewSessionReader for a session file.
func NewReader(r io.Reader, format Format) (*Reader, error) {
	switch format {
	case VCD:
		return newVCD(r)
	case CSV:
		return newCSV(r)
	case Session:
		return nil, errors.New("capture: a session file is a zip: read it with NewSessionReader (or Open)")
	}
	return nil, fmt.Errorf("capture: unknown format %q (vcd, csv or sr)", format)
}

// lineError is a capture error at a line.
func lineError(line int, format string, args ...any) error {
	return fmt.Errorf("capture: line %d: "+format, append([]any{line}, args...)...)
}
