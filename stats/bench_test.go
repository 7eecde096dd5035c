package stats

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func benchSample(n int) []float64 {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = r.ExpFloat64() * 1e6
	}
	return xs
}

func BenchmarkSummarize(b *testing.B) {
	xs := benchSample(1_000_000)
	b.ReportAllocs()
	for b.Loop() {
		Summarize(xs)
	}
}

func BenchmarkPercentile(b *testing.B) {
	xs := benchSample(1_000_000)
	ps := []float64{50, 90, 99, 99.9}
	b.ReportAllocs()
	for b.Loop() {
		Percentiles(xs, ps, Linear)
	}
}

func BenchmarkQuantileSorted(b *testing.B) {
	xs := benchSample(1_000_000)
	sorted := slices.Sorted(slices.Values(xs))
	for b.Loop() {
		for _, m := range Methods {
			Quantile(sorted, 0.99, m)
		}
	}
}

func BenchmarkMannWhitneyU(b *testing.B) {
	xs, ys := benchSample(1000), benchSample(1200)
	for b.Loop() {
		MannWhitneyU(xs, ys)
	}
}

func BenchmarkMannWhitneyExact(b *testing.B) {
	xs, ys := benchSample(8), benchSample(200)
	for b.Loop() {
		MannWhitneyU(xs, ys)
	}
}

func BenchmarkHistogramRecord(b *testing.B) {
	h, _ := NewHistogram(1, 3_600_000_000_000, 3)
	var v int64 = 12345
	for b.Loop() {
		h.Record(v)
		v = v*1103515245 + 12345&(1<<30-1)
	}
}

func BenchmarkBootstrapMedian(b *testing.B) {
	xs := benchSample(1000)
	for b.Loop() {
		BootstrapCI(xs, Median, 0.95, 1000, 1)
	}
}
