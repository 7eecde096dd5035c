//go:build !amd64 && !race

package tracer

import "sync/atomic"

// publish makes the ring's new head visible with an atomic (release)
// store: weakly ordered CPUs (arm64) may otherwise show the head before
// the slot.
func publish(p *uint64, v uint64) { atomic.StoreUint64(p, v) }
