package counters_test

import (
	"fmt"

	"github.com/chronograph/chronograph/counters"
)

func ExampleCountThread() {
	evs, err := counters.ParseEvents("task-clock,page-faults,instructions")
	if err != nil {
		panic(err)
	}
	sum := 0
	r, err := counters.CountThread(evs, counters.Options{}, func() {
		for i := range 1_000_000 {
			sum += i
		}
	})
	if err != nil {
		fmt.Println("nothing counted:", err) // no perf_event_open here
		return
	}
	for _, c := range r.Counts {
		if c.IsCounted() {
			fmt.Printf("%s: %.0f %s\n", c.Event.Name, c.Value, c.Event.Unit)
		} else {
			fmt.Printf("%s: <%s> %s\n", c.Event.Name, c.State, c.Reason) // never a 0
		}
	}
	if ns, ok := r.Value("task-clock"); ok {
		fmt.Printf("%.0f ns of CPU time for a sum of %d\n", ns, sum)
	}
}

func ExampleDerive() {
	means := map[string]float64{"instructions": 3e9, "cycles": 1.2e9, "task-clock": 0.5e9}
	ds := counters.Derive(func(name string) (float64, float64, bool) {
		v, ok := means[name]
		return v, 0, ok
	}, 1e9, 0)
	for _, d := range ds {
		fmt.Printf("%s %.3g %s (%s)\n", d.Name, d.Value, d.Unit, d.Label)
	}
	// Output:
	// ipc 2.5 1 (insn per cycle)
	// ghz 2.4 GHz (GHz)
	// cpus_utilized 0.5 CPUs (CPUs utilized)
}
