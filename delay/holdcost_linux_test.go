//go:build linux

package delay

import (
	"math"
	"math/rand"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chronograph/chronograph/stats"
)

// BenchmarkHoldCost measures what a Sleeper's waits cost the rest of the
// program, with and without the hold (Options.MaxHold > 0), at the
// GOMAXPROCS of -cpu: one goroutine waits back to back (an iteration is
// one wait of 10 ms) while a neighbour runs:
//
//   - neighbor=wake: a goroutine that parks for a random 0.2-2 ms through
//     the netpoller (a Sleeper that neither spins nor holds) and reports
//     how late it resumed: the latency every goroutine woken by I/O or a
//     timer sees. A P held by the waiter (its hold, its spin) delays it
//     when no other P is free.
//   - neighbor=gc: a goroutine that runs a garbage collection (runtime.GC)
//     every random 0.5-3 ms; the runtime's own histogram
//     /sched/pauses/stopping/gc:seconds gives how long each stop-the-world
//     waited for every P to stop, which a P held in a raw system call can
//     delay until its thread reacts to the runtime's signal.
//
// mech=none runs the neighbour alone (its floor on this machine). Metrics:
// the waiter's p99 overshoot (wait-p99-ns), the neighbour's median, p99
// and max lateness (nb-*-ns), or the stop-the-world latency's p99 and max
// (stw-*-ns, upper edges of the runtime's histogram buckets). Run by
// scripts/delay-hold-cost.sh. The benchmark asserts nothing: its figures
// are for the trade-off in the package documentation.
func BenchmarkHoldCost(b *testing.B) {
	mechs := []struct {
		name string
		new  func() *Sleeper // nil: no waiter
	}{
		{"none", nil},
		{"hold", func() *Sleeper { return NewSleeper(Options{MaxHold: suggestedMaxHold}) }},
		{"nohold", func() *Sleeper { return NewSleeper(Options{}) }},
	}
	for _, nb := range []string{"wake", "gc"} {
		for _, m := range mechs {
			b.Run("neighbor="+nb+"/mech="+m.name, func(b *testing.B) {
				holdCost(b, nb, m.new, 10*time.Millisecond)
			})
		}
	}
}

func holdCost(b *testing.B, neighbor string, newSleeper func() *Sleeper, d time.Duration) {
	var stop atomic.Bool
	var wg sync.WaitGroup
	var mu sync.Mutex
	var lates []float64
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewSource(1))
		switch neighbor {
		case "wake":
			s := NewSleeper(Options{NoSpin: true})
			for !stop.Load() {
				over := s.Sleep(time.Duration(200_000 + rng.Int63n(1_800_000)))
				mu.Lock()
				lates = append(lates, float64(over))
				mu.Unlock()
			}
		case "gc":
			for !stop.Load() {
				time.Sleep(time.Duration(500_000 + rng.Int63n(2_500_000)))
				runtime.GC()
			}
		}
	}()
	var s *Sleeper
	if newSleeper != nil {
		s = newSleeper()
		for range 20 { // learn the margins first
			s.Sleep(d)
		}
	}
	mu.Lock()
	lates = lates[:0]
	mu.Unlock()
	before := stwSample()
	var overs []float64
	b.ResetTimer()
	if s == nil {
		time.Sleep(time.Duration(b.N) * d)
	} else {
		overs = make([]float64, 0, b.N)
		for range b.N {
			overs = append(overs, float64(s.Sleep(d)))
		}
	}
	b.StopTimer()
	after := stwSample()
	stop.Store(true)
	wg.Wait()
	if len(overs) > 0 {
		b.ReportMetric(stats.Percentile(overs, 99, stats.Linear), "wait-p99-ns")
	}
	switch neighbor {
	case "wake":
		b.ReportMetric(stats.Percentile(lates, 50, stats.Linear), "nb-p50-ns")
		b.ReportMetric(stats.Percentile(lates, 99, stats.Linear), "nb-p99-ns")
		b.ReportMetric(stats.Percentile(lates, 100, stats.Linear), "nb-max-ns")
	case "gc":
		p99, max, n := histDelta(before, after, 0.99)
		b.ReportMetric(p99*1e9, "stw-p99-ns")
		b.ReportMetric(max*1e9, "stw-max-ns")
		b.ReportMetric(float64(n), "stws")
	}
}

const stwMetric = "/sched/pauses/stopping/gc:seconds"

func stwSample() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: stwMetric}}
	metrics.Read(s)
	return s[0].Value.Float64Histogram()
}

// histDelta returns the upper bucket edge of the q-quantile and of the
// largest value recorded between two readings of a runtime histogram,
// and how many values were.
func histDelta(a, b *metrics.Float64Histogram, q float64) (quant, max float64, n uint64) {
	counts := make([]uint64, len(b.Counts))
	for i := range counts {
		counts[i] = b.Counts[i] - a.Counts[i]
		n += counts[i]
	}
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	rank := uint64(math.Ceil(q * float64(n)))
	var cum uint64
	quant = math.NaN()
	for i, c := range counts {
		cum += c
		if c > 0 {
			max = b.Buckets[i+1]
		}
		if math.IsNaN(quant) && cum >= rank {
			quant = b.Buckets[i+1]
		}
	}
	return quant, max, n
}
