package result_test

import (
	"bytes"
	"fmt"
	"time"

	"github.com/chronograph/chronograph/result"
)

func ExampleNew() {
	d := result.New(result.KindNumbers, result.Meta{Tool: result.Tool{Name: "mytool", Version: "v1.0.0"}, Args: []string{"mytool", "-n", "3"}})
	d.Start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	d.End = d.Start.Add(time.Second)
	d.Measurements = []result.Measurement{{Name: "parse", Primary: "wall",
		Metrics: []result.Metric{result.SampleMetric("wall", result.UnitNs, 1, []float64{1200, 1250, 1190}, 50)}}}

	var b bytes.Buffer
	if err := result.Encode(&b, d); err != nil {
		panic(err)
	}
	back, err := result.Decode(&b)
	if err != nil {
		panic(err)
	}
	m := back.Measurements[0].Metric("wall")
	fmt.Println(back.Kind, back.Tool.Name, back.Args, back.End.Sub(back.Start))
	fmt.Println(m.Values, m.Summary.Median, m.Percentiles["p50"], m.PercentileMethod)
	// Output:
	// numbers mytool [mytool -n 3] 1s
	// [1200 1250 1190] 1200 1200 linear
}
