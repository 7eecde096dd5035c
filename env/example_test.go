package env_test

import (
	"fmt"
	"runtime"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/warn"
)

func ExampleCapture() {
	h := env.Capture()
	fmt.Println(h.Go.Version == runtime.Version(), h.Go.GOOS == runtime.GOOS)
	// What spoils measurements here (a hypervisor, frequency scaling,
	// load, ...), each with its next step; what could not be read is in
	// h.Unknown with the reason.
	for _, w := range h.Warnings {
		if w.Severity == warn.Warn {
			_ = w.String()
		}
	}
	// Output: true true
}
