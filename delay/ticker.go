package delay

import (
	"errors"
	"math"
	"sync"
	"time"
)

// Overrun says what a Ticker does when it wakes after one or more later
// deadlines have already passed (the consumer or the machine fell behind).
type Overrun int

const (
	// Skip drops the deadlines that already passed, counts them in
	// TickerStats.Missed, and continues with the next future deadline.
	Skip Overrun = iota
	// CatchUp delivers every passed deadline at once, in order (each with
	// its large lateness), so that no tick is ever lost.
	CatchUp
)

// Tick is one periodic deadline as delivered by a Ticker.
type Tick struct {
	// K numbers the deadline: Deadline = start + K*period (K starts at 1).
	K int64
	// Deadline is when the tick was due; Time when the ticker woke for it.
	Deadline time.Time
	Time     time.Time
	// Lateness is Time - Deadline (≥ 0).
	Lateness time.Duration
	// Missed is the number of deadlines skipped just before this one
	// (always 0 with CatchUp).
	Missed int64
}

// TickerStats summarizes a Ticker's lateness so far. Quantiles come from a
// log-bucketed histogram (relative error ≤ 19 %, upper bucket edges).
type TickerStats struct {
	// Ticks counts the ticks received from C. A tick counts once the
	// ticker has seen it taken (C found empty: at its next tick, in Stats,
	// or at Stop), so while the ticker runs a tick just received may count
	// a moment later, never before it is received; once Stop has returned
	// Ticks is exact.
	Ticks int64
	// Missed counts the deadlines skipped (Skip policy).
	Missed int64
	// Undelivered counts the ticks put on C that were never received: the
	// one Stop found waiting in C and discarded (0 or 1). They are not in
	// Ticks nor in the lateness figures.
	Undelivered int64
	// Min, Max and Mean are exact; P50 and P99 are bucket upper edges;
	// all are over the ticks counted in Ticks.
	Min, Max, Mean, P50, P99 time.Duration
}

// Ticker delivers ticks at start + k*period, k = 1, 2, ...: the deadlines
// are computed from the start time, never from the previous wake-up, so
// lateness never accumulates (no drift). Ticks are delivered on C, which
// has room for one tick; with Skip a tick that finds C full is dropped and
// counted as missed, with CatchUp the ticker waits for the consumer.
type Ticker struct {
	// C delivers the ticks. It is closed after Stop.
	C <-chan Tick

	c       chan Tick
	period  int64
	start   int64
	overrun Overrun
	sleeper *Sleeper
	stop    chan struct{}
	once    sync.Once
	done    chan struct{}

	mu   sync.Mutex
	st   tickerAcc
	hist estimator
	// pending is the last tick put on C whose receipt the ticker has not
	// seen yet: every tick sent before it was received (C holds one), so
	// it is the only one that may still wait in C.
	pending    bool
	pendingLat int64
}

type tickerAcc struct {
	ticks, missed, undelivered int64
	min, max, sum              int64
}

// NewTicker starts a Ticker with the given period whose first deadline is
// one period from now, waiting with the default Sleeper. It returns an
// error for a period ≤ 0.
func NewTicker(period time.Duration, overrun Overrun) (*Ticker, error) {
	return newTicker(period, overrun, defaultSleeper, nanotime())
}

func newTicker(period time.Duration, overrun Overrun, s *Sleeper, start int64) (*Ticker, error) {
	if period <= 0 {
		return nil, errors.New("delay: ticker period must be positive (e.g. 1ms)")
	}
	if overrun != Skip && overrun != CatchUp {
		return nil, errors.New("delay: unknown overrun policy (use delay.Skip or delay.CatchUp)")
	}
	c := make(chan Tick, 1)
	t := &Ticker{C: c, c: c, period: int64(period), start: start, overrun: overrun,
		sleeper: s, stop: make(chan struct{}), done: make(chan struct{}),
		st: tickerAcc{min: math.MaxInt64}, hist: estimator{}}
	go t.run()
	return t, nil
}

// deadline returns the k-th deadline: start + k*period, computed afresh
// each time (no accumulated additions, hence no drift and no rounding
// build-up).
func (t *Ticker) deadline(k int64) int64 { return t.start + k*t.period }

// nextK returns the deadline number to wait for after deadline k when the
// time is now: k+1 with CatchUp, else the first deadline after now - the
// skipped ones being k+1 .. next-1.
func nextK(k, start, period, now int64, overrun Overrun) int64 {
	if overrun == CatchUp {
		return k + 1
	}
	// First j > k with start + j*period > now.
	j := (now-start)/period + 1
	if j <= k {
		j = k + 1
	}
	return j
}

func (t *Ticker) run() {
	defer close(t.done)
	defer close(t.c)
	k := int64(1)
	for {
		select {
		case <-t.stop:
			return
		default:
		}
		dl := t.deadline(k)
		woke := t.sleeper.SleepUntilNano(dl)
		tick := Tick{K: k, Deadline: timeOf(dl), Time: timeOf(woke), Lateness: time.Duration(woke - dl)}
		next := nextK(k, t.start, t.period, woke, t.overrun)
		missed := next - k - 1
		if t.overrun == Skip {
			// The attempt and its accounting under mu, so that Stats sees
			// C and pending agree.
			t.mu.Lock()
			t.st.missed += missed
			select {
			case t.c <- tick:
				t.sent(tick.Lateness)
			default:
				t.st.missed++ // consumer busy: this tick is missed too
			}
			t.mu.Unlock()
		} else {
			select {
			case t.c <- tick:
				t.mu.Lock()
				t.sent(tick.Lateness)
				t.mu.Unlock()
			case <-t.stop:
				return
			}
		}
		k = next
	}
}

