package report

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/chronograph/chronograph/delay"
	"github.com/chronograph/chronograph/report/internal/view"
)

// Live is text redrawn in place on a terminal while a command measures:
// chrono run's progress line, sleep's, latency's per-thread lines
// (LiveLatency). It is the one place that knows the escape sequences.
// Each Show replaces what the one before drew; Clear erases it, and with
// it whatever the terminal echoed after it (the ^C of an interruption),
// so that no live text is left on the screen above the figures printed
// next. The cursor stays at the end of the last line drawn. A Live is not
// safe for concurrent use.
type Live struct {
	w     io.Writer
	lines int // lines on the screen from the last show; 0: none
}

// NewLive returns a live display that draws on w (a terminal).
func NewLive(w io.Writer) *Live { return &Live{w: w} }

// Show replaces the live text with lines (one or more, without
// newlines).
func (l *Live) Show(lines ...string) {
	var b strings.Builder
	l.rewind(&b)
	b.WriteString(strings.Join(lines, "\n"))
	l.lines = len(lines)
	_, _ = io.WriteString(l.w, b.String())
}

// Clear erases the live text, if any is shown.
func (l *Live) Clear() {
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
func (l *Live) rewind(b *strings.Builder) {
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
func (l *Live) redraw(period time.Duration, lines func() []string) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			l.Show(lines()...)
			select {
			case <-done:
				l.Clear()
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

// liveLatencyPeriod is how often LiveLatency redraws, as cyclictest does.
const liveLatencyPeriod = 100 * time.Millisecond

// LiveLatency shows cyclictest's per-thread lines of a running latency
// test on w (a terminal), from snapshot (delay.LatencyTest.Snapshot),
// redrawn every 100 ms until the returned stop is called, which erases
// them (the summary that follows repeats them; lines left behind would
// sit above it, after a Ctrl-C with the ^C in them) and returns when they
// are gone.
func LiveLatency(w io.Writer, snapshot func() []delay.ThreadLatency) (stop func()) {
	return NewLive(w).redraw(liveLatencyPeriod, func() []string {
		var lines []string
		for _, s := range snapshot() {
			l := view.CyclictestLine{Thread: s.Thread, TID: s.TID, Priority: s.Priority, IntervalNs: int64(s.Interval),
				Count: s.Count, MinNs: int64(s.Min), ActNs: int64(s.Act), MaxNs: int64(s.Max), AvgNs: float64(s.Avg)}
			lines = append(lines, l.String())
		}
		return lines
	})
}
