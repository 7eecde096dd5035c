package history

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Query selects the series of one measurement (Store.Select).
type Query struct {
	// Name is the measurement.
	Name string
	// Metric is the metric; "" selects "wall" when the measurement has
	// it, else every metric (a series each) but "iterations" (the loop
	// counts of bench's instruction mode, which say how it was counted).
	Metric string
	// Since keeps the runs taken at or after it (zero: all).
	Since time.Time
	// Machine keeps the runs of the machines whose fingerprint hash
	// starts with it, each machine a series. When it is "", the series is
	// the runs of the newest run's machine, unless EachMachine (every
	// machine, each a series) or Merged (the runs of every machine as one
	// series).
	Machine     string
	EachMachine bool
	Merged      bool
}

// Series is one measurement's metric over time: its runs on one machine
// (Machine; its Hash "" for runs whose document recorded no
// environment), or on every machine (Merged), in time order.
type Series struct {
	Name, Metric, Unit string
	Machine            Machine
	Merged             bool
	Points             []Point
}

// QueryError is the error of Select for a query that names a metric or a
// machine the measurement does not have; it says which it has.
type QueryError struct{ msg string }

func (e *QueryError) Error() string { return e.msg }

// Select returns the series q selects, metric by metric (in name order)
// and, for each, machine by machine (the newest run's first). A
// measurement the store does not hold is an error naming chrono history
// list; a metric or machine it does not have is a *QueryError.
func (s *Store) Select(ctx context.Context, q Query) ([]Series, error) {
	ls, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	var metrics []Summary
	for _, x := range ls {
		if x.Name == q.Name {
			metrics = append(metrics, x)
		}
	}
	if len(metrics) == 0 {
		return nil, s.notFound(q.Name)
	}
	names := func() []string {
		var ns []string
		for _, x := range metrics {
			ns = append(ns, x.Metric)
		}
		return ns
	}
	want := func(m string) []Summary {
		return slices.DeleteFunc(slices.Clone(metrics), func(x Summary) bool { return x.Metric != m })
	}
	switch {
	case q.Metric != "":
		if picked := want(q.Metric); len(picked) > 0 {
			metrics = picked
		} else {
			return nil, &QueryError{fmt.Sprintf("history: %q has no metric %q: it has %s", q.Name, q.Metric, strings.Join(names(), ", "))}
		}
	case len(want("wall")) > 0:
		metrics = want("wall")
	case len(metrics) > len(want("iterations")):
		// The loop counts of an instruction-mode function measurement
		// (sized from a native calibration, so they vary) say how it was
		// measured, not what: its counts are the series.
		metrics = slices.DeleteFunc(metrics, func(x Summary) bool { return x.Metric == "iterations" })
	}
	var out []Series
	for _, x := range metrics {
		ms, err := s.Machines(ctx, q.Name, x.Metric)
		if err != nil {
			return nil, err
		}
		var pick []Machine
		switch {
		case q.Merged:
			pick = []Machine{{}}
		case q.Machine != "":
			for _, mc := range ms {
				if strings.HasPrefix(mc.Hash, q.Machine) {
					pick = append(pick, mc)
				}
			}
			if len(pick) == 0 {
				var hs []string
				for _, mc := range ms {
					hs = append(hs, mc.Hash)
				}
				return nil, &QueryError{fmt.Sprintf("history: no run of %q on machine %q: its machines are %s", q.Name, q.Machine, strings.Join(hs, ", "))}
			}
		case q.EachMachine:
			pick = ms
		default:
			pick = ms[:1] // the newest run's machine
		}
		for _, mc := range pick {
			f := Filter{Since: q.Since, Machine: mc.Hash, ExactMachine: true}
			if q.Merged {
				f.Machine, f.ExactMachine = "", false
			}
			pts, err := s.Series(ctx, q.Name, x.Metric, f)
			if err != nil {
				return nil, err
			}
			out = append(out, Series{Name: q.Name, Metric: x.Metric, Unit: x.Unit, Machine: mc, Merged: q.Merged, Points: pts})
		}
	}
	return out, nil
}

// notFound is the error for a measurement the store does not hold.
func (s *Store) notFound(name string) error {
	return fmt.Errorf("history: no measurement named %q in %s: see chrono history list", name, s.Where())
}
