package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/internal/outfile"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/run"
	"github.com/chronograph/chronograph/unit"
	"github.com/spf13/cobra"
)

func init() { register(newRunCmd) }

type runFlags struct {
	warmup, runs, minRuns, maxRuns    int
	budget, timeout                   time.Duration
	setup, prepare, conclude, cleanup []string
	scans, lists                      []string
	step                              string
	shell                             string
	noShell, showOutput, debugMode    bool
	ignoreFailure                     string
	input                             string
	outputs                           []string
	names                             []string
	reference, referenceName          string
	exportHyperfine                   string
	timeUnit, sort, style             string
	minBenchmarkingTime               float64
	out                               output
	order, precision, pin             string
	seed                              uint64
	subtractSpawn, instructions       bool
	counters                          string
	countersSet, minRunsSet           bool
	profile                           profileFlags
	runsSet, maxRunsSet, outputSet    bool
	pinSet                            bool
	shellSet, budgetSet, minBenchSet  bool
}

// multiArgFlags are hyperfine's flags that take several values
// (-P VAR MIN MAX, -L VAR VALUES), which the flag parser cannot express:
// they are rewritten into one value joined by sep before parsing.
var multiArgFlags = map[string]int{"-P": 3, "--parameter-scan": 3, "-L": 2, "--parameter-list": 2}

const sep = "\x1f"

func rewriteMultiArgs(args []string) ([]string, error) {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...), nil
		}
		n, ok := multiArgFlags[a]
		if !ok {
			out = append(out, a)
			continue
		}
		if i+n >= len(args) {
			return nil, usagef("%s needs %d values (%s) (see --help)", a, n, map[int]string{3: "VAR MIN MAX", 2: "VAR VALUES"}[n])
		}
		name := "--parameter-scan"
		if n == 2 {
			name = "--parameter-list"
		}
		out = append(out, name+"="+strings.Join(args[i+1:i+1+n], sep))
		i += n
	}
	return out, nil
}

func newRunCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run [flags] COMMAND...",
		Short: "Benchmark whole commands (hyperfine-compatible flags, interleaved runs, per-run rusage)",
		Long: `run benchmarks one or more commands, like hyperfine, with its flag names.

Every run is started directly (fork/exec) and timed on the monotonic clock
from just before the start to the reaping; its own rusage gives user and
system CPU time, max RSS, page faults and context switches. With two or
more commands the runs are interleaved (A B B A ...). Commands run through
sh -c unless -N; the shell's start-up time is measured alongside and
subtracted. The summary gives the median with its confidence interval and
compares commands with a ratio of medians, a bootstrap interval and a
Mann-Whitney p-value.

Quoting: with -N a command is split into words by POSIX shell quoting rules
('single', "double", backslash) without any expansion, and parameter values
({name}) are substituted into the words afterwards, so a value is always one
argument and never re-parsed. With a shell, values are substituted into the
command text, which the shell then parses.

--counters counts hardware and software events (perf_event_open, Linux) in
every run of each command and its descendants, from its execve to its exit:
per run, one figure per event; per command, the median with its 95% CI and
mean ± σ, IPC and miss rates when both of their events were counted; between
commands, the same ratio of medians, bootstrap CI and Mann-Whitney p-value
as for wall time. Like the times, the counts are corrected for the shell:
the shell's own counts are measured in the overhead runs and their median
is subtracted (clamped at 0); with -N nothing is subtracted unless
--subtract-spawn. Counts scaled because the kernel multiplexed the counters
say so. Events this host cannot count (no PMU in most virtual machines:
cycles, instructions, ...) are named once with the reason and never shown
as 0; software events (task-clock, page-faults, context-switches) work
everywhere Linux does.

--instructions runs every run under valgrind's cachegrind instead and
counts the instructions, simulated L1 and last-level cache misses and
estimated cycles of the command and every process it starts: counts that
the machine's load does not move, for shared CI machines. The commands are
ranked by instructions (their primary metric; the comparison is with the
one with the fewest), and the shell's counts, measured in the overhead runs,
are subtracted as its times are. The times are those of the runs under
valgrind; one native run per command, not recorded, measures the slowdown,
which a note states. It needs valgrind (e.g. apt-get install valgrind).

hyperfine: chrono run takes hyperfine 1.20's flags with their meaning
(its own tests are ported to chrono's); the README lists every difference
with its reason. Parameters expand as in hyperfine (the command lines vary
fastest, then the first parameter), and -n names follow that order. The
time budget counts each run's --prepare and --conclude commands, and runs
of a constant cost c make floor(budget/c) runs, as in hyperfine. --reference
CMD is benchmarked first as a command of its own (named --reference-name),
taking the first entry of per-command --prepare/--conclude/--output lists.
-i keeps every non-zero exit code, --ignore-failure=1,2 only those. Runs see
HYPERFINE_ITERATION as well as CHRONO_ITERATION. --style hyperfine adds
hyperfine's summary ("2.00 ± 0.05 times faster than", ratio of means) to
chrono's comparison; --export-hyperfine-json FILE writes hyperfine's JSON
export for its plot scripts.

Setup and cleanup: as in hyperfine, --setup runs once right before a
command's runs and --cleanup once right after; with them, several commands
run in sequence unless --order interleaved is given, in which case every
setup runs before the first timing run (and a note says so). --order
sequential is hyperfine's order exactly.

Output: the text goes to standard output (the progress line to standard
error, on a terminal); it is the rendering of the result document, so
chrono report of a saved --export-json document prints the same. --json
prints the document instead; --export-json, --export-csv (hyperfine's
columns first) and --export-markdown (hyperfine's table, then chrono's
columns) FILE write it too (- = standard output), as the commands
complete and at the end or on Ctrl-C; --redact replaces what identifies
the host and its users. Export paths are checked before anything runs.
With fewer than 6 runs a median or a ratio has no confidence interval and
no difference is called significant.

Ctrl-C kills the running command's process group, writes the exports with
what was measured (marked incomplete: the commands started, a warning
counting those not started) and exits with 130 (143 after SIGTERM); before
the first run it writes nothing and says so; a second Ctrl-C while they are
written ends chrono at once.

Exit status: 0 when every command has timings; 1 when a command cannot be
started, exits non-zero (without -i), or has no timing at all because
every one of its runs timed out (--timeout): the summary and the exports
still hold everything measured, that command marked incomplete, and one
line on stderr names it and says to raise --timeout; 2 for a usage
mistake; 130 on Ctrl-C. With -i a run that exits non-zero is timed and
counted like any other, as in hyperfine (for commands such as grep whose
non-zero exit is expected): its exit code is recorded and counted under
"failed", and -i runs never make chrono fail by themselves (with
--ignore-failure=LIST, only runs with a listed code). A run that
times out has no time, with or without -i: when only some runs of a
command time out, chrono exits 0 and a warning says they are left out of
the statistics. With a shell, a command not longer than the shell's
start-up has its corrected times clamped to 0, said so in the summary.`,
		Example: `  chrono run 'sleep 0.1'
  chrono run -N --warmup 3 'grep -c foo big.txt' 'rg -c foo big.txt'
  chrono run -P threads 1 4 'make -j {threads}' --export-json make.json
  chrono run --precision 1 --timeout 10s -N ./a.out
  chrono run -L impl a,b './{impl} --fast' --style none --export-markdown -
  chrono run --style hyperfine --reference 'sleep 0.2' 'sleep 0.1' 'sleep 0.3'
  chrono run -N --export-hyperfine-json h.json true   # for hyperfine's plot scripts
  chrono run -N -u microsecond --json --redact true > run.json
  chrono run -N --counters=task-clock,page-faults,instructions 'gzip -1 -k -c f' 'gzip -9 -k -c f'`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, raw []string) error {
			args, err := rewriteMultiArgs(raw)
			if err != nil {
				return err
			}
			if err := cmd.Flags().Parse(args); err != nil {
				return usageError{fmt.Errorf("%w (see chrono run --help)", err)}
			}
			if help, _ := cmd.Flags().GetBool("help"); help {
				return cmd.Help()
			}
			if err := checkEmpty(cmd, nil); err != nil { // its flags are parsed only now
				return err
			}
			fl := cmd.Flags()
			f.countersSet = fl.Changed("counters")
			f.minRunsSet, f.maxRunsSet, f.runsSet = fl.Changed("min-runs"), fl.Changed("max-runs"), fl.Changed("runs")
			f.outputSet, f.pinSet = fl.Changed("output"), fl.Changed("pin")
			f.shellSet, f.budgetSet, f.minBenchSet = fl.Changed("shell"), fl.Changed("time-budget"), fl.Changed("min-benchmarking-time")
			// 0 means "not set" to the run package; given explicitly it
			// is a mistake, not a request for an unbounded run.
			for _, name := range []string{"runs", "min-runs", "max-runs"} {
				if v, _ := cmd.Flags().GetInt(name); v == 0 && cmd.Flags().Changed(name) {
					return usagef("--%s 0: give at least 1 run (or leave the flag out)", name)
				}
			}
			if f.timeout < 0 {
				return usagef("--timeout %s is negative: give a positive duration such as 10s (or leave it out for no timeout)", f.timeout)
			}
			// Likewise a zero timeout and seed, which the run package
			// takes for none and for a seed from the clock.
			if f.timeout == 0 && fl.Changed("timeout") {
				return usagef("--timeout 0s would kill every run at once: give a positive duration such as 10s (or leave it out for no timeout)")
			}
			if f.seed == 0 && fl.Changed("seed") {
				return usagef("--seed 0 is not a seed: 0 asks for one from the clock; give a seed of 1 or more to repeat an order and a bootstrap (or leave it out)")
			}
			return runRun(cmd, cmd.Flags().Args(), f)
		},
	}
	fl := cmd.Flags()
	fl.BoolP("help", "h", false, "help for run")
	fl.IntVarP(&f.warmup, "warmup", "w", 0, "warm-up runs of each command before the timing runs")
	fl.IntVarP(&f.runs, "runs", "r", 0, "exact number of runs of each command (default: by --min-runs, --max-runs and the time budget)")
	fl.IntVarP(&f.minRuns, "min-runs", "m", 10, "at least this many runs of each command")
	fl.IntVarP(&f.maxRuns, "max-runs", "M", 0, "at most this many runs of each command (default: no limit)")
	fl.DurationVar(&f.budget, "time-budget", 3*time.Second, "stop a command's runs after they took this long (once --min-runs are done)")
	fl.StringArrayVarP(&f.setup, "setup", "s", nil, "run CMD once before the runs of each command (once, or once per command)")
	fl.StringArrayVarP(&f.prepare, "prepare", "p", nil, "run CMD before each run (once, or once per command)")
	fl.StringArrayVarP(&f.conclude, "conclude", "C", nil, "run CMD after each run (once, or once per command)")
	fl.StringArrayVarP(&f.cleanup, "cleanup", "c", nil, "run CMD once after the runs of each command (once, or once per command)")
	fl.StringArrayVarP(&f.scans, "parameter-scan", "P", nil, "-P VAR MIN MAX: benchmark each value of VAR from MIN to MAX, replacing {VAR} in the commands")
	fl.StringVarP(&f.step, "parameter-step-size", "D", "", "step of --parameter-scan (default 1; decimals allowed: -P d 0.1 0.5 -D 0.2)")
	fl.StringArrayVarP(&f.lists, "parameter-list", "L", nil, "-L VAR a,b,c: benchmark each listed value of VAR (repeatable: every combination)")
	fl.StringVarP(&f.shell, "shell", "S", "", `shell to run commands with ("sh" default, e.g. "bash --norc"; "none" = -N)`)
	fl.BoolVarP(&f.noShell, "no-shell", "N", false, "run commands directly, split by POSIX shell quoting rules, without a shell")
	fl.StringVarP(&f.ignoreFailure, "ignore-failure", "i", "", "keep runs that exit non-zero instead of stopping: -i or --ignore-failure=all-non-zero for every code, --ignore-failure=1,2 for these codes only (128+N: killed by signal N)")
	fl.Lookup("ignore-failure").NoOptDefVal = ignoreAll
	fl.StringVar(&f.input, "input", "", "file to feed to the commands' stdin (default: /dev/null)")
	fl.StringArrayVar(&f.outputs, "output", nil, "where the commands' stdout goes: "+strings.Join(outputNames, ", ")+" (default null) or a FILE written as ./NAME or with a directory; once for all commands, or once per command")
	fl.BoolVar(&f.showOutput, "show-output", false, "show the commands' output (same as --output inherit)")
	fl.StringArrayVarP(&f.names, "command-name", "n", nil, "name of a command in the reports (once per command; {VAR} allowed)")
	fl.StringVar(&f.reference, "reference", "", "compare the other commands with CMD, benchmarked first as a command of its own, as in hyperfine (default: compare with the fastest)")
	fl.StringVar(&f.referenceName, "reference-name", "", "name of the --reference command in the reports")
	fl.StringVarP(&f.timeUnit, "time-unit", "u", "", "time unit of the text and Markdown output: "+strings.Join(timeUnitNames, ", "))
	fl.StringVar(&f.sort, "sort", "auto", "order of the comparison and of the Markdown table: "+strings.Join(sortNames, ", ")+" (auto: comparison fastest first, table in command order; mean-time, median: both fastest first by that statistic; command: both in command order)")
	fl.StringVar(&f.style, "style", "auto", "output style: "+strings.Join(styleNames, ", ")+" (basic: no progress line; none: no text, only --json and the exports; hyperfine: adds hyperfine's summary, \"2.00 ± 0.05 times faster than\")")
	f.out.register(fl)
	fl.StringVar(&f.exportHyperfine, "export-hyperfine-json", "", "also write hyperfine's JSON export (its fields and units, for its plot scripts) to FILE (- = standard output)")
	markPaths(fl, fileOrStdout, "export-hyperfine-json")
	markPaths(fl, "null, pipe, inherit or a FILE (./NAME)", "output")
	markPaths(fl, "a FILE, or leave --input out to read /dev/null", "input")
	fl.StringVar(&f.order, "order", "", "order of the runs of several commands: "+strings.Join(orderNames, ", ")+" (default: interleaved with 2+ commands)")
	fl.Uint64Var(&f.seed, "seed", 0, "seed of --order random and of the bootstrap (default: from the clock; reported)")
	fl.DurationVar(&f.timeout, "timeout", 0, "kill a run's process group after this long and record it as timed out")
	fl.StringVar(&f.precision, "precision", "", "run until the 95% CI of the median is within PCT% of it (e.g. 1 or 1%), bounded by --max-runs and the time budget")
	fl.StringVar(&f.pin, "pin", "", "pin every run to a CPU of this list (e.g. 2 or 0,2-3; Linux): with several, each run to the next CPU in turn, reported per CPU; for a multi-threaded command that needs a set of CPUs, run chrono under taskset -c instead")
	fl.BoolVar(&f.subtractSpawn, "subtract-spawn", false, "with -N, subtract the measured spawn overhead of a trivial program from every run")
	fl.BoolVar(&f.instructions, "instructions", false, "count every run's instructions (and simulated cache misses and cycles) under valgrind's cachegrind, and rank the commands by instructions")
	fl.StringVar(&f.counters, "counters", "", "count events in every run: --counters (perf stat's default set: "+strings.Join(counters.DefaultEventNames, ",")+") or --counters=LIST (e.g. task-clock,page-faults,cycles,instructions; always with '=')")
	fl.Lookup("counters").NoOptDefVal = defaultCounters
	fl.StringVar(&f.profile.dir, "profile", "", "after the timing runs, profile each command in runs of its own and write its profile (pprof format, runs merged) to DIR/N.pprof; the document refers to it")
	fl.IntVar(&f.profile.runs, "profile-runs", 3, "with --profile: profiled runs per command")
	fl.StringVar(&f.profile.profiler, "profiler", "auto", "with --profile: go (a Go program built with profiles/cpuprof writes its own profile where $CHRONO_CPUPROFILE says), perf (perf record -e cpu-clock -g, any command), or auto (go when the program writes one, else perf)")
	markPaths(fl, "a directory", "profile")
	// hyperfine's hidden flags: its name of --time-budget (in seconds),
	// and its dry mode for tests.
	fl.Float64Var(&f.minBenchmarkingTime, "min-benchmarking-time", 0, "hyperfine's name of --time-budget, in seconds")
	fl.BoolVar(&f.debugMode, "debug-mode", false, "run nothing: simulate `sleep SECONDS` commands on a simulated clock (for tests, as in hyperfine)")
	for _, name := range []string{"min-benchmarking-time", "debug-mode"} {
		fl.MarkHidden(name)
	}
	// Flag parsing is the command's own (-P and -L take several values),
	// so cobra completes no flag values: runCompletion does.
	cmd.ValidArgsFunction = runCompletion
	return cmd
}

