package delay

import (
	"math/rand"
	"testing"
	"time"
)

func TestNextK(t *testing.T) {
	const start, period = 1000, 100
	tests := []struct {
		name    string
		k, now  int64
		overrun Overrun
		want    int64
	}{
		{"on time", 1, 1105, Skip, 2},
		{"late within the period", 1, 1150, Skip, 2},
		{"exactly on the next deadline", 1, 1200, Skip, 3},
		{"three deadlines passed", 1, 1450, Skip, 5},
		{"catch up never skips", 1, 1450, CatchUp, 2},
		{"clock before start", 1, 900, Skip, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nextK(tt.k, start, period, tt.now, tt.overrun); got != tt.want {
				t.Errorf("nextK(%d, now=%d) = %d, want %d", tt.k, tt.now, got, tt.want)
			}
		})
	}
}

// TestTickerNoDriftFakeClock runs 10,000 ticks against a fake clock with
// random lateness: every deadline is exactly start + k*period, no tick is
// lost, and lateness does not grow with k.
func TestTickerNoDriftFakeClock(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	c := &fakeClock{t: 5e9, step: 1000, late: func() int64 { return r.Int63n(80_000) }}
	s := newSleeper(Options{}, c)
	const period = int64(time.Millisecond)
	tk, err := newTicker(time.Duration(period), CatchUp, s, 5e9)
	if err != nil {
		t.Fatal(err)
	}
	var first time.Time
	var early, lateSum [2]int64
	const n = 10000
	for i := int64(1); i <= n; i++ {
		tick := <-tk.C
		if tick.K != i {
			t.Fatalf("tick %d has K=%d (lost or reordered)", i, tick.K)
		}
		if i == 1 {
			first = tick.Deadline
		}
		if got := tick.Deadline.Sub(first); got != time.Duration((i-1)*period) {
			t.Fatalf("deadline %d is %v after the first, want %v (drift)", i, got, time.Duration((i-1)*period))
		}
		if tick.Lateness < 0 {
			t.Fatalf("tick %d early by %v", i, -tick.Lateness)
		}
		if i <= 1000 {
			early[0]++
			lateSum[0] += int64(tick.Lateness)
		} else if i > n-1000 {
			early[1]++
			lateSum[1] += int64(tick.Lateness)
		}
	}
	tk.Stop()
	firstMean, lastMean := lateSum[0]/early[0], lateSum[1]/early[1]
	if lastMean > firstMean+int64(20*time.Microsecond) {
		t.Errorf("mean lateness grew from %v (first 1000) to %v (last 1000)", time.Duration(firstMean), time.Duration(lastMean))
	}
	st := tk.Stats()
	if st.Ticks < n || st.Missed != 0 {
		t.Errorf("stats: %d ticks, %d missed; want ≥ %d, 0", st.Ticks, st.Missed, n)
	}
	if st.Min < 0 || st.Max < st.P99 || st.P99 < st.P50 || st.P50 < st.Min || st.Mean < st.Min || st.Mean > st.Max {
		t.Errorf("inconsistent stats %+v", st)
	}
	if _, ok := <-tk.C; ok {
		// At most one buffered tick may remain; then C is closed.
		if _, ok := <-tk.C; ok {
			t.Error("C not closed after Stop")
		}
	}
}

// TestTickerSkipCounts makes every 10th wake-up 3.5 periods late: with
// Skip, those deadlines are counted as missed and K jumps accordingly.
func TestTickerSkipCounts(t *testing.T) {
	const period = int64(time.Millisecond)
	n := 0
	c := &fakeClock{t: 1e9, step: 5}
	c.late = func() int64 {
		n++
		if n%10 == 0 {
			return 3*period + period/2
		}
		return 1000
	}
	s := newSleeper(Options{NoSpin: true}, c)
	tk, err := newTicker(time.Duration(period), Skip, s, 1e9)
	if err != nil {
		t.Fatal(err)
	}
	var lastK, skipped int64
	for i := 0; i < 200; i++ {
		tick := <-tk.C
		skipped += tick.K - lastK - 1
		lastK = tick.K
	}
	tk.Stop()
	st := tk.Stats()
	if skipped == 0 || st.Missed < skipped {
		t.Errorf("skipped %d deadlines by K, stats say %d missed", skipped, st.Missed)
	}
}

func TestTickerErrors(t *testing.T) {
	if _, err := NewTicker(0, Skip); err == nil {
		t.Error("period 0 accepted")
	}
	if _, err := NewTicker(time.Millisecond, Overrun(7)); err == nil {
		t.Error("unknown overrun policy accepted")
	}
	if _, err := NewPacer(0); err == nil {
		t.Error("rate 0 accepted")
	}
}

// TestRealTickerAndPacer runs the real clock path and checks what does not
// depend on timing: tick numbering, deadlines on the period's grid, stats.
// (Timing claims are in the fake-clock tests and scripts/delay-ticker.sh.)
func TestRealTickerAndPacer(t *testing.T) {
	tk, err := NewTicker(2*time.Millisecond, Skip)
	if err != nil {
		t.Fatal(err)
	}
	var prev Tick
	for i := 0; i < 20; i++ {
		tick := <-tk.C
		if i > 0 && (tick.K <= prev.K || tick.Deadline.Sub(prev.Deadline) != time.Duration(tick.K-prev.K)*2*time.Millisecond) {
			t.Fatalf("tick %d at %v after tick %d: not on the period's grid", tick.K, tick.Deadline.Sub(prev.Deadline), prev.K)
		}
		prev = tick
	}
	tk.Stop()
	tk.Stop() // idempotent
	if st := tk.Stats(); st.Ticks < 20 {
		t.Errorf("stats count %d ticks, want ≥ 20", st.Ticks)
	}
	p, err := NewPacer(1000)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		p.Wait()
	}
}

