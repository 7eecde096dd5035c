//go:build !race

package valgrind

const raceEnabled = false
