package run

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/internal/thread"
	"github.com/chronograph/chronograph/internal/valgrind"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/warn"
)

// Order is the order in which the runs of several commands are made.
type Order string

const (
	// Sequential makes all runs of one command, then all runs of the next,
	// as hyperfine does.
	Sequential Order = "sequential"
	// Interleaved makes one run of each command per round, reversing the
	// order every other round (A B B A A B ...), so that a drift of the
	// machine's speed hits every command alike.
	Interleaved Order = "interleaved"
	// Random makes one run of each command per round in a seeded random
	// order.
	Random Order = "random"
)

// ParseOrder parses an order name.
func ParseOrder(s string) (Order, error) {
	switch o := Order(s); o {
	case Sequential, Interleaved, Random:
		return o, nil
	}
	return "", usagef("run: unknown order %q: use sequential, interleaved or random", s)
}

// Output says where a command's standard output goes.
const (
	OutputNull    = "null"    // /dev/null (the default)
	OutputPipe    = "pipe"    // a pipe whose content chrono reads and discards
	OutputInherit = "inherit" // chrono's own stdout and stderr
)

// Options configures a benchmark. The zero value of a field means its
// default, as documented on the field.
type Options struct {
	// Shell is the shell command lines run through ("sh" by default; a
	// command line such as "bash --norc" is split into words); NoShell
	// runs them directly, split by Split (-N).
	Shell   string
	NoShell bool
	// Warmup runs per command, not measured.
	Warmup int
	// Runs, when positive, is the exact number of runs per command.
	// Otherwise a command runs at least MinRuns times (default 10, or
	// MaxRuns when that is lower) and at most MaxRuns times (0: no
	// limit), and stops when its runs fill the time Budget (default 3 s),
	// or, with Precision, once the confidence interval of its median is
	// within Precision (a fraction: 0.01 = 1 %) of the median. As in
	// hyperfine, the budget counts each run's raw wall time (start-up
	// included) and its prepare and conclude commands', and no run is
	// started that would, at the average cost so far, end beyond it:
	// runs of a constant cost c make floor(Budget/c) runs, hyperfine's
	// count.
	Runs, MinRuns, MaxRuns int
	Budget                 time.Duration
	Precision              float64
	// Order of the runs of several commands (default Interleaved when
	// there are two or more commands, else Sequential, and Sequential with
	// Setup or Cleanup commands, which run right before and after each
	// command's runs as in hyperfine; in an interleaved or random order
	// every setup runs before the first timing run and every cleanup after
	// the last, and Benchmark.Notes says so); Seed seeds Random
	// (0: chosen from the clock and reported).
	Order Order
	Seed  uint64
	// Timeout, when positive, kills a run's process group after that long
	// and records the run as timed out.
	Timeout time.Duration
	// Pin lists the CPUs the commands run on (Linux only). With one CPU
	// every run is pinned to it. With several, each run is pinned to one
	// of them in turn (the k-th timing run of every command, and so every
	// command of round k, to Pin[k mod len(Pin)]; warm-up and overhead
	// runs likewise), so that every run's CPU is known
	// (CommandRuns.CPUs) and CPUs that differ in speed show as such (see
	// analysis.PerCPU) instead of mixing into one spread. To let a
	// multi-threaded command use a set of CPUs at once, start chrono under
	// taskset -c instead.
	Pin []int
	// IgnoreFailure records non-zero exit codes instead of stopping (-i,
	// --ignore-failure=all-non-zero); IgnoreExitCodes records only these
	// codes (--ignore-failure=1,2), a run killed by signal N having code
	// 128+N, and stops on any other.
	IgnoreFailure   bool
	IgnoreExitCodes []int
	// Setup runs once before the runs of each command, Cleanup once after;
	// Prepare before each run, Conclude after each run. Each holds no
	// entry, one for every command, or one per command line.
	Setup, Cleanup, Prepare, Conclude []string
	// Input is the file fed to the commands' standard input ("" =
	// /dev/null).
	Input string
	// Output is OutputNull (default), OutputPipe, OutputInherit or a file
	// name (every run's output appended). Standard error goes to chrono's
	// stderr with OutputInherit and is otherwise discarded, keeping its
	// last few KB for error messages. Outputs, when not empty, gives one
	// such value per command line instead (indexed by Command.Index), as
	// hyperfine's repeated --output does; the setup, prepare, conclude and
	// cleanup commands of a command write where it writes.
	Output  string
	Outputs []string
	// SubtractSpawn subtracts the measured spawn overhead of a trivial
	// executable from the runs of -N commands (shell overhead is always
	// subtracted when a shell is used).
	SubtractSpawn bool
	// Counters, if not empty, counts these events in every run (timing,
	// warm-up and overhead runs) with perf_event_open, opened on the
	// thread that starts the child (counters.OpenForChild), with
	// CounterOptions. Each counted event becomes a per-run figure in
	// Sample.Extra; events the host cannot count are listed in
	// Benchmark.CountersUnavailable, never recorded as values.
	Counters       []counters.Event
	CounterOptions counters.Options
	// Instructions runs every timing, warm-up and overhead run under
	// valgrind's cachegrind (--trace-children=yes, fixed simulated
	// caches) and records its instructions, simulated L1 and last-level
	// misses and estimated cycles as the figures "instructions",
	// "l1_misses", "ll_misses" and "estimated_cycles" (Sample.Extra), of
	// the command and every process it starts: counts that do not depend
	// on the machine's load, by which the commands are ranked (the
	// measurements' primary metric is "instructions"). The times are
	// those of the runs under valgrind; one native run per command, not
	// recorded, measures valgrind's slowdown. It does not combine with
	// Counters or Simulate.
	Instructions bool
	// Simulate runs nothing (--debug-mode, for tests, like hyperfine's):
	// a run of `sleep SECONDS` takes SECONDS on a simulated clock, a shell
	// given as `sleep SECONDS` adds its SECONDS to every run through it,
	// the overhead runs and `true` take no time, and any other command is
	// an error. The document says it is simulated.
	Simulate bool
	// Reference, Sort, TimeUnit and Style are presentation choices, not
	// used to measure: the document records them so that every reader
	// renders it as the benchmark did. Reference names the command the
	// others are compared with (-n name or command line; "" = the
	// fastest); Sort orders the summaries ("command", "mean-time",
	// "median"); TimeUnit fixes the time unit of the text and Markdown
	// renderings ("ns", "us", "ms", "s"; "" = chosen per figure); Style
	// is "hyperfine" to add hyperfine's summary of the comparison to the
	// text ("" = chrono's only).
	Reference, Sort, TimeUnit, Style string
	// NewProbe, if set, makes a Probe for every timing, warm-up and
	// overhead run (not for setup, prepare, conclude and cleanup
	// commands).
	NewProbe func() (Probe, error)
	// OnProgress is called now and then during the runs (at most about
	// ten times a second); OnCommandDone when a command has all its runs.
	OnProgress    func(Progress)
	OnCommandDone func(*Benchmark, *CommandRuns)
}

