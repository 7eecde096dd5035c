package tracer_test

import (
	"fmt"

	"github.com/chronograph/chronograph/tracer"
)

var (
	parse = tracer.Intern("example-parse")
	got   = tracer.Intern("example-got")
)

func ExampleTracer_Begin() {
	tr, err := tracer.New(tracer.Options{RingEvents: 64})
	if err != nil {
		panic(err)
	}
	for n := range 3 {
		sp := tr.Begin(parse) // a span on the calling P's ring
		tr.Instant(got, uint64(n))
		sp.End()
	}
	lane := tr.Lane("worker")
	lane.Begin(parse).End() // a span on the lane's own ring
	snap, err := tr.Snapshot()
	if err != nil {
		panic(err)
	}
	kinds := map[tracer.Kind]int{}
	for _, e := range snap.Events {
		kinds[e.Kind]++
	}
	fmt.Println(len(snap.Events), kinds[tracer.KindSpan], kinds[tracer.KindInstant], snap.Overwritten)
	s, err := tracer.Summarize(snap, tracer.SummaryOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Spans[0].Name, len(s.Spans[0].Durations))
	// Output:
	// 7 4 3 0
	// example-parse 4
}
