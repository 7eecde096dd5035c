package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
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
		percentilesOf(xs, ps, Linear)
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

// BenchmarkMannWhitneyExact measures the exact test at the sizes where it
// costs most: na·nb at mannWhitneyExactLimit and U at its mean (the
// samples interleaved), without and with ties, and small samples.
func BenchmarkMannWhitneyExact(b *testing.B) {
	interleaved := func(na, nb int, step float64) ([]float64, []float64) {
		// a and b spread evenly over the same range: U near its mean.
		xs, ys := make([]float64, na), make([]float64, nb)
		for i := range xs {
			xs[i] = math.Floor(float64(i) / float64(na) * 1000 / step)
		}
		for i := range ys {
			ys[i] = math.Floor((float64(i) + 0.5) / float64(nb) * 1000 / step)
		}
		return xs, ys
	}
	for _, c := range []struct {
		name   string
		na, nb int
		step   float64 // values rounded to multiples of step/1000 of the range: ties
	}{
		{"5x5", 5, 5, 1}, {"10x10", 10, 10, 1}, {"20x20", 20, 20, 1},
		{"30x30", 30, 30, 1}, {"50x50", 50, 50, 1}, {"50x50/ties", 50, 50, 40},
		{"25x100", 25, 100, 1}, {"10x250", 10, 250, 1}, {"1x2500", 1, 2500, 1},
		{"51x51/approx", 51, 51, 1},
	} {
		xs, ys := interleaved(c.na, c.nb, c.step)
		r, _ := MannWhitneyU(xs, ys)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				MannWhitneyU(xs, ys)
			}
			b.ReportMetric(r.P, "p")
		})
	}
}

// BenchmarkCompareMedians puts the exact test's cost in context: the
// bootstrap interval of CompareMedians at the exact limit (50 and 50).
func BenchmarkCompareMedians(b *testing.B) {
	xs, ys := benchSample(50), benchSample(50)
	for b.Loop() {
		CompareMedians(xs, ys, 0.95, 0.05, 1)
	}
}

func BenchmarkMedianCIRanks(b *testing.B) {
	for _, n := range []int{20, 200, 1_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				medianCIRanks(n, 0.95)
			}
		})
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
		bootstrapCI(xs, Median, 0.95, 1000, 1)
	}
}
