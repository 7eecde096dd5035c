package run

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chronograph/chronograph/result"
)

// scan is a --debug-mode scan of n values (sleep 0.001 .. ), runs runs
// each.
func scan(t testing.TB, n int) []Command {
	t.Helper()
	p, err := ScanParam("x", "1", strconv.Itoa(n), "")
	if err != nil {
		t.Fatal(err)
	}
	cmds, err := Commands([]string{"sleep 0.00{x}"}, nil, []Param{p}, Options{NoShell: true, Simulate: true})
	if err != nil {
		t.Fatal(err)
	}
	return cmds
}

// runsMade counts the timing runs of rep.
func runsMade(rep *Benchmark) (runs, commands int) {
	for _, res := range rep.Results {
		runs += len(res.Samples)
		if len(res.Samples) > 0 {
			commands++
		}
	}
	return runs, commands
}

// TestScanStopsAtCancel: a scan of 20,000 values in --debug-mode whose
// context is canceled (as a Ctrl-C or SIGTERM cancels it) in its 1,000th
// run makes no run after that, in either order, and says it was
// interrupted: before, the simulator did not look at the context and the
// scan went on to its end. The cancel is a countdown on the context's
// checks, so it comes at the same point of the scan on any machine.
func TestScanStopsAtCancel(t *testing.T) {
	const n, at = 20_000, 1000
	cmds := scan(t, n)
	for _, order := range []Order{Sequential, Interleaved} {
		t.Run(string(order), func(t *testing.T) {
			ctx := &countdown{Context: context.Background()}
			ctx.left.Store(at)
			completed := 0
			opts := Options{NoShell: true, Simulate: true, Runs: 2, Order: order, Seed: 1,
				OnCommandDone: func(*Benchmark, *CommandRuns) { completed++ }}
			rep, err := Run(ctx, cmds, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Interrupted || rep.Err != nil {
				t.Errorf("interrupted %v, err %v; want interrupted, no error", rep.Interrupted, rep.Err)
			}
			runs, _ := runsMade(rep)
			if made := runs + len(rep.Overhead.Samples); made != at {
				t.Errorf("%d runs (%d timing, %d overhead), want %d: the scan went on after the cancel", made, runs, len(rep.Overhead.Samples), at)
			}
			if got := ctx.afterCancel.Load(); got > 2 {
				t.Errorf("asked the context %d times after the cancel: the loop went on", got)
			}
			if want := map[Order]int{Sequential: (at - minOverheadRuns) / 3, Interleaved: 0}[order]; completed > want+1 {
				t.Errorf("%d commands completed, want at most %d", completed, want+1)
			}
		})
	}
}

// countdown is a context that is canceled once its Err has been asked
// for left times, counting the calls: a cancel injected in the middle of
// a long analysis, at the granularity of its checks.
type countdown struct {
	context.Context
	left, calls, afterCancel atomic.Int64
}

func (c *countdown) Err() error {
	c.calls.Add(1)
	if c.left.Add(-1) < 0 {
		c.afterCancel.Add(1)
		return context.Canceled
	}
	return nil
}

// TestDocumentStopsAtCancel: the document of a scan of 5,000 commands
// canceled after the analysis of its 50th command analyses no more (it
// asks the context before each command and returns at the first "done"),
// and makes no document; uncanceled it analyses each command once.
func TestDocumentStopsAtCancel(t *testing.T) {
	const n, at = 5000, 50
	rep, err := Run(context.Background(), scan(t, n), Options{NoShell: true, Simulate: true, Runs: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	m := result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}}
	ctx := &countdown{Context: context.Background()}
	ctx.left.Store(at)
	d, err := rep.DocumentContext(ctx, m)
	if !errors.Is(err, context.Canceled) || d != nil {
		t.Fatalf("canceled: %v, document %v; want context.Canceled and none", err, d != nil)
	}
	if got := ctx.calls.Load(); got != at+1 {
		t.Errorf("asked the context %d times, want %d: once per command analysed, and once more", got, at+1)
	}
	if got := ctx.afterCancel.Load(); got != 1 {
		t.Errorf("went on after the cancel: asked %d times after it, want 1", got)
	}
	whole := &countdown{Context: context.Background()}
	whole.left.Store(1 << 40)
	d, err = rep.DocumentContext(whole, m)
	if err != nil || len(d.Measurements) != n {
		t.Fatalf("uncanceled: %v, %d measurements; want %d", err, len(d.Measurements), n)
	}
	if got := whole.calls.Load(); got != n {
		t.Errorf("asked the context %d times for %d commands, want once per command", got, n)
	}
}

// TestSnapshot: a snapshot taken during a benchmark is the benchmark as
// it was then: the runs made after it change neither its runs, nor its
// overhead runs, nor its counts of counters not counted (checked under
// -race with its document made while the benchmark goes on); its
// document holds the commands started then, and says how many were not.
func TestSnapshot(t *testing.T) {
	cmds := scan(t, 200)
	var snap *Benchmark
	var wantRuns int
	docs := make(chan *result.Document, 1)
	opts := Options{NoShell: true, Simulate: true, Runs: 3, Order: Sequential, Seed: 1,
		OnCommandDone: func(rep *Benchmark, _ *CommandRuns) {
			if snap != nil {
				return
			}
			rep.CountersUnavailable = append(rep.CountersUnavailable, result.Unavailable{Name: "cycles", Runs: 1})
			snap = rep.Snapshot()
			wantRuns, _ = runsMade(snap)
			go func() { docs <- snap.Document(result.Meta{}) }()
			rep.CountersUnavailable[0].Runs++ // as counterState counts them
		}}
	rep, err := Run(context.Background(), cmds, opts)
	if err != nil {
		t.Fatal(err)
	}
	d := <-docs
	if runs, _ := runsMade(rep); runs != 600 {
		t.Fatalf("%d runs, want 600", runs)
	}
	got, commands := runsMade(snap)
	if got != wantRuns || got != 3 || commands != 1 || !snap.Results[0].Complete || snap.Results[1].Complete {
		t.Errorf("snapshot: %d runs of %d commands, first complete %v, second %v; want the 3 runs of the first, complete",
			got, commands, snap.Results[0].Complete, snap.Results[1].Complete)
	}
	if len(snap.Overhead.Samples) >= len(rep.Overhead.Samples) || snap.CountersUnavailable[0].Runs != 1 {
		t.Errorf("snapshot: %d overhead runs (benchmark %d), %d runs without counters; want fewer, and 1",
			len(snap.Overhead.Samples), len(rep.Overhead.Samples), snap.CountersUnavailable[0].Runs)
	}
	if len(d.Measurements) != 1 || len(d.Measurements[0].Metric("wall").Values) != 3 {
		t.Errorf("the snapshot's document holds runs or commands started after it")
	}
	var note string
	for _, w := range d.Warnings {
		if w.Code == "not-started" {
			note = w.Message
		}
	}
	if want := "in progress: 199 of the 200 commands are not started yet and are left out"; note != want {
		t.Errorf("snapshot's warning %q, want %q", note, want)
	}
}

// BenchmarkScanDocument is the document of a --debug-mode scan of 1,000
// values with 2 runs each: linear in the values (each command's
// analysis once, the figures of the whole benchmark once).
func BenchmarkScanDocument(b *testing.B) {
	rep, err := Run(context.Background(), scan(b, 1000), Options{NoShell: true, Simulate: true, Runs: 2, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rep.Document(result.Meta{})
	}
}

// tripwire is an executor that answers its first after runs from the
// simulator and then cancels: the run that trips it fails as the
// spawner's does after a cancel, killed (with a process id, started)
// when killed is set, else before its start. It logs the command line
// of every run it answered or killed.
type tripwire struct {
	sim    simulator
	after  int
	killed bool
	stop   context.CancelFunc
	lines  []string
}

func (tw *tripwire) run(spec *execSpec) (Sample, []byte, error) {
	line := joinWords(spec.argv)
	if len(tw.lines) == tw.after {
		tw.stop()
		if tw.killed {
			tw.lines = append(tw.lines, line)
			return Sample{Pid: 4242, Wall: time.Millisecond, ExitCode: -1}, nil, errCanceled
		}
		return Sample{}, nil, errCanceled
	}
	if len(tw.lines) > tw.after {
		return Sample{}, nil, errCanceled
	}
	tw.lines = append(tw.lines, line)
	return tw.sim.run(spec)
}

func (tw *tripwire) cancel() {}

// TestInterruptedDocumentStartedOnly: the document of a benchmark
// interrupted at a run holds the commands of which a process started
// (setup, prepare, warm-up or timing run, the one killed by the
// interruption included, marked incomplete), in their order, and a
// not-started warning that counts the others; uninterrupted, every
// command and no such warning. Which commands started is read from the
// executor's log of the runs it answered, not from the benchmark.
func TestInterruptedDocumentStartedOnly(t *testing.T) {
	const n = 40
	for _, tc := range []struct {
		name   string
		opts   Options
		after  int // runs answered before the cancel; -1: none
		killed bool
	}{
		{"sequential, before a start", Options{Runs: 2}, 25, false},
		{"sequential, killed in a run", Options{Runs: 2}, 25, true},
		{"sequential, after a warm-up", Options{Runs: 2, Warmup: 1}, 10 + 4*3 + 1, false},
		{"sequential, prepare killed", Options{Runs: 2, Prepare: []string{"sleep 2{x}"}}, 30, true},
		{"interleaved, first round", Options{Runs: 3, Order: Interleaved}, 10 + 7, false},
		{"interleaved, setups ran", Options{Runs: 3, Order: Interleaved, Setup: []string{"sleep 1{x}"}}, 10 + n + 3, false},
		{"before the first command", Options{Runs: 2}, 10, false},
		{"not interrupted", Options{Runs: 2}, -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmds := scan(t, n)
			opts := tc.opts
			opts.NoShell, opts.Simulate, opts.Seed = true, true, 1
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tw := &tripwire{sim: simulator{}, after: tc.after, killed: tc.killed, stop: cancel}
			if tc.after < 0 {
				tw.after = 1 << 30
			}
			b, err := newBench(cmds, opts, tw)
			if err != nil {
				t.Fatal(err)
			}
			b.look = func(name string) (string, error) { return "/bin/" + name, nil }
			b.loop()
			b.interrupted(ctx)
			b.close()
			rep := b.rep
			if rep.Interrupted != (tc.after >= 0) || rep.Err != nil {
				t.Fatalf("interrupted %v, err %v", rep.Interrupted, rep.Err)
			}
			// The commands whose command, setup or prepare line the
			// executor saw, in the commands' order.
			seen := map[string]bool{}
			for _, l := range tw.lines {
				seen[l] = true
			}
			var want []string
			for _, c := range cmds {
				x := c.Params["x"]
				if seen[c.Line] || seen["sleep 1"+x] || seen["sleep 2"+x] || tc.after < 0 {
					want = append(want, c.Name)
				}
			}
			d := rep.Document(result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
			var got []string
			for i, m := range d.Measurements {
				got = append(got, m.Name)
				last := i == len(d.Measurements)-1
				if w := m.Metric("wall"); tc.after >= 0 && last && tc.opts.Order == "" && (w == nil || len(w.Values) < 2) != m.Incomplete {
					t.Errorf("%s: incomplete %v with %d runs", m.Name, m.Incomplete, len(w.Values))
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("document holds %d commands %v, want the %d started %v", len(got), got, len(want), want)
			}
			var note string
			for _, w := range d.Warnings {
				if w.Code == "not-started" {
					note = w.Message
				}
			}
			wantNote := ""
			if left := n - len(want); left > 0 {
				wantNote = fmt.Sprintf("%d of the %d commands %s not started because of the interruption and %s left out",
					left, n, map[bool]string{true: "was", false: "were"}[left == 1], map[bool]string{true: "is", false: "are"}[left == 1])
			}
			if note != wantNote {
				t.Errorf("warning %q, want %q", note, wantNote)
			}
		})
	}
}
