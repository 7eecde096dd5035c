// Package procpin pins the calling goroutine to its P, as sync.Pool does,
// for the per-P shards and rings of packages scope and tracer.
//
// Pin disables preemption of the calling goroutine and returns the id of
// its P (0 ≤ id < GOMAXPROCS); Unpin undoes it. They are the runtime's
// procPin and procUnpin, which the runtime marks with a push
// //go:linkname ("do not remove or change the type signature",
// go.dev/issue/67401), so the Go 1.23+ linker accepts this pull linkname
// even with -checklinkname=1. Between the two calls the goroutine must not
// block, allocate through a path that can park, or panic. A call pair
// costs about 2 ns.
//
// It does nothing else: callers decide what a P's id is good for (a hint
// to pick a shard, one writer per ring).
package procpin

import _ "unsafe" // for go:linkname

// Pin disables preemption of the calling goroutine and returns its P's id.
//
//go:linkname Pin runtime.procPin
func Pin() int

// Unpin re-enables preemption after Pin.
//
//go:linkname Unpin runtime.procUnpin
func Unpin()
