package delay

import (
	"errors"
	"math/rand"
	"testing"
	"time"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

func TestEstimatorBuckets(t *testing.T) {
	// Buckets are contiguous and increasing: the value after a bucket's
	// upper edge starts the next bucket.
	for b := 0; b < 240; b++ {
		hi := bucketHigh(b)
		if got := bucketOf(hi); got != b {
			t.Fatalf("bucketOf(bucketHigh(%d)=%d) = %d", b, hi, got)
		}
		if got := bucketOf(hi + 1); got != b+1 {
			t.Fatalf("bucketOf(%d) = %d, want %d", hi+1, got, b+1)
		}
	}
}

func TestEstimatorQuantile(t *testing.T) {
	tests := []struct {
		name   string
		values func(i int) int64
		q      float64
		lo, hi int64 // the answer must lie in [lo, hi]
	}{
		{"constant", func(int) int64 { return 30000 }, 0.99, 30000, 30000 * 120 / 100},
		{"uniform 0..100us p99", func(i int) int64 { return int64(i%1000) * 100 }, 0.99, 98000, 99900 * 120 / 100},
		{"uniform 0..100us p50", func(i int) int64 { return int64(i%1000) * 100 }, 0.5, 49000, 50000 * 120 / 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e estimator
			if _, ok := e.quantile(tt.q); ok {
				t.Fatal("empty estimator returned a quantile")
			}
			for i := 0; i < 1000; i++ {
				e.add(tt.values(i))
			}
			got, ok := e.quantile(tt.q)
			if !ok || got < tt.lo || got > tt.hi {
				t.Errorf("quantile(%v) = %d, %v; want in [%d, %d]", tt.q, got, ok, tt.lo, tt.hi)
			}
		})
	}
}

func TestEstimatorForgets(t *testing.T) {
	e := estimator{halfLife: 64}
	for i := 0; i < 1000; i++ {
		e.add(1_000_000) // an old burst of 1 ms lateness
	}
	for i := 0; i < 2000; i++ {
		e.add(10_000)
	}
	if q, _ := e.quantile(0.99); q > 20_000 {
		t.Errorf("p99 after the burst faded = %d, want ≤ 20000", q)
	}
}

// TestSleeperFakeClock checks the wait algorithm against a fake clock:
// never early, margin learned from lateness and bounded by MaxSpin,
// NoSpin ending at the kernel wake-up.
func TestSleeperFakeClock(t *testing.T) {
	tests := []struct {
		name        string
		opts        Options
		late        int64
		wantMaxOver int64 // overshoot bound after warm-up
		wantMargin  [2]time.Duration
	}{
		{"spin covers 30us lateness", Options{}, 30_000, 100, [2]time.Duration{30 * time.Microsecond, 40 * time.Microsecond}},
		{"MaxSpin caps the margin", Options{MaxSpin: 10 * time.Microsecond}, 30_000, 20_000 + 100, [2]time.Duration{10 * time.Microsecond, 10 * time.Microsecond}},
		{"NoSpin returns at the wake-up", Options{NoSpin: true}, 30_000, 30_000 + 100, [2]time.Duration{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &fakeClock{t: 1e9, step: 10, late: func() int64 { return tt.late }}
			s := newSleeper(tt.opts, c)
			for i := 0; i < 200; i++ {
				over := s.Sleep(time.Millisecond)
				if over < 0 {
					t.Fatalf("sleep %d returned %v early", i, -over)
				}
				if i >= 20 && int64(over) > tt.wantMaxOver {
					t.Fatalf("sleep %d overshoot %v, want ≤ %v", i, over, time.Duration(tt.wantMaxOver))
				}
			}
			if m := s.margin(); m < tt.wantMargin[0] || m > tt.wantMargin[1] {
				t.Errorf("margin %v, want in [%v, %v]", m, tt.wantMargin[0], tt.wantMargin[1])
			}
		})
	}
}