// The values of run's enumerated flags, for their help and completion.
var (
	orderNames  = []string{string(run.Sequential), string(run.Interleaved), string(run.Random)}
	sortNames   = []string{"auto", "command", "mean-time", "median"}
	styleNames  = []string{"auto", "basic", "full", "nocolor", "color", "none", "hyperfine"}
	outputNames = []string{run.OutputNull, run.OutputPipe, run.OutputInherit}
	// timeUnitNames are the spellings -u accepts (unit.ParseUnit).
	timeUnitNames = []string{"ns", "us", "µs", "microsecond", "ms", "millisecond", "s", "second"}
)

// runFlagValues maps run's enumerated flags to their values.
var runFlagValues = map[string][]string{
	"--order": orderNames, "--sort": sortNames, "--style": styleNames, "--output": outputNames,
	"-u": timeUnitNames, "--time-unit": timeUnitNames, "--ignore-failure": {ignoreAll},
}

// runCompletion completes the values of run's enumerated flags (--order
// X, --order=X, -u X), for a command that parses its flags itself.
func runCompletion(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	match := func(prefix string, values []string) []string {
		var out []string
		for _, v := range values {
			if strings.HasPrefix(v, prefix) {
				out = append(out, v)
			}
		}
		return out
	}
	if name, val, ok := strings.Cut(toComplete, "="); ok && strings.HasPrefix(name, "--") {
		if values, known := runFlagValues[name]; known {
			var out []string
			for _, v := range match(val, values) {
				out = append(out, name+"="+v)
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		}
	}
	if len(args) > 0 {
		if values, known := runFlagValues[args[len(args)-1]]; known {
			dir := cobra.ShellCompDirectiveNoFileComp
			if args[len(args)-1] == "--output" {
				dir = cobra.ShellCompDirectiveDefault // or a FILE
			}
			return match(toComplete, values), dir
		}
	}
	return nil, cobra.ShellCompDirectiveDefault
}

func runRun(cmd *cobra.Command, lines []string, f runFlags) error {
	// The signals are taken first, before anything slow (the commands
	// of a scan, the environment): a SIGINT or SIGTERM from here on
	// stops the run.
	ctx, stop := interruptContext(cmd.Context())
	defer stop()
	if err := checkRunFlags(f); err != nil {
		return err
	}
	if err := f.out.check(runFiles(f)...); err != nil {
		return err
	}
	// The values of a scan (100,000: about 0.1 s), the commands (about
	// a second) and the environment take long to make; a signal
	// meanwhile ends the run at once, with nothing measured.
	var params []run.Param
	err := beforeRuns(ctx, func() (err error) {
		params, err = parseParams(f)
		return err
	})
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		return usagef("run: name a command to benchmark, e.g. chrono run 'sleep 0.1' (see --help)")
	}
	if !f.minRunsSet {
		f.minRuns = 0 // the default: 10, or --max-runs when lower (as in hyperfine)
	}
	if f.minBenchSet {
		f.budget = time.Duration(f.minBenchmarkingTime * float64(time.Second))
	}
	ignoreAllCodes, ignoreCodes, err := parseIgnoreFailure(f.ignoreFailure)
	if err != nil {
		return err
	}
	opts := run.Options{
		Shell: f.shell, NoShell: f.noShell, Warmup: f.warmup, Runs: f.runs, MinRuns: f.minRuns, MaxRuns: f.maxRuns,
		Budget: f.budget, Timeout: f.timeout, IgnoreFailure: ignoreAllCodes, IgnoreExitCodes: ignoreCodes, Setup: f.setup, Cleanup: f.cleanup,
		Prepare: f.prepare, Conclude: f.conclude, Input: f.input, SubtractSpawn: f.subtractSpawn, Seed: f.seed,
		Simulate: f.debugMode, Instructions: f.instructions,
	}
	switch {
	case f.showOutput:
		opts.Output = run.OutputInherit
	case len(f.outputs) == 1:
		opts.Output = f.outputs[0]
	case len(f.outputs) > 1:
		opts.Outputs = f.outputs
	}
	if f.order != "" {
		o, err := run.ParseOrder(f.order)
		if err != nil {
			return usageError{err}
		}
		opts.Order = o
	}
	if f.precision != "" {
		p, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(f.precision), "%"), 64)
		if err != nil || p <= 0 || p >= 100 {
			return usagef("run: --precision %q is not a percentage between 0 and 100 (e.g. 1 or 0.5%%)", f.precision)
		}
		opts.Precision = p / 100
	}
	if f.countersSet && f.counters == defaultCounters {
		if _, err := counters.ParseEvents(lines[0]); err == nil {
			return usagef("run: %q after --counters looks like an event list, not a command: write --counters=%s", lines[0], lines[0])
		}
	}
	if f.countersSet {
		evs, err := parseCounters(f.counters)
		if err != nil {
			return err
		}
		opts.Counters = evs
	}
	if opts.Pin, err = parsePin("--pin", f.pin, f.pinSet); err != nil {
		return err
	}
	timeUnit := ""
	if f.timeUnit != "" {
		u, err := unit.ParseUnit(f.timeUnit)
		if err != nil {
			return usagef("run: -u/--time-unit: %v", strings.TrimPrefix(err.Error(), "unit: "))
		}
		timeUnit = strings.ReplaceAll(u.Name, "µ", "u")
	}
	var cmds []run.Command
	var refName string
	var host *env.Host
	err = beforeRuns(ctx, func() error {
		var err error
		if cmds, err = run.Commands(lines, f.names, params, opts); err != nil {
			return runError(err)
		}
		if cmds, refName, err = withReference(cmds, f, params, opts); err != nil {
			return err
		}
		if err := checkPerCommand(f, len(lines)); err != nil {
			return err
		}
		host = captureEnv()
		return nil
	})
	if err != nil {
		return err
	}

	stderr := cmd.ErrOrStderr()
	f.out.noText = f.style == "none" || f.exportHyperfine == "-"
	opts.Reference, opts.Sort, opts.TimeUnit = refName, f.sort, timeUnit
	if f.style == "hyperfine" {
		opts.Style = "hyperfine"
	}
	document := func(ctx context.Context, rep *run.Benchmark) (*result.Document, error) {
		return rep.DocumentContext(ctx, meta(cmd, host))
	}
	var mu sync.Mutex
	var exportErr error
	// The file exports are written at the end (and on interruption) from
	// the one final document, and during the benchmark after a command
	// now and then (see interim: hyperfine writes them after every
	// command), so that a benchmark killed keeps what was measured;
	// standard output, a FIFO, a device or /dev/fd/N (where a second
	// write adds to the first) get the document or table once, at the
	// end.
	hyperfineFile := f.exportHyperfine != "" && f.exportHyperfine != "-" && !outfile.InPlace(f.exportHyperfine)
	if f.out.hasFileExports() || hyperfineFile {
		t := &interim{now: time.Now}
		opts.OnCommandDone = t.onCommandDone(ctx, func(snap *run.Benchmark) {
			d, err := document(ctx, snap)
			if err != nil {
				return // interrupted: the final document is written
			}
			d.Incomplete, d.End = true, time.Now()
			// Rendered before the lock, which the final write takes: a
			// signal during the rendering does not wait for it.
			files, err := f.out.renderFiles(d, report.Options{})
			if hyperfineFile {
				hf, herr := renderFile(f.exportHyperfine, func(w io.Writer) error { return renderHyperfine(w, d) })
				files, err = append(files, hf), errors.Join(err, herr)
			}
			mu.Lock()
			defer mu.Unlock()
			if ctx.Err() != nil {
				return
			}
			if err == nil {
				err = writeRendered(files)
			}
			if err != nil && exportErr == nil {
				exportErr = err
			}
		})
	}
	progress := f.style != "basic" && f.style != "none" && f.style != "color" &&
		(f.style == "full" || isTerminalWriter(stderr))
	pl := report.NewLive(stderr)
	if progress {
		opts.OnProgress = func(p run.Progress) { pl.Show(p.String()) }
	}

	rep, err := run.Run(ctx, cmds, opts)
	pl.Clear()
	if err != nil {
		return runError(err)
	}
	// The profiled runs come after the timed ones; when they fail, the
	// timings are still written (without profiles), then the error.
	var cps []run.CommandProfile
	var profErr error
	if f.profile.dir != "" && !rep.Interrupted && rep.Err == nil {
		cps, profErr = collectProfiles(ctx, stderr, cmds, opts, f.profile)
	}
	mu.Lock()
	final, _ := document(context.Background(), rep)
	attachProfiles(final, cps, f.out.exportJSON)
	ro := report.Options{}
	if f.style == "basic" {
		ro.Style = "basic" // ASCII only, as chrono report --style basic
	}
	err = f.out.emit(cmd, final, ro)
	if f.exportHyperfine != "" {
		err = errors.Join(err, writeHyperfine(f.exportHyperfine, cmd.OutOrStdout(), final))
	}
	mu.Unlock()
	if err != nil {
		exportErr = err
	}
	switch {
	case rep.Interrupted:
		return exitError{code: interruptExitCode(ctx), err: errors.New("run: interrupted: killed the running command; the exports hold the runs measured so far (marked incomplete)")}
	case rep.Err != nil:
		var fe *run.FailureError
		if errors.As(rep.Err, &fe) {
			// Keep the lines of its stderr apart (main joins the lines
			// of other errors into one).
			return exitError{code: exitFailure, err: rep.Err}
		}
		return rep.Err
	}
	if err := rep.NoTiming(); err != nil {
		// A command without a single timing is a failure, though its
		// timeouts are printed and exported (marked incomplete).
		return exitError{code: exitFailure, err: errors.Join(err, exportErr)}
	}
	if profErr != nil {
		if ctx.Err() != nil {
			return exitError{code: interruptExitCode(ctx), err: errors.Join(errors.New("run: interrupted while profiling: the exports hold every timed run, without profiles"), exportErr)}
		}
		return errors.Join(profErr, exportErr)
	}
	return exportErr
}

