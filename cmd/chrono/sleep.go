package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/delay"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(newSleepCmd) }

type sleepFlags struct {
	durations  string
	mechanisms string
	budget     time.Duration
	maxSamples int
	priority   int
	pin        string
	mlock      bool
	dmaLatency int
	bestEffort bool
	quiet      bool
	list       bool
	out        output
}

func newSleepCmd() *cobra.Command {
	var f sleepFlags
	cmd := &cobra.Command{
		Use:   "sleep",
		Short: "Measure how accurately every waiting mechanism waits on this machine",
		Long: `Measure the accuracy of every way a Go program can wait: time.Sleep,
time.Timer, time.Ticker, nanosleep (relative), clock_nanosleep (absolute), a
timerfd, each also with the timer slack set to 1 ns ("+slack1ns"), a pure
busy-spin, and delay.Sleep (this project's precise sleep; also without its
final spin, and on Linux without its hold).

For every mechanism and requested duration it reports the achieved duration
(median), the overshoot beyond the request (median, p99 by the linear
definition, max), the relative error of the median, and the CPU time per wait
(thread CPU time for the mechanisms run on their own locked thread, process CPU
time for the Go runtime's waits and delay.Sleep; minus the cost of reading the
clock), each with the digits its samples support. "*" marks the most accurate
mechanism per duration, "+" the most accurate of those spending at most 10 % of
the wait in CPU.

Samples per cell fit a time budget (--budget, split evenly between the cells,
at least one sample per cell): the default run (7 durations up to 1 s,
16 mechanisms) takes about 45 s, most of it in the 1 s row. --priority and --pin
apply to the threads that block in the kernel themselves (system calls,
busy-spin); the Go runtime's waits and delay.Sleep run on ordinary goroutines,
as programs call them. The machine should be idle: other load shows up as
overshoot.

The result is a document of kind "sleep" (one measurement per
MECHANISM@DURATION, every wait kept): --json prints it instead of the table,
--export-json/--export-csv/--export-markdown FILE write it too, and chrono
report FILE prints the same table again.

A wait that fails (its system call returns an error) is not a sample: it is
counted and reported with its error, and left out of every figure. Ctrl-C
(SIGINT) or SIGTERM stops at once, without waiting for the wait in progress;
the cells measured so far are printed and exported (marked incomplete), and
chrono exits with 130 (SIGINT) or 143 (SIGTERM).`,
		Example: `  chrono sleep
  chrono sleep --durations 100us,1ms --budget 5s
  chrono sleep --mechanisms time.Sleep,delay.Sleep --durations 100us --export-json sleep.json
  chrono sleep --priority 80 --pin 1 --mlock --dma-latency 0 --export-csv sleep.csv`,
		Args: noArgsOrFileHint,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSleep(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.durations, "durations", "1us,10us,100us,1ms,10ms,100ms,1s", "comma-separated requested durations, each with a unit, up to 10s, each once")
	fl.StringVar(&f.mechanisms, "mechanisms", "", "comma-separated mechanisms to measure (default all; see --list; case and parentheses optional: clock_nanosleep, delay.sleep-nospin)")
	fl.DurationVar(&f.budget, "budget", delay.DefaultStudyBudget, "total time budget, split evenly between cells (each cell takes at least one sample)")
	fl.IntVar(&f.maxSamples, "max-samples", delay.DefaultMaxSamples, "maximum samples per cell")
	fl.IntVar(&f.priority, "priority", 0, "run the kernel-waiting threads SCHED_FIFO at this priority (1-99)")
	fl.StringVar(&f.pin, "pin", "", "pin the kernel-waiting threads to these CPUs (a CPU list: 2, 0,2 or 0-3; with several, each may run on any of them)")
	fl.BoolVar(&f.mlock, "mlock", false, "lock all memory (mlockall) for the run")
	fl.IntVar(&f.dmaLatency, "dma-latency", -1, "hold /dev/cpu_dma_latency at this many µs for the run (0: no deep C-states)")
	fl.BoolVar(&f.bestEffort, "best-effort", false, "continue without settings that are refused (default: stop before measuring)")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no progress or notes on standard error")
	fl.BoolVar(&f.list, "list", false, "list the mechanisms available on this platform and exit")
	f.out.register(fl)
	_ = cmd.RegisterFlagCompletionFunc("mechanisms", completeList(delay.Mechanisms))
	return cmd
}

// noArgsOrFileHint refuses arguments, and says what changed when one
// looks like the file that --json or --csv used to take.
func noArgsOrFileHint(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if strings.HasSuffix(args[0], ".json") || strings.HasSuffix(args[0], ".csv") || args[0] == "-" {
		return usagef("chrono %s takes no arguments (got %q): --json is a switch that prints the document; write files with --export-json FILE or --export-csv FILE", cmd.Name(), args[0])
	}
	return usagef("chrono %s takes no arguments (got %q)", cmd.Name(), args[0])
}

// completeList completes a comma-separated list of the names known()
// returns: after "a,b," it offers "a,b,NAME" for the names not yet given.
func completeList(known func() []string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		done, last := "", toComplete
		if i := strings.LastIndex(toComplete, ","); i >= 0 {
			done, last = toComplete[:i+1], toComplete[i+1:]
		}
		given := map[string]bool{}
		for _, g := range strings.Split(done, ",") {
			given[g] = true
		}
		var out []string
		for _, k := range known() {
			if !given[k] && strings.HasPrefix(strings.ToLower(k), strings.ToLower(last)) {
				out = append(out, done+k)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// parseDurations parses --durations: a comma-separated list of durations
// with units, each in (0, max] and given once.
func parseDurations(s string, max time.Duration) ([]time.Duration, error) {
	if strings.TrimSpace(s) == "" {
		return nil, usagef("--durations is empty: give durations like --durations 100us,1ms, or leave the flag out for the default")
	}
	var out []time.Duration
	given := map[time.Duration]string{}
	for _, tok := range strings.Split(s, ",") {
		tok = strings.TrimSpace(tok)
		if tok == "" {
			return nil, usagef("--durations %q has an empty item: separate durations by single commas (e.g. 100us,1ms)", s)
		}
		v, hasUnit, err := unit.ParseValue(tok)
		if err != nil {
			return nil, usagef("--durations: %v", err)
		}
		if !hasUnit {
			return nil, usagef("--durations: %q needs a unit (e.g. 100us, 1ms)", tok)
		}
		d := time.Duration(math.Round(v))
		if d <= 0 || d > max {
			return nil, usagef("--durations: %s out of range (use more than 0, up to %v)", tok, max)
		}
		if prev, ok := given[d]; ok {
			if prev == tok {
				return nil, usagef("--durations: %s is given twice: give each duration once", tok)
			}
			return nil, usagef("--durations: %s and %s are the same duration: give each duration once", prev, tok)
		}
		given[d] = tok
		out = append(out, d)
	}
	return out, nil
}

// parseMechanisms parses --mechanisms: names as the user types them,
// resolved to the known ones, each once.
func parseMechanisms(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, usagef("--mechanisms is empty: name mechanisms (see --list), or leave the flag out to measure all")
	}
	known := delay.Mechanisms()
	var out []string
	for _, m := range strings.Split(s, ",") {
		m = strings.TrimSpace(m)
		if m == "" {
			return nil, usagef("--mechanisms %q has an empty item: separate names by single commas", s)
		}
		name, ok := resolveMechanism(known, m)
		if !ok {
			return nil, usagef("--mechanisms: unknown mechanism %q (available: %s)", m, strings.Join(known, ", "))
		}
		for _, o := range out {
			if o == name {
				return nil, usagef("--mechanisms: %s is given twice: give each mechanism once", name)
			}
		}
		out = append(out, name)
	}
	return out, nil
}

func runSleep(cmd *cobra.Command, f *sleepFlags) error {
	w, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if f.list {
		for _, m := range delay.Mechanisms() {
			fmt.Fprintln(w, m)
		}
		return nil
	}
	if err := f.out.check(); err != nil {
		return err
	}
	durs, err := parseDurations(f.durations, delay.MaxStudyDuration)
	if err != nil {
		return err
	}
	var mechs []string
	if cmd.Flags().Changed("mechanisms") {
		if mechs, err = parseMechanisms(f.mechanisms); err != nil {
			return err
		}
	}
	if f.budget <= 0 {
		return usagef("--budget must be positive (e.g. 30s)")
	}
	if f.maxSamples < 1 {
		return usagef("--max-samples must be at least 1")
	}
	if f.priority < 0 || f.priority > 99 {
		return usagef("--priority %d out of range (1-99, SCHED_FIFO)", f.priority)
	}
	if f.dmaLatency < -1 || f.dmaLatency == -1 && cmd.Flags().Changed("dma-latency") { // -1: not given
		return usagef("--dma-latency must be at least 0 µs")
	}
	cpus, err := parsePin("--pin", f.pin, cmd.Flags().Changed("pin"))
	if err != nil {
		return err
	}
	held, err := delay.Acquire(delay.Conditions{MLock: f.mlock, DMALatency: f.dmaLatency,
		Settings: delay.ThreadSettings{Priority: f.priority, CPUs: cpus}, BestEffort: f.bestEffort})
	if err != nil {
		return bestEffortHint(err)
	}
	defer held.Release()
	if !f.quiet {
		for _, x := range held.Warnings {
			fmt.Fprintf(errw, "chrono: warning: %s\n", x)
		}
	}
	host := captureEnv() // before measuring, so that an interruption exits at once
	ctx, stop := interruptContext(context.Background())
	defer stop()
	opts := delay.StudyOptions{Durations: durs, Mechanisms: mechs, Budget: f.budget, MaxSamples: f.maxSamples, Settings: held.Settings}
	progress := report.NewLive(errw)
	if !f.quiet && errw == os.Stderr && isTerminal(os.Stderr) {
		opts.Progress = func(m string, d time.Duration) {
			progress.Show(fmt.Sprintf("measuring %s for %v ...", m, d))
		}
	}
	res, err := delay.Study(ctx, opts)
	progress.Clear()
	if err != nil {
		return err
	}
	res.Held = held
	doc := res.Document(meta(cmd, host))
	if err := f.out.emit(cmd, doc, report.Options{}); err != nil {
		return err
	}
	if res.Interrupted {
		return exitError{code: interruptExitCode(ctx), err: fmt.Errorf("sleep: %v; the figures cover what was measured", context.Cause(ctx))}
	}
	return nil
}

// bestEffortHint adds the other way out to a refused setting: measuring
// without it.
func bestEffortHint(err error) error {
	var pe *delay.PermissionError
	if errors.As(err, &pe) {
		return fmt.Errorf("%w; or pass --best-effort to measure without it", err)
	}
	return err
}

// resolveMechanism finds the mechanism the user means by m: its exact
// name, or the same name typed without the shell-hostile parentheses, in
// any case, with or without '-' (clock_nanosleep, delay.sleep-nospin,
// busyspin).
func resolveMechanism(known []string, m string) (string, bool) {
	for _, k := range known {
		if k == m {
			return k, true
		}
	}
	key := func(s string) string {
		s = strings.ToLower(s)
		s = strings.ReplaceAll(s, "(abs)", "")
		return strings.NewReplacer("(", "", ")", "", "-", "", " ", "").Replace(s)
	}
	for _, k := range known {
		if key(k) == key(m) {
			return k, true
		}
	}
	return "", false
}
