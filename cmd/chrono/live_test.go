package main

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/chronograph/chronograph/internal/screen"
)

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
	sc := screen.New(t, func(s *screen.Screen) {
		if strings.Contains(s.Text(), "T: 0") {
			once.Do(func() {
				s.Echo("^C")
				cancel(interruptedError{os.Interrupt})
			})
		}
	})
	var out bytes.Buffer
	code := executeWithInput([]string{"latency", "--live", "-i", "1000"}, strings.NewReader(""), &out, sc)
	if code != 130 {
		t.Fatalf("exit %d, want 130; screen:\n%s", code, sc.Text())
	}
	if got := sc.Text(); got != "chrono: latency: interrupted by SIGINT; the figures cover what was measured" {
		t.Errorf("the screen holds:\n%s\nwant only the closing message", got)
	}
	if !strings.Contains(out.String(), "T: 0") {
		t.Errorf("no summary on standard output:\n%s", out.String())
	}
}
