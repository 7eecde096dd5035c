package main

import (
	"context"
	"time"

	"github.com/chronograph/chronograph/run"
)

// interim decides when chrono run writes its file exports during the
// benchmark, and writes them. hyperfine writes them after every command,
// so that a benchmark killed keeps what was measured; but a document
// holds every command and the comparisons of every command, so writing
// one after each of N commands costs N documents of N commands: a
// quadratic cost (a scan of 200 values took 55 s of CPU that way, one
// of 1,000 would have taken half an hour). chrono writes the exports
// from one document at the end, and on interruption (Ctrl-C, SIGTERM);
// during the benchmark, after the first command that is complete, and
// after a later one only when the last write ended at least interimGap
// times its duration ago: the writes after the first take at most a
// tenth of the benchmark's time whatever its size, and their total cost
// stays linear in it (at most the first write, which costs about what
// the final one does, and a tenth). A benchmark whose commands each take
// longer than ten writes (most: a write takes milliseconds) gets them
// after every command, as from hyperfine.
//
// A write runs on its own goroutine, from a snapshot of the benchmark,
// while the benchmark waits for it (no command runs during a write);
// a Ctrl-C or SIGTERM does not wait for it: the benchmark stops at once,
// the write in progress is abandoned (it writes no file once the context
// is done: the final write follows).
type interim struct {
	now func() time.Time
	// last is when the last write ended (zero: none yet), and cost how
	// long it took.
	last time.Time
	cost time.Duration
}

const interimGap = 9

// due reports whether the exports are written now.
func (t *interim) due() bool {
	return t.last.IsZero() || t.now().Sub(t.last) >= interimGap*t.cost
}

// write runs build on a goroutine of its own and waits until it returns
// or ctx is done, whichever comes first. build must not write anything
// once ctx is done.
func (t *interim) write(ctx context.Context, build func()) {
	start := t.now()
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		build()
	}()
	select {
	case <-finished:
		t.last = t.now()
		t.cost = t.last.Sub(start)
	case <-ctx.Done():
	}
}

// onCommandDone returns the run.Options.OnCommandDone that writes the
// exports with build (from a snapshot of the benchmark) when they are
// due, until ctx is done: from then on it does nothing (the benchmark
// stops and the final document is written), so that the commands that
// complete as the benchmark winds down cost nothing. build must not
// write anything once ctx is done.
func (t *interim) onCommandDone(ctx context.Context, build func(snap *run.Benchmark)) func(*run.Benchmark, *run.CommandRuns) {
	return func(rep *run.Benchmark, _ *run.CommandRuns) {
		if ctx.Err() != nil || !t.due() {
			return
		}
		snap := rep.Snapshot()
		t.write(ctx, func() { build(snap) })
	}
}
