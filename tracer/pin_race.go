//go:build race

package tracer

import (
	"sync"

	"github.com/chronograph/chronograph/internal/procpin"
)

// Under the race detector the rings take a real mutex (ring_race.go), and
// a goroutine must not park on a contended mutex while it is pinned to
// its P: the runtime throws "schedule: holding locks". So procPin does not
// stay pinned here. It reads the P's id and takes a mutex per id instead,
// which keeps what the pinned section gives the code between the two
// calls (one writer per P's ring at a time, and its stamps read in ring
// order) while letting the goroutine block, be preempted or move to
// another P. It is slower than pinning, which only matters for the
// detector's builds.
func procPin() int {
	pid := procpin.Pin()
	procpin.Unpin()
	pinMu[pid%len(pinMu)].Lock()
	return pid
}

func procUnpin(pid int) { pinMu[pid%len(pinMu)].Unlock() }

// pinMu holds a mutex per P id (ids beyond its length share one, which
// only serializes them).
var pinMu [256]sync.Mutex
