package tracer

import (
	"context"
	"io"
	rtrace "runtime/trace"
	"testing"

	"github.com/chronograph/chronograph/clock"
)

// anchorBuf is the store target of the anchor: a bare TSC read plus a
// store into a power-of-two ring, the least an event can cost.
var anchorBuf [1024]slot

// BenchmarkEvent measures the cost of one recorded event beside its
// anchors, in one run (scripts/trace-bench.sh runs it ABBA and prints the
// ratios):
//
//	anchor-tsc+store  clock.TSC() and one store into a ring slot
//	anchor-2tsc+store two clock.TSC() reads stored into a slot (a span's floor)
//	lane-instant      Lane.Instant: one stamp + one ring store (no pin)
//	p-instant         Tracer.Instant: the same on the calling P's ring (pin/unpin)
//	lane-span         Lane.Begin + Span.End: two stamps, one event
//	p-span            Tracer.Begin + Span.End
//	region-off        runtime/trace StartRegion + End, no execution trace running
//	region-on         the same while runtime/trace records (to io.Discard)
//	span+regions      Tracer.Begin + End with Options.RuntimeRegions, no trace running
func BenchmarkEvent(b *testing.B) {
	tr, err := New(Options{RingEvents: 1 << 12})
	if err != nil {
		b.Fatal(err)
	}
	lane := tr.Lane("bench")
	b.Logf("clock: %s", tr.Clock())
	b.Run("anchor-tsc+store", func(b *testing.B) {
		i := 0
		for b.Loop() {
			anchorBuf[i&1023].start = clock.TSC()
			i++
		}
	})
	b.Run("anchor-2tsc+store", func(b *testing.B) {
		i := 0
		for b.Loop() {
			s := &anchorBuf[i&1023]
			s.start = clock.TSC()
			s.end = clock.TSC()
			i++
		}
	})
	b.Run("lane-instant", func(b *testing.B) {
		for b.Loop() {
			lane.Instant(nSend, 1)
		}
	})
	b.Run("p-instant", func(b *testing.B) {
		for b.Loop() {
			tr.Instant(nSend, 1)
		}
	})
	b.Run("lane-span", func(b *testing.B) {
		for b.Loop() {
			lane.Begin(nParse).End()
		}
	})
	b.Run("p-span", func(b *testing.B) {
		for b.Loop() {
			tr.Begin(nParse).End()
		}
	})
	ctx := context.Background()
	b.Run("region-off", func(b *testing.B) {
		for b.Loop() {
			rtrace.StartRegion(ctx, "parse").End()
		}
	})
	b.Run("region-on", func(b *testing.B) {
		if rtrace.IsEnabled() {
			b.Skip("an execution trace is already running")
		}
		if err := rtrace.Start(io.Discard); err != nil {
			b.Skip("runtime/trace:", err)
		}
		defer rtrace.Stop()
		for b.Loop() {
			rtrace.StartRegion(ctx, "parse").End()
		}
	})
	rt, err := New(Options{RingEvents: 1 << 12, RuntimeRegions: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("span+regions", func(b *testing.B) {
		for b.Loop() {
			rt.Begin(nParse).End()
		}
	})
}

// BenchmarkEventParallel records on the per-P rings from every P.
func BenchmarkEventParallel(b *testing.B) {
	tr, err := New(Options{RingEvents: 1 << 12})
	if err != nil {
		b.Fatal(err)
	}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			tr.Instant(nSend, 1)
		}
	})
}
