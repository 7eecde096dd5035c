// Command overlap measures one benchmark with bench.Run and default
// options, and prints one line: the median ns/op and the bounds of its
// reported 95 % interval, then the per-CPU medians when the result has
// them. scripts/bench-interval-overlap.sh runs it many times to check
// that consecutive invocations' intervals overlap.
package main

import (
	"fmt"
	"os"

	"github.com/chronograph/chronograph/bench"
)

// sum is the workload of issue 9: a 1024-element sum, not inlined.
//
//go:noinline
func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

func main() {
	xs := make([]uint64, 1024)
	for i := range xs {
		xs[i] = uint64(i)
	}
	r, err := bench.Run("sum1024", func(b *bench.B) {
		for b.Loop() {
			b.Keep(sum(xs))
		}
	}, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%.3f %.3f %.3f%s\n", r.NsPerOp.Median, r.CI.Lo, r.CI.Hi, perCPU(r))
}
