package input_test

import (
	"fmt"

	"github.com/chronograph/chronograph/result/input"
)

// Detect tells the inputs apart by their shape; Read reads those that
// are documents.
func Example() {
	gobench := []byte("goos: linux\nBenchmarkParse-2   1000   1234 ns/op\nBenchmarkParse-2   1000   1250 ns/op\n")
	names := map[input.Kind]string{input.Unknown: "unknown", input.Document: "document", input.Hyperfine: "hyperfine export",
		input.TraceEvents: "trace events", input.GoBench: "Go benchmark output"}
	for _, data := range [][]byte{
		[]byte(`{"schema": "chronograph.result", "version": 2}`),
		[]byte(`{"results": [{"command": "sleep 0.1", "times": [0.1]}]}`),
		[]byte(`{"traceEvents": []}`),
		gobench,
		[]byte("hello"),
	} {
		fmt.Println(names[input.Detect(data)])
	}
	d, err := input.Read(gobench, "bench.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	m := d.Measurements[0]
	fmt.Println(d.Kind, m.Name, m.Metric("wall").Values)
	// Output:
	// document
	// hyperfine export
	// trace events
	// Go benchmark output
	// unknown
	// function Parse-2 [1234 1250]
}
