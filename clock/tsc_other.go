//go:build !amd64 && !arm64

package clock

import (
	"fmt"
	"runtime"
)

var errNoCounter = fmt.Errorf("clock: no timestamp counter support on %s: %w", runtime.GOARCH, ErrUnavailable)

func tscAvailable() error { return errNoCounter }

func tscRead() uint64 { return 0 }

func tscReadFenced() uint64 { return 0 }

func tscReadP() (uint64, uint32) { return 0, NoCPU }

func tscInvariant() (bool, bool) { return false, false }

func cpuid16hMHz() uint32 { return 0 }

func tscHardwareHz() (uint64, string) { return 0, "" }

func counterSources() []Source {
	return []Source{counter{name: "tsc", desc: "timestamp counter", err: errNoCounter}}
}