// Command is one command to benchmark, after parameter substitution.
type Command struct {
	// Name is what reports call the command: the -n name or the command
	// line.
	Name string
	// Line is the command line after parameter substitution.
	Line string
	// Argv is the argument list that is executed: the shell's words with
	// -c and Line, or Line split into words (-N).
	Argv []string
	// Path is the resolved executable of Argv[0].
	Path string
	// Params holds the parameter values of this command.
	Params map[string]string
	// Index is the index of the command line it came from (for per-command
	// setup/prepare/conclude/cleanup).
	Index int
	// Unused names the parameters that the command line does not contain
	// (they may be used by the setup or prepare commands); the name shows
	// their values.
	Unused []string
}

// Progress describes a benchmark in progress.
type Progress struct {
	Command     *Command
	Run, Target int  // runs done, runs expected (an estimate unless -r)
	Warmup      bool // the run was a warm-up run
	Median      time.Duration
	Lo, Hi      time.Duration // confidence interval of the median, 0 if unknown
	ETA         time.Duration
}

// CommandRuns is the outcome of one command of a benchmark: its runs.
type CommandRuns struct {
	Command *Command
	// Samples holds the completed timing runs in the order taken, with
	// raw (uncorrected) wall and CPU times; failed runs are included with
	// -i. TimedOut holds the runs killed by the timeout (not part of the
	// statistics).
	Samples  []Sample
	TimedOut []Sample
	// CPUs holds, with Options.Pin, the CPU each timing run was pinned
	// to, indexed by Sample.Iteration (nil without Options.Pin).
	CPUs []int
	// Complete is set once the command has all its runs.
	Complete bool
	// Started is set once a process of the command was started: its
	// setup command, a warm-up or a timing run. An interrupted
	// benchmark's document leaves out the commands not started.
	Started bool
	// PrecisionReached reports whether the Precision target was met.
	PrecisionReached bool
	// Spent is the total raw wall time of the timing runs and of their
	// prepare and conclude commands (what the time budget bounds).
	Spent time.Duration
}

// noTiming reports whether the command ran but no run gave a timing
// (every run timed out).
func (res *CommandRuns) noTiming() bool { return len(res.Samples) == 0 && len(res.TimedOut) > 0 }

// started reports whether the command was started (Started) or has runs
// or all its runs (a Benchmark put together by hand need not set
// Started).
func (res *CommandRuns) started() bool {
	return res.Started || res.Complete || len(res.Samples) > 0 || len(res.TimedOut) > 0
}

// Overhead is the measured start-up cost of the shell (with a shell) or
// of a trivial executable (-N).
type Overhead struct {
	Kind    string // "shell" or "spawn"
	Line    string // what was run
	Samples []Sample
	// Subtracted says whether the median is subtracted from the
	// commands' wall, user and system times.
	Subtracted bool
	// Unavailable gives the reason when it could not be measured.
	Unavailable string
}

// Benchmark is the outcome of a benchmark (Run).
type Benchmark struct {
	Results  []*CommandRuns
	Overhead *Overhead
	Order    Order
	Seed     uint64
	Options  Options
	// Start and End are wall-clock stamps of the benchmark.
	Start, End time.Time
	// Interrupted is set when the benchmark was canceled (Ctrl-C).
	Interrupted bool
	// Err is the failure that stopped the benchmark, if any.
	Err error
	// CountersUnavailable lists the events of Options.Counters that were
	// not counted in some run (typically every run: no PMU in a virtual
	// machine), each once, with the first reason given; Runs is how many
	// runs (timing, warm-up and overhead runs) did not count it. Their
	// values are never recorded.
	CountersUnavailable []result.Unavailable
	// Notes are facts about how the benchmark was run that qualify its
	// figures (e.g. that all setup commands ran before interleaved runs).
	Notes []warn.Warning
	// ParentPeakRSSBytes is chrono's own peak RSS after the runs (Linux;
	// -1 elsewhere): a child's max RSS at or below it may be chrono's
	// memory counted for the child (see selfPeakRSS).
	ParentPeakRSSBytes int64
	// CPUUnavailable, when not empty, says why the runs' user and system
	// times are not real here (under Wine): the document then holds no
	// user and sys metrics.
	CPUUnavailable string
	// OwnCPU is chrono's own CPU time (user + system of all its threads,
	// getrusage RUSAGE_SELF) from just before the first process was
	// started to just after the last was reaped: starting and reaping the
	// processes, the Go runtime, the bookkeeping between runs; not the
	// children's CPU time. Processes is how many processes were started
	// in that time (timing runs, warm-ups, overhead runs, hooks). OwnCPU
	// is -1 where unavailable (Windows); both are 0 with no real runs.
	OwnCPU    time.Duration
	Processes int

	// inProgress marks a Snapshot: its document, like an interrupted
	// benchmark's, leaves out the commands not started.
	inProgress bool
}