// TestSpinOnlyWaitsYield: waits that only spin yield to the scheduler
// first, once every yieldEvery (so the runtime never has to preempt them
// mid-spin); waits that park do not need to.
func TestSpinOnlyWaitsYield(t *testing.T) {
	c := &fakeClock{t: 1e9, step: 100}
	s := newSleeper(Options{}, c)
	for i := 0; i < 1000; i++ { // 1000 x 100 µs, all spin (margin 200 µs)
		if over := s.Sleep(100 * time.Microsecond); over < 0 {
			t.Fatalf("returned %v early", -over)
		}
	}
	if len(c.blocks) != 0 || len(c.yields) < 19 || len(c.yields) > 20 {
		t.Errorf("%d blocks, %d yields over 100 ms of spin-only waits; want none, one per %v", len(c.blocks), len(c.yields), yieldEvery)
	}
	for i := 1; i < len(c.yields); i++ {
		if gap := c.yields[i] - c.yields[i-1]; gap < int64(yieldEvery) {
			t.Fatalf("yields %v apart", time.Duration(gap))
		}
	}
	c = &fakeClock{t: 1e9, step: 100, late: func() int64 { return 10_000 }}
	s = newSleeper(Options{}, c)
	for i := 0; i < 100; i++ { // 100 x 1 ms: each parks
		s.Sleep(time.Millisecond)
	}
	if len(c.yields) != 0 {
		t.Errorf("%d yields in waits that park, want 0", len(c.yields))
	}
}

func TestSleeperShortWaitSpins(t *testing.T) {
	c := &fakeClock{t: 1e9, step: 10}
	s := newSleeper(Options{}, c)
	if over := s.Sleep(5 * time.Microsecond); over < 0 || over > 100 {
		t.Errorf("overshoot %v", over)
	}
	if len(c.blocks) != 0 {
		t.Errorf("a wait shorter than the margin blocked in the kernel (%d blocks)", len(c.blocks))
	}
	if over := s.Sleep(-time.Second); over > 100 {
		t.Errorf("negative sleep took %v", over)
	}
}

func TestMonoTimeRoundTrip(t *testing.T) {
	now := time.Now()
	for _, d := range []time.Duration{0, time.Microsecond, time.Hour, -time.Second} {
		tm := now.Add(d)
		if got := timeOf(monoOf(tm)); !got.Equal(tm) {
			t.Errorf("timeOf(monoOf(%v)) = %v", tm, got)
		}
	}
	// time.Now's monotonic reading is nanotime's clock, so monoOf(now)
	// lies between two nanotime reads around it, give or take the
	// uncertainty of the base (half the narrowest bracket initBase saw)
	// and, where time.Now's monotonic reading steps (windows), the step
	// it may lag behind by.
	n1 := nanotime()
	m := monoOf(time.Now())
	n2 := nanotime()
	if m < n1-baseErr-baseStep || m > n2+baseErr {
		t.Errorf("monoOf(now)=%d outside [%d - %d, %d] ± %d ns", m, n1, baseStep, n2, baseErr)
	}
}

// TestSleepReturnsAfterDeadline runs the real path (with the race
// detector, concurrently) and checks the invariant of what Sleep returns:
// the clock read it returned at is not before the deadline. (How late it
// is, is for scripts/delay-sleep.sh.)
func TestSleepReturnsAfterDeadline(t *testing.T) {
	for _, d := range []time.Duration{0, 50 * time.Microsecond, 300 * time.Microsecond, 2 * time.Millisecond, -time.Second} {
		if over := defaultSleeper.Sleep(d); over < 0 {
			t.Fatalf("Sleep(%v) returned %v before its deadline", d, -over)
		}
	}
	Sleep(time.Microsecond)
	SleepUntil(time.Now().Add(time.Millisecond))
	s := NewSleeper(Options{MaxSpin: 50 * time.Microsecond})
	done := make(chan time.Duration)
	for i := 0; i < 16; i++ {
		go func() {
			done <- s.Sleep(time.Duration(200+rand.Intn(800)) * time.Microsecond)
		}()
	}
	for i := 0; i < 16; i++ {
		if over := <-done; over < 0 {
			t.Errorf("concurrent sleep returned %v before its deadline", -over)
		}
	}
	if n, err := s.failureCount(); n != 0 {
		t.Errorf("%d kernel waits failed: %v", n, err)
	}
}

