// Package tracer is a flight recorder for Go programs: it records spans,
// instant events with a payload, counter values and flow ids into
// fixed-size rings, and dumps them as Chrome/Perfetto trace-event JSON
// (which ui.perfetto.dev, chrome://tracing and `chrono trace` read) on
// demand, on a signal, or when a span takes longer than a threshold.
// (It is not runtime/trace, Go's execution tracer, which it can feed with
// regions: see Options.RuntimeRegions.)
//
// Recording:
//
//	var parse = tracer.Intern("parse") // once, at package level
//	tr, err := tracer.New(tracer.Options{RingEvents: 4096})
//	...
//	defer tr.Begin(parse).End()         // a span, on the calling P's ring
//	tr.Instant(got, uint64(n))          // an instant with a payload
//	tr.Counter(queue, float64(len(ch))) // a counter value
//	lane := tr.Lane("stage 1")          // a goroutine's own lane
//	sp := lane.BeginFlow(parse, reqID)  // a span linked to a request
//
// Stamps are TSC ticks where the TSC is available and invariant (their
// frequency from clock.TSCInfo; converted to nanoseconds with exact
// 128-bit arithmetic at dump time), otherwise Go's monotonic clock; the
// source is named in every dump (Tracer.Clock).
//
// Memory is fixed: each ring holds Options.RingEvents events of 32 bytes,
// one ring per P (GOMAXPROCS) for the Tracer's own methods and one per
// Lane; the oldest events are overwritten. Recording an event does not
// allocate, lock (outside -race builds) or block: the Tracer's methods pin
// the goroutine to its P (runtime.procPin, as sync.Pool does) and store
// into that P's ring; a Lane's methods store into the Lane's ring, which
// one goroutine owns. A span is recorded at End as one event holding both
// stamps, so spans survive goroutine migration; spans of a Lane nest
// exactly, spans of the per-P rings are shown per P.
//
// Cost per event, measured by BenchmarkEvent next to a bare TSC read plus
// a store in the same run (scripts/trace-bench.sh prints the ratios): an
// Instant costs one TSC read plus a few ns (about 10-12 ns, 1.1x the
// anchor, on the 2-vCPU amd64 VMs here, where RDTSC alone costs about
// 10 ns); a span (Begin + End) costs two TSC reads and one store, about
// 30-37 ns (1.6-1.9x two reads and a store: the 48-byte Span value is
// copied through memory between Begin and End). Tracy's 2.25 ns per zone
// comes from an RDTSC inlined into the caller and a thread-local queue; Go
// cannot inline assembly, so every stamp is a call, and a per-P ring needs
// a P pin where a thread-local one needs none.
//
// Dumps (Snapshot; Dump writes the trace-event JSON and its result
// document) copy the rings without stopping the writers. Summaries
// (Summarize: per-span distributions, A→B latencies optionally per flow,
// the longest gaps per lane) and their result document (Summary.Document)
// are what `chrono trace` prints; package report renders the HTML
// timeline.
//
// tracer records and summarizes: it does not aggregate durations by name
// over a program's life (package scope does), compare traces or render
// them (package report), and it links no trace viewer.
package tracer
