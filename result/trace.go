package result

// The kinds of instrumentation documents (packages tracer and scope).
const (
	KindTrace = "trace" // a tracer dump, summarized (chrono trace)
	KindScope = "scope" // scope timers' statistics
)

// TraceRun holds the details of a trace document as a whole.
type TraceRun struct {
	// Clock names the source of the stamps ("tsc", "monotonic").
	Clock string `json:"clock"`
	// Lanes is the number of lanes (threads, Ps, named lanes) in the dump.
	Lanes int `json:"lanes"`
	// FromNs and ToNs bound the dump, in ns from the tracer's origin.
	FromNs int64 `json:"from_ns"`
	ToNs   int64 `json:"to_ns"`
	// Events is the number of events in the dump; Overwritten how many
	// the rings overwrote before it (lost), RingEvents the ring size.
	Events      int64 `json:"events"`
	Overwritten int64 `json:"overwritten"`
	RingEvents  int   `json:"ring_events,omitempty"`
}

// TraceDetail says what one measurement of a trace document is.
type TraceDetail struct {
	// Role is "span" (the durations of the spans named Span), "between"
	// (the times from each event A to the next event B) or "gaps" (the
	// longest stretches without events on Lane).
	Role string `json:"role"`
	// Span, TotalNs and WallShare describe a span: its name, the sum of
	// its durations and that sum over the dump's wall time.
	Span      string  `json:"span,omitempty"`
	TotalNs   int64   `json:"total_ns,omitempty"`
	WallShare float64 `json:"wall_share,omitempty"`
	// A, B, PerFlow and Unmatched describe a between pairing: the event
	// names, whether A and B had to share a flow id, and how many A events
	// found no B.
	A         string `json:"a,omitempty"`
	B         string `json:"b,omitempty"`
	PerFlow   bool   `json:"per_flow,omitempty"`
	Unmatched int64  `json:"unmatched,omitempty"`
	// Lane and GapFromNs describe gaps: the lane, and where each gap of
	// the "gap" metric starts (ns from the origin), in the same order.
	Lane      string  `json:"lane,omitempty"`
	GapFromNs []int64 `json:"gap_from_ns,omitempty"`
}

// ScopeDetail holds what a scope timer counted besides its durations.
type ScopeDetail struct {
	// Count is the number of calls whose durations the histogram holds;
	// TotalNs their sum.
	Count   uint64 `json:"count"`
	TotalNs int64  `json:"total_ns"`
	// Errors counts MeasureErr calls that returned an error (their time is
	// in the histogram); Panics those that panicked, PanicTimeNs their
	// time (not in the histogram).
	Errors      uint64 `json:"errors,omitempty"`
	Panics      uint64 `json:"panics,omitempty"`
	PanicTimeNs int64  `json:"panic_time_ns,omitempty"`
}
