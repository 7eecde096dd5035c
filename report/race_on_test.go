//go:build race

package report

// raceEnabled: the race detector slows everything tenfold.
const raceEnabled = true
