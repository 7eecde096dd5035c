package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

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
cachegrind instead: deterministic counts of a simulated CPU (useful on noisy CI
machines without a PMU), for the top process only, and much slower.

--json prints the result document instead of the text;
--export-json/--export-csv/--export-markdown FILE write it too (- = standard
output). Ctrl-C or SIGTERM kills the running command and everything it
started, prints and exports the finished runs (marked incomplete) and exits
130 or 143. Otherwise chrono stat exits with the last run's exit status, as
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
	ctx, caught, stopSignals := statSignals()
	defer stopSignals()

	stderr := cmd.ErrOrStderr()
	// The command's output never mixes with the results on stdout: it is
	// discarded, or shown on stderr with --show-output.
	stdio, err := newStatStdio(cmd.InOrStdin(), stderr, f.show)
	if err != nil {
		return err
	}
	defer stdio.close()
	// Every run goes through package run's spawner, as chrono run's do: a
	// process group of its own, killed with everything in it on Ctrl-C,
	// and a wait that leaves chrono asleep while the command runs.
	sp := run.NewSpawner(ctx)
	defer sp.Close()
	proc := run.Proc{Argv: args, Stdin: stdio.in, Stdout: stdio.out, Stderr: stdio.err}
	st := counters.Stat{Argv: args, Source: counters.SourcePerf, Asked: f.runs, CPUTimeResolution: run.CPUTimeResolution}
	for _, e := range events {
		st.Events = append(st.Events, e.Name)
	}
	var cg *counters.Cachegrind
	if f.valgrind {
		if cg, err = counters.NewCachegrind(args); err != nil {
			return err
		}
		defer cg.Close()
		proc.Argv, proc.Path = cg.Argv, cg.Argv[0]
		st.Source, st.Events = counters.SourceCachegrind, counters.CachegrindEvents
	} else if proc.Path, err = exec.LookPath(args[0]); err != nil {
		return fmt.Errorf("stat: cannot start %s: %w (check the name and PATH, or that the file is executable)", args[0], err)
	}
	host := captureEnv()
	st.Start = time.Now()
	var samples []run.Sample
	for i := 0; i < f.runs; i++ {
		var probe *statProbe
		if cg == nil {
			probe = &statProbe{events: events}
			proc.Probe = probe
		}
		s, err := sp.Run(proc)
		if errors.Is(err, run.ErrInterrupted) || caught() != nil {
			break
		}
		if err != nil {
			return fmt.Errorf("stat: %w", err)
		}
		cr := counters.CommandRun{Wall: s.Wall, User: s.User, Sys: s.Sys, ExitCode: s.ExitCode}
		if cg != nil {
			if cr.Reading, err = cg.Read(s.ExitCode); err != nil {
				return err
			}
		} else {
			cr.Reading = probe.reading
		}
		st.Runs = append(st.Runs, cr)
		samples = append(samples, s)
	}
	st.End = time.Now()
	stdio.close() // the command's output is all written before the results
	sig := caught()
	st.Interrupted = sig != nil
	if len(st.Runs) == 0 {
		code, err := statExit(samples, f.runs, sig)
		return exitError{code: code, err: err}
	}
	if !f.valgrind {
		// The read cost of the events asked for (software ones when no
		// hardware one opens); the user-space read capability is the
		// host's, a property of its hardware counters.
		if info, err := counters.ProbeRead(events, counters.Options{}, 1000); err == nil {
			a := counters.Available()
			info.UserRead, info.UserReadReason = a.UserRead, a.UserReadReason
			st.Read = &info
		}
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

// statProbe counts events in one run's child, for run.Spawner: the group
// is opened with counters.OpenForChild on the spawner's locked thread
// right before the fork and read after the child is reaped.
type statProbe struct {
	events  []counters.Event
	g       *counters.Group
	reading counters.Reading
}

func (p *statProbe) Start() error {
	g, err := counters.OpenForChild(p.events, counters.Options{}) // unavailable events are in the reading
	if g == nil {
		return err
	}
	p.g = g
	return nil
}

func (p *statProbe) Stop(s *run.Sample) error {
	if p.g == nil {
		return nil
	}
	defer p.g.Close()
	if s.Pid == 0 {
		return nil // never started: nothing counted
	}
	var err error
	p.reading, err = p.g.Read()
	return err
}

// statSignals returns a context canceled by the first SIGINT or SIGTERM,
// a function that returns that signal (nil before), and one that stops
// listening.
func statSignals() (context.Context, func() os.Signal, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var got atomic.Value
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			got.Store(s)
			cancel()
		case <-done:
		}
	}()
	caught := func() os.Signal {
		s, _ := got.Load().(os.Signal)
		return s
	}
	stop := func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
	return ctx, caught, stop
}

// statStdio holds the command's standard files: chrono's standard input
// (unless it is a terminal: the command runs in a process group of its
// own, which the terminal would stop for reading it, so it gets the null
// device) and standard error, and with --show-output chrono's standard
// error as its standard output (else the null device). A stream that is
// not a file (in tests) is copied through a pipe.
type statStdio struct {
	in, out, err *os.File
	closers      []*os.File
	copies       sync.WaitGroup
}

func newStatStdio(in io.Reader, errw io.Writer, show bool) (*statStdio, error) {
	st := &statStdio{}
	if f, ok := in.(*os.File); ok {
		if !isTerminal(f) {
			st.in = f
		}
	} else if in != nil {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, fmt.Errorf("stat: %w", err)
		}
		st.in = r
		st.closers = append(st.closers, r)
		go func() {
			io.Copy(w, in)
			w.Close()
		}()
	}
	var err error
	if st.err, err = st.writer(errw); err != nil {
		st.close()
		return nil, err
	}
	if show {
		st.out = st.err
	}
	return st, nil
}

// writer returns w as a file, through a pipe if it is not one.
func (st *statStdio) writer(w io.Writer) (*os.File, error) {
	if f, ok := w.(*os.File); ok {
		return f, nil
	}
	r, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stat: %w", err)
	}
	st.closers = append(st.closers, pw)
	st.copies.Add(1)
	go func() {
		defer st.copies.Done()
		io.Copy(w, r)
		r.Close()
	}()
	return pw, nil
}

// close closes the pipes and waits until their content is copied. It is
// safe to call twice.
func (st *statStdio) close() {
	for _, f := range st.closers {
		f.Close()
	}
	st.closers = nil
	st.copies.Wait()
}