// checkRunFlags refuses values of run's flags that conflict or say
// nothing, as hyperfine refuses them, naming the fix.
func checkRunFlags(f runFlags) error {
	switch {
	case !slices.Contains(styleNames, f.style):
		return usagef("run: --style %q: use one of %s", f.style, strings.Join(styleNames, ", "))
	case !slices.Contains(sortNames, f.sort):
		return usagef("run: --sort %q: use one of %s", f.sort, strings.Join(sortNames, ", "))
	case f.budget <= 0:
		return usagef("run: --time-budget %s: give a positive duration such as 3s", f.budget)
	case f.budgetSet && f.minBenchSet:
		return usagef("run: --min-benchmarking-time is hyperfine's name of --time-budget: give one of them")
	case f.minBenchSet && !(f.minBenchmarkingTime > 0 && f.minBenchmarkingTime < 1e9):
		return usagef("run: --min-benchmarking-time %v: give a positive number of seconds such as 3", f.minBenchmarkingTime)
	case f.runsSet && (f.minRunsSet || f.maxRunsSet):
		return usagef("run: --runs sets the exact number of runs, --min-runs/--max-runs bound an adaptive number: give either -r N or -m/-M, not both")
	case f.showOutput && f.outputSet:
		return usagef("run: --show-output is --output inherit: give --show-output or --output %s, not both", f.outputs[0])
	case f.shellSet && strings.TrimSpace(f.shell) == "":
		return usagef("run: --shell '' names no shell: give a shell such as sh or \"bash --norc\", or none (-N) to run the commands directly")
	case f.noShell && f.shellSet:
		return usagef("run: -N is --shell=none: give -N or --shell %s, not both", f.shell)
	case f.subtractSpawn && !f.noShell && f.shell != "none":
		return usagef("run: --subtract-spawn subtracts the start-up of a program run without a shell (-N); with a shell its start-up is always subtracted: add -N or leave --subtract-spawn out")
	case f.referenceName != "" && f.reference == "":
		return usagef("run: --reference-name names the --reference command: give --reference CMD too")
	case f.profile.dir == "" && (f.profile.runs != 3 || f.profile.profiler != "auto"):
		return usagef("run: --profile-runs and --profiler apply to --profile DIR: give it too")
	case f.profile.dir != "" && !slices.Contains([]string{"auto", "go", "perf"}, f.profile.profiler):
		return usagef("run: --profiler %q: use auto, go or perf", f.profile.profiler)
	case f.profile.dir != "" && f.profile.runs < 1:
		return usagef("run: --profile-runs %d: give 1 or more", f.profile.runs)
	case f.profile.dir != "" && f.debugMode:
		return usagef("run: --profile runs real commands: drop --debug-mode")
	}
	for _, o := range f.outputs {
		if err := run.CheckOutput(o); err != nil {
			return usageError{err}
		}
	}
	return nil
}

