//go:build race

package tracer

import (
	"sync"
	"sync/atomic"
)

// ringLock is a real mutex under the race detector: the detector does not
// know that a P-pinned goroutine is the only writer of its P's ring, nor
// that readers drop slots the writer may be reaching, and would report
// both as races. Builds without -race use the lock-free path.
type ringLock struct{ mu sync.Mutex }

func (l *ringLock) lock()   { l.mu.Lock() }
func (l *ringLock) unlock() { l.mu.Unlock() }

func publish(p *uint64, v uint64) { atomic.StoreUint64(p, v) }
