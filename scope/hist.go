package scope

import (
	"math/bits"
	"sync/atomic"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// The recording histograms use HdrHistogram's layout for a lowest
// discernible value of 1 ns and 2 significant digits: values below 256 ns
// are counted exactly, every later power of two is split into 128 equal
// buckets (relative error below 1/128 = 0.78 %). They count with atomic
// adds, so any goroutine can record into any shard, and they merge
// exactly into an hdrhistogram.Histogram of the same layout.
const (
	subBits     = 8  // 2^subBits exact values; 2^(subBits-1) buckets per later octave
	maxBits     = 42 // values from 2^42 ns (73 min) on share the top bucket
	halfBuckets = 1 << (subBits - 1)
	nBuckets    = (maxBits-subBits)*halfBuckets + 2*halfBuckets
)

// bucketOf returns the bucket index of a duration in ns.
func bucketOf(v uint64) int {
	if v < 1<<subBits {
		return int(v)
	}
	l := bits.Len64(v)
	if l > maxBits {
		return nBuckets - 1
	}
	shift := l - subBits
	return shift*halfBuckets + int(v>>shift)
}

// bucketLow returns the smallest value counted in bucket i.
func bucketLow(i int) uint64 {
	if i < 1<<subBits {
		return uint64(i)
	}
	shift := i/halfBuckets - 1
	return uint64(i-shift*halfBuckets) << shift
}

// shard is one recording histogram, padded to its own cache lines.
type shard struct {
	counts atomic.Pointer[[nBuckets]atomic.Uint64] // allocated on first use (36 KiB)
	total  atomic.Uint64                           // sum of durations, ns
	min    atomic.Uint64                           // 0 until the first value; stores value+1
	max    atomic.Uint64
	_      [96]byte // 128 bytes a shard: no two shards share a cache line pair
}

func (s *shard) record(d uint64) {
	c := s.counts.Load()
	if c == nil {
		c = s.alloc()
	}
	c[bucketOf(d)].Add(1)
	s.total.Add(d)
	for {
		m := s.min.Load()
		if m != 0 && m-1 <= d {
			break
		}
		if s.min.CompareAndSwap(m, d+1) {
			break
		}
	}
	for {
		m := s.max.Load()
		if m >= d || s.max.CompareAndSwap(m, d) {
			break
		}
	}
}

func (s *shard) alloc() *[nBuckets]atomic.Uint64 {
	c := new([nBuckets]atomic.Uint64)
	if s.counts.CompareAndSwap(nil, c) {
		return c
	}
	return s.counts.Load()
}

// merged is the sum of a Scope's shards.
type merged struct {
	counts   [nBuckets]uint64
	n, total uint64
	min, max uint64
}

func (m *merged) add(s *shard) {
	c := s.counts.Load()
	if c == nil {
		return
	}
	for i := range c {
		if v := c[i].Load(); v != 0 {
			m.counts[i] += v
			m.n += v
		}
	}
	m.total += s.total.Load()
	if mn := s.min.Load(); mn != 0 && (m.min == 0 || mn-1 < m.min-1) {
		m.min = mn
	}
	m.max = max(m.max, s.max.Load())
}

// histogram builds the hdrhistogram.Histogram of the merged counts: each
// bucket's count is recorded at the bucket's lowest value, which lands in
// the same bucket of HdrHistogram's layout.
func (m *merged) histogram() *hdrhistogram.Histogram {
	h := hdrhistogram.New(1, 1<<maxBits, 2)
	for i, c := range m.counts {
		if c != 0 {
			h.RecordValues(int64(bucketLow(i)), int64(c))
		}
	}
	return h
}
