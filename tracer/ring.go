package tracer

import (
	"math/bits"
	"sync/atomic"
)

// Event kinds stored in a ring slot.
const (
	kindSpan    = 1 // a complete span: start, end stamps
	kindInstant = 2 // an instant: start stamp, payload in end
	kindCounter = 3 // a counter value: start stamp, float64 bits in end
)

// slot is one recorded event: 32 bytes, so two per cache line.
type slot struct {
	start uint64 // stamp: TSC ticks or monotonic ns (see Tracer)
	end   uint64 // span: end stamp; instant: payload; counter: math.Float64bits(value)
	flow  uint64 // flow id, 0 when none
	name  uint32 // Name
	kind  uint32 // kindSpan, kindInstant, kindCounter
}

// ring is a fixed-size flight-recorder buffer with one writer at a time:
// the goroutine that owns a Lane, or whichever goroutine is pinned to the
// ring's P. The writer fills the slot at head&mask and then publishes
// head+1; the oldest events are overwritten. Readers copy without
// stopping the writer and drop any slot the writer may have reached while
// they copied (see copyTo).
type ring struct {
	head uint64 // events written so far; written by the one writer, read atomically
	mask uint64
	buf  []slot
	lane int32
	ringLock
	_ [64]byte // keep the heads of rings allocated together on separate cache lines
}

func newRing(events int, lane int32) *ring {
	n := uint64(1) << bits.Len64(uint64(events-1)) // round up to a power of two
	return &ring{mask: n - 1, buf: make([]slot, n), lane: lane}
}

// put records one event. It costs a few plain stores; see publish for
// how the head is made visible to readers.
func (r *ring) put(kind uint32, name Name, start, end, flow uint64) {
	r.lock()
	h := r.head
	s := &r.buf[h&r.mask]
	s.start, s.end, s.flow, s.name, s.kind = start, end, flow, uint32(name), kind
	publish(&r.head, h+1)
	r.unlock()
}

// copyTo appends the events still in the ring, oldest first, to out and
// returns it with the number of events overwritten before the copy (lost
// to the flight recorder's wrap-around, or possibly torn and dropped). A
// full ring gives at most len(buf)-1 events: the oldest slot is the one a
// writer may be overwriting.
func (r *ring) copyTo(out []slot) ([]slot, uint64) {
	r.lock()
	defer r.unlock()
	size := uint64(len(r.buf))
	h1 := atomic.LoadUint64(&r.head)
	from := uint64(0)
	if h1 > size {
		from = h1 - size
	}
	base := len(out)
	for i := from; i < h1; i++ {
		out = append(out, r.buf[i&r.mask])
	}
	// The writer may have run on while we copied: drop what it may have
	// been overwriting.
	keep := keepFrom(from, h1, atomic.LoadUint64(&r.head), size)
	if drop := int(keep - from); drop > 0 {
		out = append(out[:base], out[base+drop:]...)
	}
	return out, keep
}

// keepFrom returns the first index of a copy of [from, h1) that is safe
// to keep when the writer's head was h2 once the copy was done: index i
// may have been overwritten if the writer reached index i+size, which it
// may have started once the head was i+size, so keep i > h2-size.
func keepFrom(from, h1, h2, size uint64) uint64 {
	keep := from
	if h2 >= size && h2-size+1 > keep {
		keep = h2 - size + 1
	}
	return min(keep, h1)
}
