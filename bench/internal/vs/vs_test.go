package vs

import (
	"testing"

	"github.com/chronograph/chronograph/bench"
	"github.com/chronograph/chronograph/bench/benchtest"
)

var (
	xs1k  = seq(1000)
	xs16k = seq(16000)
	m     = func() map[uint64]uint64 {
		m := make(map[uint64]uint64, 1024)
		for i := uint64(0); i < 1024; i++ {
			m[i*7919] = i
		}
		return m
	}()
	key = uint64(512 * 7919)
)

func seq(n int) []uint64 {
	xs := make([]uint64, n)
	for i := range xs {
		xs[i] = uint64(i)
	}
	return xs
}

//go:noinline
func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

//go:noinline
func empty() {}

// The four workloads: an empty function call, a ~300 ns sum of 1000
// uint64, a ~10 µs sum of 16000, and a map lookup.
var workloads = []struct {
	name string
	tb   func(b *testing.B)
	bb   func(b *bench.B)
}{
	{"empty",
		func(b *testing.B) {
			for b.Loop() {
				empty()
			}
		},
		func(b *bench.B) {
			for b.Loop() {
				empty()
			}
		}},
	{"sum1k",
		func(b *testing.B) {
			for b.Loop() {
				sum(xs1k)
			}
		},
		func(b *bench.B) {
			for b.Loop() {
				b.Keep(sum(xs1k))
			}
		}},
	{"sum16k",
		func(b *testing.B) {
			for b.Loop() {
				sum(xs16k)
			}
		},
		func(b *bench.B) {
			for b.Loop() {
				b.Keep(sum(xs16k))
			}
		}},
	{"map",
		func(b *testing.B) {
			k := key
			for b.Loop() {
				_ = m[k]
			}
		},
		func(b *bench.B) {
			k := key
			for b.Loop() {
				b.Keep(m[k])
			}
		}},
}

func BenchmarkTB(b *testing.B) {
	for _, w := range workloads {
		b.Run(w.name, w.tb)
	}
}

func BenchmarkBench(b *testing.B) {
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) { benchtest.Run(b, w.bb, nil) })
	}
}

// BenchmarkOverhead reports bench's own costs: the empty loop's ns per
// iteration (the harness overhead in batch mode) and the latency mode's
// fenced read overhead, measured on the sum of 1000.
func BenchmarkOverhead(b *testing.B) {
	if overhead == nil {
		overhead = measureOverhead(b)
	}
	r := overhead
	b.ReportMetric(r.Overhead.LoopNsPerOp, "loop-ns/op")
	b.ReportMetric(r.Overhead.LoopNsPerOpHigh, "loop-high-ns/op")
	b.ReportMetric(r.Latency.ReadOverheadNs, "latency-read-ns")
	b.ReportMetric(r.Latency.P50, "latency-p50-ns")
	b.ReportMetric(r.NsPerOp.Median, "batch-ns/op")
}

var overhead *bench.Benchmark

func measureOverhead(b *testing.B) *bench.Benchmark {
	r, err := bench.Run("sum1k", func(b *bench.B) {
		for b.Loop() {
			b.Keep(sum(xs1k))
		}
	}, &bench.Options{Latency: true})
	if err != nil {
		b.Fatal(err)
	}
	return r
}
