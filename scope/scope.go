package scope

import (
	"cmp"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/internal/procpin"
)

// maxShards bounds the shards of a Scope (each up to 36 KiB once used).
const maxShards = 64

// Scope aggregates the durations of one named region of code into
// sharded HDR histograms. Get one with New or Registry.Get, once (a
// package-level var); Start and Stop are then safe from any number of
// goroutines.
type Scope struct {
	name      string
	shards    []shard
	mask      int
	panics    atomic.Uint64
	panicTime atomic.Uint64 // ns
	errors    atomic.Uint64
}

func newScope(name string) *Scope {
	n := 1 << bits.Len(uint(min(runtime.GOMAXPROCS(0), maxShards)-1)) // a power of two ≥ GOMAXPROCS
	return &Scope{name: name, shards: make([]shard, n), mask: n - 1}
}

// Name returns the scope's name.
func (s *Scope) Name() string { return s.name }

// Timing is a running measurement of a Scope, returned by Start. It is a
// value (no allocation); call Stop once.
type Timing struct {
	s     *Scope
	start int64
}

// Start starts timing the scope: one monotonic clock read
// (clock.Mono, about 25 ns on Linux).
func (s *Scope) Start() Timing { return Timing{s, int64(clock.Mono())} }

// Stop records the time since Start into the scope and returns it. It
// costs one monotonic clock read plus the record (a P pin for the shard
// hint and two or three uncontended atomic adds: a few ns); it never
// allocates after the shard's first use, never locks, never blocks and
// never panics. Stop on a zero Timing does nothing and returns 0.
func (t Timing) Stop() time.Duration {
	if t.s == nil {
		return 0
	}
	d := int64(clock.Mono()) - t.start
	t.s.Record(time.Duration(d))
	return time.Duration(d)
}

// Record adds one duration to the scope (negative durations count as 0):
// a P pin/unpin pair to pick the shard and two atomic adds on that
// shard's cache lines, a few ns; the first record into a shard allocates
// its histogram (36 KiB), later ones never allocate.
func (s *Scope) Record(d time.Duration) {
	v := uint64(max(d, 0))
	// The P's id is only a hint to pick a shard: the shards are updated
	// with atomic adds, so a goroutine that moves to another P right after
	// is still counted correctly.
	p := procpin.Pin()
	procpin.Unpin()
	s.shards[p&s.mask].record(v)
}

// Measure runs f, records its duration into s and returns f's result and
// the duration separately. If f panics, the duration is recorded as
// panicked (Stats.Panics, Stats.PanicTime, not in the histogram) and the
// panic goes on unchanged, with its original stack.
func Measure[T any](s *Scope, f func() T) (T, time.Duration) {
	start := clock.Mono()
	ok := false
	defer func() {
		if !ok {
			s.recordPanic(int64(clock.Mono() - start))
		}
	}()
	v := f()
	ok = true
	d := clock.Mono() - start
	s.Record(d)
	return v, d
}

// MeasureErr is Measure for a function that returns an error: the
// duration is recorded whatever the error (calls that failed are counted
// in Stats.Errors too), and the error is returned unchanged.
func MeasureErr[T any](s *Scope, f func() (T, error)) (T, time.Duration, error) {
	start := clock.Mono()
	ok := false
	defer func() {
		if !ok {
			s.recordPanic(int64(clock.Mono() - start))
		}
	}()
	v, err := f()
	ok = true
	d := clock.Mono() - start
	s.Record(d)
	if err != nil {
		s.errors.Add(1)
	}
	return v, d, err
}

func (s *Scope) recordPanic(d int64) {
	s.panics.Add(1)
	s.panicTime.Add(uint64(max(d, 0)))
}

// Stats is a snapshot of one Scope. Durations are in ns (time.Duration).
// Count, Total, Min and Max are exact; the percentiles come from the HDR
// histogram (relative error below 0.78 %, the upper end of the bucket).
type Stats struct {
	Name  string
	Count uint64
	// Total is the sum of all durations; Mean is Total/Count.
	Total, Mean   time.Duration
	Min, Max      time.Duration
	P50, P90, P99 time.Duration
	// Panics counts calls through Measure or MeasureErr that panicked
	// (their time, PanicTime, is not in the histogram); Errors counts
	// MeasureErr calls that returned an error (they are in it).
	Panics    uint64
	PanicTime time.Duration
	Errors    uint64
	// Histogram holds every recorded duration in ns (HdrHistogram, 2
	// significant digits), for percentiles of your choosing or merging.
	Histogram *hdrhistogram.Histogram
}

// Snapshot returns the scope's statistics. It reads the shards while
// others record: a duration recorded meanwhile may be in the count but not
// yet in the total, or the reverse. It allocates the histogram (about
// 40 KB).
func (s *Scope) Snapshot() Stats {
	var m merged
	for i := range s.shards {
		m.add(&s.shards[i])
	}
	st := Stats{Name: s.name, Count: m.n, Total: time.Duration(m.total),
		Panics: s.panics.Load(), PanicTime: time.Duration(s.panicTime.Load()), Errors: s.errors.Load()}
	st.Histogram = m.histogram()
	if m.n > 0 {
		st.Mean = time.Duration(m.total / m.n)
		if m.min > 0 {
			st.Min = time.Duration(m.min - 1)
		}
		st.Max = time.Duration(m.max)
		q := func(p float64) time.Duration {
			// The bucket's highest value, clamped to the exact extremes.
			return min(max(time.Duration(st.Histogram.ValueAtQuantile(p)), st.Min), st.Max)
		}
		st.P50, st.P90, st.P99 = q(50), q(90), q(99)
	}
	return st
}

// Registry holds scopes by name. The zero value is ready to use.
type Registry struct {
	scopes sync.Map // string → *Scope
}

// Default is the registry of the package-level functions.
var Default = &Registry{}

// Get returns the scope named name, creating it on first use. A lookup
// costs a sync.Map load of a string key (about 10-20 ns); keep the
// *Scope in a variable on hot paths.
func (r *Registry) Get(name string) *Scope {
	if v, ok := r.scopes.Load(name); ok {
		return v.(*Scope)
	}
	v, _ := r.scopes.LoadOrStore(name, newScope(name))
	return v.(*Scope)
}

// Start starts timing the scope named name: `defer r.Start("parse").Stop()`.
func (r *Registry) Start(name string) Timing { return r.Get(name).Start() }

// Snapshot returns the statistics of every scope, sorted by name.
func (r *Registry) Snapshot() []Stats {
	var out []Stats
	r.scopes.Range(func(_, v any) bool {
		out = append(out, v.(*Scope).Snapshot())
		return true
	})
	slices.SortFunc(out, func(a, b Stats) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// New returns the scope named name in the Default registry.
func New(name string) *Scope { return Default.Get(name) }

// Start starts timing the scope named name in the Default registry:
//
//	defer scope.Start("parse").Stop()
func Start(name string) Timing { return Default.Start(name) }

// Snapshot returns the statistics of every scope of the Default registry.
func Snapshot() []Stats { return Default.Snapshot() }

// String formats the statistics on one line.
func (st Stats) String() string {
	s := fmt.Sprintf("%s: n=%d min=%v p50=%v p90=%v p99=%v max=%v total=%v", st.Name, st.Count, st.Min, st.P50, st.P90, st.P99, st.Max, st.Total)
	if st.Errors > 0 {
		s += fmt.Sprintf(" errors=%d", st.Errors)
	}
	if st.Panics > 0 {
		s += fmt.Sprintf(" panics=%d (%v)", st.Panics, st.PanicTime)
	}
	return s
}
