//go:build !linux && !windows

package delay

import (
	"fmt"
	"runtime"
	"time"
)

// otherClock is the portable fallback: Go's monotonic clock and
// time.Sleep, whose granularity is the platform's (often ~1 ms, up to
// ~15.6 ms on Windows). The final spin of Sleeper covers it when the margin
// (bounded by Options.MaxSpin) is large enough.
type otherClock struct{}

var systemClock clockSource = otherClock{}

func (otherClock) now() int64 { return nanotime() }

func (otherClock) yield() { runtime.Gosched() }

func (otherClock) block(abs int64) error {
	if d := abs - nanotime(); d > 0 {
		time.Sleep(time.Duration(d))
	}
	return nil
}

// ownTimerSlack: timer slack is Linux's.
func ownTimerSlack() (int64, error) { return -1, fmt.Errorf("delay: timer slack: %w", ErrUnsupported) }
