//go:build linux

// Command demo measures regions of itself with package valgrind and
// prints what scripts/valgrind-counts.sh reports: for a 1024-element sum,
// the instruction count per iteration over several runs under callgrind
// beside the wall time of those runs and the native ns/op, valgrind's
// slowdown, and a few regions that show what is and is not counted.
//
//	demo [-runs 10] [-n 20000]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/chronograph/chronograph/internal/valgrind"
	"github.com/chronograph/chronograph/stats"
)

//go:noinline
func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

var (
	data = make([]uint64, 1024)
	sink uint64
	ptrs = make([]*[64]byte, 0, 100_000) // no append grows it
)

//go:noinline
func loopSum(n int) {
	for i := 0; i < n; i++ {
		sink += sum(data)
	}
}

// loopGoroutine sums in a new goroutine each iteration and waits for it.
//
//go:noinline
func loopGoroutine(n int) {
	done := make(chan uint64)
	for i := 0; i < n; i++ {
		go func() { done <- sum(data) }()
		sink += <-done
	}
}

// loopAlloc allocates 64 bytes per iteration, kept until the next
// region.
//
//go:noinline
func loopAlloc(n int) {
	ptrs = ptrs[:0]
	for i := 0; i < n; i++ {
		ptrs = append(ptrs, new([64]byte))
	}
}

// leaf and nonLeaf make loopCalls call a function with a stack check
// (nonLeaf) every iteration: a point where a goroutine can be preempted
// without a signal.
//
//go:noinline
func leaf(x uint64) uint64 { return x*3 + 1 }

//go:noinline
func nonLeaf(x uint64) uint64 { return leaf(x) + leaf(x+1) }

//go:noinline
func loopCalls(n int) {
	for i := 0; i < n; i++ {
		sink += nonLeaf(uint64(i))
	}
}

var regions = map[string]func(int){
	"calls":     loopCalls,
	"sum1024":   loopSum,
	"goroutine": loopGoroutine,
	"alloc":     loopAlloc,
}