// Incomplete reports whether some command lacks runs, or has no timed
// run at all (every run timed out).
func (r *Benchmark) incomplete() bool {
	for _, res := range r.Results {
		if !res.Complete || res.noTiming() {
			return true
		}
	}
	return r.Interrupted || r.Err != nil
}

// FailureError reports a command that exited with a non-zero status.
type FailureError struct {
	Command  string
	Run      int
	ExitCode int
	Signal   string
	Stderr   string // the tail of its standard error
	What     string // "command", "prepare command", ...
}

func (e *FailureError) Error() string {
	status := "exited with code " + strconv.Itoa(e.ExitCode)
	if e.Signal != "" {
		status = "was killed by signal " + e.Signal
	}
	msg := fmt.Sprintf("run: %s %q %s", e.What, e.Command, status)
	if e.What == "command" {
		msg += fmt.Sprintf(" (run %d)", e.Run+1)
	}
	if e.ExitCode == 127 {
		// The shell's (and env's) code for a command it could not find.
		msg += " (127: the shell found no such command: check its name and PATH)"
	}
	if s := strings.TrimRight(e.Stderr, " \t\r\n"); strings.TrimSpace(s) != "" {
		msg += "; the end of its stderr:\n"
		for _, line := range strings.Split(s, "\n") {
			msg += "  | " + strings.TrimRight(line, "\r") + "\n"
		}
	} else {
		msg += " with nothing on stderr; "
	}
	if e.What == "command" {
		msg += "use -i/--ignore-failure to record failing runs and go on, or --show-output to see its output"
	} else {
		msg += "fix the command, or check it with --show-output"
	}
	return msg
}

// Commands expands command lines with the parameters into the commands to
// benchmark and resolves their executables, failing before any run if one
// cannot be started. The order is hyperfine's: the command lines vary
// fastest, then the first parameter, then the next (-L n 1,2 with lines A
// and B gives A1 B1 A2 B2), which is the order the -n names are given in.
//
// names holds the -n names, with "{param}" substituted: without
// parameters, at most one per command line (the others are named by
// their command line, as in hyperfine); with parameters, one for every
// command, one per command line, or one per expanded command. A
// parameter that a command line does not use is shown in its name, as
// hyperfine shows it: "make (branch = main)" (it may be used by --setup or
// --prepare); Command.Unused lists them.
func Commands(lines, names []string, params []Param, opts Options) ([]Command, error) {
	if len(lines) == 0 {
		return nil, usagef("run: no command given: name one or more commands to benchmark")
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			return nil, usagef("run: command %d is empty: give a command line to benchmark (an empty line would time only the start-up of the shell)", i+1)
		}
	}
	combos, err := product(params)
	if err != nil {
		return nil, err
	}
	total := len(lines) * len(combos)
	if err := checkNames(len(names), len(lines), total, len(params) > 0); err != nil {
		return nil, err
	}
	shell, err := shellWords(opts)
	if err != nil {
		return nil, err
	}
	var cmds []Command
	look := remembered(lookFor(opts))
	for _, combo := range combos {
		for i, line := range lines {
			c := Command{Line: substitute(line, combo), Index: i}
			if strings.TrimSpace(c.Line) == "" {
				return nil, usagef("run: command %q is empty with %s: give parameter values that make a command", line, paramText(params, combo, nil))
			}
			if len(params) > 0 {
				c.Params = combo
				for _, p := range params {
					if !strings.Contains(line, "{"+p.Name+"}") {
						c.Unused = append(c.Unused, p.Name)
					}
				}
			}
			c.Name = c.Line
			switch {
			case len(names) == 0:
			case len(params) == 0:
				if i < len(names) {
					c.Name = names[i]
				}
			case len(names) == 1:
				c.Name = substitute(names[0], combo)
			case len(names) == total:
				c.Name = substitute(names[len(cmds)], combo)
			default: // one per command line
				c.Name = substitute(names[i], combo)
			}
			if len(c.Unused) > 0 {
				c.Name += " (" + paramText(params, combo, c.Unused) + ")"
			}
			if c.Argv, c.Path, err = resolve(line, combo, shell, look); err != nil {
				return nil, err
			}
			cmds = append(cmds, c)
		}
	}
	return cmds, nil
}

// checkNames checks the number of -n names for lines command lines that
// expand to total commands.
func checkNames(n, lines, total int, params bool) error {
	switch {
	case !params && n > lines:
		return usagef("run: too many -n/--command-name names: %d for %s: give at most one per command (a command without one is named by its command line)", n, plural.Count(lines, "command"))
	case params && n > 1 && n != lines && n != total:
		return usagef("run: %s for %s (%s, %s): give one name for all (with {param} in it), one per command line, or one per benchmark in the order they run (command lines varying fastest, then the parameters)", plural.Count(n, "-n/--command-name name"), plural.Count(total, "benchmark"), plural.Count(lines, "command line"), plural.Count(total/lines, "parameter combination"))
	}
	return nil
}

// paramText lists parameter values as hyperfine shows them in a name:
// "n = 1, branch = main" (only those in only, when given).
func paramText(params []Param, values map[string]string, only []string) string {
	var parts []string
	for _, p := range params {
		if only == nil || slices.Contains(only, p.Name) {
			parts = append(parts, p.Name+" = "+values[p.Name])
		}
	}
	return strings.Join(parts, ", ")
}

