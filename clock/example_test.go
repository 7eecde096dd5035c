package clock_test

import (
	"errors"
	"fmt"

	"github.com/chronograph/chronograph/clock"
)

// sum is what work computes (kept, so that work is not optimized away).
var sum int

// work stands for the code being timed.
func work() {
	sum = 0
	for i := range 1000 {
		sum += i
	}
}

// Mono is the read for elapsed time: a time.Duration since the package
// was initialized, from Go's monotonic clock, which never steps back.
func ExampleMono() {
	start := clock.Mono()
	work()
	elapsed := clock.Mono() - start
	fmt.Println(sum, elapsed >= 0)
	// Output: 499500 true
}

// A POSIX clock is read with its Read method: here the raw monotonic
// clock, which NTP does not slew. Where the platform lacks the clock the
// error wraps ErrUnavailable.
func ExamplePOSIX_Read() {
	start, err := clock.MonotonicRaw.Read()
	if errors.Is(err, clock.ErrUnavailable) {
		fmt.Println(clock.MonotonicRaw, "is not available here:", err)
		return
	}
	work()
	end, _ := clock.MonotonicRaw.Read()
	fmt.Println(clock.MonotonicRaw, "measured", end-start)
}

// The timestamp counter is read in ticks; TSCInfo gives its frequency
// (from the CPU, or calibrated once per process) and ToNanos converts.
// Use the ordered read TSCFenced at both ends of a timed region.
func ExampleTSCInfo() {
	info, err := clock.TSCInfo()
	if err != nil {
		fmt.Println("no usable counter:", err)
		return
	}
	t0 := clock.TSCFenced()
	work()
	ticks := clock.TSCFenced() - t0
	fmt.Printf("%d ticks at %d Hz (%s): %d ns\n", ticks, info.Hz, info.Source, info.ToNanos(ticks))
}

// ToNanos converts exactly, in 128-bit integer arithmetic: 5e9 ticks of
// a 2.5 GHz counter are 2 s, and one tick of a 3 GHz counter is less
// than a nanosecond (rounded down).
func ExampleInfo_ToNanos() {
	fmt.Println(clock.Info{Hz: 2_500_000_000}.ToNanos(5_000_000_000))
	fmt.Println(clock.Info{Hz: 3_000_000_000}.ToNanos(1))
	// Output:
	// 2000000000
	// 0
}

// Probe measures every clock of this host (about a second) and
// recommends one for elapsed time. result.ClocksDocument records the
// survey as a document, which package report renders as chrono clocks
// prints it.
func ExampleProbe() {
	s := clock.Probe(clock.ProbeOptions{})
	for _, m := range s.Clocks {
		if m.Err != nil {
			fmt.Printf("%-24s %s\n", m.Name, m.Unavailable)
			continue
		}
		fmt.Printf("%-24s %-11s median %.1f ns/read\n", m.Name, m.Path, m.CostMedianNs)
	}
	fmt.Println("use", s.Recommendation.Clock+":", s.Recommendation.Reason)
}