// runFiles lists the FILEs of run's own flags, for output.check: the
// hyperfine export, and the --output files (each once: commands may
// share one).
func runFiles(f runFlags) []file {
	files := []file{{"--export-hyperfine-json", f.exportHyperfine}}
	for _, o := range f.outputs {
		switch {
		case o == "" || o == run.OutputNull || o == run.OutputPipe || o == run.OutputInherit:
		case slices.ContainsFunc(files[1:], func(e file) bool { return outfile.Collide(e.path, o) }): // listed
		default:
			files = append(files, file{"--output", o})
		}
	}
	return files
}

// writeHyperfine writes d as hyperfine's JSON export to path (- =
// stdout).
func writeHyperfine(path string, stdout io.Writer, d *result.Document) error {
	return writeFile(path, stdout, func(w io.Writer) error { return renderHyperfine(w, d) })
}

// renderHyperfine renders d as hyperfine's JSON export.
func renderHyperfine(w io.Writer, d *result.Document) error {
	return report.Render(w, report.Subject{Docs: []*result.Document{d}}, report.Hyperfine, report.Options{})
}

// ignoreAll is the value of a bare -i/--ignore-failure.
const ignoreAll = "all-non-zero"

// parseIgnoreFailure parses the value of -i/--ignore-failure: "" (not
// given), all-non-zero, or a list of exit codes ("1,2,3"), as hyperfine
// 1.20 takes it.
func parseIgnoreFailure(v string) (all bool, codes []int, err error) {
	switch strings.TrimSpace(v) {
	case "":
		return false, nil, nil
	case ignoreAll:
		return true, nil, nil
	}
	for _, s := range strings.Split(v, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || c < 0 || c > 255 {
			return false, nil, usagef("run: --ignore-failure=%s: give all-non-zero, or exit codes from 0 to 255 separated by commas (e.g. --ignore-failure=1,2)", v)
		}
		codes = append(codes, c)
	}
	return false, codes, nil
}

