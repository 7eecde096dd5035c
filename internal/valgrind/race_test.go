//go:build race

package valgrind

// raceEnabled: this test binary was built with -race, whose
// instrumentation the counts would include; the tests build a child
// without it.
const raceEnabled = true
