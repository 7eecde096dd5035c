package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/run"
)

func init() { register(newStatCmd) }

type statFlags struct {
	events   string
	runs     int
	valgrind bool
	show     bool
	out      output
}

func newStatCmd() *cobra.Command {
	var f statFlags
	cmd := &cobra.Command{
		Use:         "stat [-e LIST] [-r N] [--valgrind] [--json] -- COMMAND [ARGS...]",
		Annotations: map[string]string{commandArgs: ""},
		Short:       "Count hardware and software events of a command, like perf stat",
		Long: `Run COMMAND directly (no shell) N times and count events in it and in the
processes it starts, with Linux perf_event_open: mean ± sample standard deviation
per event, the standard error in percent as perf stat -r prints it, the running
fraction when the kernel multiplexed the counters, derived figures (instructions
per cycle, miss rates, CPUs utilized) and the elapsed time.

Events are named as perf names them (-e cycles,instructions,task-clock; :u and :k
restrict an event to user or kernel space). An event this host cannot count is
printed as <not supported> with the reason and the fix, never as 0: virtual
machines usually expose no PMU, so only software events (task-clock,
context-switches, page-faults, ...) work there.

--valgrind counts instructions and simulated cache misses with valgrind's
cachegrind instead: deterministic counts of a simulated CPU with fixed caches
(32 KiB 8-way L1s, an 8 MiB 16-way last level; useful on noisy CI machines
without a PMU), of the command and every process it starts, and much slower.

--json prints the result document instead of the text;
--export-json/--export-csv/--export-markdown FILE write it too (- = standard
output). Ctrl-C or SIGTERM kills the running command and everything it
started, prints and exports the finished runs (marked incomplete) and exits
130 or 143 (a second Ctrl-C ends chrono at once). Otherwise chrono stat exits with the last run's exit status, as
perf stat does (128+N for a command killed by signal N).`,
		Example: `  chrono stat -- ls -l
  chrono stat -r 10 -e task-clock,page-faults,context-switches -- gzip -k -f big.log
  chrono stat --valgrind -- ./mybinary --input data.txt
  chrono stat -r 5 --export-json stat.json -- make -s
  chrono stat --json -- true`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("events") && strings.TrimSpace(f.events) == "" {
				return usagef("stat: -e '' names no event: leave -e out for perf stat's default set (%s), or name events, e.g. -e task-clock,page-faults", strings.Join(counters.DefaultEventNames, ","))
			}
			return runStat(cmd, args, f)
		},
	}
	fl := cmd.Flags()
	fl.SetInterspersed(false)
	fl.StringVarP(&f.events, "events", "e", "", "comma-separated events to count (default: "+strings.Join(counters.DefaultEventNames, ",")+")")
	fl.IntVarP(&f.runs, "runs", "r", 1, "run the command N times and show mean and variation")
	fl.IntVar(&f.runs, "repeat", 1, "the same as --runs (perf stat's name)")
	fl.MarkHidden("repeat")
	fl.BoolVar(&f.valgrind, "valgrind", false, "count simulated instructions and cache misses with valgrind cachegrind")
	fl.BoolVar(&f.show, "show-output", false, "show the command's standard output (on chrono's standard error, so that standard output holds only results); discarded by default")
	f.out.register(fl)
	cmd.RegisterFlagCompletionFunc("events", completeEvents)
	return cmd
}

