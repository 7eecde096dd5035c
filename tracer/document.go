package tracer

import (
	"time"

	"github.com/chronograph/chronograph/result"
)

// DocumentKind is the result document kind of a trace summary.
const DocumentKind = "trace"

// Document turns a Summary into a result document of kind "trace"
// (docs/result-schema.md): one measurement "trace" (metrics wall and
// events; details: clock, lanes, overwritten, ring_events), one per span
// name "span NAME" (metric duration: every span's duration in ns; details:
// total_ns, wall_share), one per Between "between A → B" (metric interval,
// ns; details: a, b, per_flow, unmatched) and one per lane with gaps "gaps
// LANE" (metric gap, ns, longest first; details: from_ns of each gap).
// Every measurement's details carry "kind" (trace, span, between, gaps).
func Document(s Summary, tool result.Tool) *result.Document {
	d := result.New(DocumentKind, tool)
	if !s.Start.IsZero() {
		d.Start = s.Start.Add(time.Duration(s.From))
		d.End = s.Start.Add(time.Duration(s.To))
	} else {
		d.End = d.Start
	}
	d.Measurements = append(d.Measurements, result.Measurement{
		Name: "trace", Primary: "wall",
		Metrics: []result.Metric{
			{Name: "wall", Unit: "ns", Values: []float64{float64(s.Wall)}},
			{Name: "events", Unit: "count", Values: []float64{float64(s.Events)}},
		},
		Details: map[string]any{"kind": "trace", "clock": s.Clock, "lanes": float64(s.Lanes), "from_ns": float64(s.From),
			"overwritten": float64(s.Overwritten), "ring_events": float64(s.RingEvents)},
	})
	if s.Overwritten > 0 {
		d.Warnings = append(d.Warnings, "the rings overwrote their oldest events before the dump: the first part of the trace is missing; give Options.RingEvents more room to keep more")
	}
	ns := func(xs []int64) []float64 {
		out := make([]float64, len(xs))
		for i, x := range xs {
			out[i] = float64(x)
		}
		return out
	}
	for _, sp := range s.Spans {
		d.Measurements = append(d.Measurements, result.Measurement{
			Name: "span " + sp.Name, Primary: "duration",
			Metrics: []result.Metric{{Name: "duration", Unit: "ns", Values: ns(sp.Durations)}},
			Details: map[string]any{"kind": "span", "name": sp.Name, "total_ns": float64(sp.Total), "wall_share": sp.Share},
		})
	}
	for _, b := range s.Between {
		name := "between " + b.A.String() + " → " + b.B.String()
		if b.PerFlow {
			name += " (same flow)"
		}
		vals := make([]float64, len(b.Intervals))
		for i, iv := range b.Intervals {
			vals[i] = float64(iv.To - iv.From)
		}
		m := result.Measurement{
			Name: name, Primary: "interval",
			Metrics: []result.Metric{{Name: "interval", Unit: "ns", Values: vals}},
			Details: map[string]any{"kind": "between", "a": b.A.String(), "b": b.B.String(), "per_flow": b.PerFlow, "unmatched": float64(b.Unmatched)},
		}
		if len(vals) == 0 {
			m.Metrics = nil
			m.Warnings = append(m.Warnings, "no "+b.A.String()+" event is followed by a "+b.B.String()+" event: check the names (and the flow ids with per-flow pairing)")
		}
		d.Measurements = append(d.Measurements, m)
	}
	for _, lg := range s.Gaps {
		vals := make([]float64, len(lg.Gaps))
		from := make([]float64, len(lg.Gaps))
		for i, g := range lg.Gaps {
			vals[i], from[i] = float64(g.Dur()), float64(g.From)
		}
		d.Measurements = append(d.Measurements, result.Measurement{
			Name: "gaps " + lg.Lane, Primary: "gap",
			Metrics: []result.Metric{{Name: "gap", Unit: "ns", Values: vals}},
			Details: map[string]any{"kind": "gaps", "lane": lg.Lane, "from_ns": from},
		})
	}
	return d
}
