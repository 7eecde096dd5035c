package report

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chronograph/chronograph/delay"
	"github.com/chronograph/chronograph/internal/screen"
)

func TestLiveClears(t *testing.T) {
	tests := []struct {
		name  string
		shows [][]string
	}{
		{"one line redrawn", [][]string{{"run 1/10"}, {"run 2/10, longer"}, {"3"}}},
		{"three lines", [][]string{{"T: 0 a", "T: 1 b", "T: 2 c"}, {"T: 0 aa", "T: 1 bb", "T: 2 cc"}}},
		{"growing", [][]string{{"x"}, {"x", "y"}, {"x", "y", "z"}}},
		{"shrinking", [][]string{{"x", "y", "z"}, {"x"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := screen.New(t, nil)
			sc.Write([]byte("above\n"))
			l := NewLive(sc)
			for _, lines := range tt.shows {
				l.Show(lines...)
				if got, want := sc.Text(), "above\n"+strings.Join(lines, "\n"); got != want {
					t.Fatalf("screen after show:\n%s\nwant:\n%s", got, want)
				}
			}
			sc.Echo("^C") // the terminal's echo of an interruption
			l.Clear()
			l.Clear() // a second clear erases nothing more
			if got := sc.Text(); got != "above" {
				t.Errorf("screen after clear:\n%s\nwant only the line above the live text", got)
			}
		})
	}
}

// TestLiveLatency: the live display of a latency test shows cyclictest's
// line of every thread of the snapshot, in whole µs as cyclictest
// truncates them, and erases them when stopped.
func TestLiveLatency(t *testing.T) {
	snap := []delay.ThreadLatency{
		{Thread: 0, TID: 4523, Priority: 80, Interval: time.Millisecond, Count: 2000, Min: 24_900, Act: 112_000, Avg: 162_999, Max: 6_647_001},
		{Thread: 1, TID: 4524, Interval: time.Millisecond, Count: 1999, Min: 30_000, Act: 31_000, Avg: 40_000, Max: 90_000},
	}
	want := "T: 0 (  4523) P:80 I:1000 C:    2000 Min:     24 Act:    112 Avg:    162 Max:    6647\n" +
		"T: 1 (  4524) P: 0 I:1000 C:    1999 Min:     30 Act:     31 Avg:     40 Max:      90"
	drawn := make(chan string, 1)
	var once sync.Once
	sc := screen.New(t, func(s *screen.Screen) {
		if text := s.Text(); strings.Contains(text, "T: 1") {
			once.Do(func() { drawn <- text })
		}
	})
	sc.Write([]byte("chrono latency\n"))
	stop := LiveLatency(sc, func() []delay.ThreadLatency { return snap })
	got := <-drawn
	stop()
	stop() // a second stop does nothing
	if got != "chrono latency\n"+want {
		t.Errorf("live lines:\n%s\nwant:\n%s", got, want)
	}
	if text := sc.Text(); text != "chrono latency" {
		t.Errorf("after stop the screen holds:\n%s\nwant only the line above", text)
	}
}
