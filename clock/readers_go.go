//go:build !(linux && amd64)

package clock

import (
	"fmt"
	"runtime"
	"time"
)

// Read reads the clock (see POSIX).
func (c POSIX) Read() (time.Duration, error) {
	id := c.id()
	if id < 0 {
		return 0, unavailableClock(c.String())
	}
	ns, e := clockCall(id)
	if e != 0 {
		return 0, readError(c.String(), e)
	}
	return time.Duration(ns), nil
}

//go:noinline
func unavailableClock(name string) error {
	return fmt.Errorf("clock: %s does not exist on %s: %w", name, runtime.GOOS, ErrUnavailable)
}
