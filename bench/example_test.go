package bench_test

import (
	"fmt"
	"os"
	"time"

	"github.com/chronograph/chronograph/bench"
	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
)

var data = func() []uint64 {
	xs := make([]uint64, 1000)
	for i := range xs {
		xs[i] = uint64(i)
	}
	return xs
}()

func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

// quick keeps the examples fast.
var quick = &bench.Options{Target: time.Millisecond, Samples: 6, WarmupSamples: 1}

// meta is what the examples' documents record: bench (its name and
// build) and the environment, captured now.
func meta() result.Meta {
	return result.Meta{Tool: result.ToolFromBuild("chronograph/bench"), Environment: env.Capture()}
}

// printText prints a document's text with package report, exactly as
// `chrono report` prints the document saved to a file.
func printText(d *result.Document) {
	if err := report.Render(os.Stdout, report.Subject{Docs: []*result.Document{d}}, report.Text, report.Options{}); err != nil {
		fmt.Println(err)
	}
}

func ExampleRun() {
	r, err := bench.Run("sum", func(b *bench.B) {
		for b.Loop() {
			b.Keep(sum(data))
		}
	}, quick)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Name, len(r.Samples), r.NsPerOp.Median > 0)
	// Output: sum 6 true
}

func ExampleB_Loop() {
	r, _ := bench.Run("loop", func(b *bench.B) {
		xs := data // setup: not timed
		for b.Loop() {
			b.Keep(sum(xs))
		}
	}, quick)
	fmt.Println(r.Samples[0].Iterations >= r.Iterations)
	// Output: true
}

func ExampleB_Keep() {
	bench.Run("keep", func(b *bench.B) {
		for b.Loop() {
			b.Keep(sum(data)) // the sum cannot be optimized away
		}
	}, quick)
}

func ExampleB_StopTimer() {
	bench.Run("stop", func(b *bench.B) {
		buf := make([]uint64, len(data))
		for b.Loop() {
			b.StopTimer() // expensive: ~µs; prefer Options.Setup
			copy(buf, data)
			b.StartTimer()
			b.Keep(sum(buf))
		}
	}, quick)
}

func ExampleB_StartTimer() { ExampleB_StopTimer() }

func ExampleOptions() {
	buf := make([]uint64, len(data))
	opts := &bench.Options{
		Target:  5 * time.Millisecond,
		Samples: 10,
		Setup:   func() { copy(buf, data) }, // fresh input per sample, not timed
		Latency: true,                       // true p50/p99/p99.9 of single calls
		Cold:    3,                          // first calls of fresh invocations
	}
	r, err := bench.Run("sum", func(b *bench.B) {
		for b.Loop() {
			b.Keep(sum(buf))
		}
	}, opts)
	if err == nil {
		printText(bench.Document(meta(), r))
	}
}

func ExampleClock() {
	r, _ := bench.Run("mono", func(b *bench.B) {
		for b.Loop() {
			b.Keep(sum(data))
		}
	}, &bench.Options{Clock: bench.ClockMonotonic, Target: time.Millisecond, Samples: 6})
	fmt.Println(r.Clock)
	// Output: monotonic (time.Since)
}

func ExampleCounter() {
	// Software events count everywhere perf_event_open works; hardware
	// events (instructions, cycles) need a PMU and are otherwise listed in
	// CountersUnavailable with the reason.
	evs, err := counters.ParseEvents("task-clock,page-faults,instructions,cycles")
	if err != nil {
		panic(err)
	}
	r, err := bench.Run("counted", func(b *bench.B) {
		for b.Loop() {
			b.Keep(sum(data))
		}
	}, &bench.Options{Target: time.Millisecond, Samples: 6, WarmupSamples: 1, Counters: evs})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range r.Counters {
		fmt.Printf("%s: %.3g per op\n", c.PerOpName(), c.PerOp.Median)
	}
	for _, u := range r.CountersUnavailable {
		fmt.Printf("%s: not available: %s\n", u.Event, u.Reason)
	}
}

func ExampleSweep() {
	cases := bench.Sweep("sum", "n", []int{10, 100}, func(b *bench.B, n int) {
		xs := data[:n]
		for b.Loop() {
			b.Keep(sum(xs))
		}
	})
	for _, c := range cases {
		fmt.Println(c.Name, c.Params)
	}
	// Output:
	// sum/n=10 map[n:10]
	// sum/n=100 map[n:100]
}

func ExampleRunCases() {
	rs, err := bench.RunCases(bench.Sweep("sum", "n", []int{100, 1000}, func(b *bench.B, n int) {
		for b.Loop() {
			b.Keep(sum(data[:n]))
		}
	}), quick)
	if err == nil {
		printText(bench.Document(meta(), rs...))
	}
}

func ExampleCompare() {
	c, err := bench.Compare([]bench.Case{
		{Name: "sum1000", F: func(b *bench.B) {
			for b.Loop() {
				b.Keep(sum(data))
			}
		}},
		{Name: "sum500", F: func(b *bench.B) {
			for b.Loop() {
				b.Keep(sum(data[:500]))
			}
		}},
	}, &bench.Options{Target: time.Millisecond, Samples: 12})
	if err != nil {
		fmt.Println(err)
		return
	}
	printText(c.Document(meta())) // "... sum500 is 1.9x faster than sum1000 [1.8, 2.0] ..."
}

func ExampleComparison_Document() {
	c, err := bench.Compare([]bench.Case{
		{Name: "a", F: func(b *bench.B) {
			for b.Loop() {
				b.Keep(sum(data))
			}
		}},
		{Name: "b", F: func(b *bench.B) {
			for b.Loop() {
				b.Keep(sum(data[:10]))
			}
		}},
	}, quick)
	if err == nil {
		result.WriteFile(os.DevNull, c.Document(meta()))
	}
}

func ExampleDocument() {
	r, err := bench.Run("sum", func(b *bench.B) {
		for b.Loop() {
			b.Keep(sum(data))
		}
	}, quick)
	if err != nil {
		return
	}
	d := bench.Document(meta(), r)
	// Save it for chrono report, or render it here (printText: the text
	// chrono report prints) or in another format:
	//	result.WriteFile("sum.json", d)
	//	report.Render(os.Stdout, report.Subject{Docs: []*result.Document{d}}, report.Benchfmt, report.Options{})
	m := d.Measurements[0]
	fmt.Println(d.Kind, m.Primary, m.Metric("wall").Unit, len(m.Metric("wall").Values), m.Metric("allocs").Unit)
	// Output: function wall ns/op 6 count/op
}

func ExampleSample_NsPerOp() {
	s := bench.Sample{Iterations: 1000, WallNs: 250000}
	fmt.Println(s.NsPerOp())
	// Output: 250
}
