//go:build !race

package tracer

import _ "unsafe" // for go:linkname

// procPin disables preemption of the calling goroutine and returns the id
// of its P (0 ≤ id < GOMAXPROCS); procUnpin(id) undoes it. They are what
// sync.Pool uses. The runtime marks both with a push //go:linkname ("do not
// remove or change the type signature", go.dev/issue/67401), so the Go
// 1.23+ linker accepts this pull linkname even with -checklinkname=1.
// Between the two calls the goroutine must not block, allocate through a
// path that can park, or panic: the code here only stores into a ring.
// A call pair costs about 2 ns. Under the race detector pin_race.go
// replaces both (see there).
//
//go:linkname procPin runtime.procPin
func procPin() int

func procUnpin(int) { runtimeProcUnpin() }

//go:linkname runtimeProcUnpin runtime.procUnpin
func runtimeProcUnpin()