// shellWords returns the shell's argument list up to the command line
// (["sh", "-c"]), or nil with -N.
func shellWords(opts Options) ([]string, error) {
	if opts.NoShell || opts.Shell == "none" {
		return nil, nil
	}
	sh := opts.Shell
	if sh == "" || sh == "default" {
		sh = defaultShell
	}
	words, err := splitCommand(sh)
	if err != nil || len(words) == 0 || words[0] == "" {
		return nil, usagef("run: bad shell %q: give a shell name or command line such as \"bash --norc\" (or -N for no shell)", opts.Shell)
	}
	base := strings.ToLower(filepath.Base(words[0]))
	if base == "cmd" || base == "cmd.exe" {
		return append(words, "/C"), nil
	}
	return append(words, "-c"), nil
}

// resolve makes the argument list of a command line and finds its
// executable. With a shell, the line (with parameters substituted as
// text) is passed to the shell's -c; without, the line is split first
// and the parameters are substituted into each word, so a value with
// blanks or quotes stays one argument and is never re-parsed. look finds
// the executable (see lookFor).
func resolve(line string, params map[string]string, shell []string, look func(string) (string, error)) ([]string, string, error) {
	var argv []string
	if shell != nil {
		argv = append(slices.Clone(shell), substitute(line, params))
	} else {
		words, err := splitCommand(line)
		if err != nil {
			return nil, "", err
		}
		if len(words) == 0 {
			return nil, "", usagef("run: empty command: give a program to run (with -N there is no shell to run an empty line)")
		}
		for _, w := range words {
			argv = append(argv, substitute(w, params))
		}
	}
	path, err := look(argv[0])
	if err != nil {
		what := "program"
		if shell != nil {
			what = "shell"
		}
		return nil, "", fmt.Errorf("run: cannot run %s %q: %w (check the name and PATH, or that the file is executable)", what, argv[0], err)
	}
	return argv, path, nil
}

// lookFor returns how the executables of opts's commands are found: on
// PATH (exec.LookPath), except that a simulated run (--debug-mode), which
// starts nothing, takes each name as it is, as hyperfine's does: `sleep`
// need not exist (it does not on windows).
func lookFor(opts Options) func(string) (string, error) {
	if opts.Simulate {
		return func(name string) (string, error) { return name, nil }
	}
	return exec.LookPath
}

// remembered returns look, remembering the executables it found by
// name: a scan of many values runs the same program, and each PATH
// search costs a stat per PATH directory (a scan of 100,000 values made
// 100,000 searches for the same sleep).
func remembered(look func(string) (string, error)) func(string) (string, error) {
	found := map[string]string{}
	return func(name string) (string, error) {
		if path, ok := found[name]; ok {
			return path, nil
		}
		path, err := look(name)
		if err == nil {
			found[name] = path
		}
		return path, err
	}
}

// bench is one benchmark in progress.
type bench struct {
	opts  Options
	cmds  []Command
	exec  executor
	rep   *Benchmark
	env   []string
	shell []string

	stdin   *os.File
	devNull *os.File // for what is never shown
	// outs holds where the runs of each command line (by Command.Index)
	// write: one entry for all, or one per command line.
	outs    []outTarget
	closers []*os.File

	lastProgress time.Time
	rounds       int // rounds of timing runs, for the overhead schedule
	// ovArgv and ovPath are the overhead command, resolved on its first
	// run (not every run: a PATH search costs a stat per directory).
	ovArgv []string
	ovPath string
	// look finds executables (lookFor; tests of the arithmetic inject
	// one that needs no PATH).
	look func(string) (string, error)

	counters *counterState // nil unless Options.Counters
	sim      *simulation   // nil unless Options.Instructions

	// cpu is the single CPU the starting thread is pinned to now (-1:
	// none yet), pinTo pins it there (tests inject a fake), and warmups
	// counts each command's warm-up runs (for their CPUs).
	cpu     int
	pinTo   func(cpu int) error
	warmups []int
}

// Run benchmarks the commands (made by Commands) and returns what it
// measured.
// It returns an error only for a setup problem before any run (a file
// that cannot be opened, bad options); failures and interruptions during
// the runs are in Benchmark.Err and Benchmark.Interrupted, with everything
// measured until then. Canceling ctx kills the running command's process
// group and stops the benchmark.
func Run(ctx context.Context, cmds []Command, opts Options) (*Benchmark, error) {
	if opts.Simulate {
		return simulate(ctx, cmds, opts)
	}
	b, err := newBench(cmds, opts, newSpawner())
	if err != nil {
		return nil, err
	}
	defer b.close()
	if opts.Instructions {
		if b.sim, err = newSimulation(cmds); err != nil {
			return nil, err
		}
		defer b.sim.close()
	}
	sp := b.exec.(*spawner)
	defer sp.close()
	sp.probe = probeFactory(b.counters, opts.NewProbe)
	stop := sp.watch(ctx)
	defer stop()

	// All processes start from one goroutine locked to its OS thread:
	// the affinity set by --pin (and a Probe's per-thread setup) applies
	// to that thread and is inherited by the children. The goroutine
	// exits without unlocking, so the runtime discards the thread and its
	// settings never leak to other goroutines.
	done := make(chan error, 1)
	thread.Go(func() { // never the main thread, never unlocked
		if len(opts.Pin) > 0 {
			if err := pinThread(opts.Pin); err != nil {
				done <- err
				return
			}
		}
		done <- nil
		c0, ok := selfCPU()
		b.loop()
		c1, _ := selfCPU()
		b.rep.OwnCPU, b.rep.Processes = c1-c0, sp.started
		if !ok {
			b.rep.OwnCPU = -1
		}
		done <- nil
	})
	if err := <-done; err != nil {
		return nil, err
	}
	<-done
	b.interrupted(ctx)
	return b.rep, nil
}

// interrupted marks the benchmark interrupted when ctx is done: the
// cancel that stopped it is not a failure.
func (b *bench) interrupted(ctx context.Context) {
	if ctx.Err() != nil {
		b.rep.Interrupted = true
		if errors.Is(b.rep.Err, errCanceled) {
			b.rep.Err = nil
		}
	}
}