func main() {
	req, err := valgrind.Requested()
	if err != nil {
		fail(err)
	}
	if req != nil {
		if err := req.Measure(regions[req.Name]); err != nil {
			fail(err)
		}
		runtime.KeepAlive(sink) // the loops' results
		return
	}
	runs := flag.Int("runs", 10, "runs of each measurement")
	n := flag.Int("n", 20000, "iterations of the largest region")
	flag.Parse()
	exe, err := os.Executable()
	if err != nil {
		fail(err)
	}
	ctx := context.Background()
	count := func(name string, iterations []int, o valgrind.Options) *valgrind.Result {
		o.Iterations, o.Warmup = iterations, 10
		r, err := valgrind.Count(ctx, []string{exe}, name, o)
		if err != nil {
			fail(err)
		}
		return r
	}
	big := []int{*n / 3, 2 * *n / 3, *n}
	small := []int{1, 2, 3}

	// Native: ns per iteration of the same loop, one run of n iterations
	// per sample, after a warm-up, in wall time and in CPU time (which
	// other programs on the machine disturb less).
	loopSum(*n)
	var nativeWall, nativeCPU []float64
	for range *runs {
		c0, start := cpuTime(), time.Now()
		loopSum(*n)
		nativeWall = append(nativeWall, float64(time.Since(start).Nanoseconds())/float64(*n))
		nativeCPU = append(nativeCPU, float64((cpuTime()-c0).Nanoseconds())/float64(*n))
	}

	// Under callgrind: the count per iteration and the wall and CPU time
	// of each run, alternating with runs of tiny regions, whose time is
	// the start-up and the warm-up: the difference is the time of the big
	// regions' iterations under callgrind.
	var perOp, fixed, wall, cpu, perIterCPU []float64
	exact := true
	for range *runs {
		r := count("sum1024", big, valgrind.Options{})
		p, err := r.Instructions()
		if err != nil {
			fail(err)
		}
		exact = exact && p.Exact
		perOp, fixed = append(perOp, p.PerOp), append(fixed, p.Fixed)
		wall, cpu = append(wall, r.Wall.Seconds()), append(cpu, r.CPU.Seconds())
		s := count("sum1024", small, valgrind.Options{})
		perIterCPU = append(perIterCPU, float64((r.CPU-s.CPU).Nanoseconds())/float64(sumOf(big)-sumOf(small)))
	}
	fmt.Printf("GOARCH %s, %d CPUs, load %s\n", runtime.GOARCH, runtime.NumCPU(), loadavg())
	fmt.Printf("sum1024, %d runs, regions of %v iterations:\n", *runs, big)
	line("instructions/op (callgrind)", perOp, "%.0f")
	line("fixed instructions per region", fixed, "%.0f")
	fmt.Printf("  %-34s %v\n", "exactly linear in every run", exact)
	line("wall s per callgrind run", wall, "%.3f")
	line("CPU s per callgrind run", cpu, "%.3f")
	line("ns/op native, wall", nativeWall, "%.1f")
	line("ns/op native, CPU", nativeCPU, "%.1f")
	line("ns/op under callgrind, CPU", perIterCPU, "%.0f")
	fmt.Printf("  %-34s ×%.0f (median CPU ns/op under callgrind / native)\n", "slowdown of the loop", stats.Summarize(perIterCPU).Median/stats.Summarize(nativeCPU).Median)
	fmt.Printf("  %-34s ×%.0f (median CPU s of a callgrind run / native CPU for its %d iterations)\n", "slowdown of a whole run", stats.Summarize(cpu).Median/(stats.Summarize(nativeCPU).Median*float64(sumOf(big)+10)*1e-9), sumOf(big)+10)

	// The cache simulation: the instruction count, the misses and the
	// estimate per iteration, run after run.
	fmt.Printf("sum1024 with --cache-sim=yes, %d runs:\n", *runs)
	var cycles []float64
	var d1 []float64
	for range *runs {
		r := count("sum1024", big, valgrind.Options{CacheSim: true})
		c, ok, err := r.EstimatedCycles()
		if err != nil || !ok {
			fail(fmt.Errorf("no cycle estimate: %v", err))
		}
		ps, _ := r.PerOp()
		for _, p := range ps {
			if p.Event == "D1mr" {
				d1 = append(d1, p.PerOp)
			}
		}
		cycles = append(cycles, c.PerOp)
	}
	line("estimated cycles/op", cycles, "%.3f")
	line("D1mr/op", d1, "%.4f")

	// What is counted: calls to functions that check the stack, in regions
	// shorter and longer than valgrind.PreemptAfter; goroutines the work
	// starts, which run on other threads; the allocator, whose slow paths
	// come every so many allocations.
	for _, c := range []struct {
		name       string
		iterations []int
	}{
		{"calls", []int{1000, 2000, 3000}},
		{"calls", []int{10000, 20000, 30000}},
		{"goroutine", []int{1000, 2000, 3000}},
		{"alloc", []int{1000, 2000, 3000}},
	} {
		for range 3 {
			r := count(c.name, c.iterations, valgrind.Options{Repeats: 2})
			p, err := r.Instructions()
			if err != nil {
				fail(err)
			}
			var raw []string
			for _, d := range r.Dumps {
				v, _ := d.Reading.Value("instructions")
				raw = append(raw, fmt.Sprintf("%.0f (%.1f ms)", v, d.Wall.Seconds()*1e3))
			}
			fmt.Printf("%s %v: %.3f/op (exact: %v, repeats equal: %v), fixed %.0f; dumps %s\n", c.name, r.Iterations, p.PerOp, p.Exact, r.Repeatable(), p.Fixed, strings.Join(raw, ", "))
		}
	}
}

func sumOf(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// line prints a figure's median, min, max and CV over the runs.
func line(name string, xs []float64, format string) {
	s := stats.Summarize(xs)
	f := func(v float64) string { return fmt.Sprintf(format, v) }
	fmt.Printf("  %-34s median %s  min %s  max %s  CV %.2f %%\n", name, f(s.Median), f(s.Min), f(s.Max), 100*s.CV)
}

// cpuTime returns the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fail(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return string(b[:len(b)-1])
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "demo:", err)
	os.Exit(1)
}
