package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
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
// context a SIGTERM cancels exits 143. Cancelled before its first run
// (while the commands are built or the environment captured), it says
// that nothing was measured and writes no export; cancelled at its
// 2,000th look at the context (a countdown: the same point on any
// machine), in the first round of its interleaved runs, its exports and
// its text hold only the commands started, each with its run, and a
// warning counts the others.
func TestRunScanInterrupted(t *testing.T) {
	const n = 100_000
	for _, tc := range []struct {
		name string
		at   int64 // looks at the context before the cancel; 0: cancelled from the start
	}{{"before the first run", 0}, {"during the runs", 2000}} {
		t.Run(tc.name, func(t *testing.T) {
			injectCountdown(t, syscall.SIGTERM, tc.at)
			dir := crosstest.TempDir(t)
			js, hf := filepath.Join(dir, "scan.json"), filepath.Join(dir, "hyperfine.json")
			out, errb, code := runChrono(t, "", "run", "--debug-mode", "--runs", "2", "-P", "x", "1", strconv.Itoa(n), "--style", "basic",
				"--export-json", js, "--export-hyperfine-json", hf, "sleep 0.001")
			if code != 143 {
				t.Fatalf("exit %d, want 143; stderr %s", code, errb)
			}
			if tc.at == 0 {
				_, jerr := os.Stat(js)
				_, herr := os.Stat(hf)
				if want := "nothing was measured and no export written"; !strings.Contains(errb, want) || out != "" || !os.IsNotExist(jerr) || !os.IsNotExist(herr) {
					t.Errorf("stdout %q, stderr %q (want %q), exports %v %v; want none", out, errb, want, jerr, herr)
				}
				return
			}
			d, err := result.ReadFile(js)
			if err != nil {
				t.Fatal(err)
			}
			if !d.Incomplete || !d.Run.Command.Interrupted || len(d.Measurements) == 0 || len(d.Measurements) >= 2000 {
				t.Fatalf("export: incomplete %v, interrupted %v, %d commands; want an interrupted document of fewer than 2,000 (2,000 looks, one per run, in the first round of interleaved runs)",
					d.Incomplete, d.Run.Command.Interrupted, len(d.Measurements))
			}
			for i, m := range d.Measurements {
				if w := m.Metric("wall"); (w == nil || len(w.Values) == 0) && i < len(d.Measurements)-1 {
					t.Errorf("%s has no runs but is not the last", m.Name)
				}
			}
			want := fmt.Sprintf("%d of the %d commands were not started because of the interruption and are left out", n-len(d.Measurements), n)
			found := false
			for _, w := range d.Warnings {
				found = found || w.Message == want
			}
			if !found || !strings.Contains(out, want) {
				t.Errorf("warning %q in the document %v, in the text %v", want, found, strings.Contains(out, want))
			}
			var h struct{ Results []json.RawMessage }
			if b, err := os.ReadFile(hf); err != nil || json.Unmarshal(b, &h) != nil || len(h.Results) != len(d.Measurements) {
				t.Errorf("hyperfine export: %v, %d results; want %d", err, len(h.Results), len(d.Measurements))
			}
		})
	}
}

// injectCountdown makes the commands' interruptContext return a context
// that sig cancels once its Err has been asked for at times (at once
// when at is 0).
func injectCountdown(t *testing.T, sig os.Signal, at int64) {
	old := interruptContext
	interruptContext = func(parent context.Context) (context.Context, func()) {
		ctx, cancel := context.WithCancelCause(parent)
		c := &countdownCtx{Context: ctx, cancel: func() { cancel(interruptedError{sig}) }}
		c.left.Store(at)
		if at == 0 {
			c.cancel()
		}
		return c, func() {}
	}
	t.Cleanup(func() { interruptContext = old })
}

// countdownCtx is a context cancelled once its Err was asked for left
// times: an interruption at the same point of a benchmark on any machine.
type countdownCtx struct {
	context.Context
	cancel func()
	left   atomic.Int64
}

func (c *countdownCtx) Err() error {
	if c.left.Add(-1) < 0 {
		c.cancel()
	}
	return c.Context.Err()
}
