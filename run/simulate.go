package run

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// simulator is the executor of Options.Simulate (chrono run --debug-mode):
// it starts no process and answers each run with the time its `sleep
// SECONDS` command names, so that tests of run counts, the time budget,
// names and comparisons are exact and instant, as hyperfine's
// --debug-mode makes them. shell is the shell's argument list up to the
// command line (["sh", "-c"]), nil with -N. Once ctx is done (Ctrl-C,
// SIGTERM) every run fails with errCanceled, as the spawner's starts do
// after a cancel, so that the loop stops at its next run.
type simulator struct {
	shell []string
	ctx   context.Context
}

// run returns the simulated Sample of spec: the shell's own seconds (a
// shell given as `sleep SECONDS`; any other shell takes none) plus the
// command's. The shell's empty command and `true` (the overhead runs)
// take no time of their own. User and system time are 0 and the rusage
// figures unavailable.
func (sm simulator) run(spec *execSpec) (Sample, []byte, error) {
	s := Sample{MaxRSSBytes: -1, MinorFaults: -1, MajorFaults: -1, VolCS: -1, InvolCS: -1}
	if sm.ctx != nil && sm.ctx.Err() != nil {
		return s, nil, errCanceled
	}
	line := joinWords(spec.argv)
	var shellTime time.Duration
	if n := len(sm.shell); n > 0 && len(spec.argv) == n+1 && slices.Equal(spec.argv[:n], sm.shell) {
		if len(sm.shell) >= 3 && sm.shell[0] == "sleep" { // ["sleep", "0.02", "-c"]
			t, err := sleepSeconds(joinWords(sm.shell[:n-1]))
			if err != nil {
				return s, nil, err
			}
			shellTime = t
		}
		line = spec.argv[n]
	}
	var t time.Duration
	switch strings.TrimSpace(line) {
	case "", "true":
	default:
		var err error
		if t, err = sleepSeconds(line); err != nil {
			return s, nil, err
		}
	}
	s.Wall = shellTime + t
	return s, nil, nil
}

func (simulator) cancel() {}

// sleepSeconds parses `sleep SECONDS` into a duration.
func sleepSeconds(line string) (time.Duration, error) {
	words, err := splitCommand(line)
	if err == nil && len(words) == 2 && words[0] == "sleep" {
		if f, err := strconv.ParseFloat(words[1], 64); err == nil && f >= 0 && f < math.MaxInt64/1e9 {
			return time.Duration(math.Round(f * 1e9)), nil
		}
	}
	return 0, usagef("run: --debug-mode runs nothing and can only simulate commands of the form `sleep SECONDS`, not %q", line)
}

// simulate runs the benchmark on the simulator (see Options.Simulate),
// until its end or until ctx is done.
func simulate(ctx context.Context, cmds []Command, opts Options) (*Benchmark, error) {
	if len(opts.Pin) > 0 {
		return nil, usagef("run: --pin with --debug-mode: a simulated run has no CPU to pin: leave one of them out")
	}
	shell, err := shellWords(opts)
	if err != nil {
		return nil, err
	}
	b, err := newBench(cmds, opts, simulator{shell: shell, ctx: ctx})
	if err != nil {
		return nil, err
	}
	defer b.close()
	b.loop()
	b.interrupted(ctx)
	return b.rep, nil
}
