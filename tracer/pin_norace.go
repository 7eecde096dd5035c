//go:build !race

package tracer

import "github.com/chronograph/chronograph/internal/procpin"

// procPin pins the calling goroutine to its P and returns the P's id;
// procUnpin(id) undoes it (internal/procpin). Between the two calls the
// code here only stores into a ring. Under the race detector pin_race.go
// replaces both (see there).
func procPin() int { return procpin.Pin() }

func procUnpin(int) { procpin.Unpin() }
