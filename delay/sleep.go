package delay

import (
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of Options.
const (
	// defaultMaxSpin bounds the busy-wait at the end of each wait: no wait
	// spins longer than this, whatever the observed lateness.
	defaultMaxSpin = 500 * time.Microsecond
	// defaultQuantile is the quantile of the observed wake-up lateness used
	// as the spin margin.
	defaultQuantile = 0.99
	// initialMargin is the margin used before any lateness was observed
	// (capped by MaxSpin).
	initialMargin = 200 * time.Microsecond
	// yieldEvery: a wait that is all spin yields to the Go scheduler
	// first when the Sleeper's last wait that parked or yielded began
	// this long ago (see untilNano).
	yieldEvery = 5 * time.Millisecond
	// marginGuard is added to the lateness quantile to cover the bucket
	// width and the clock read after the wake-up.
	marginGuard = 2 * time.Microsecond
)

// Options set the accuracy/CPU trade-off of a Sleeper. The zero value is
// the default: spin at most 500 µs, margin at the p99 of the observed
// lateness.
type Options struct {
	// MaxSpin is the longest busy-wait per wait (the CPU cost bound);
	// 0 means 500 µs. Waits shorter than the margin spin entirely
	// when they are shorter than MaxSpin.
	MaxSpin time.Duration
	// NoSpin disables spinning: waits end when the kernel wakes the thread,
	// typically a few to tens of µs late, at almost no CPU cost.
	NoSpin bool
	// Quantile (0 < q < 1) of the observed wake-up lateness used as the
	// margin; 0 means 0.99. Higher is more accurate in the tail
	// and spins longer.
	Quantile float64
}

func (o Options) maxSpin() int64 {
	if o.NoSpin {
		return 0
	}
	if o.MaxSpin <= 0 {
		return int64(defaultMaxSpin)
	}
	return int64(o.MaxSpin)
}

func (o Options) quantile() float64 {
	if o.Quantile <= 0 || o.Quantile >= 1 {
		return defaultQuantile
	}
	return o.Quantile
}

// Sleeper performs precise waits with one set of Options and learns the
// wake-up lateness of this machine as it goes. A Sleeper is safe for
// concurrent use; the package-level Sleep and SleepUntil use a shared
// default Sleeper.
type Sleeper struct {
	opts  Options
	clock clockSource

	mu   sync.Mutex
	late estimator
	// failures counts waits whose kernel wait failed; lastErr is the
	// last such error (guarded by mu).
	failures atomic.Int64
	lastErr  error
	// rested is when a wait of this Sleeper last parked its goroutine
	// or yielded (the Now timebase).
	rested atomic.Int64
}

// NewSleeper returns a Sleeper with the given options.
func NewSleeper(opts Options) *Sleeper {
	return newSleeper(opts, systemClock)
}

func newSleeper(opts Options, c clockSource) *Sleeper {
	s := &Sleeper{opts: opts, clock: c, late: estimator{halfLife: 512}}
	s.rested.Store(c.now())
	return s
}

var defaultSleeper = NewSleeper(Options{})

// Sleep pauses the calling goroutine for at least d, ending as close to d
// as the machine allows (see the package documentation). A d ≤ 0 returns
// at once.
func Sleep(d time.Duration) { defaultSleeper.Sleep(d) }

// SleepUntil pauses the calling goroutine until t (by its monotonic
// reading), ending as close to t as the machine allows.
func SleepUntil(t time.Time) { defaultSleeper.SleepUntil(t) }

// Sleep waits for at least d and returns how late it returned (the
// overshoot beyond d, measured at return).
func (s *Sleeper) Sleep(d time.Duration) time.Duration {
	d = max(d, 0)
	now := s.clock.now()
	return time.Duration(s.untilNano(now+int64(d), now) - (now + int64(d)))
}

// SleepUntil waits until t and returns how late it returned.
func (s *Sleeper) SleepUntil(t time.Time) time.Duration {
	abs := monoOf(t)
	return time.Duration(s.untilNano(abs, s.clock.now()) - abs)
}

// SleepUntilNano waits until abs on the Now timebase and returns the time
// it returned at (same timebase).
func (s *Sleeper) SleepUntilNano(abs int64) int64 {
	return s.untilNano(abs, s.clock.now())
}

// margin returns the current spin margin: how long before a deadline the
// waiting goroutine plans to be woken by the kernel.
func (s *Sleeper) margin() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Duration(s.marginLocked())
}

func (s *Sleeper) marginLocked() int64 {
	max := s.opts.maxSpin()
	if max == 0 {
		return 0
	}
	m := int64(initialMargin)
	if q, ok := s.late.quantile(s.opts.quantile()); ok {
		m = q + int64(marginGuard)
	}
	if m > max {
		m = max
	}
	return m
}

// failureCount returns how many waits of s could not block in the kernel
// (neither a timerfd nor clock_nanosleep worked, which is not expected)
// and used time.Sleep and the spin instead, and the error of the last one
// (nil when none failed).
func (s *Sleeper) failureCount() (n int64, last error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failures.Load(), s.lastErr
}

// untilNano is the algorithm behind every wait:
//  1. If the remaining time is within the margin (and spinning is allowed),
//     spin all the way: a kernel sleep would wake too late. A goroutine
//     that only spins never reschedules, and the runtime preempts one
//     that ran 10 ms on one scheduling tick with a signal, at whatever
//     instruction it is (measured here: ~10-15 µs each, lifting the p99
//     overshoot of back-to-back 100 µs waits from ~1.8 µs to ~14 µs).
//     So a spin-only wait first yields (runtime.Gosched, ~1 µs for a
//     goroutine that is not locked to its thread), when this Sleeper's
//     waits have not parked or yielded for yieldEvery: at the start of
//     a wait, whose deadline is fixed, the yield costs no accuracy.
//  2. Otherwise block until wake = abs - margin, then record how late the
//     goroutine actually resumed relative to wake (kernel wake-up lateness
//     plus handoff), which feeds the margin of later waits.
//  3. Spin from there to abs (nothing to do when NoSpin, or when the
//     wake-up was later than abs anyway).
func (s *Sleeper) untilNano(abs, now int64) int64 {
	if now >= abs {
		return now
	}
	s.mu.Lock()
	margin := s.marginLocked()
	s.mu.Unlock()
	if abs-now <= margin {
		if now-s.rested.Load() >= int64(yieldEvery) {
			s.rested.Store(now)
			s.clock.yield()
		}
		return spinUntil(s.clock, abs)
	}
	wake := abs - margin
	s.rested.Store(now)
	if err := s.clock.block(wake); err != nil {
		// Neither kernel wait worked (not expected): this wake-up says
		// nothing about the machine's lateness, so the margin does not
		// learn from it; time.Sleep covers the wait instead.
		s.failures.Add(1)
		s.mu.Lock()
		s.lastErr = err
		s.mu.Unlock()
		if d := wake - s.clock.now(); d > 0 {
			time.Sleep(time.Duration(d))
		}
		return spinUntil(s.clock, abs)
	}
	woke := s.clock.now()
	s.mu.Lock()
	s.late.add(woke - wake)
	s.mu.Unlock()
	if woke >= abs {
		return woke
	}
	return spinUntil(s.clock, abs)
}
