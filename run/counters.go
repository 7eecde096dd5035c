package run

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/result"
)

// counterState is shared by the counter probes of one benchmark: it keeps
// the events still worth opening and records the unavailable ones in the
// report (Benchmark.CountersUnavailable).
type counterState struct {
	mu     sync.Mutex
	rep    *Benchmark
	open   []counters.Event // events still opened for every run
	copts  counters.Options
	byName map[string]int // index into rep.CountersUnavailable
}

func newCounterState(rep *Benchmark, evs []counters.Event, copts counters.Options) *counterState {
	return &counterState{rep: rep, open: slices.Clone(evs), copts: copts, byName: map[string]int{}}
}

// unavailable records that name was not counted in a run. An event the
// host cannot open (NotSupported) is dropped from later runs: it fails the
// same way every time, and opening it again only costs system calls.
func (cs *counterState) unavailable(c counters.Count) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	name := c.Event.Name
	if i, ok := cs.byName[name]; ok {
		cs.rep.CountersUnavailable[i].Runs++
	} else {
		cs.byName[name] = len(cs.rep.CountersUnavailable)
		reason := c.Reason
		if reason == "" {
			reason = c.State.String()
		}
		cs.rep.CountersUnavailable = append(cs.rep.CountersUnavailable, result.Unavailable{Name: name, Reason: reason, Runs: 1})
	}
	if c.State == counters.NotSupported {
		cs.open = slices.DeleteFunc(cs.open, func(e counters.Event) bool { return e.Name == name })
	}
}

func (cs *counterState) events() []counters.Event {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return slices.Clone(cs.open)
}

// newProbe makes the counter probe of one run.
func (cs *counterState) newProbe() (Probe, error) { return &counterProbe{cs: cs}, nil }

// counterProbe counts the events in one child with counters.OpenForChild:
// the group is opened on the locked thread right before the fork
// (inherit + enable_on_exec), so it counts the child and its descendants
// from their execve to their exit, and nothing of chrono.
type counterProbe struct {
	cs *counterState
	g  *counters.Group
}

func (p *counterProbe) Start() error {
	evs := p.cs.events()
	if len(evs) == 0 {
		return nil
	}
	g, _ := counters.OpenForChild(evs, p.cs.copts) // unavailable events are in the reading
	p.g = g
	return nil
}

func (p *counterProbe) Stop(s *Sample) error {
	if p.g == nil {
		return nil
	}
	defer p.g.Close()
	if s.Pid == 0 {
		return nil // the child never started: nothing was counted
	}
	r, err := p.g.Read()
	if err != nil {
		return fmt.Errorf("run: reading the counters: %w", err)
	}
	for _, c := range r.Counts {
		if !c.IsCounted() {
			p.cs.unavailable(c)
			continue
		}
		if s.Extra == nil {
			s.Extra = map[string]float64{}
		}
		s.Extra[c.Event.Name] = c.Value
		if c.Scaled() {
			if s.ExtraRunning == nil {
				s.ExtraRunning = map[string]float64{}
			}
			s.ExtraRunning[c.Event.Name] = c.RunningFraction()
		}
	}
	return nil
}

// probes runs several probes as one.
type probes []Probe

func (ps probes) Start() error {
	for _, p := range ps {
		if err := p.Start(); err != nil {
			return err
		}
	}
	return nil
}

func (ps probes) Stop(s *Sample) error {
	var first error
	for _, p := range ps {
		if err := p.Stop(s); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// probeFactory combines the counter probe (if counting) and
// Options.NewProbe (if set).
func probeFactory(cs *counterState, user func() (Probe, error)) func() (Probe, error) {
	switch {
	case cs == nil:
		return user
	case user == nil:
		return cs.newProbe
	}
	return func() (Probe, error) {
		u, err := user()
		if err != nil {
			return nil, err
		}
		c, _ := cs.newProbe()
		return probes{c, u}, nil
	}
}

// extraNames returns the names of the probe figures of the report: the
// counted events in the order asked for, then any other figure (of a
// user's Probe) in name order.
func (r *Benchmark) extraNames() []string {
	seen := map[string]bool{}
	for _, res := range r.Results {
		for _, s := range res.Samples {
			for k := range s.Extra {
				seen[k] = true
			}
		}
	}
	var names []string
	for _, e := range r.Options.Counters {
		if seen[e.Name] {
			names = append(names, e.Name)
			delete(seen, e.Name)
		}
	}
	for _, n := range simulatedNames {
		if seen[n] {
			names = append(names, n)
			delete(seen, n)
		}
	}
	return append(names, slices.Sorted(maps.Keys(seen))...)
}

// extraUnit is the unit of a probe figure: the event's unit for a counter
// ("ns" for task-clock and cpu-clock), "count" otherwise.
func extraUnit(name string) string {
	if ev, err := counters.LookupEvent(name); err == nil && ev.Unit != "" {
		return ev.Unit
	}
	return "count"
}