// checkPerCommand checks the lists of --setup, --prepare, --conclude,
// --cleanup and --output: one for all commands, or one per command line, the
// --reference command counting as the first, as in hyperfine.
func checkPerCommand(f runFlags, lines int) error {
	n, with := lines, ""
	if f.reference != "" {
		n, with = lines+1, ", the --reference command first"
	}
	for _, list := range []struct {
		name string
		v    []string
	}{{"setup", f.setup}, {"prepare", f.prepare}, {"conclude", f.conclude}, {"cleanup", f.cleanup}, {"output", f.outputs}} {
		if len(list.v) > 1 && len(list.v) != n {
			return usagef("run: --%s is given %d times for %s: give it once for all commands, or once per command (%d%s)", list.name, len(list.v), plural.Count(n, "command"), n, with)
		}
	}
	return nil
}

func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTerminal(f)
}

// defaultCounters is the value of a bare --counters.
const defaultCounters = "default"

// parseCounters parses the value of --counters: "default" (a bare
// --counters) or a comma-separated list of events.
func parseCounters(list string) ([]counters.Event, error) {
	if list == defaultCounters {
		return counters.DefaultEvents(), nil
	}
	if strings.TrimSpace(list) == "" {
		return nil, usagef("run: --counters= has an empty event list: give --counters alone for perf stat's default set, or name events: --counters=%s", strings.Join(counters.DefaultEventNames, ","))
	}
	evs, err := counters.ParseEvents(list)
	if err != nil {
		return nil, usagef("run: --counters: %s", strings.TrimPrefix(err.Error(), "counters: "))
	}
	return evs, nil
}