// TestLatencyOverflowLimitDoesNotClip: cyclictest's -h limit counts
// overflows but must not clip the HDR histogram, or every percentile and
// the mean above the limit would read as the limit.
func TestLatencyOverflowLimitDoesNotClip(t *testing.T) {
	lt, err := NewLatencyTest(LatencyOptions{HistogramMax: 100 * time.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	th := lt.threads[0]
	for _, v := range []int64{50e3, 99_999, 100e3, 3e6, 3e6} { // ns
		th.record(v, -1)
	}
	snap := lt.Snapshot()[0]
	if snap.Overflows != 3 {
		t.Errorf("overflows %d, want 3 (values at or above 100 µs)", snap.Overflows)
	}
	if q := th.hist.Quantile(0.9); q < 2.99e6 {
		t.Errorf("p90 %d ns, want about 3 ms (not clipped at the -h limit)", q)
	}
	res := &LatencyResult{Threads: []ThreadLatency{snap}, Histograms: []*stats.Histogram{th.hist}, All: th.hist, HistogramMax: 100 * time.Microsecond}
	if got, want := res.mean(), (50e3+99_999+100e3+6e6)/5.0; got != want {
		t.Errorf("mean %v, want exact %v", got, want)
	}
	m := res.Document(result.Meta{Tool: result.Tool{Name: "test"}}).Measurements[0]
	if got := m.Detail.Latency.Overflows; got != 3 {
		t.Errorf("exported overflows %d, want 3", got)
	}
	if met := m.Metric("latency"); met == nil || met.Histogram == nil || met.Histogram.Mean != res.mean() || met.Histogram.Max != 3e6 {
		t.Errorf("exported latency metric %+v, want the exact mean %v and max 3 ms", met, res.mean())
	}
}

// TestSleeperHolds checks the park-hold-spin algorithm against a fake
// clock that holds: the lead learned from the parks' lateness (bounded by
// MaxHold), the margin from the holds', one park and one hold per long
// wait at the planned times, waits within lead + margin held only, never
// early.
func TestSleeperHolds(t *testing.T) {
	us := int64(time.Microsecond)
	tests := []struct {
		name                string
		opts                Options
		d                   time.Duration
		parkLate, holdLate  int64
		wantLead, wantMarg  [2]int64 // bounds after warm-up (ns)
		wantBlocks, wantHld int      // per wait after warm-up
		wantMaxOver         int64
	}{
		{"park, hold, spin", hold500, 10 * time.Millisecond, 100 * us, 10 * us,
			[2]int64{100 * us, 120 * us}, [2]int64{10 * us, 14 * us}, 1, 1, 100},
		{"wait within lead+margin holds only", hold500, 100 * time.Microsecond, 100 * us, 10 * us,
			[2]int64{100 * us, 120 * us}, [2]int64{10 * us, 14 * us}, 0, 1, 100},
		{"NoSpin ends at the hold's wake-up", Options{NoSpin: true, MaxHold: 500 * time.Microsecond}, 10 * time.Millisecond, 100 * us, 10 * us,
			[2]int64{100 * us, 120 * us}, [2]int64{0, 0}, 1, 1, 10*us + 100},
		// The lead is capped below the parks' lateness, so they wake
		// after the hold would have ended: no hold, the spin covers the
		// rest (the margin never learned: the initial one).
		{"MaxHold caps the lead, a later park skips the hold", Options{MaxHold: 50 * time.Microsecond}, 10 * time.Millisecond, 100 * us, 10 * us,
			[2]int64{50 * us, 50 * us}, [2]int64{int64(initialMargin), int64(initialMargin)}, 1, 0, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &holdClock{fakeClock: &fakeClock{t: 1e9, step: 10, late: func() int64 { return tt.parkLate }},
				holdLate: func() int64 { return tt.holdLate }}
			s := newSleeper(tt.opts, c)
			for range 100 { // warm-up: 1 ms waits park and hold
				s.Sleep(time.Millisecond)
			}
			s.mu.Lock()
			lead, margin := s.leadLocked(), s.marginLocked()
			s.mu.Unlock()
			if lead < tt.wantLead[0] || lead > tt.wantLead[1] || margin < tt.wantMarg[0] || margin > tt.wantMarg[1] {
				t.Fatalf("lead %v, margin %v; want lead in [%v, %v], margin in [%v, %v]", time.Duration(lead), time.Duration(margin),
					time.Duration(tt.wantLead[0]), time.Duration(tt.wantLead[1]), time.Duration(tt.wantMarg[0]), time.Duration(tt.wantMarg[1]))
			}
			for i := range 50 {
				nb, nh := len(c.blocks), len(c.holds)
				start := c.now()
				abs := start + int64(tt.d)
				end := s.SleepUntilNano(abs)
				if over := end - abs; over < 0 || over > tt.wantMaxOver {
					t.Fatalf("wait %d: overshoot %v, want in [0, %v]", i, time.Duration(over), time.Duration(tt.wantMaxOver))
				}
				if len(c.blocks)-nb != tt.wantBlocks || len(c.holds)-nh != tt.wantHld {
					t.Fatalf("wait %d: %d parks, %d holds; want %d, %d", i, len(c.blocks)-nb, len(c.holds)-nh, tt.wantBlocks, tt.wantHld)
				}
				// Margins do not move in steady state: the waits were
				// planned with the ones read above.
				if tt.wantHld == 1 && c.holds[nh] != abs-margin {
					t.Fatalf("wait %d held until %d, want abs-margin = %d", i, c.holds[nh], abs-margin)
				}
				if tt.wantBlocks == 1 && c.blocks[nb] != abs-margin-lead {
					t.Fatalf("wait %d parked until %d, want abs-margin-lead = %d", i, c.blocks[nb], abs-margin-lead)
				}
			}
		})
	}
}

// TestSleeperNoHold: MaxHold 0 (the default) never holds, even on a clock that can:
// the wait parks until the spin and the margin learns the parks' lateness.
func TestSleeperNoHold(t *testing.T) {
	c := &holdClock{fakeClock: &fakeClock{t: 1e9, step: 10, late: func() int64 { return 30_000 }}}
	s := newSleeper(Options{}, c)
	for range 200 {
		if over := s.Sleep(time.Millisecond); over < 0 {
			t.Fatalf("returned %v early", -over)
		}
	}
	if len(c.holds) != 0 || len(c.blocks) != 200 {
		t.Errorf("%d holds, %d parks in 200 waits; want 0, 200", len(c.holds), len(c.blocks))
	}
	if m := s.margin(); m < 30*time.Microsecond || m > 40*time.Microsecond {
		t.Errorf("margin %v, want the parks' lateness (30 µs) plus a bucket", m)
	}
}

// TestHoldOnlyWaitsYield: waits that only hold (and spin) never park, so
// they yield first once every yieldEvery, as spin-only waits do.
func TestHoldOnlyWaitsYield(t *testing.T) {
	c := &holdClock{fakeClock: &fakeClock{t: 1e9, step: 100, late: func() int64 { return 250_000 }}}
	s := newSleeper(hold500, c)
	for range 100 { // 1 ms waits park, 250 µs late: the lead learns it
		s.Sleep(time.Millisecond)
	}
	nb, nh := len(c.blocks), len(c.holds)
	for range 750 { // 750 x 200 µs, within lead + margin
		if over := s.Sleep(200 * time.Microsecond); over < 0 {
			t.Fatalf("returned %v early", -over)
		}
	}
	if len(c.blocks) != nb || len(c.holds)-nh != 750 {
		t.Fatalf("%d parks, %d holds in 750 waits within lead + margin; want 0, 750", len(c.blocks)-nb, len(c.holds)-nh)
	}
	if n := len(c.yields); n < 29 || n > 30 {
		t.Errorf("%d yields over 150 ms of waits that hold, want one per %v", n, yieldEvery)
	}
}

// TestSleeperWaitFails: when the kernel wait fails (to park, or to
// hold), the Sleeper still waits (time.Sleep and the spin), does not
// learn a lateness from the failed wait, and keeps the error.
func TestSleeperWaitFails(t *testing.T) {
	cause := errors.New("timerfd: no")
	parkFails := func(c *holdClock) { c.fail = func() error { return cause } }
	tests := []struct {
		name     string
		noHolder bool // the clock cannot hold
		fail     func(c *holdClock)
	}{
		{"park", false, parkFails},
		{"hold", false, func(c *holdClock) { c.holdFail = func() error { return cause } }},
		{"park, no holder", true, parkFails},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &holdClock{fakeClock: &fakeClock{t: 1e9, step: 1000, late: func() int64 { return 50_000 }},
				holdLate: func() int64 { return 10_000 }}
			var s *Sleeper
			if tt.noHolder {
				s = newSleeper(Options{}, c.fakeClock)
			} else {
				s = newSleeper(hold500, c)
			}
			for range 50 {
				s.Sleep(time.Millisecond)
			}
			s.mu.Lock()
			margin, lead := s.marginLocked(), s.leadLocked()
			s.mu.Unlock()
			tt.fail(c)
			abs := c.now() + int64(time.Millisecond)
			if got := s.SleepUntilNano(abs); got < abs {
				t.Errorf("returned at %d, before the deadline %d", got, abs)
			}
			if n, err := s.failureCount(); n != 1 || !errors.Is(err, cause) {
				t.Errorf("failures %d, %v; want 1, the cause", n, err)
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.marginLocked() != margin || s.leadLocked() != lead {
				t.Errorf("margin, lead moved from %v, %v to %v, %v after a failed wait", margin, lead, s.marginLocked(), s.leadLocked())
			}
		})
	}
}

// hold500 holds as the study's delay.Sleep(hold) does.
var hold500 = Options{MaxHold: suggestedMaxHold}
