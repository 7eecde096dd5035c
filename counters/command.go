package counters

import "time"

// CommandRun is one run of a command with its counts, as summarizeRuns
// takes them. Package run starts commands (run.Run for chrono run,
// run.Count for chrono stat): a run.Probe that opens a group with
// OpenForChild right before the fork and reads it after the reaping fills
// Reading.
type CommandRun struct {
	Reading Reading
	// Wall is the elapsed time from start to the end of wait (monotonic
	// clock); under cachegrind it is the time of the simulation, not of
	// the command.
	Wall time.Duration
	// User and Sys are the child's CPU times from its rusage.
	User, Sys time.Duration
	// ExitCode is the command's exit status, -1 if a signal ended it.
	ExitCode int
}
