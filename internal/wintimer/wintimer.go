// Package wintimer reads the Windows timer resolution
// (NtQueryTimerResolution), for packages clock and env, which both
// report it and import nothing of each other, and for delay, which
// records it with each wait it studies.
package wintimer

import "time"

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
