package unit_test

import (
	"fmt"

	"github.com/chronograph/chronograph/unit"
)

func ExampleDuration() {
	// A median of 812345 ns, timed with a 1 µs tick and known to ±50 µs:
	// the digits beyond the uncertainty are not printed.
	fmt.Println(unit.Duration(812345, unit.Precision{Resolution: 1000, Uncertainty: 50000}))
	// 0.8 ms on a 1 ms tick is never "0 ms" or "1 ms".
	fmt.Println(unit.Duration(0.8e6, unit.Precision{Resolution: 1e6}))
	// 2 minutes observed on a 60 s quantum prints as itself.
	fmt.Println(unit.Duration(120e9, unit.Precision{Resolution: 60e9}))
	// Output:
	// 810 µs
	// 800 µs
	// 120 s
}

func ExampleParseValue() {
	for _, tok := range []string{"12.5ms", "800us", "42"} {
		v, hasUnit, err := unit.ParseValue(tok)
		fmt.Println(v, hasUnit, err)
	}
	// Output:
	// 1.25e+07 true <nil>
	// 800000 true <nil>
	// 42 false <nil>
}
