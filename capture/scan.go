package capture

import (
	"bytes"
	"errors"
	"io"
)

// maxToken bounds the memory a reader holds: the longest word (VCD) or
// line (CSV) it accepts.
const maxToken = 16 << 20

// scanner splits a text stream into whitespace-separated words or into
// lines, counting lines, in a buffer that grows only to the longest word
// or line (at most maxToken bytes). The slices it returns are valid until
// its next call.
type scanner struct {
	r        io.Reader
	buf      []byte
	pos, end int
	eof      bool
	line     int    // line at pos, from 1
	tokLine  int    // line where the last word or line began
	lastLine int    // line of the last word or non-empty line returned
	kind     string // "VCD" or "CSV", for errors
	unit     string // "word" or "line", for errors
	bomDone  bool
}

func newScanner(r io.Reader, kind, unit string) *scanner {
	return &scanner{r: r, buf: make([]byte, 1<<16), line: 1, kind: kind, unit: unit}
}

// fill reads more input after the unread bytes; false at the end of the
// input (or on a read error, kept in readErr).
func (s *scanner) fill() (bool, error) {
	if s.eof {
		return false, nil
	}
	if s.pos > 0 {
		copy(s.buf, s.buf[s.pos:s.end])
		s.end -= s.pos
		s.pos = 0
	}
	if s.end == len(s.buf) {
		if len(s.buf) >= maxToken {
			return false, lineError(s.tokLine, "a %s longer than %d MiB: not a %s capture", s.unit, maxToken>>20, s.kind)
		}
		nb := make([]byte, 2*len(s.buf))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	start := s.end
	for {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if !s.bomDone {
			// The first read: a UTF-8 byte order mark at the start of
			// the file is not part of the text.
			if s.end < 3 && err == nil && s.end < len(s.buf) {
				continue
			}
			s.bomDone = true
			if s.end >= 3 && s.buf[0] == 0xef && s.buf[1] == 0xbb && s.buf[2] == 0xbf {
				s.pos = 3
			}
		}
		if err != nil {
			s.eof = true
			if !errors.Is(err, io.EOF) {
				return false, lineError(s.line, "reading: %w", err)
			}
			return s.end > start, nil
		}
		if s.end > start {
			return true, nil
		}
	}
}

// more reads more input, keeping the unread bytes; i is an offset into
// them, returned where it moved with them.
func (s *scanner) more(i int) (int, bool, error) {
	n := i - s.pos
	ok, err := s.fill()
	return s.pos + n, ok, err
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func (s *scanner) binary(c byte) error {
	return lineError(s.line, "binary data (byte 0x%02x): not a text %s capture", c, s.kind)
}

// word returns the next whitespace-separated word, or io.EOF.
func (s *scanner) word() ([]byte, error) {
	for {
		for s.pos < s.end {
			c := s.buf[s.pos]
			if !isSpace(c) {
				goto start
			}
			if c == '\n' {
				s.line++
			}
			s.pos++
		}
		ok, err := s.fill()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, io.EOF
		}
	}
start:
	s.tokLine = s.line
	i := s.pos
	for {
		for i < s.end {
			c := s.buf[i]
			if c <= ' ' || c == 0x7f {
				if isSpace(c) {
					w := s.buf[s.pos:i]
					s.pos, s.lastLine = i, s.tokLine
					return w, nil
				}
				return nil, s.binary(c)
			}
			i++
		}
		var ok bool
		var err error
		if i, ok, err = s.more(i); err != nil {
			return nil, err
		}
		if !ok {
			w := s.buf[s.pos:s.end]
			s.pos, s.lastLine = s.end, s.tokLine
			return w, nil
		}
	}
}

// lineBytes returns the next line without its "\n" or "\r\n", or io.EOF.
// It rejects control bytes other than tab and carriage return.
func (s *scanner) lineBytes() ([]byte, error) {
	s.tokLine = s.line
	i := s.pos
	for {
		for i < s.end {
			c := s.buf[i]
			if c == '\n' {
				l := s.buf[s.pos:i]
				s.pos = i + 1
				s.line++
				return s.endLine(l)
			}
			if c < ' ' && c != '\t' && c != '\r' || c == 0x7f {
				return nil, s.binary(c)
			}
			i++
		}
		var ok bool
		var err error
		if i, ok, err = s.more(i); err != nil {
			return nil, err
		}
		if !ok {
			if s.pos == s.end {
				return nil, io.EOF
			}
			l := s.buf[s.pos:s.end]
			s.pos = s.end
			return s.endLine(l)
		}
	}
}

// endLine drops the '\r' of a "\r\n" line end; a carriage return
// elsewhere is not text.
func (s *scanner) endLine(l []byte) ([]byte, error) {
	if n := len(l); n > 0 && l[n-1] == '\r' {
		l = l[:n-1]
	}
	if bytes.IndexByte(l, '\r') >= 0 {
		return nil, lineError(s.tokLine, "a carriage return inside a line: not a %s capture with \\n or \\r\\n line ends", s.kind)
	}
	if len(l) > 0 {
		s.lastLine = s.tokLine
	}
	return l, nil
}

// last is the number of the last line with content (1 for an empty
// input): where an error about the end of the input points.
func (s *scanner) last() int { return max(s.lastLine, 1) }

// truncated is the error for input that ends inside a construct.
func (s *scanner) truncated(what string) error {
	return lineError(s.last(), "truncated: the file ends inside %s", what)
}
