package bench

import (
	"fmt"
	"github.com/chronograph/chronograph/clock"

	"github.com/chronograph/chronograph/warn"
)

// Clock selects the clock that times samples.
type Clock int

const (
	// ClockDefault is ClockTSC where the time-stamp counter is usable
	// (invariant) and ClockMonotonic elsewhere.
	ClockDefault Clock = iota
	// ClockMonotonic is Go's monotonic clock read through time.Since, the
	// cheapest portable monotonic read.
	ClockMonotonic
	// ClockTSC is the CPU's time-stamp counter (RDTSC on amd64, CNTVCT on
	// arm64), converted to nanoseconds with its measured frequency.
	ClockTSC
)

// String returns the clock's name as reports show it.
func (c Clock) String() string {
	switch c {
	case ClockDefault:
		return "default"
	case ClockMonotonic:
		return "monotonic"
	case ClockTSC:
		return "tsc"
	}
	return fmt.Sprintf("Clock(%d)", int(c))
}

// clockSource is what the harness reads. Raw readings are in the clock's
// own units; ns converts a difference of readings to nanoseconds. Tests
// inject a fake clockSource through Options.clock.
type clockSource struct {
	name string
	// now reads the clock (unordered: cheapest).
	now func() uint64
	// fenced reads the clock ordered against surrounding instructions, for
	// timing single operations; it may be now itself.
	fenced func() uint64
	// ns converts a difference of raw readings to nanoseconds.
	ns func(d uint64) float64
}

// monoNow is clock.Mono, the module's one monotonic base, in ns.
func monoNow() uint64 { return uint64(int64(clock.Mono())) }

func nsIdentity(d uint64) float64 { return float64(d) }

var monotonicSource = &clockSource{name: "monotonic (time.Since)", now: monoNow, fenced: monoNow, ns: nsIdentity}

// resolveClock returns the clock source for c and a note when the requested
// clock is not available.
func resolveClock(c Clock) (*clockSource, *warn.Warning) {
	switch c {
	case ClockMonotonic:
		return monotonicSource, nil
	case ClockTSC:
		src, reason := tscSource()
		if src != nil {
			return src, nil
		}
		w := warn.NewNote(warnTSCUnavailable, "the TSC was requested but is unavailable ("+reason+"): the samples were timed with the monotonic clock",
			"ask for ClockMonotonic (or ClockDefault) to time with it on purpose")
		return monotonicSource, &w
	default:
		if src, _ := tscSource(); src != nil {
			return src, nil
		}
		return monotonicSource, nil
	}
}

// clockProbe is the observed behaviour of a clock: the smallest non-zero
// step between two readings and the mean cost of one reading, both in ns.
type clockProbe struct {
	TickNs float64
	ReadNs float64
}

// probeClock measures the tick and read cost of src.
func probeClock(src *clockSource) clockProbe {
	const reads = 2000
	var p clockProbe
	// Read cost: many reads back to back, timed by the clock itself.
	best := 0.0
	for rep := 0; rep < 5; rep++ {
		t0 := src.now()
		for i := 0; i < reads; i++ {
			src.now()
		}
		d := src.ns(src.now()-t0) / (reads + 1)
		if rep == 0 || d < best {
			best = d
		}
	}
	p.ReadNs = best
	// Tick: the smallest non-zero difference between consecutive reads.
	tick := 0.0
	for i := 0; i < 200; i++ {
		a := src.now()
		b := src.now()
		for j := 0; b == a && j < 1_000_000; j++ {
			b = src.now()
		}
		if b > a {
			if d := src.ns(b - a); tick == 0 || d < tick {
				tick = d
			}
		}
	}
	p.TickNs = tick
	return p
}
