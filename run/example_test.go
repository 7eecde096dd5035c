package run_test

import (
	"context"
	"fmt"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/run"
)

func ExampleRun() {
	// Simulate times `sleep SECONDS` commands on a simulated clock, so
	// that the figures are exact (chrono run --debug-mode).
	opts := run.Options{Runs: 5, NoShell: true, Simulate: true, Order: run.Interleaved, Seed: 1}
	cmds, err := run.Commands([]string{"sleep 0.01", "sleep 0.02"}, nil, nil, opts)
	if err != nil {
		panic(err)
	}
	b, err := run.Run(context.Background(), cmds, opts)
	if err != nil {
		panic(err)
	}
	for _, c := range b.Results {
		fmt.Println(c.Command.Name, len(c.Samples), c.Samples[0].Wall)
	}
	d := b.Document(result.Meta{Tool: result.ToolFromBuild("example")})
	m := d.Measurements[1].Metric("wall")
	fmt.Println(d.Kind, m.Unit, time.Duration(m.Summary.Median))
	// Output:
	// sleep 0.01 5 10ms
	// sleep 0.02 5 20ms
	// command ns 20ms
}

func ExampleCount() {
	// perf stat -r 3 -e task-clock,page-faults -- gzip -k -f big.log
	evs, err := counters.ParseEvents("task-clock,page-faults")
	if err != nil {
		panic(err)
	}
	st, samples, err := run.Count(context.Background(), []string{"gzip", "-k", "-f", "big.log"}, run.CountOptions{Events: evs, Runs: 3})
	if err != nil {
		fmt.Println(err) // the command could not be started
		return
	}
	fmt.Println(len(st.Runs), "runs, last exit code", samples[len(samples)-1].ExitCode)
	d := st.Document(result.Meta{Tool: result.ToolFromBuild("example")}) // kind "counters"
	fmt.Println(d.Kind)
}
