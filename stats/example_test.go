package stats_test

import (
	"fmt"

	"github.com/chronograph/chronograph/stats"
)

func ExampleSummarize() {
	// Ten wall times in ms, one of them disturbed.
	s := stats.Summarize([]float64{10.1, 10.3, 9.9, 10.0, 10.2, 10.1, 9.8, 10.4, 10.0, 31.5})
	fmt.Printf("n=%d median=%.2f mean=%.2f MAD=%.2f\n", s.N, s.Median, s.Mean, s.MAD)
	for _, w := range s.Warnings {
		fmt.Println(w.Code)
	}
	// Output:
	// n=10 median=10.10 mean=12.23 MAD=0.15
	// outliers
	// high-variance
}

func ExampleQuantile() {
	sorted := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, m := range []stats.Method{stats.Linear, stats.InvertedCDF, stats.Hazen} {
		fmt.Println(m, stats.Quantile(sorted, 0.9, m))
	}
	// Output:
	// linear 9.1
	// inverted_cdf 9
	// hazen 9.5
}

func ExampleMannWhitneyU() {
	old := []float64{102, 98, 105, 101, 99, 103, 100, 104}
	fast := []float64{91, 95, 93, 90, 94, 92, 96, 89}
	r, err := stats.MannWhitneyU(old, fast)
	if err != nil {
		panic(err)
	}
	fmt.Printf("U=%g p=%.5f exact=%v significant=%v\n", r.U, r.P, r.Exact, r.Significant(stats.Alpha))
	// Output: U=64 p=0.00016 exact=true significant=true
}
