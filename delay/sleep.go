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
	// suggestedMaxHold is the hold that was measured (Options.MaxHold;
	// see "How Sleep works on Linux" in the package documentation), the
	// one the study's delay.Sleep(hold) uses.
	suggestedMaxHold = 500 * time.Microsecond
	// initialLead is the hold used before any parked wake-up was
	// observed (capped by MaxHold).
	initialLead = 200 * time.Microsecond
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
	// and spins longer. The hold before the spin is sized with the same
	// quantile of the parked wake-ups' lateness.
	Quantile float64
	// MaxHold, when positive, is the longest stretch of a wait, just
	// before its spin, that is slept in a blocking system call on the
	// goroutine's own thread instead of parked (on Linux; elsewhere waits
	// never hold). 0, the default, never holds: the goroutine parks until
	// the spin. Holding (500 µs was measured) shortens the tail at a
	// real-time priority and keeps the goroutine's P meanwhile; see the
	// package documentation for what it buys and costs.
	MaxHold time.Duration
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

func (o Options) maxHold() int64 {
	return int64(max(o.MaxHold, 0))
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

	// hold is the clock's way to wait on the goroutine's thread, nil
	// when it has none or Options disable holding.
	hold holder

	mu sync.Mutex
	// late tracks the lateness of the wake-ups the spin follows (the
	// hold's, or the park's when the Sleeper does not hold): the margin.
	late estimator
	// park tracks the lateness of parked wake-ups before a hold: the
	// lead of the hold.
	park estimator
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
	s := &Sleeper{opts: opts, clock: c, late: estimator{halfLife: 512}, park: estimator{halfLife: 512}}
	if h, ok := c.(holder); ok && opts.maxHold() > 0 {
		s.hold = h
	}
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

// leadLocked returns how long before the spin the wait stops parking
// and holds: the quantile of the parked wake-ups' lateness, bounded by
// MaxHold; 0 when the Sleeper does not hold.
func (s *Sleeper) leadLocked() int64 {
	if s.hold == nil {
		return 0
	}
	max := s.opts.maxHold()
	l := int64(initialLead)
	if q, ok := s.park.quantile(s.opts.quantile()); ok {
		l = q + int64(marginGuard)
	}
	return min(l, max)
}

// failureCount returns how many waits of s could not block in the kernel
// (neither a timerfd nor clock_nanosleep worked, to park or to hold, which
// is not expected) and used time.Sleep and the spin instead, and the error of the last one
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
//     So a wait that does not park first yields (runtime.Gosched, ~1 µs
//     for a goroutine that is not locked to its thread), when this
//     Sleeper's waits have not parked or yielded for yieldEvery: at the
//     start of a wait, whose deadline is fixed, the yield costs no
//     accuracy.
//  2. Otherwise the spin is to start at wake = abs - margin. With a
//     holder, the wait parks until wake - lead, records how late it
//     resumed relative to that (the park's lateness, which sizes the lead
//     of later waits), then holds until wake, unless the park already
//     woke after it; a wait shorter than lead + margin only holds (and
//     yields first, as in 1). Without one it parks until wake.
//  3. The lateness of the wake-up the spin follows (the hold's, or the
//     park's without a holder), relative to wake, feeds the margin of
//     later waits.
//  4. Spin from there to abs (nothing to do when NoSpin, or when the
//     wake-up was later than abs anyway).
func (s *Sleeper) untilNano(abs, now int64) int64 {
	if now >= abs {
		return now
	}
	s.mu.Lock()
	margin, lead := s.marginLocked(), s.leadLocked()
	s.mu.Unlock()
	if abs-now <= margin {
		s.yieldIfRestless(now)
		return spinUntil(s.clock, abs)
	}
	wake := abs - margin
	if at := wake - lead; at > now {
		s.rested.Store(now)
		if err := s.clock.block(at); err != nil {
			return s.fallBack(err, wake, abs)
		}
		woke := s.clock.now()
		s.mu.Lock()
		if lead > 0 {
			s.park.add(woke - at)
		} else {
			s.late.add(woke - wake)
		}
		s.mu.Unlock()
		if lead == 0 || woke >= wake {
			return s.spinFrom(woke, abs)
		}
	} else {
		// Only with a lead: without one at is wake, after now.
		s.yieldIfRestless(now)
	}
	if err := s.hold.hold(wake); err != nil {
		return s.fallBack(err, wake, abs)
	}
	woke := s.clock.now()
	s.mu.Lock()
	s.late.add(woke - wake)
	s.mu.Unlock()
	return s.spinFrom(woke, abs)
}

// spinFrom spins to abs from a wake-up read at woke.
func (s *Sleeper) spinFrom(woke, abs int64) int64 {
	if woke >= abs {
		return woke
	}
	return spinUntil(s.clock, abs)
}

// yieldIfRestless yields at the start of a wait that will not park when
// this Sleeper's waits have not parked or yielded for yieldEvery (see
// untilNano).
func (s *Sleeper) yieldIfRestless(now int64) {
	if now-s.rested.Load() >= int64(yieldEvery) {
		s.rested.Store(now)
		s.clock.yield()
	}
}

// fallBack finishes a wait whose kernel wait failed with err (not
// expected): the failure is counted, time.Sleep covers the wait to wake
// and the spin the rest. Such a wake-up says nothing about the machine's
// lateness, so no margin learns from it.
func (s *Sleeper) fallBack(err error, wake, abs int64) int64 {
	s.failures.Add(1)
	s.mu.Lock()
	s.lastErr = err
	s.mu.Unlock()
	if d := wake - s.clock.now(); d > 0 {
		time.Sleep(time.Duration(d))
	}
	return spinUntil(s.clock, abs)
}
