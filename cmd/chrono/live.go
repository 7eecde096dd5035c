package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// liveText is text redrawn in place on a terminal while a command
// measures: run's progress line, sleep's, latency's per-thread lines. It
// is the one place that knows the escape sequences. Each show replaces
// what the one before drew; clear erases it, and with it whatever the
// terminal echoed after it (the ^C of an interruption), so that no live
// text is left on the screen above the figures printed next. The cursor
// stays at the end of the last line drawn. A liveText is not safe for
// concurrent use.
type liveText struct {
	w     io.Writer
	lines int // lines on the screen from the last show; 0: none
}

// show replaces the live text with lines (one or more, without
// newlines).
func (l *liveText) show(lines ...string) {
	var b strings.Builder
	l.rewind(&b)
	b.WriteString(strings.Join(lines, "\n"))
	l.lines = len(lines)
	_, _ = io.WriteString(l.w, b.String())
}

// clear erases the live text, if any is shown.
func (l *liveText) clear() {
	if l.lines == 0 {
		return
	}
	var b strings.Builder
	l.rewind(&b)
	l.lines = 0
	_, _ = io.WriteString(l.w, b.String())
}

// rewind writes what moves the cursor to the start of the live text's
// first line (carriage return, then ECMA-48 CUU: up n lines) and erases
// everything from there to the end of the screen (ED 0).
func (l *liveText) rewind(b *strings.Builder) {
	b.WriteString("\r")
	if l.lines > 1 {
		fmt.Fprintf(b, "\x1b[%dA", l.lines-1)
	}
	b.WriteString("\x1b[J")
}

// redraw shows lines() at once and again every period until the returned
// stop is called, which clears the live text and returns when it is
// erased (for displays of state that changes on its own, such as a
// latency test's).
func (l *liveText) redraw(period time.Duration, lines func() []string) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			l.show(lines()...)
			select {
			case <-done:
				l.clear()
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		<-stopped
	}
}
