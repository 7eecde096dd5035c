// Package screen is a terminal for tests, as far as chrono's live displays
// drive one: printable text, newline, carriage return, and the ECMA-48
// sequences CUU (ESC[nA, cursor up), EL (ESC[K, erase to the end of the
// line) and ED (ESC[J, erase to the end of the screen). It fails the test
// on any other escape sequence, so that a sequence it does not know cannot
// pass unseen. Tests write to a Screen as to a terminal and read back what
// it shows (Text).
package screen

import (
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Screen is a terminal. Its methods are safe for concurrent use.
type Screen struct {
	t        testing.TB
	mu       sync.Mutex
	rows     [][]rune
	row, col int
	esc      []byte // an escape sequence being read
	onWrite  func(s *Screen)
}

// New returns an empty screen that fails t on an unknown escape sequence.
// onWrite, if not nil, is called (outside the screen's lock) after each
// write.
func New(t testing.TB, onWrite func(s *Screen)) *Screen {
	return &Screen{t: t, onWrite: onWrite}
}

// Write puts p on the screen.
func (s *Screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	for _, r := range string(p) {
		s.put(r)
	}
	s.mu.Unlock()
	if s.onWrite != nil {
		s.onWrite(s)
	}
	return len(p), nil
}

func (s *Screen) put(r rune) {
	for len(s.rows) <= s.row {
		s.rows = append(s.rows, nil)
	}
	if s.esc != nil {
		s.esc = append(s.esc, string(r)...)
		if len(s.esc) == 1 || (r >= '0' && r <= '9') {
			return // "[" or a parameter digit
		}
		n := 1
		if v, err := strconv.Atoi(string(s.esc[1 : len(s.esc)-1])); err == nil {
			n = v
		}
		switch {
		case s.esc[0] == '[' && r == 'A':
			s.row = max(0, s.row-n)
		case s.esc[0] == '[' && r == 'K':
			s.rows[s.row] = s.rows[s.row][:min(s.col, len(s.rows[s.row]))]
		case s.esc[0] == '[' && r == 'J':
			s.rows[s.row] = s.rows[s.row][:min(s.col, len(s.rows[s.row]))]
			s.rows = s.rows[:s.row+1]
		default:
			s.t.Errorf("screen: unknown escape sequence ESC%s", s.esc)
		}
		s.esc = nil
		return
	}
	switch r {
	case 0x1b:
		s.esc = []byte{}
	case '\n':
		s.row, s.col = s.row+1, 0
	case '\r':
		s.col = 0
	default:
		line := s.rows[s.row]
		for len(line) < s.col {
			line = append(line, ' ')
		}
		if s.col < len(line) {
			line[s.col] = r
		} else {
			line = append(line, r)
		}
		s.rows[s.row] = line
		s.col++
	}
}

// Echo puts text on the screen as the terminal's own echo of a key (the
// ^C of an interruption), without calling onWrite.
func (s *Screen) Echo(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range text {
		s.put(r)
	}
}

// Text is what the screen shows, one line per row, trailing blanks and
// empty rows at the end dropped.
func (s *Screen) Text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var lines []string
	for _, r := range s.rows {
		lines = append(lines, strings.TrimRight(string(r), " "))
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}
