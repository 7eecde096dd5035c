package warn_test

import (
	"fmt"

	"github.com/chronograph/chronograph/warn"
)

func ExampleNew() {
	ws := []warn.Warning{
		warn.New("too-few-samples", "only 3 samples", "take at least 5"),
		warn.NewNote("gc", "garbage collection ran in 2 of 10 samples", "allocate less in the loop"),
		warn.New("too-few-samples", "only 3 samples", "take at least 5"),
	}
	for _, w := range warn.Dedup(ws) {
		fmt.Printf("%s: %s: %s\n", w.Severity, w.Code, w)
	}
	fmt.Println(warn.Has(ws, "gc"))
	// Output:
	// warning: too-few-samples: only 3 samples; take at least 5
	// note: gc: garbage collection ran in 2 of 10 samples; allocate less in the loop
	// true
}
