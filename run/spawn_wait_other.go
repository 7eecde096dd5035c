//go:build !linux

package run

import (
	"os"
	"time"
)

// waitProcess waits until p exits (killing its process group at the
// deadline, if not zero), reaps it and reports whether the deadline
// killed it. Here it is a blocking wait: the quiet wait of Linux needs a
// pidfd.
func (sp *spawner) waitProcess(p *os.Process, _ *execSpec, deadline time.Time) (*os.ProcessState, bool, error) {
	return waitBlocking(p, deadline)
}

// waitState is empty: waitProcess keeps nothing between runs here.
//
//lint:ignore U1000 the spawner embeds it on every platform
type waitState struct{}