// TestPacerFakeClock: Wait returns at the slots start + k/rate, never
// early, and a stall of 10 periods skips the slots it covered.
func TestPacerFakeClock(t *testing.T) {
	const period = int64(time.Millisecond)
	c := &fakeClock{t: 1e9, step: 10, late: func() int64 { return 20_000 }}
	p := &Pacer{sleeper: newSleeper(Options{}, c), start: 1e9, period: period}
	for i := int64(1); i <= 20; i++ {
		late := p.Wait()
		if late < 0 {
			t.Fatalf("slot %d: returned %v early", i, -late)
		}
		if p.k != i {
			t.Fatalf("slot %d numbered %d", i, p.k)
		}
	}
	c.mu.Lock()
	c.t = p.start + 30*period + period/2 // a stall: the loop comes back in slot 30
	c.mu.Unlock()
	p.Wait()
	if p.k != 31 || p.Missed() != 10 {
		t.Errorf("after the stall: slot %d, %d missed; want slot 31, 10 missed (21..30)", p.k, p.Missed())
	}
}

// TestAt: f runs once its time came, and not after a cancel that came
// first (a gated fake clock holds the wait until the test releases it).
func TestAt(t *testing.T) {
	c := &fakeClock{t: 1e9, step: 10, gate: make(chan struct{})}
	s := newSleeper(Options{NoSpin: true}, c)
	when := timeOf(1e9 + int64(time.Millisecond))
	ran := make(chan struct{}, 1)
	cancel, done := at(s, when, func() { ran <- struct{}{} })
	c.gate <- struct{}{}
	<-ran
	<-done
	if cancel() {
		t.Error("cancel after f ran returned true")
	}
	called := make(chan struct{}, 1)
	cancel, done = at(s, when.Add(time.Hour), func() { called <- struct{}{} })
	if !cancel() {
		t.Fatal("cancel before the time returned false")
	}
	if cancel() {
		t.Error("second cancel returned true")
	}
	c.gate <- struct{}{}
	<-done
	select {
	case <-called:
		t.Fatal("cancelled function ran")
	default:
	}
	// The real path runs f.
	realRan := make(chan struct{})
	At(time.Now().Add(time.Millisecond), func() { close(realRan) })
	<-realRan
}

// TestTickerCountsReceivedTicks: the consumer takes 5 ticks and lets the
// sixth wait in C; after Stop, Stats counts the 5 received (their
// lateness only) and the sixth as undelivered, with either policy. The
// gated fake clock lets the ticker wake once per value sent on the gate.
func TestTickerCountsReceivedTicks(t *testing.T) {
	const period = int64(time.Millisecond)
	for _, overrun := range []Overrun{Skip, CatchUp} {
		t.Run(map[Overrun]string{Skip: "skip", CatchUp: "catch-up"}[overrun], func(t *testing.T) {
			n := int64(0)
			c := &fakeClock{t: 1e9, step: 1, gate: make(chan struct{})}
			c.late = func() int64 { n++; return n * 1000 } // tick k is k µs late
			tk, err := newTicker(time.Duration(period), overrun, newSleeper(Options{NoSpin: true}, c), 1e9)
			if err != nil {
				t.Fatal(err)
			}
			for i := int64(1); i <= 5; i++ {
				c.gate <- struct{}{}
				if tick := <-tk.C; tick.K != i {
					t.Fatalf("tick %d has K=%d", i, tick.K)
				}
			}
			c.gate <- struct{}{} // the ticker wakes for tick 6 and puts it on C ...
			c.gate <- struct{}{} // ... and is waiting for tick 7: tick 6 is in C
			if st := tk.Stats(); st.Ticks != 5 || st.Undelivered != 0 {
				t.Errorf("while running, tick 6 in C: %d ticks, %d undelivered; want 5, 0", st.Ticks, st.Undelivered)
			}
			close(c.gate) // let the ticker run to its stop check
			tk.Stop()
			st := tk.Stats()
			if st.Ticks != 5 || st.Undelivered != 1 {
				t.Errorf("after Stop: %d ticks, %d undelivered; want 5 received, 1 undelivered", st.Ticks, st.Undelivered)
			}
			// The lateness figures are those of ticks 1..5 (k µs late, plus
			// the 1 ns step of the clock read on waking), not of tick 6.
			if st.Min != 1001*time.Nanosecond || st.Max != 5001*time.Nanosecond || st.Mean != 3001*time.Nanosecond {
				t.Errorf("lateness min %v max %v mean %v; want 1.001µs, 5.001µs, 3.001µs (ticks 1 to 5)", st.Min, st.Max, st.Mean)
			}
			if _, ok := <-tk.C; ok {
				t.Error("a tick was left in C after Stop")
			}
		})
	}
}