func newBench(cmds []Command, opts Options, ex executor) (*bench, error) {
	if len(cmds) == 0 {
		return nil, usagef("run: no command given: name one or more commands to benchmark")
	}
	if opts.MinRuns == 0 {
		// As in hyperfine, a --max-runs below the default minimum lowers
		// the minimum (only an explicit --min-runs above it is an error).
		opts.MinRuns = 10
		if opts.MaxRuns > 0 && opts.MaxRuns < opts.MinRuns {
			opts.MinRuns = opts.MaxRuns
		}
	}
	if opts.Budget == 0 {
		opts.Budget = 3 * time.Second
	}
	switch {
	case opts.Runs < 0 || opts.MinRuns < 0 || opts.MaxRuns < 0 || opts.Warmup < 0:
		return nil, usagef("run: run counts must not be negative: give --runs, --min-runs, --max-runs and --warmup as 0 or more")
	case opts.MaxRuns > 0 && opts.MinRuns > opts.MaxRuns && opts.Runs == 0:
		return nil, usagef("run: --min-runs %d is larger than --max-runs %d: lower --min-runs or raise --max-runs", opts.MinRuns, opts.MaxRuns)
	case opts.Precision < 0 || opts.Precision >= 1:
		return nil, usagef("run: precision %g is not a fraction between 0 and 1 (give e.g. 1%% as 0.01)", opts.Precision)
	case opts.Instructions && len(opts.Counters) > 0:
		return nil, usagef("run: --instructions counts under valgrind, where --counters would count valgrind itself: give one of them")
	case opts.Instructions && opts.Simulate:
		return nil, usagef("run: --instructions runs the commands under valgrind, and --debug-mode runs nothing: give one of them")
	}
	var notes []warn.Warning
	hasSetup := len(opts.Setup) > 0 || len(opts.Cleanup) > 0
	if opts.Order == "" {
		opts.Order = Sequential
		switch {
		case len(cmds) > 1 && hasSetup:
			notes = append(notes, warn.NewNote("sequential-for-setup", "the commands ran in sequence, not interleaved, because of --setup/--cleanup: as in hyperfine, each command's setup runs right before its runs and its cleanup right after; interleaving would run every setup first, so a later setup could undo an earlier one (e.g. build the same file)",
				"give --order interleaved to interleave anyway"))
		case len(cmds) > 1:
			opts.Order = Interleaved
		}
	} else if opts.Order != Sequential && len(cmds) > 1 && hasSetup {
		notes = append(notes, warn.New("setup-before-interleaved", "in "+string(opts.Order)+" order every setup command ran before the first timing run and every cleanup after the last: a setup that changes what another command runs (e.g. builds the same file) makes the figures wrong",
			"use --order sequential for hyperfine's setup semantics"))
	}
	if _, err := ParseOrder(string(opts.Order)); err != nil {
		return nil, err
	}
	if opts.Seed == 0 {
		opts.Seed = uint64(time.Now().UnixNano())
	}
	for _, list := range []struct {
		name string
		v    []string
	}{{"setup", opts.Setup}, {"cleanup", opts.Cleanup}, {"prepare", opts.Prepare}, {"conclude", opts.Conclude}} {
		n := 1
		for _, c := range cmds {
			n = max(n, c.Index+1)
		}
		if len(list.v) > 1 && len(list.v) != n {
			return nil, usagef("run: %d --%s commands for %s: give one for all, or one per command", len(list.v), list.name, plural.Count(n, "command"))
		}
	}
	if n := maxIndex(cmds) + 1; len(opts.Outputs) > 1 && len(opts.Outputs) != n {
		return nil, usagef("run: %d --output values for %s: give one for all, or one per command", len(opts.Outputs), plural.Count(n, "command"))
	}
	shell, err := shellWords(opts)
	if err != nil {
		return nil, err
	}
	b := &bench{opts: opts, cmds: cmds, exec: ex, shell: shell, cpu: -1, warmups: make([]int, len(cmds))}
	b.pinTo = func(cpu int) error { return pinThread([]int{cpu}) }
	b.look = remembered(lookFor(opts))
	b.rep = &Benchmark{Order: opts.Order, Seed: opts.Seed, Options: opts, Start: time.Now(), Notes: notes}
	if !opts.Simulate {
		b.rep.CPUUnavailable = childCPUUnavailable()
	}
	if len(opts.Counters) > 0 {
		b.counters = newCounterState(b.rep, opts.Counters, opts.CounterOptions)
	}
	for i := range cmds {
		b.rep.Results = append(b.rep.Results, &CommandRuns{Command: &b.cmds[i]})
	}
	if err := b.openFiles(); err != nil {
		b.close()
		return nil, err
	}
	b.env = os.Environ()
	b.env = slices.DeleteFunc(b.env, func(s string) bool {
		return strings.HasPrefix(s, "CHRONO_ITERATION=") || strings.HasPrefix(s, "HYPERFINE_ITERATION=")
	})
	return b, nil
}

func (b *bench) openFiles() error {
	open := func(name string, flag int) (*os.File, error) {
		f, err := os.OpenFile(name, flag, 0o644)
		if err == nil {
			b.closers = append(b.closers, f)
		}
		return f, err
	}
	var err error
	if b.devNull, err = open(os.DevNull, os.O_RDWR); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	switch in := b.opts.Input; in {
	case "", OutputNull:
		b.stdin = b.devNull
	default:
		if b.stdin, err = open(in, os.O_RDONLY); err != nil {
			return fmt.Errorf("run: --input: %w (give an existing file, or null for no input)", err)
		}
	}
	outs := b.opts.Outputs
	if len(outs) == 0 {
		outs = []string{b.opts.Output}
	}
	files := map[string]*os.File{}
	for _, out := range outs {
		var t outTarget
		switch out {
		case "", OutputNull, OutputPipe:
			t.stdout, t.pipe = b.devNull, out == OutputPipe
		case OutputInherit:
			t.stdout, t.stderr = os.Stdout, os.Stderr
		default:
			if err := CheckOutput(out); err != nil {
				return err
			}
			if t.stdout = files[out]; t.stdout == nil {
				if t.stdout, err = open(out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND); err != nil {
					return fmt.Errorf("run: --output: %w", err)
				}
				files[out] = t.stdout
			}
		}
		b.outs = append(b.outs, t)
	}
	return nil
}

