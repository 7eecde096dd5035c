package counters

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"time"
)

// Stdio holds the standard streams given to a command (nil: /dev/null).
type Stdio struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// CommandRun is one run of a command with its counts.
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

// RunCommand runs argv once, directly (no shell), counting events in the
// child and its descendants. It follows the contract of OpenForChild:
// it locks the goroutine to its thread, opens the group, starts the
// command from that thread, waits for it, reads and closes the group.
// A command that exits non-zero is not an error: see ExitCode. Events that
// cannot be counted are in the reading as NotSupported; the error is
// non-nil only when the command could not be run or read.
func RunCommand(ctx context.Context, argv []string, events []Event, opts Options, stdio Stdio) (CommandRun, error) {
	if len(argv) == 0 {
		return CommandRun{}, errors.New("counters: no command to run")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, _ := OpenForChild(events, opts) // unavailable events are in the reading
	if g == nil {
		return CommandRun{}, errNoEvents
	}
	defer g.Close()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdio.Stdin, stdio.Stdout, stdio.Stderr
	run, err := waitRun(cmd)
	if err != nil {
		return run, err
	}
	if run.Reading, err = g.Read(); err != nil {
		return run, err
	}
	return run, nil
}

// waitRun starts cmd, waits for it and fills the times and exit code.
func waitRun(cmd *exec.Cmd) (CommandRun, error) {
	var run CommandRun
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return run, fmt.Errorf("counters: cannot start %s: %w", cmd.Path, err)
	}
	err := cmd.Wait()
	run.Wall = time.Since(start)
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return run, fmt.Errorf("counters: running %s: %w", cmd.Path, err)
	}
	if ps := cmd.ProcessState; ps != nil {
		run.User, run.Sys = ps.UserTime(), ps.SystemTime()
		run.ExitCode = ps.ExitCode()
	}
	return run, nil
}
