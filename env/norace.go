//go:build !race

package env

// raceEnabled is true when this binary was built with -race.
const raceEnabled = false