// outTarget is where a command's runs write: stdout (through a pipe whose
// content is discarded when pipe is set), and stderr (nil: its tail is
// kept for error messages and the rest discarded).
type outTarget struct {
	stdout, stderr *os.File
	pipe           bool
}

// out returns where the runs of c write.
func (b *bench) out(c *Command) outTarget {
	if len(b.outs) > 1 && c.Index < len(b.outs) {
		return b.outs[c.Index]
	}
	return b.outs[0]
}

// CheckOutput checks the value of --output: null, pipe, inherit or a
// file. As in hyperfine, a file named by a bare word must be written with
// a directory (./results), so that a misspelt policy (nul, pipes) does
// not silently become a file.
func CheckOutput(out string) error {
	switch out {
	case "", OutputNull, OutputPipe, OutputInherit:
		return nil
	}
	if !strings.ContainsRune(out, '/') && !strings.ContainsRune(out, filepath.Separator) {
		return usagef("run: --output %q is neither null, pipe nor inherit: to write the output to a file of that name, give it as ./%s", out, out)
	}
	return nil
}

func (b *bench) close() { closeQuiet(b.closers...) }

// spec makes the process spec of a run. iteration is the value of
// CHRONO_ITERATION; hyperfine, when not empty, the value of
// HYPERFINE_ITERATION (as hyperfine sets it: "0", "1", ... for the timing
// runs, "warmup-0", ... for the warm-up runs, unset for other commands),
// so that scripts written for hyperfine keep working.
func (b *bench) spec(c *Command, argv []string, path string, iteration, hyperfine string) *execSpec {
	env := make([]string, len(b.env), len(b.env)+2)
	copy(env, b.env)
	env = append(env, "CHRONO_ITERATION="+iteration)
	if hyperfine != "" {
		env = append(env, "HYPERFINE_ITERATION="+hyperfine)
	}
	if b.opts.Input != "" {
		b.stdin.Seek(0, 0) // every run reads the input from its start
	}
	out := b.outs[0]
	if c != nil {
		out = b.out(c)
	}
	return &execSpec{path: path, argv: argv, env: env, stdin: b.stdin, stdout: out.stdout,
		stderr: out.stderr, stdoutPipe: out.pipe, timeout: b.opts.Timeout}
}

// hook runs a setup/cleanup/prepare/conclude command of c, if any, and
// returns how long it took (its raw wall time: prepare and conclude
// commands count towards the time budget, as in hyperfine).
func (b *bench) hook(what string, list []string, c *Command) (Sample, error) {
	if len(list) == 0 {
		return Sample{}, nil
	}
	line := list[0]
	if len(list) > 1 {
		line = list[c.Index]
	}
	argv, path, err := resolve(line, c.Params, b.shell, b.look)
	if err != nil {
		return Sample{}, fmt.Errorf("run: %s command: %w", what, err)
	}
	spec := b.spec(c, argv, path, "0", "")
	spec.timeout = 0
	spec.noProbe = true
	s, tail, err := b.exec.run(spec)
	if err != nil {
		return s, err
	}
	if s.ExitCode != 0 {
		return s, &FailureError{What: what + " command", Command: substitute(line, c.Params), ExitCode: s.ExitCode, Signal: s.Signal, Stderr: string(tail)}
	}
	return s, nil
}

// launched reports whether a run that returned s and err started its
// process (or, simulated, was answered): it returned without an error,
// or with the process's id (killed by a cancel, failed to be waited
// for).
func launched(s Sample, err error) bool { return err == nil || s.Pid != 0 }

// ignored reports whether a run that exited with s's status is kept
// instead of stopping the benchmark: with -i every non-zero status, with
// --ignore-failure=LIST the codes listed (a run killed by signal N has
// code 128+N, as in hyperfine and the shells).
func (b *bench) ignored(s Sample) bool {
	return b.opts.IgnoreFailure || slices.Contains(b.opts.IgnoreExitCodes, exitStatus(s))
}

// exitStatus is the exit code of a run, or 128 plus the number of the
// signal that killed it.
func exitStatus(s Sample) int {
	if s.ExitCode < 0 && s.SignalNumber > 0 {
		return 128 + s.SignalNumber
	}
	return s.ExitCode
}

// maxIndex is the largest Command.Index of cmds.
func maxIndex(cmds []Command) int {
	n := 0
	for _, c := range cmds {
		n = max(n, c.Index)
	}
	return n
}

// pinRun pins the starting thread for the k-th run of its kind (timing
// runs of a command, its warm-up runs, or overhead runs) when --pin lists
// several CPUs, and returns the run's CPU (-1 without --pin).
func (b *bench) pinRun(k int) (int, error) {
	switch len(b.opts.Pin) {
	case 0:
		return -1, nil
	case 1:
		return b.opts.Pin[0], nil
	}
	c := b.opts.Pin[k%len(b.opts.Pin)]
	if c != b.cpu {
		if err := b.pinTo(c); err != nil {
			return -1, err
		}
		b.cpu = c
	}
	return c, nil
}

