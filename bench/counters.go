package bench

import (
	"fmt"
	"slices"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// Counter summarizes one event of Options.Counters over the measured
// samples. Its FunctionCounter is what the document records of it: the
// event's perf name (with its modifier, if any) and the unit of its count
// ("count", or "ns" for task-clock and cpu-clock); the count of an empty
// sample of the same shape (the counter reads, the clock reads and the
// loop's entry and exit; the minimum over several, as nanobench takes
// it), subtracted from every sample; how many samples counted the event
// (the others did not schedule it: then PartialPerOp and PartialSamples
// hold the net counts per iteration of those that did, and their
// indexes); whether any count was extrapolated because the kernel
// multiplexed the event; a note that qualifies the counts (e.g. user
// space only).
type Counter struct {
	result.FunctionCounter
	// PerOp summarizes the event's net count per iteration over the
	// samples that counted it: (sample count - OverheadPerSample) /
	// iterations, clamped at 0.
	PerOp stats.Summary
}

// PerOpName is the name of the counter's per-operation figure as the
// testing.B adapter reports it: "instructions/op", or "task-clock-ns/op"
// for the clocks.
func (c Counter) PerOpName() string {
	if c.Unit == "ns" {
		return c.Event + "-ns/op"
	}
	return c.Event + "/op"
}

// openCounters opens Options.Counters on the calling (locked) thread and
// enables them once; samples then read the group at their boundaries. It
// records in r which events count and which are unavailable, and returns
// the group to close (nil when nothing could be opened).
func (b *B) openCounters(r *runner) *counters.Group {
	g, err := counters.OpenThread(b.opts.Counters, counters.Options{})
	if g == nil {
		for _, ev := range b.opts.Counters {
			r.unavailable = append(r.unavailable, counters.Count{Event: ev, State: counters.NotSupported, Reason: fmt.Sprint(err)})
		}
		return nil
	}
	r.unavailable = g.Unavailable()
	if g.Opened() == 0 {
		return g
	}
	if err := g.Enable(); err != nil {
		for _, ev := range g.Events() {
			r.unavailable = append(r.unavailable, counters.Count{Event: ev, State: counters.NotSupported,
				Reason: "could not enable the counters: " + err.Error()})
		}
		return g
	}
	for _, ev := range g.Events() {
		if !slices.ContainsFunc(r.unavailable, func(c counters.Count) bool { return c.Event.Name == ev.Name }) {
			r.counted = append(r.counted, ev)
		}
	}
	// A first reading, for the notes that qualify counts (user space
	// only, ...).
	if g.ReadTo(&b.cBefore) == nil {
		for _, c := range b.cBefore.Counts {
			if c.Note != "" {
				if r.notes == nil {
					r.notes = map[string]string{}
				}
				r.notes[c.Event.Name] = c.Note
			}
		}
	}
	b.cg = g
	return g
}

// countsOf returns the counted values of a reading by event name, and the
// names of the scaled ones. Events not counted are left out.
func countsOf(rd counters.Reading) (map[string]float64, []string) {
	m := make(map[string]float64, len(rd.Counts))
	var scaled []string
	for _, c := range rd.Counts {
		if !c.IsCounted() {
			continue
		}
		m[c.Event.Name] = c.Value
		if c.Scaled() {
			scaled = append(scaled, c.Event.Name)
		}
	}
	return m, scaled
}

// counterOverhead returns, per event, the minimum count over the empty
// samples (nanobench's calibrated overhead).
func counterOverhead(empty []Sample) map[string]float64 {
	over := map[string]float64{}
	for _, s := range empty {
		for name, v := range s.Counters {
			if o, ok := over[name]; !ok || v < o {
				over[name] = v
			}
		}
	}
	return over
}

// netPerOp returns the sample's net count of name per iteration and
// whether the sample counted it.
func netPerOp(s Sample, name string, overhead float64) (float64, bool) {
	v, ok := s.Counters[name]
	if !ok || s.Iterations == 0 {
		return 0, false
	}
	return max(v-overhead, 0) / float64(s.Iterations), true
}

// analyzeCounters fills r.Counters, r.IPC and r.CountersUnavailable from
// the samples, the events that were opened and the empty samples' counts.
func (r *Benchmark) analyzeCounters(counted []counters.Event, unavailable []counters.Count, notes map[string]string, overhead map[string]float64) {
	for _, c := range unavailable {
		r.CountersUnavailable = append(r.CountersUnavailable, result.FunctionCounterUnavailable{Event: c.Event.Name, Reason: c.Reason})
	}
	for _, ev := range counted {
		c := Counter{FunctionCounter: result.FunctionCounter{Event: ev.Name, Unit: ev.Unit, OverheadPerSample: overhead[ev.Name], Note: notes[ev.Name]}}
		var xs []float64
		var idx []int
		for i, s := range r.Samples {
			if v, ok := netPerOp(s, ev.Name, c.OverheadPerSample); ok {
				xs, idx = append(xs, v), append(idx, i)
				c.Scaled = c.Scaled || slices.Contains(s.CountersScaled, ev.Name)
			}
		}
		if len(xs) == 0 {
			r.CountersUnavailable = append(r.CountersUnavailable, result.FunctionCounterUnavailable{Event: ev.Name,
				Reason: "opened but not counted in any sample (the kernel could not schedule it on a counter)"})
			continue
		}
		c.Samples = len(xs)
		if len(xs) < len(r.Samples) {
			c.PartialPerOp, c.PartialSamples = xs, idx
		}
		c.PerOp = stats.Summarize(xs)
		if c.Unit == "" {
			c.Unit = "count"
		}
		r.Counters = append(r.Counters, c)
	}
	// IPC per sample, from the net counts.
	var ipc []float64
	for _, s := range r.Samples {
		in, ok1 := netPerOp(s, "instructions", overhead["instructions"])
		cy, ok2 := netPerOp(s, "cycles", overhead["cycles"])
		if ok1 && ok2 && cy > 0 {
			ipc = append(ipc, in/cy)
		}
	}
	if len(ipc) > 0 {
		sum := stats.Summarize(ipc)
		r.IPC = &sum
	}
}

// counterOverhead returns the overhead per sample subtracted from the
// event named name (0 if it was not counted).
func (r *Benchmark) counterOverhead(name string) float64 {
	for _, c := range r.Counters {
		if c.Event == name {
			return c.OverheadPerSample
		}
	}
	return 0
}
