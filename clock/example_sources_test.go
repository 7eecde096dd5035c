//go:build !windows

// Not on windows: there the POSIX clocks give way to Windows's own
// (TestWindowsSources lists them).

package clock_test

import (
	"fmt"
	"strings"

	"github.com/chronograph/chronograph/clock"
)

// Sources lists every clock this package knows, available here or not,
// in a fixed order: these are the ones that measure elapsed time.
func ExampleSources() {
	var elapsed []string
	for _, s := range clock.Sources() {
		if s.Props().Kind == clock.Elapsed {
			elapsed = append(elapsed, s.Name())
		}
	}
	fmt.Println(strings.Join(elapsed, " "))
	// Output: go-monotonic CLOCK_MONOTONIC CLOCK_MONOTONIC_COARSE CLOCK_MONOTONIC_RAW CLOCK_BOOTTIME
}
