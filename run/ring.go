package run

import (
	"io"
	"sync"
)

// tail keeps the last cap bytes written to it: the end of a command's
// stderr, for error messages, in constant memory however much is written.
type tail struct {
	mu   sync.Mutex
	buf  []byte
	cap  int
	full bool // more than cap bytes were written
	pos  int  // next write position once full
	n    int64
}

// Total returns how many bytes were written since the last Reset.
func (t *tail) Total() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

func newTail(n int) *tail { return &tail{cap: n, buf: make([]byte, 0, n)} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	t.n += int64(n)
	if len(p) >= t.cap {
		t.buf = append(t.buf[:0], p[len(p)-t.cap:]...)
		t.full, t.pos = true, 0
		return n, nil
	}
	if !t.full {
		room := t.cap - len(t.buf)
		if len(p) <= room {
			t.buf = append(t.buf, p...)
			return n, nil
		}
		t.buf = append(t.buf, p[:room]...)
		p = p[room:]
		t.full, t.pos = true, 0
	}
	for len(p) > 0 {
		c := copy(t.buf[t.pos:], p)
		p = p[c:]
		t.pos = (t.pos + c) % t.cap
	}
	return n, nil
}

// Bytes returns the kept bytes in order, and whether earlier bytes were
// dropped.
func (t *tail) Bytes() ([]byte, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.full {
		return append([]byte(nil), t.buf...), false
	}
	out := make([]byte, 0, t.cap)
	out = append(out, t.buf[t.pos:]...)
	out = append(out, t.buf[:t.pos]...)
	return out, true
}

// Reset empties the buffer for the next run.
func (t *tail) Reset() {
	t.mu.Lock()
	t.buf, t.full, t.pos, t.n = t.buf[:0], false, 0, 0
	t.mu.Unlock()
}

var _ io.Writer = (*tail)(nil)
