package main

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// screen is a terminal as far as chrono's output drives one: printable
// text, newline, carriage return, and the ECMA-48 sequences CUU (ESC[nA,
// cursor up), EL (ESC[K, erase to the end of the line) and ED (ESC[J,
// erase to the end of the screen). It fails the test on any other escape
// sequence, so that a sequence it does not know cannot pass unseen.
type screen struct {
	t        *testing.T
	mu       sync.Mutex
	rows     [][]rune
	row, col int
	esc      []byte // an escape sequence being read
	// onWrite, if set, is called (outside the lock) after each write.
	onWrite func(s *screen)
}

func (s *screen) Write(p []byte) (int, error) {
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

func (s *screen) put(r rune) {
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

// echo puts text on the screen as the terminal's own echo of a key
// (without calling onWrite).
func (s *screen) echo(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range text {
		s.put(r)
	}
}

// text is what the screen shows, one line per row, trailing blanks and
// empty rows at the end dropped.
func (s *screen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var lines []string
	for _, r := range s.rows {
		lines = append(lines, strings.TrimRight(string(r), " "))
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

func TestLiveTextClears(t *testing.T) {
	tests := []struct {
		name  string
		shows [][]string
	}{
		{"one line redrawn", [][]string{{"run 1/10"}, {"run 2/10, longer"}, {"3"}}},
		{"three lines", [][]string{{"T: 0 a", "T: 1 b", "T: 2 c"}, {"T: 0 aa", "T: 1 bb", "T: 2 cc"}}},
		{"growing", [][]string{{"x"}, {"x", "y"}, {"x", "y", "z"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := &screen{t: t}
			sc.Write([]byte("above\n"))
			l := liveText{w: sc}
			for _, lines := range tt.shows {
				l.show(lines...)
				if got, want := sc.text(), "above\n"+strings.Join(lines, "\n"); got != want {
					t.Fatalf("screen after show:\n%s\nwant:\n%s", got, want)
				}
			}
			sc.echo("^C") // the terminal's echo of an interruption
			l.clear()
			l.clear() // a second clear erases nothing more
			if got := sc.text(); got != "above" {
				t.Errorf("screen after clear:\n%s\nwant only the line above the live text", got)
			}
		})
	}
}

// TestLatencyInterruptClearsLive: a latency test interrupted (the
// signal's context cancelled) while its live lines are on the terminal
// leaves none of them, nor the ^C the terminal echoed, on the screen:
// only chrono's closing message (the summary goes to standard output).
func TestLatencyInterruptClearsLive(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the latency test is Linux-only")
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	old := interruptContext
	interruptContext = func(context.Context) (context.Context, func()) { return ctx, func() {} }
	t.Cleanup(func() { interruptContext = old })
	var once sync.Once
	sc := &screen{t: t, onWrite: func(s *screen) {
		if strings.Contains(s.text(), "T: 0") {
			once.Do(func() {
				s.echo("^C")
				cancel(interruptedError{os.Interrupt})
			})
		}
	}}
	var out bytes.Buffer
	code := executeWithInput([]string{"latency", "--live", "-i", "1000"}, strings.NewReader(""), &out, sc)
	if code != 130 {
		t.Fatalf("exit %d, want 130; screen:\n%s", code, sc.text())
	}
	if got := sc.text(); got != "chrono: latency: interrupted by SIGINT; the figures cover what was measured" {
		t.Errorf("the screen holds:\n%s\nwant only the closing message", got)
	}
	if !strings.Contains(out.String(), "T: 0") {
		t.Errorf("no summary on standard output:\n%s", out.String())
	}
}
