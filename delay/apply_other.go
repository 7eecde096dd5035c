//go:build !linux && !windows

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

// timerResolution: only windows has a system timer resolution to report.
func timerResolution() int64 { return -1 }