// sent accounts a tick just put on C: C had room, so the tick pending
// before it was received. Called with mu held.
func (t *Ticker) sent(lateness time.Duration) {
	t.receivedLocked()
	t.pending, t.pendingLat = true, int64(lateness)
}

// receivedLocked counts the pending tick as received. Called with mu
// held, only once the tick is known to have left C.
func (t *Ticker) receivedLocked() {
	if !t.pending {
		return
	}
	t.pending = false
	l := t.pendingLat
	t.st.ticks++
	t.st.sum += l
	t.st.min = min(t.st.min, l)
	t.st.max = max(t.st.max, l)
	t.hist.add(l)
}

// Stop stops the ticker and waits for its goroutine to finish (it ends
// once the wait in progress does, within a period). A tick still waiting
// in C then is discarded and counted in TickerStats.Undelivered; C is
// closed, so a receive after Stop gets no tick. Stop may be called more
// than once.
func (t *Ticker) Stop() {
	t.once.Do(func() { close(t.stop) })
	<-t.done
	// Only the consumer takes ticks from C while the goroutine runs; now
	// that it has ended and closed C, what is left was never received.
	var left int64
	for range t.c {
		left++
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if left > 0 {
		t.pending = false
		t.st.undelivered += left
	}
	t.receivedLocked()
}

// Stats returns the lateness statistics of the ticks received so far.
func (t *Ticker) Stats() TickerStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pending && len(t.c) == 0 {
		// Only the consumer takes ticks from C while the ticker runs (Stop
		// has accounted for what it found), so the pending tick was received.
		t.receivedLocked()
	}
	s := TickerStats{Ticks: t.st.ticks, Missed: t.st.missed, Undelivered: t.st.undelivered}
	if s.Ticks == 0 {
		return s
	}
	s.Min, s.Max = time.Duration(t.st.min), time.Duration(t.st.max)
	s.Mean = time.Duration(t.st.sum / t.st.ticks)
	p50, _ := t.hist.quantile(0.50)
	p99, _ := t.hist.quantile(0.99)
	s.P50, s.P99 = time.Duration(min(p50, t.st.max)), time.Duration(min(p99, t.st.max))
	return s
}

// At runs f on its own goroutine at time t (waiting with the default
// Sleeper). The returned cancel function prevents f from running if it has
// not started yet and reports whether it did so.
func At(t time.Time, f func()) (cancel func() bool) {
	cancel, _ = at(defaultSleeper, t, f)
	return cancel
}

// at is At with a given Sleeper; done is closed when the goroutine ends
// (whether f ran or not).
func at(s *Sleeper, t time.Time, f func()) (cancel func() bool, done <-chan struct{}) {
	var mu sync.Mutex
	state := 0 // 0 pending, 1 cancelled, 2 started
	end := make(chan struct{})
	go func() {
		defer close(end)
		s.SleepUntil(t)
		mu.Lock()
		run := state == 0
		if run {
			state = 2
		}
		mu.Unlock()
		if run {
			f()
		}
	}()
	return func() bool {
		mu.Lock()
		defer mu.Unlock()
		if state == 0 {
			state = 1
			return true
		}
		return false
	}, end
}

// Pacer paces a loop at a fixed rate: each Wait returns at the next slot
// start + k/rate, computed from the start (no drift). It is the
// synchronous counterpart of Ticker: the waiting happens on the caller's
// goroutine, with no extra channel handoff. A Pacer is not safe for
// concurrent use.
type Pacer struct {
	sleeper *Sleeper
	start   int64
	period  int64
	k       int64
	missed  int64
}

// NewPacer returns a Pacer for rate events per second, starting now.
func NewPacer(rate float64) (*Pacer, error) {
	if !(rate > 0) || rate > 1e9 {
		return nil, errors.New("delay: pacer rate must be between 0 and 1e9 per second (exclusive of 0)")
	}
	return &Pacer{sleeper: defaultSleeper, start: nanotime(), period: int64(math.Round(1e9 / rate))}, nil
}

// Wait blocks until the next slot and returns how late it returned. When
// the loop fell behind by whole slots they are skipped (see Missed).
func (p *Pacer) Wait() time.Duration {
	now := p.sleeper.clock.now()
	next := nextK(p.k, p.start, p.period, now, Skip)
	// nextK skips exactly the slots p.k+1 .. next-1, whose times passed
	// before this Wait.
	p.missed += next - p.k - 1
	p.k = next
	dl := p.start + next*p.period
	return time.Duration(p.sleeper.untilNano(dl, now) - dl)
}

// Missed returns the number of slots skipped because the loop fell behind.
func (p *Pacer) Missed() int64 { return p.missed }
