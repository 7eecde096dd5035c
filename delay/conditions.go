package delay

import (
	"errors"
	"fmt"
)

// Conditions are the measurement conditions a study or latency test asks
// for: memory locking, a PM-QoS CPU wake-up latency request, and per-thread
// settings.
type Conditions struct {
	// MLock locks all current and future memory (mlockall).
	MLock bool
	// DMALatency ≥ 0 holds /dev/cpu_dma_latency at that many µs; -1 not.
	DMALatency int
	// Settings are checked (on a throwaway thread) before measuring.
	Settings ThreadSettings
	// BestEffort continues without a refused setting (recording a warning)
	// instead of failing.
	BestEffort bool
}

// Held is the result of Acquire: the settings actually in force, the
// warnings about those dropped, and the function that releases them.
type Held struct {
	Settings ThreadSettings
	MLocked  bool
	// DMALatency is the request held, or -1.
	DMALatency int
	Warnings   []string
	release    []func()
}

// Release undoes what Acquire did (unlocks memory, closes
// /dev/cpu_dma_latency). It may be called more than once.
func (h *Held) Release() {
	for i := len(h.release) - 1; i >= 0; i-- {
		h.release[i]()
	}
	h.release = nil
}

// Acquire puts the conditions in place before a measurement. A refused
// setting is an error (a *PermissionError saying how to get it) unless
// BestEffort is set, in which case it is dropped with a warning. Invalid
// values are always errors.
func Acquire(c Conditions) (*Held, error) {
	h := &Held{Settings: c.Settings, DMALatency: -1}
	drop := func(err error) error {
		var pe *PermissionError
		if c.BestEffort && (errors.As(err, &pe) || errors.Is(err, ErrUnsupported)) {
			h.Warnings = append(h.Warnings, fmt.Sprintf("%v; continuing without it (--best-effort)", err))
			return nil
		}
		h.Release()
		return err
	}
	if err := c.Settings.validate(); err != nil {
		return nil, err
	}
	if c.MLock {
		unlock, err := LockMemory()
		if err != nil {
			if err := drop(err); err != nil {
				return nil, err
			}
		} else {
			h.MLocked = true
			h.release = append(h.release, unlock)
		}
	}
	if c.DMALatency >= 0 {
		rel, err := HoldDMALatency(c.DMALatency)
		if err != nil {
			if err := drop(err); err != nil {
				return nil, err
			}
		} else {
			h.DMALatency = c.DMALatency
			h.release = append(h.release, func() { _ = rel() })
		}
	}
	if c.Settings.Pin {
		if err := (ThreadSettings{Pin: true, CPU: c.Settings.CPU}).Check(); err != nil {
			if err := drop(err); err != nil {
				return nil, err
			}
			h.Settings.Pin = false
		}
	}
	if c.Settings.Priority > 0 {
		if err := (ThreadSettings{Priority: c.Settings.Priority}).Check(); err != nil {
			if err := drop(err); err != nil {
				return nil, err
			}
			h.Settings.Priority = 0
		}
	}
	return h, nil
}
