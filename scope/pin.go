package scope

import _ "unsafe" // for go:linkname

// procPin disables preemption of the calling goroutine and returns the id
// of its P (0 ≤ id < GOMAXPROCS); procUnpin undoes it. They are what
// sync.Pool uses. The runtime marks both with a push //go:linkname ("do not
// remove or change the type signature", go.dev/issue/67401), so the Go
// 1.23+ linker accepts this pull linkname even with -checklinkname=1.
// Here the pin is only a hint to pick a shard (the shards are updated
// with atomic adds, so a goroutine that moves to another P right after is
// still counted correctly); the pair costs about 2 ns.
//
//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()
