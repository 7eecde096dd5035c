package tracer

import (
	"time"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/warn"
)

// Document turns the summary into a result document of kind "trace"
// (docs/result-schema.md) with m's tool, arguments and environment: the
// trace as a whole in Run.Trace (clock, lanes, extent, events,
// overwritten); one measurement per span name "span NAME" (metric
// duration: every span's duration in ns), one per Between "A → B"
// (metric interval, ns) and one per lane with gaps "gaps LANE" (metric
// gap, ns, longest first), each with a TraceDetail saying which it is.
func (s Summary) Document(m result.Meta) *result.Document {
	d := result.New(result.KindTrace, m)
	if !s.Start.IsZero() {
		d.Start = s.Start.Add(time.Duration(s.From))
		d.End = s.Start.Add(time.Duration(s.To))
	} else {
		d.End = d.Start
	}
	d.Run.Trace = &result.TraceRun{Clock: s.Clock, Lanes: s.Lanes, FromNs: s.From, ToNs: s.To,
		Events: int64(s.Events), Overwritten: int64(s.Overwritten), RingEvents: s.RingEvents}
	if s.Overwritten > 0 {
		d.Warnings = append(d.Warnings, warn.New("trace-overwritten",
			"the rings overwrote their oldest events before the dump: the first part of the trace is missing",
			"give Options.RingEvents more room to keep more"))
	}
	ns := func(xs []int64) []float64 {
		out := make([]float64, len(xs))
		for i, x := range xs {
			out[i] = float64(x)
		}
		return out
	}
	metric := func(name string, vals []float64) result.Metric {
		return result.Metric{Name: name, Unit: result.UnitNs, Values: vals, Resolution: 1}
	}
	for _, sp := range s.Spans {
		d.Measurements = append(d.Measurements, result.Measurement{
			Name: "span " + sp.Name, Primary: "duration",
			Metrics: []result.Metric{metric("duration", ns(sp.Durations))},
			Detail:  result.KindDetail{Trace: &result.TraceDetail{Role: "span", Span: sp.Name, TotalNs: sp.Total, WallShare: sp.Share}},
		})
	}
	for _, b := range s.Between {
		name := b.A.String() + " → " + b.B.String()
		if b.PerFlow {
			name += " (same flow)"
		}
		vals := make([]float64, len(b.Intervals))
		for i, iv := range b.Intervals {
			vals[i] = float64(iv.To - iv.From)
		}
		m := result.Measurement{
			Name: name, Primary: "interval",
			Metrics: []result.Metric{metric("interval", vals)},
			Detail:  result.KindDetail{Trace: &result.TraceDetail{Role: "between", A: b.A.String(), B: b.B.String(), PerFlow: b.PerFlow, Unmatched: int64(b.Unmatched)}},
		}
		if len(vals) == 0 {
			m.Metrics = nil
			m.Primary = ""
			m.Warnings = append(m.Warnings, warn.New("no-pairs",
				"no "+b.A.String()+" event is followed by a "+b.B.String()+" event",
				"check the names (and the flow ids with per-flow pairing)"))
		}
		d.Measurements = append(d.Measurements, m)
	}
	for _, lg := range s.Gaps {
		vals := make([]float64, len(lg.Gaps))
		from := make([]int64, len(lg.Gaps))
		for i, g := range lg.Gaps {
			vals[i], from[i] = float64(g.Dur()), g.From
		}
		d.Measurements = append(d.Measurements, result.Measurement{
			Name: "gaps " + lg.Lane, Primary: "gap",
			Metrics: []result.Metric{metric("gap", vals)},
			Detail:  result.KindDetail{Trace: &result.TraceDetail{Role: "gaps", Lane: lg.Lane, GapFromNs: from}},
		})
	}
	return d
}
