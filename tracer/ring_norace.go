//go:build !race

package tracer

// ringLock is empty without the race detector: each ring has one writer at
// a time (a Lane's goroutine, or the goroutine pinned to the ring's P),
// and readers validate what they copy instead of locking.
type ringLock struct{}

func (*ringLock) lock()   {}
func (*ringLock) unlock() {}
