//go:build !linux

package delay

import "fmt"

// lockMemory is not supported on this platform.
func lockMemory() (unlock func(), err error) {
	return nil, fmt.Errorf("delay: mlockall: %w", ErrUnsupported)
}

// holdDMALatency is not supported on this platform.
func holdDMALatency(us int) (release func() error, err error) {
	return nil, fmt.Errorf("delay: /dev/cpu_dma_latency: %w", ErrUnsupported)
}

func setProcessTimerSlack(ns int64) (restore func(), err error) {
	return nil, fmt.Errorf("delay: timer slack: %w", ErrUnsupported)
}

func setThreadSlack(ns int64) error { return fmt.Errorf("delay: timer slack: %w", ErrUnsupported) }
