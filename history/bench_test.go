package history

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// benchDoc is a command document of 3 metrics of 30 samples, its start
// at i seconds (so that no two are duplicates).
func benchDoc(i int) *result.Document {
	vals := make([]float64, 30)
	for j := range vals {
		vals[j] = 1e6 + float64(j)
	}
	d := testDoc("bench", vals, time.Unix(int64(i), 0))
	d.Measurements[0].Metrics = append(d.Measurements[0].Metrics, d.Measurements[0].Metrics[0])
	d.Measurements[0].Metrics[2].Name = "sys"
	return d
}

// BenchmarkAdd appends one command document (3 metrics of 30 samples, a
// new content each time) per iteration to each backend: one transaction
// with its commit.
func BenchmarkAdd(b *testing.B) {
	ctx := context.Background()
	for name, dsn := range backends(b) {
		i := 0 // across the runs of the benchmark on one store
		b.Run(name, func(b *testing.B) {
			s, err := Open(ctx, dsn)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			for b.Loop() {
				i++
				if a, err := s.Add(ctx, benchDoc(i), Meta{}); err != nil || a.Duplicate != nil {
					b.Fatal(a, err)
				}
			}
		})
	}
}

// BenchmarkOpenAddClose is what one chrono history add DOC does with the
// store: open it (existing, its schema current), add one document, close
// it (on SQLite, the checkpoint of the WAL into the file).
func BenchmarkOpenAddClose(b *testing.B) {
	ctx := context.Background()
	for name, dsn := range backends(b) {
		i := 0 // across the runs of the benchmark on one store
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				i++
				s, err := Open(ctx, dsn)
				if err != nil {
					b.Fatal(err)
				}
				if a, err := s.Add(ctx, benchDoc(i), Meta{}); err != nil || a.Duplicate != nil {
					b.Fatal(a, err)
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAddAll adds 120 documents per iteration in one transaction
// (chrono history add of 120 files); ns/op is for the 120.
func BenchmarkAddAll(b *testing.B) {
	ctx := context.Background()
	for name, dsn := range backends(b) {
		i := 0 // across the runs of the benchmark on one store
		b.Run(name, func(b *testing.B) {
			s, err := Open(ctx, dsn)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			entries := make([]Entry, 120)
			for b.Loop() {
				for k := range entries {
					i++
					entries[k] = Entry{Doc: benchDoc(i)}
				}
				if added, err := s.AddAll(ctx, entries); err != nil || added[len(added)-1].Duplicate != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTrend reads a series of n stored runs and finds its change
// points (what chrono history trend and check do per series), for n =
// 1,000 and 10,000.
func BenchmarkTrend(b *testing.B) {
	ctx := context.Background()
	for name, dsn := range backends(b) {
		s, err := Open(ctx, dsn)
		if err != nil {
			b.Fatal(err)
		}
		stored := 0
		for _, n := range []int{1000, 10000} {
			r := rand.New(rand.NewPCG(1, uint64(n)))
			for i := stored; i < n; i++ {
				v := 1e6
				if i%1000 >= 700 {
					v = 1.1e6
				}
				vals := []float64{v * (1 + 0.01*r.NormFloat64()), v, v * (1 + 0.01*r.NormFloat64())}
				if _, err := s.Add(ctx, testDoc("trend", vals, time.Unix(int64(i), 0)), Meta{}); err != nil {
					b.Fatal(err)
				}
			}
			stored = n
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				for b.Loop() {
					pts, err := s.Series(ctx, "trend", "wall", Filter{})
					if err != nil || len(pts) != n {
						b.Fatalf("%d points, %v", len(pts), err)
					}
					if _, err := Changes(pts, CheckOptions{Threshold: 0.05, Detector: stats.EDivisiveOptions{Seed: 1}}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		s.Close()
	}
}
