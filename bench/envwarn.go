package bench

import (
	"sync"

	"github.com/chronograph/chronograph/env"
)

// envWarnings returns the warnings about the environment (frequency
// scaling, hypervisor, race detector, ...), captured once per process.
var envWarnings = sync.OnceValue(func() []string {
	var out []string
	race := false
	for _, w := range env.Capture().Warnings {
		out = append(out, w.String())
		race = race || w.Code == "race"
	}
	if raceEnabled && !race {
		out = append(out, "the race detector is on: timings are inflated several-fold; benchmark without -race")
	}
	return out
})
