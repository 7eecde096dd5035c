package delay

import (
	"math/rand"
	"testing"
	"time"

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
			if m := s.Margin(); m < tt.wantMargin[0] || m > tt.wantMargin[1] {
				t.Errorf("margin %v, want in [%v, %v]", m, tt.wantMargin[0], tt.wantMargin[1])
			}
		})
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
	// monoOf(time.Now()) agrees with nanotime to within a few µs.
	n1 := nanotime()
	m := monoOf(time.Now())
	n2 := nanotime()
	if m < n1-5000 || m > n2+5000 {
		t.Errorf("monoOf(now)=%d outside [%d, %d] ± 5µs", m, n1, n2)
	}
}

// TestSleepNeverEarly is a real-clock check, one-sided and loose.
func TestSleepNeverEarly(t *testing.T) {
	for _, d := range []time.Duration{0, 50 * time.Microsecond, 300 * time.Microsecond, 2 * time.Millisecond} {
		for i := 0; i < 5; i++ {
			start := time.Now()
			Sleep(d)
			got := time.Since(start)
			if got < d {
				t.Fatalf("Sleep(%v) returned after %v", d, got)
			}
			if got > d+500*time.Millisecond {
				t.Fatalf("Sleep(%v) took %v", d, got)
			}
		}
	}
	until := time.Now().Add(time.Millisecond)
	SleepUntil(until)
	if time.Now().Before(until) {
		t.Fatal("SleepUntil returned early")
	}
}

func TestConcurrentSleeps(t *testing.T) {
	s := NewSleeper(Options{MaxSpin: 50 * time.Microsecond})
	done := make(chan time.Duration)
	for i := 0; i < 16; i++ {
		go func() {
			d := time.Duration(200+rand.Intn(800)) * time.Microsecond
			start := time.Now()
			s.Sleep(d)
			done <- time.Since(start) - d
		}()
	}
	for i := 0; i < 16; i++ {
		if over := <-done; over < 0 {
			t.Errorf("concurrent sleep returned %v early", -over)
		}
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
		th.record(v)
	}
	snap := lt.Snapshot()[0]
	if snap.Overflows != 3 {
		t.Errorf("overflows %d, want 3 (values at or above 100 µs)", snap.Overflows)
	}
	if q := th.hist.Quantile(0.9); q < 2.99e6 {
		t.Errorf("p90 %d ns, want about 3 ms (not clipped at the -h limit)", q)
	}
	res := &LatencyResult{Threads: []ThreadLatency{snap}, Histograms: []*stats.Histogram{th.hist}, All: th.hist, HistogramMax: 100 * time.Microsecond}
	if got, want := res.Mean(), (50e3+99_999+100e3+6e6)/5.0; got != want {
		t.Errorf("mean %v, want exact %v", got, want)
	}
	d := res.Measurements()[0].Details
	if d["overflows"] != int64(3) || d["mean_ns"] != res.Mean() {
		t.Errorf("exported overflows %v mean %v", d["overflows"], d["mean_ns"])
	}
}
