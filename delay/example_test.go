package delay_test

import (
	"context"
	"fmt"
	"time"

	"github.com/chronograph/chronograph/delay"
	"github.com/chronograph/chronograph/result"
)

// Sleep waits for a duration far more precisely than time.Sleep (which
// takes about 1 ms for any request below a millisecond on Linux).
func ExampleSleep() {
	delay.Sleep(100 * time.Microsecond)
	fmt.Println("slept 100 µs")
	// Output: slept 100 µs
}

// SleepUntil waits for an absolute time: compute deadlines from a start,
// not from the last wake-up, and lateness never adds up.
func ExampleSleepUntil() {
	start := time.Now()
	for k := 1; k <= 3; k++ {
		delay.SleepUntil(start.Add(time.Duration(k) * 200 * time.Microsecond))
		fmt.Println("deadline", k)
	}
	// Output:
	// deadline 1
	// deadline 2
	// deadline 3
}

// A Sleeper with its own Options trades accuracy for CPU: NoSpin never
// busy-waits (waits end when the kernel wakes the thread, a few to tens of
// µs late); MaxSpin bounds the busy-wait per call. Sleep returns how late
// it returned.
func ExampleNewSleeper() {
	frugal := delay.NewSleeper(delay.Options{NoSpin: true})
	late := frugal.Sleep(200 * time.Microsecond)
	fmt.Println(late >= 0)
	// Output: true
}

// A Ticker delivers ticks at start + k*period with their lateness; with
// Skip, deadlines the consumer misses are dropped and counted.
func ExampleNewTicker() {
	t, err := delay.NewTicker(500*time.Microsecond, delay.Skip)
	if err != nil {
		panic(err)
	}
	for range 3 {
		tick := <-t.C
		_ = tick.Lateness // how late the ticker woke for tick.Deadline
		fmt.Println(tick.K+tick.Missed >= 1)
	}
	t.Stop()
	st := t.Stats()
	fmt.Println(st.Ticks >= 3, st.Max >= st.Min)
	// Output:
	// true
	// true
	// true
	// true true
}

// At runs a function at a precise time on its own goroutine; cancel stops
// it if it has not started.
func ExampleAt() {
	done := make(chan struct{})
	due := time.Now().Add(300 * time.Microsecond)
	cancel := delay.At(due, func() { close(done) })
	<-done
	fmt.Println(cancel()) // too late to cancel: it ran
	// Output: false
}

// A Pacer paces a loop at a rate (here 2000 iterations per second) on the
// caller's goroutine, without drift; Missed counts slots the loop was too
// slow for.
func ExampleNewPacer() {
	p, err := delay.NewPacer(2000)
	if err != nil {
		panic(err)
	}
	for range 4 {
		p.Wait() // returns at start + k/2000 s
		// ... send one packet, sample one signal ...
	}
	fmt.Println("4 slots")
	// Output: 4 slots
}

func ExampleStudy() {
	res, err := delay.Study(context.Background(), delay.StudyOptions{
		Durations:  []time.Duration{100 * time.Microsecond},
		Mechanisms: []string{"delay.Sleep"},
		MaxSamples: 5,
	})
	if err != nil {
		panic(err)
	}
	d := res.Document(result.Meta{Tool: result.ToolFromBuild("example")})
	m := d.Measurements[0]
	fmt.Println(d.Kind, m.Name, m.Primary, len(m.Metric("achieved").Values))
	// Output: sleep delay.Sleep@100µs achieved 5
}
