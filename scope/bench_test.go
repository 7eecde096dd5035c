package scope

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var sinkDur time.Duration

// BenchmarkStartStop compares, in one run, Start+Stop of a kept *Scope
// and of a scope looked up by name with their anchor, a time.Now() +
// time.Since() pair (scripts/trace-bench.sh prints the ratios; target
// ≤ 1.5x, 0 allocs).
func BenchmarkStartStop(b *testing.B) {
	s := New("bench")
	b.Run("anchor-now+since", func(b *testing.B) {
		for b.Loop() {
			t := time.Now()
			sinkDur = time.Since(t)
		}
	})
	b.Run("scope", func(b *testing.B) {
		for b.Loop() {
			sinkDur = s.Start().Stop()
		}
	})
	b.Run("by-name", func(b *testing.B) {
		for b.Loop() {
			sinkDur = Start("bench").Stop()
		}
	})
}

// BenchmarkParallel runs g goroutines that each do b.N Start+Stop calls
// at the same time; ns/op is wall time per b.N, so throughput per
// goroutine lost to contention is 1 - (ns/op with 1)/(ns/op with 2)
// (target < 20 %). The anchor does the same with time.Now()+time.Since(),
// which shares nothing, so it shows what the machine itself loses when two
// goroutines run at once; "unsharded" records into one shared atomic
// counter, to show what sharding avoids.
func BenchmarkParallel(b *testing.B) {
	s := New("parallel")
	var shared atomic.Uint64
	work := map[string]func(){
		"anchor": func() {
			t := time.Now()
			sinkDur = time.Since(t)
		},
		"scope": func() { s.Start().Stop() },
		"unsharded": func() {
			t := time.Now()
			shared.Add(uint64(time.Since(t)))
		},
	}
	for _, name := range []string{"anchor", "scope", "unsharded"} {
		f := work[name]
		for _, g := range []int{1, 2} {
			b.Run(name+"/goroutines="+string(rune('0'+g)), func(b *testing.B) {
				var wg sync.WaitGroup
				start := make(chan struct{})
				for range g {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						for range b.N {
							f()
						}
					}()
				}
				b.ResetTimer()
				close(start)
				wg.Wait()
			})
		}
	}
}
