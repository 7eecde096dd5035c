//go:build !linux

package delay

import "fmt"

func (s ThreadSettings) apply() error {
	if err := s.validate(); err != nil {
		return err
	}
	if s.Priority > 0 || len(s.CPUs) > 0 {
		return fmt.Errorf("delay: SCHED_FIFO and pinning: %w", ErrUnsupported)
	}
	return nil
}

// check reports whether s can be applied: on this platform only the
// default settings can.
func (s ThreadSettings) check() error { return s.apply() }

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