// parseParams parses the -P and -L parameters.
func parseParams(f runFlags) ([]run.Param, error) {
	var params []run.Param
	for _, s := range f.scans {
		v := strings.Split(s, sep)
		p, err := run.ScanParam(v[0], v[1], v[2], f.step)
		if err != nil {
			return nil, usageError{err}
		}
		params = append(params, p)
	}
	if f.step != "" && len(f.scans) == 0 {
		return nil, usagef("run: -D/--parameter-step-size needs -P/--parameter-scan")
	}
	for _, s := range f.lists {
		v := strings.Split(s, sep)
		p, err := run.ListParam(v[0], v[1])
		if err != nil {
			return nil, usageError{err}
		}
		params = append(params, p)
	}
	return params, nil
}

// runError marks the run package's usage errors as usage errors (exit 2).
func runError(err error) error {
	var ue *run.UsageError
	if errors.As(err, &ue) {
		return usageError{err}
	}
	return err
}

// withReference adds the --reference command in front of the commands,
// as hyperfine 1.20 does: it is always benchmarked first, as a command of
// its own (even when the same line is among the commands), run as
// written (its name is --reference-name, else its command line), and
// takes the first entry of per-command --setup/--prepare/--conclude/
// --cleanup lists. It returns the commands and the reference's name.
func withReference(cmds []run.Command, f runFlags, params []run.Param, opts run.Options) ([]run.Command, string, error) {
	ref := f.reference
	if ref == "" {
		return cmds, "", nil
	}
	for _, p := range params {
		if strings.Contains(ref, "{"+p.Name+"}") {
			return nil, "", usagef("run: --reference %q contains {%s}: the reference runs as written, once, not for every parameter value; give one command line (e.g. 'sleep 0.1' for 'sleep {t}')", ref, p.Name)
		}
	}
	var names []string
	if f.referenceName != "" {
		names = []string{f.referenceName}
	}
	rc, err := run.Commands([]string{ref}, names, nil, opts)
	if err != nil {
		return nil, "", runError(err)
	}
	for i := range cmds {
		cmds[i].Index++
	}
	return append(rc, cmds...), rc[0].Name, nil
}

// beforeRuns runs fn, a step before the first run, on a goroutine of its
// own and returns its error, or the error of a run interrupted with
// nothing measured as soon as ctx is done (fn is then abandoned: the
// caller reads nothing fn writes after an error).
func beforeRuns(ctx context.Context, fn func() error) error {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
	}
	if ctx.Err() != nil {
		return exitError{code: interruptExitCode(ctx), err: errors.New("run: interrupted before the first run: nothing was measured and no export written")}
	}
	return err
}
