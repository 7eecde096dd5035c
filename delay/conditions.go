package delay

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/warn"
)

// Conditions are the measurement conditions a study or latency test asks
// for: memory locking, a PM-QoS CPU wake-up latency request, and per-thread
// settings.
type Conditions struct {
	// MLock locks all current and future memory (mlockall).
	MLock bool
	// DMALatency ≥ 0 holds /dev/cpu_dma_latency at that many µs; -1 not.
	DMALatency int
	// DMALatencyOptional makes a DMALatency request that cannot be held
	// (refused, or no such device) a warning rather than an error, even
	// without BestEffort: cyclictest holds 0 µs by default and, when it
	// cannot open the device, says so and measures without it.
	DMALatencyOptional bool
	// Settings are checked (on throwaway threads) before measuring: the
	// priority, and pinning to each CPU of Settings.CPUs on its own.
	Settings ThreadSettings
	// BestEffort continues without a refused setting (recording a warning)
	// instead of failing.
	BestEffort bool
}

// Held is the result of Acquire: the settings actually in force, the
// warnings about those dropped, and the function that releases them.
type Held struct {
	// Settings are the thread settings in force (a refused priority is 0,
	// refused pinning leaves CPUs empty).
	Settings ThreadSettings
	MLocked  bool
	// DMALatency is the request held, or -1.
	DMALatency int
	// BestEffort repeats Conditions.BestEffort.
	BestEffort bool
	// Refused names the settings refused and dropped under BestEffort,
	// or an optional DMA latency request that could not be held
	// ("SCHED_FIFO priority 80", "mlockall", "/dev/cpu_dma_latency 0 µs",
	// ...); Warnings holds one warning for each (code "setting-refused"),
	// saying how to get it.
	Refused  []string
	Warnings []warn.Warning
	release  []func()
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
	h := &Held{Settings: c.Settings, DMALatency: -1, BestEffort: c.BestEffort}
	drop := func(setting string, err error) error {
		var pe *PermissionError
		if c.BestEffort && (errors.As(err, &pe) || errors.Is(err, ErrUnsupported)) {
			h.Refused = append(h.Refused, setting)
			h.Warnings = append(h.Warnings, refusedWarning(setting, err, "best effort"))
			return nil
		}
		h.Release()
		return err
	}
	if err := c.Settings.validate(); err != nil {
		return nil, err
	}
	if c.MLock {
		unlock, err := lockMemory()
		if err != nil {
			if err := drop("mlockall", err); err != nil {
				return nil, err
			}
		} else {
			h.MLocked = true
			h.release = append(h.release, unlock)
		}
	}
	if c.DMALatency >= 0 {
		rel, err := holdDMALatency(c.DMALatency)
		setting := fmt.Sprintf("/dev/cpu_dma_latency %d µs", c.DMALatency)
		switch {
		case err != nil && c.DMALatencyOptional:
			h.Refused = append(h.Refused, setting)
			h.Warnings = append(h.Warnings, refusedWarning(setting, err, "the CPUs may enter deep idle states and wake later"))
		case err != nil:
			if err := drop(setting, err); err != nil {
				return nil, err
			}
		default:
			h.DMALatency = c.DMALatency
			h.release = append(h.release, func() { _ = rel() })
		}
	}
	// Each CPU is tried alone: the kernel accepts a mask as long as one of
	// its CPUs is allowed, which would hide the others' refusal. A refused
	// CPU drops all pinning under BestEffort, so that the threads stay
	// comparable.
	for _, cpu := range c.Settings.CPUs {
		if err := (ThreadSettings{CPUs: []int{cpu}}).check(); err != nil {
			if err := drop("pinning to "+cpuWords(c.Settings.CPUs), err); err != nil {
				return nil, err
			}
			h.Settings.CPUs = nil
			break
		}
	}
	if c.Settings.Priority > 0 {
		if err := (ThreadSettings{Priority: c.Settings.Priority}).check(); err != nil {
			if err := drop(priorityWords(c.Settings.Priority), err); err != nil {
				return nil, err
			}
			h.Settings.Priority = 0
		}
	}
	return h, nil
}

// refusedWarning says that setting was refused or failed (err) and was
// measured without (why, in parentheses), with the way to get it as the
// next step.
func refusedWarning(setting string, err error, why string) warn.Warning {
	var pe *PermissionError
	switch {
	case errors.As(err, &pe):
		return warn.New("setting-refused",
			fmt.Sprintf("%s refused (%v): measured without it (%s)", setting, pe.Err, why), pe.Fix)
	case errors.Is(err, ErrUnsupported):
		return warn.New("setting-refused",
			fmt.Sprintf("%s not available (%v): measured without it (%s)", setting, err, why),
			"measure on Linux for this setting")
	}
	return warn.New("setting-refused",
		fmt.Sprintf("%s failed (%v): measured without it (%s)", setting, err, why),
		"the error says what failed")
}

// cpuWords names a list of CPUs for people: "CPU 3", "CPUs 0,2,5".
func cpuWords(cpus []int) string {
	if len(cpus) == 1 {
		return "CPU " + strconv.Itoa(cpus[0])
	}
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	return "CPUs " + strings.Join(s, ",")
}