// completeEvents completes the event names of -e, after the last comma of
// a list.
func completeEvents(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	head, last := "", toComplete
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		head, last = toComplete[:i+1], toComplete[i+1:]
	}
	var out []string
	for _, n := range counters.KnownEventNames() {
		if strings.HasPrefix(n, last) {
			out = append(out, head+n)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

func runStat(cmd *cobra.Command, args []string, f statFlags) error {
	if len(args) == 0 {
		return usagef("stat needs a command to run: chrono stat [flags] -- COMMAND [ARGS...]")
	}
	if f.runs < 1 {
		return usagef("--runs must be at least 1, not %d", f.runs)
	}
	if f.valgrind && f.events != "" {
		return usagef("--valgrind counts cachegrind's events (%s); it does not take -e", strings.Join(counters.CachegrindEvents, ","))
	}
	if err := f.out.check(); err != nil {
		return err
	}
	events := counters.DefaultEvents()
	if f.events != "" {
		var err error
		if events, err = counters.ParseEvents(f.events); err != nil {
			return usageError{err}
		}
	}
	ctx, stop := interruptContext(cmd.Context())
	defer stop()
	host := captureEnv() // before measuring, so that an interruption exits at once
	// The command's output never mixes with the results on stdout: it is
	// discarded, or shown on stderr with --show-output.
	stderr := cmd.ErrOrStderr()
	opts := run.CountOptions{Events: events, Runs: f.runs, Valgrind: f.valgrind, Stdin: cmd.InOrStdin(), Stderr: stderr}
	if f.show {
		opts.Stdout = stderr
	}
	st, samples, err := run.Count(ctx, args, opts)
	sig := interruptSignal(ctx)
	stop()
	if err != nil {
		return err
	}
	if len(st.Runs) == 0 {
		code, err := statExit(samples, f.runs, sig)
		return exitError{code: code, err: err}
	}
	d := st.Document(meta(cmd, host))
	if err := f.out.emit(cmd, d, report.Options{}); err != nil {
		return err
	}
	if code, err := statExit(samples, f.runs, sig); code != exitOK {
		return exitError{code: code, err: err}
	}
	return nil
}

// statExit is chrono stat's exit code and message, given the runs made,
// the runs asked for and the signal that interrupted it (nil if none).
//
// Like perf stat, it exits with the status of the last run (every run is
// made whatever the earlier ones returned): a command that exits 3 makes
// chrono stat exit 3. Where perf differs, chrono says what a shell says: a
// command killed by signal N gives 128+N (perf exits 0 and prints the
// signal's name), and an interrupt (SIGINT, SIGTERM) gives 128 + its
// number, 130 or 143, after the results of the runs that finished.
func statExit(samples []run.Sample, asked int, sig os.Signal) (int, error) {
	if sig != nil {
		code := exitInterrupted
		if n, ok := sig.(syscall.Signal); ok {
			code = 128 + int(n)
		}
		name := sig.String()
		switch sig {
		case os.Interrupt:
			name = "SIGINT"
		case syscall.SIGTERM:
			name = "SIGTERM"
		}
		if len(samples) == 0 {
			return code, fmt.Errorf("stat: interrupted by %s before a run finished; killed the command and everything it started", name)
		}
		return code, fmt.Errorf("stat: interrupted by %s after %d of %s; killed the running command and everything it started; the results above are of the finished runs", name, len(samples), plural.Count(asked, "run"))
	}
	if len(samples) == 0 {
		return exitFailure, errors.New("stat: no run was made")
	}
	failed := 0
	for _, s := range samples {
		if s.ExitCode != 0 {
			failed++
		}
	}
	last := samples[len(samples)-1]
	which := ""
	if len(samples) > 1 {
		which = fmt.Sprintf(" in the last run (non-zero in %d of %s)", failed, plural.Count(len(samples), "run"))
	}
	switch {
	case last.ExitCode < 0 && last.SignalNumber > 0:
		return 128 + last.SignalNumber, fmt.Errorf("stat: the command was killed by signal %d (%s)%s; exit code 128+%d, as a shell reports it", last.SignalNumber, last.Signal, which, last.SignalNumber)
	case last.ExitCode < 0:
		return exitFailure, fmt.Errorf("stat: the command was killed%s", which)
	case last.ExitCode != 0:
		return last.ExitCode, fmt.Errorf("stat: the command exited with code %d%s; chrono stat exits with it, as perf stat does", last.ExitCode, which)
	}
	return exitOK, nil
}

// interruptSignal is the signal that interrupted ctx (a context of
// interruptContext), nil when none did.
func interruptSignal(ctx context.Context) os.Signal {
	var ie interruptedError
	if errors.As(context.Cause(ctx), &ie) {
		return ie.sig
	}
	return nil
}
