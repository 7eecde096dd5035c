// Package wintimer reads the Windows timer resolution
// (NtQueryTimerResolution), for packages clock and env, which both
// report it and import nothing of each other, and for delay, which
// records it with each wait it studies.
package wintimer

import (
	"fmt"
	"time"
)

// Resolution is NtQueryTimerResolution's answer, converted from its 100
// ns units: the coarsest and finest clock-interrupt periods the system
// allows and the current one (the finest any process holds through
// timeBeginPeriod or NtSetTimerResolution). ntdll calls them maximum,
// minimum and current.
type Resolution struct {
	Coarsest, Finest, Current time.Duration
}

// Query returns the timer resolution; off Windows, and where ntdll lacks
// the function, an error.
func Query() (Resolution, error) { return query() }

// WineError is Windows's figure refused under Wine: Wine answers
// NtQueryTimerResolution from a table of its own and waits on the Linux
// host's timers, so its answer is no Windows clock interrupt's period.
type WineError struct {
	// Version is Wine's; Answer what it answered.
	Version string
	Answer  Resolution
}

func (e *WineError) Error() string {
	return fmt.Sprintf("under Wine %s NtQueryTimerResolution answers coarsest %v, finest %v, current %v: "+
		"Wine's figures, not a Windows clock interrupt's (Wine waits on the Linux host's timers)",
		e.Version, e.Answer.Coarsest, e.Answer.Finest, e.Answer.Current)
}

// Measured returns the timer resolution as a figure to report: Query's,
// and under Wine (wineVersion not empty) a *WineError with what Wine
// answered instead, so that clock, env and delay refuse it alike.
func Measured(wineVersion string) (Resolution, error) {
	r, err := Query()
	if err != nil {
		return Resolution{}, err
	}
	if wineVersion != "" {
		return Resolution{}, &WineError{Version: wineVersion, Answer: r}
	}
	return r, nil
}
