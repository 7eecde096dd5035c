package scope_test

import (
	"fmt"
	"strconv"
	"time"

	"github.com/chronograph/chronograph/scope"
)

func ExampleMeasure() {
	var r scope.Registry // scope.New and scope.Start use the Default registry
	parse := r.Get("parse")
	for _, s := range []string{"1", "22", "333"} {
		n, _ := scope.Measure(parse, func() int {
			v, _ := strconv.Atoi(s)
			return v
		})
		_ = n
	}
	_, _, err := scope.MeasureErr(parse, func() (int, error) { return strconv.Atoi("x") })
	st := parse.Snapshot()
	fmt.Println(st.Name, st.Count, st.Errors, err != nil)
	// Output: parse 4 1 true
}

func ExampleScope_Record() {
	var r scope.Registry
	s := r.Get("request")
	for _, d := range []time.Duration{2 * time.Millisecond, 3 * time.Millisecond, 10 * time.Millisecond} {
		s.Record(d) // durations measured elsewhere
	}
	st := s.Snapshot()
	fmt.Println(st.Count, st.Min, st.Max, st.Total, st.Mean)
	// Output: 3 2ms 10ms 15ms 5ms
}