// measure makes one timing (or warm-up) run of command i, with its
// prepare and conclude commands.
func (b *bench) measure(i int, warmup bool) error {
	c := &b.cmds[i]
	res := b.rep.Results[i]
	if b.sim != nil && b.sim.native[i] == 0 {
		if err := b.nativeRun(i); err != nil {
			return err
		}
	}
	k := len(res.Samples) + len(res.TimedOut)
	if warmup {
		k = b.warmups[i]
		b.warmups[i]++
	}
	cpu, err := b.pinRun(k)
	if err != nil {
		return err
	}
	prep, err := b.hook("prepare", b.opts.Prepare, c)
	res.Started = res.Started || len(b.opts.Prepare) > 0 && launched(prep, err)
	if err != nil {
		return err
	}
	iter := strconv.Itoa(k)
	hiter := iter
	if warmup {
		iter, hiter = "warmup", "warmup-"+strconv.Itoa(k)
	}
	argv, path := c.Argv, c.Path
	if b.sim != nil {
		argv, path = b.sim.cmds[i].Argv, b.sim.cmds[i].Argv[0]
	}
	s, tail, err := b.exec.run(b.spec(c, argv, path, iter, hiter))
	res.Started = res.Started || launched(s, err)
	if err != nil {
		return err
	}
	if b.sim != nil {
		if err := b.sim.read(b.sim.cmds[i], &s); err != nil {
			return err
		}
	}
	if !warmup {
		s.Iteration = k
		if cpu >= 0 {
			res.CPUs = append(res.CPUs, cpu)
		}
		res.Spent += prep.Wall + s.Wall
		if s.TimedOut {
			res.TimedOut = append(res.TimedOut, s)
		} else {
			res.Samples = append(res.Samples, s)
		}
	}
	if s.ExitCode != 0 && !s.TimedOut && !b.ignored(s) {
		return &FailureError{What: "command", Command: c.Name, Run: s.Iteration, ExitCode: s.ExitCode, Signal: s.Signal, Stderr: string(tail)}
	}
	conc, err := b.hook("conclude", b.opts.Conclude, c)
	if !warmup {
		res.Spent += conc.Wall
	}
	if err != nil {
		return err
	}
	b.progress(c, res, warmup)
	return nil
}

// overheadRun measures the shell (or spawn) overhead once.
func (b *bench) overheadRun(force bool) error {
	ov := b.rep.Overhead
	if ov == nil || ov.Unavailable != "" {
		return nil
	}
	b.rounds++
	// After the first runs, one overhead run every other round, spread
	// over the whole benchmark, up to maxOverheadRuns.
	if !force && (len(ov.Samples) >= maxOverheadRuns || len(ov.Samples) >= minOverheadRuns+b.rounds/2) {
		return nil
	}
	if b.sim != nil && len(ov.Samples) >= simulatedOverheadRuns {
		return nil // counts that do not vary need few runs, and each is slow
	}
	if b.ovPath == "" {
		if b.shell != nil {
			b.ovArgv = append(slices.Clone(b.shell), "")
		} else {
			b.ovArgv = []string{"true"}
		}
		path, err := b.look(b.ovArgv[0])
		if err != nil {
			ov.Unavailable = fmt.Sprintf("%s not found: %v", b.ovArgv[0], err)
			return nil
		}
		b.ovPath = path
		if b.sim != nil {
			vc, err := valgrind.NewCommand(b.ovArgv)
			if err != nil {
				ov.Unavailable = err.Error()
				return nil
			}
			b.sim.overhead = vc
		}
	}
	argv, path := b.ovArgv, b.ovPath
	if b.sim != nil {
		argv, path = b.sim.overhead.Argv, b.sim.overhead.Argv[0]
	}
	if _, err := b.pinRun(len(ov.Samples)); err != nil {
		return err
	}
	spec := b.spec(nil, argv, path, strconv.Itoa(len(ov.Samples)), "")
	// Not the user's command: its output (a custom shell may print) is
	// never shown, as hyperfine discards its calibration runs' output.
	spec.stdout, spec.stderr, spec.stdoutPipe = b.devNull, b.devNull, false
	s, _, err := b.exec.run(spec)
	if err != nil {
		return err
	}
	if b.sim != nil {
		if err := b.sim.read(b.sim.overhead, &s); err != nil {
			return err
		}
	}
	if s.ExitCode == 0 && !s.TimedOut {
		ov.Samples = append(ov.Samples, s)
	}
	return nil
}

// Overhead runs: at least minOverheadRuns before the first timing run,
// then one per round of timing runs, up to maxOverheadRuns in all.
const (
	minOverheadRuns = 10
	maxOverheadRuns = 500
	// simulatedOverheadRuns is the number of overhead runs under
	// valgrind (Options.Instructions).
	simulatedOverheadRuns = 3
)

