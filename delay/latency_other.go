//go:build !linux

package delay

import (
	"fmt"
	"sync/atomic"
)

// runThread: the latency test needs absolute clock_nanosleep; elsewhere it
// reports itself unavailable.
func (t *LatencyTest) runThread(th *latThread, ready chan<- error, start <-chan struct{}, stop *atomic.Bool) {
	ready <- fmt.Errorf("delay: latency test: %w", ErrUnsupported)
	<-start
}

// interruptThread: no thread ever sleeps here (runThread returns at once).
var interruptThread = func(int) {}
