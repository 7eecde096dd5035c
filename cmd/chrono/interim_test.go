package main

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/run"
)

// TestInterimDue: the first write is made at once; a later one only when
// the last ended at least interimGap times its duration ago (on an
// injected clock).
func TestInterimDue(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := &interim{now: func() time.Time { return now }}
	if !tr.due() {
		t.Fatal("the first write is not due")
	}
	// A write that takes 30 ms.
	tr.write(context.Background(), func() { now = now.Add(30 * time.Millisecond) })
	if tr.cost != 30*time.Millisecond || !tr.last.Equal(now) {
		t.Fatalf("recorded cost %v, end %v", tr.cost, tr.last)
	}
	for _, tc := range []struct {
		after time.Duration
		due   bool
	}{
		{0, false},
		{100 * time.Millisecond, false},
		{269 * time.Millisecond, false},
		{270 * time.Millisecond, true}, // 9 x 30 ms
		{time.Hour, true},
	} {
		t.Run(tc.after.String(), func(t *testing.T) {
			tr := *tr
			tr.now = func() time.Time { return now.Add(tc.after) }
			if got := tr.due(); got != tc.due {
				t.Errorf("due %v after %v, want %v", got, tc.after, tc.due)
			}
		})
	}
}

// TestInterimAbandoned: a write in progress when the context is done
// (Ctrl-C, SIGTERM) is not waited for, and its cost is not recorded.
func TestInterimAbandoned(t *testing.T) {
	tr := &interim{now: time.Now}
	ctx, cancel := context.WithCancel(context.Background())
	started, release, finished := make(chan struct{}), make(chan struct{}), make(chan struct{})
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		tr.write(ctx, func() {
			defer close(finished)
			close(started)
			<-release // a long write
		})
	}()
	<-started
	cancel()
	<-returned // returns while the write is still blocked
	select {
	case <-finished:
		t.Fatal("the write finished before write returned: it was waited for")
	default:
	}
	close(release)
	<-finished
	if !tr.last.IsZero() || !tr.due() {
		t.Errorf("an abandoned write was recorded: last %v, cost %v", tr.last, tr.cost)
	}
}

// TestInterimStopsAtCancel: the OnCommandDone of the interim exports
// writes a snapshot when one is due, and once the context is done writes
// nothing, due or not: before, a write abandoned at the cancel left
// every later command due, and the commands that completed as the
// benchmark wound down (a whole round of a 100,000-value scan) each
// copied the benchmark and started a document of it: minutes of CPU
// after a SIGTERM.
func TestInterimStopsAtCancel(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := &interim{now: func() time.Time { return now }}
	ctx, cancel := context.WithCancel(context.Background())
	var built []*run.Benchmark
	done := tr.onCommandDone(ctx, func(snap *run.Benchmark) {
		built = append(built, snap)
		now = now.Add(time.Second)
	})
	rep := &run.Benchmark{Results: []*run.CommandRuns{{Complete: true}}}
	done(rep, rep.Results[0])
	if len(built) != 1 || built[0] == rep || len(built[0].Results) != 1 {
		t.Fatalf("the first command wrote %d snapshots (%v): want 1, a copy", len(built), built)
	}
	done(rep, rep.Results[0]) // not due: 1 s of writing, 0 s since
	now = now.Add(9 * time.Second)
	done(rep, rep.Results[0]) // due
	if len(built) != 2 {
		t.Fatalf("%d writes, want 2", len(built))
	}
	cancel()
	tr.last = time.Time{} // as a write abandoned at the cancel leaves it
	for range 3 {
		done(rep, rep.Results[0])
	}
	if len(built) != 2 {
		t.Errorf("%d writes after the cancel, want none", len(built)-2)
	}
}

// TestRunScanInterrupted: a --debug-mode scan of 100,000 values whose
// context is cancelled by a SIGTERM exits 143 with an export of no runs:
// before, --debug-mode did not look at the signal's context and went on
// with every value (and rebuilt the document after each).
func TestRunScanInterrupted(t *testing.T) {
	injectInterrupt(t, syscall.SIGTERM)
	dir := crosstest.TempDir(t)
	js, hf := filepath.Join(dir, "scan.json"), filepath.Join(dir, "hyperfine.json")
	_, errb, code := runChrono(t, "", "run", "--debug-mode", "--runs", "2", "-P", "x", "1", "100000", "--style", "none",
		"--export-json", js, "--export-hyperfine-json", hf, "sleep 0.001")
	if code != 143 {
		t.Fatalf("exit %d, want 143; stderr %s", code, errb)
	}
	d, err := result.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for i := range d.Measurements {
		if w := d.Measurements[i].Metric("wall"); w != nil {
			runs += len(w.Values)
		}
	}
	if !d.Incomplete || !d.Run.Command.Interrupted || runs != 0 {
		t.Errorf("export: incomplete %v, interrupted %v, %d runs; want an interrupted document of no runs", d.Incomplete, d.Run.Command.Interrupted, runs)
	}
}