// loop runs the whole benchmark: setups, overhead, warm-ups, rounds of
// timing runs, cleanups. It records the first error in the report.
func (b *bench) loop() {
	defer func() { b.rep.End, b.rep.ParentPeakRSSBytes = time.Now(), selfPeakRSS() }()
	if b.shell != nil {
		b.rep.Overhead = &Overhead{Kind: "shell", Line: joinWords(append(slices.Clone(b.shell), "")), Subtracted: true}
	} else {
		b.rep.Overhead = &Overhead{Kind: "spawn", Line: "true", Subtracted: b.opts.SubtractSpawn}
	}
	fail := func(err error) bool {
		if err != nil && b.rep.Err == nil {
			b.rep.Err = err
		}
		return err != nil
	}
	sequential := b.opts.Order == Sequential
	setupDone := make([]bool, len(b.cmds))
	defer func() {
		for i := range b.cmds {
			if setupDone[i] && !errors.Is(b.rep.Err, errCanceled) {
				_, err := b.hook("cleanup", b.opts.Cleanup, &b.cmds[i])
				fail(err)
			}
		}
	}()
	setup := func(i int) bool {
		setupDone[i] = true
		s, err := b.hook("setup", b.opts.Setup, &b.cmds[i])
		b.rep.Results[i].Started = b.rep.Results[i].Started || len(b.opts.Setup) > 0 && launched(s, err)
		return !fail(err)
	}
	for range minOverheadRuns {
		if fail(b.overheadRun(true)) {
			return
		}
	}
	if b.sim != nil {
		defer func() { b.rep.Notes = append(b.rep.Notes, b.rep.simulationNotes(b.sim.native)...) }()
	}
	if sequential {
		for i := range b.cmds {
			if !setup(i) {
				return
			}
			for range b.opts.Warmup {
				if fail(b.measure(i, true)) {
					return
				}
			}
			for !b.done(i) {
				if fail(b.measure(i, false)) || fail(b.maybeOverhead()) {
					return
				}
			}
			b.finish(i)
			// As in hyperfine, a command's cleanup runs right after its
			// runs, before the next command's setup.
			setupDone[i] = false
			if _, err := b.hook("cleanup", b.opts.Cleanup, &b.cmds[i]); fail(err) {
				return
			}
		}
		return
	}
	for i := range b.cmds {
		if !setup(i) {
			return
		}
	}
	for range b.opts.Warmup {
		for i := range b.cmds {
			if fail(b.measure(i, true)) {
				return
			}
		}
	}
	rng := rand.New(rand.NewPCG(b.opts.Seed, 0x636872))
	order := make([]int, len(b.cmds))
	for round := 0; ; round++ {
		for i := range order {
			order[i] = i
		}
		switch {
		case b.opts.Order == Random:
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		case round%2 == 1:
			slices.Reverse(order)
		}
		ran := false
		for _, i := range order {
			if b.rep.Results[i].Complete {
				continue
			}
			if b.done(i) {
				b.finish(i)
				continue
			}
			ran = true
			if fail(b.measure(i, false)) {
				return
			}
		}
		if !ran {
			return
		}
		if fail(b.maybeOverhead()) {
			return
		}
	}
}

func (b *bench) maybeOverhead() error { return b.overheadRun(false) }

func (b *bench) finish(i int) {
	res := b.rep.Results[i]
	if res.Complete {
		return
	}
	res.Complete = true
	if b.opts.OnCommandDone != nil {
		b.opts.OnCommandDone(b.rep, res)
	}
}

// done reports whether command i has all its runs.
func (b *bench) done(i int) bool {
	res := b.rep.Results[i]
	n := len(res.Samples) + len(res.TimedOut)
	o := b.opts
	switch {
	case o.Runs > 0:
		return n >= o.Runs
	case n < o.MinRuns:
		return false
	case o.MaxRuns > 0 && n >= o.MaxRuns:
		return true
	}
	if o.Precision > 0 && len(res.Samples) >= o.MinRuns {
		if _, _, _, ok := b.precision(res); ok {
			res.PrecisionReached = true
			return true
		}
	}
	return budgetFull(res.Spent, n, o.Budget)
}

// budgetFull reports whether n runs that took spent in all fill the
// budget: one more run at their average cost would end beyond it (the
// count is hyperfine's floor(budget / cost of a run) for runs of equal
// cost, but estimated from every run so far instead of the first alone).
func budgetFull(spent time.Duration, n int, budget time.Duration) bool {
	return n > 0 && float64(spent)*float64(n+1) > float64(budget)*float64(n)
}

// precision returns the median of res's corrected wall times with its
// 95 % confidence interval, and whether the interval is within
// Precision of the median.
func (b *bench) precision(res *CommandRuns) (med, lo, hi float64, ok bool) {
	xs := b.rep.correctedWall(res)
	med = stats.Median(xs)
	iv, err := stats.MedianCI(xs, stats.Confidence)
	if err != nil || med <= 0 {
		return med, 0, 0, false
	}
	half := math.Max(med-iv.Lo, iv.Hi-med)
	return med, iv.Lo, iv.Hi, b.opts.Precision > 0 && half <= b.opts.Precision*med
}

func (b *bench) progress(c *Command, res *CommandRuns, warmup bool) {
	if b.opts.OnProgress == nil {
		return
	}
	now := time.Now()
	if now.Sub(b.lastProgress) < 100*time.Millisecond {
		return
	}
	b.lastProgress = now
	p := Progress{Command: c, Run: len(res.Samples) + len(res.TimedOut), Warmup: warmup}
	if len(res.Samples) > 0 {
		med, lo, hi, _ := b.precision(res)
		p.Median, p.Lo, p.Hi = time.Duration(med), time.Duration(lo), time.Duration(hi)
	}
	var eta time.Duration
	for i, r := range b.rep.Results {
		left := b.remaining(r)
		if i == c.indexIn(b.cmds) {
			p.Target = p.Run + left
		}
		if n := len(r.Samples) + len(r.TimedOut); n > 0 {
			eta += time.Duration(left) * (r.Spent / time.Duration(n))
		}
	}
	p.ETA = eta
	b.opts.OnProgress(p)
}

func (c *Command) indexIn(cmds []Command) int {
	for i := range cmds {
		if &cmds[i] == c {
			return i
		}
	}
	return -1
}

// remaining estimates how many more runs res needs.
func (b *bench) remaining(res *CommandRuns) int {
	if res.Complete {
		return 0
	}
	n := len(res.Samples) + len(res.TimedOut)
	o := b.opts
	if o.Runs > 0 {
		return max(0, o.Runs-n)
	}
	left := o.MinRuns - n
	if n > 0 {
		per := res.Spent / time.Duration(n)
		if per > 0 {
			left = max(left, int((o.Budget-res.Spent)/per))
		}
	}
	if o.MaxRuns > 0 {
		left = min(left, o.MaxRuns-n)
	}
	return max(0, left)
}
