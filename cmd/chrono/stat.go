package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/chronograph/chronograph/warn"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/run"
	"github.com/chronograph/chronograph/unit"
)

func init() { register(newStatCmd) }

type statFlags struct {
	events   string
	runs     int
	valgrind bool
	json     string
	show     bool
}

func newStatCmd() *cobra.Command {
	var f statFlags
	cmd := &cobra.Command{
		Use:   "stat [-e LIST] [-r N] [--valgrind] [--json FILE] -- COMMAND [ARGS...]",
		Short: "Count hardware and software events of a command, like perf stat",
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
machines without a PMU), for the top process only, and much slower.`,
		Example: `  chrono stat -- ls -l
  chrono stat -r 10 -e task-clock,page-faults,context-switches -- gzip -k -f big.log
  chrono stat --valgrind -- ./mybinary --input data.txt
  chrono stat -r 5 --json stat.json -- make -s`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runStat(cmd, args, f)
		},
	}
	fl := cmd.Flags()
	fl.SetInterspersed(false)
	fl.StringVarP(&f.events, "events", "e", "", "comma-separated events to count (default: "+strings.Join(counters.DefaultEventNames, ",")+")")
	fl.IntVarP(&f.runs, "repeat", "r", 1, "run the command N times and show mean and variation")
	fl.BoolVar(&f.valgrind, "valgrind", false, "count simulated instructions and cache misses with valgrind cachegrind")
	fl.StringVar(&f.json, "json", "", "write a result document to FILE (- for standard output)")
	fl.BoolVar(&f.show, "show-output", false, "show the command's standard output (on chrono's standard error, so that standard output holds only results); discarded by default")
	return cmd
}

func runStat(cmd *cobra.Command, args []string, f statFlags) error {
	if len(args) == 0 {
		return usagef("stat needs a command to run: chrono stat [flags] -- COMMAND [ARGS...]")
	}
	if f.runs < 1 {
		return usagef("--repeat must be at least 1, not %d", f.runs)
	}
	if f.valgrind && f.events != "" {
		return usagef("--valgrind counts cachegrind's events (%s); it does not take -e", strings.Join(counters.CachegrindEvents, ","))
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

	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
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
	var cg *counters.Cachegrind
	if f.valgrind {
		if cg, err = counters.NewCachegrind(args); err != nil {
			return err
		}
		defer cg.Close()
		proc.Argv, proc.Path = cg.Argv, cg.Argv[0]
	} else if proc.Path, err = exec.LookPath(args[0]); err != nil {
		return fmt.Errorf("stat: cannot start %s: %w (check the name and PATH, or that the file is executable)", args[0], err)
	}
	start := time.Now()
	var runs []counters.CommandRun
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
		runs = append(runs, cr)
		samples = append(samples, s)
	}
	end := time.Now()
	stdio.close() // the command's output is all written before the results
	sig := caught()
	interrupted := sig != nil
	if len(runs) == 0 {
		code, err := statExit(samples, f.runs, sig)
		return exitError{code: code, err: err}
	}
	sum := counters.SummarizeRuns(runs)
	var ri *counters.ReadInfo
	if !f.valgrind {
		// The read cost of the events asked for (software ones when no
		// hardware one opens); the user-space read capability is the
		// host's, a property of its hardware counters.
		if info, err := counters.ProbeRead(events, counters.Options{}, 1000); err == nil {
			ri = &info
			a := counters.Available()
			ri.UserRead, ri.UserReadReason = a.UserRead, a.UserReadReason
		}
	}
	writeStatText(stdout, args, sum, ri, f.runs, interrupted)
	if f.json != "" {
		doc := statDocument(args, sum, ri, start, end, interrupted, f)
		if err := result.WriteFile(f.json, doc); err != nil {
			return err
		}
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
		return code, fmt.Errorf("stat: interrupted by %s after %d of %d runs; killed the running command and everything it started; the results above are of the finished runs", name, len(samples), asked)
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
		which = fmt.Sprintf(" in the last run (non-zero in %d of %d runs)", failed, len(samples))
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

// quoteArgs renders argv for a header, quoting arguments with spaces.
func statQuoteArgs(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$") {
			a = strconv.Quote(a)
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

// formatValue formats a count in its unit: durations (ns) with a unit,
// counts with thousands separators; resolution is the finest digit the
// spread justifies.
func statFormatValue(v float64, unitName string, resolution float64) string {
	if unitName == "ns" {
		return unit.FormatDuration(v, resolution)
	}
	if math.Abs(v) < 100 && v != math.Trunc(v) {
		return unit.Sig(v, 3)
	}
	return statGroupThousands(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
}

func statGroupThousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func writeStatText(w io.Writer, argv []string, s counters.RunsSummary, ri *counters.ReadInfo, asked int, interrupted bool) {
	what := "Counter stats"
	if s.Source == counters.SourceCachegrind {
		what = "Simulated counts (valgrind cachegrind)"
	}
	runs := ""
	if s.Runs > 1 || asked > 1 {
		runs = fmt.Sprintf(" (%d runs)", s.Runs)
	}
	fmt.Fprintf(w, "\n %s for '%s'%s:\n\n", what, statQuoteArgs(argv), runs)
	derivedOf := map[string][]counters.Derived{}
	for _, d := range s.Derived {
		derivedOf[d.Of] = append(derivedOf[d.Of], d)
	}
	var notes []string
	shown := map[string]bool{} // reasons already printed
	for _, e := range s.Events {
		name := e.Event.Name
		if e.Counted == 0 {
			reason := e.Reason
			if shown[reason] {
				reason = "(as above)"
			}
			shown[e.Reason] = true
			fmt.Fprintf(w, "  %20s  %-24s %s\n", e.State, name, reason)
			continue
		}
		res := 1.0
		if e.Summary.N > 1 {
			res = max(1, e.Summary.StdDevSample/10)
		}
		val := statFormatValue(e.Summary.Mean, e.Event.Unit, res)
		line := fmt.Sprintf("  %20s", val)
		if s.Runs > 1 {
			line += fmt.Sprintf(" ± %-12s", statFormatValue(e.Summary.StdDevSample, e.Event.Unit, res))
		}
		line += fmt.Sprintf("  %-24s", name)
		var extra []string
		// Derived figures are named by base event (IPC from cycles:u and
		// instructions:u is shown once, next to the first of them).
		base, _, _ := strings.Cut(e.Event.Name, ":")
		for _, d := range derivedOf[base] {
			extra = append(extra, "# "+statFormatDerived(d))
		}
		delete(derivedOf, base)
		if e.Summary.N > 1 {
			extra = append(extra, fmt.Sprintf("( ± %.2f%% )", e.StdErrPercent))
		}
		if e.Scaled {
			extra = append(extra, fmt.Sprintf("[scaled: counted %.1f%% of the time]", 100*e.MeanRunningFraction))
		}
		if e.UserOnly {
			extra = append(extra, "[user space only]")
		}
		fmt.Fprintln(w, strings.TrimRight(line+" "+strings.Join(extra, "  "), " "))
		if e.Reason != "" {
			fmt.Fprintf(w, "  %20s  %s\n", "", e.Reason)
		}
		if e.Note != "" && !statContains(notes, e.Note) {
			notes = append(notes, e.Note)
		}
	}
	fmt.Fprintln(w)
	wres := 1e3 // the wall time is not resolved finer than a microsecond here
	if s.Runs > 1 {
		wres = max(wres, s.Wall.StdDevSample/10)
	}
	elapsed := "time elapsed"
	if s.Source == counters.SourceCachegrind {
		elapsed = "time elapsed (under valgrind)"
	}
	line := fmt.Sprintf("  %20s", unit.FormatDuration(s.Wall.Mean, wres))
	if s.Runs > 1 {
		line += fmt.Sprintf(" ± %-12s  %-24s ( ± %.2f%% )", unit.FormatDuration(s.Wall.StdDevSample, wres), elapsed, s.WallStdErrPercent)
	} else {
		line += "  " + elapsed
	}
	fmt.Fprintln(w, line)
	fmt.Fprintf(w, "  %20s  user (rusage)\n", unit.FormatDuration(s.User.Mean, 1e3))
	fmt.Fprintf(w, "  %20s  sys (rusage)\n\n", unit.FormatDuration(s.Sys.Mean, 1e3))
	if s.Runs > 1 {
		fmt.Fprintf(w, " Mean ± sample stddev (n-1) over %d runs; ( ± x%% ) is the standard error of the mean, as perf stat -r prints it.\n", s.Runs)
	}
	if s.Source == counters.SourceCachegrind {
		fmt.Fprintln(w, " Counts are simulated by valgrind cachegrind: deterministic, of a simulated CPU and caches, for the top process only.")
	} else if ri != nil {
		fmt.Fprintf(w, " Counts read with read(2): %s per group read; user-space rdpmc read: ", unit.FormatDuration(float64(ri.Cost), 1))
		if ri.UserRead {
			fmt.Fprintf(w, "%s.\n", ri.UserReadReason)
		} else {
			fmt.Fprintf(w, "not available (%s).\n", ri.UserReadReason)
		}
	}
	for _, n := range notes {
		fmt.Fprintf(w, " Note: %s.\n", n)
	}
	if interrupted {
		fmt.Fprintf(w, " Interrupted: %d of %d runs finished.\n", s.Runs, asked)
	}
}

func statFormatDerived(d counters.Derived) string {
	switch d.Unit {
	case "fraction":
		return unit.Sig(100*d.Value, 3) + "% " + d.Label
	case "GHz":
		return unit.Sig(d.Value, 3) + " GHz"
	default:
		return unit.Sig(d.Value, 3) + " " + d.Label
	}
}

func statContains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// statDocument builds the result document: one measurement for the
// command, with one metric per event counted in every run, plus the
// elapsed and CPU times.
func statDocument(argv []string, s counters.RunsSummary, ri *counters.ReadInfo, start, end time.Time, interrupted bool, f statFlags) *result.Document {
	doc := result.New("counters", toolInfo())
	doc.Start, doc.End = start, end
	doc.Args = append([]string{"chrono", "stat"}, os.Args[min(len(os.Args), 2):]...)
	doc.Environment = env.Capture()
	doc.Incomplete = interrupted
	m := result.Measurement{Name: statQuoteArgs(argv), Incomplete: interrupted}
	details := map[string]any{"source": s.Source, "runs": s.Runs}
	var unavailable []map[string]any
	for _, e := range s.Events {
		if !e.AllCounted() {
			unavailable = append(unavailable, map[string]any{"event": e.Event.Name, "state": e.State.String(), "counted_runs": e.Counted, "reason": e.Reason})
			if e.Counted > 0 {
				m.Warnings = append(m.Warnings, warn.New("not-counted", fmt.Sprintf("%s was counted in %d of %d runs and is left out of the metrics", e.Event.Name, e.Counted, e.Runs), "count fewer events so that the kernel need not multiplex them"))
			}
			continue
		}
		sm := e.Summary
		m.Metrics = append(m.Metrics, result.Metric{Name: e.Event.Name, Unit: e.Event.Unit, Values: e.Values, Summary: &sm})
		if m.Primary == "" {
			m.Primary = e.Event.Name
		}
		if e.Scaled {
			details["running_fraction."+e.Event.Name] = e.MeanRunningFraction
			m.Warnings = append(m.Warnings, warn.New("multiplexed", fmt.Sprintf("%s was multiplexed (counted %.1f%% of the time on average) and scaled up", e.Event.Name, 100*e.MeanRunningFraction), "count fewer events for exact counts"))
		}
		if e.Note != "" {
			m.Warnings = append(m.Warnings, warn.Legacy("counter-note", e.Event.Name+": "+e.Note))
		}
	}
	for _, t := range []struct {
		name   string
		values []float64
	}{{"wall", s.WallNs}, {"user", s.UserNs}, {"sys", s.SysNs}} {
		sm := counters.SummaryOf(t.values)
		m.Metrics = append(m.Metrics, result.Metric{Name: t.name, Unit: "ns", Values: t.values, Summary: &sm})
	}
	if unavailable != nil {
		details["unavailable"] = unavailable
	}
	if len(s.Derived) > 0 {
		details["derived"] = s.Derived
	}
	if ri != nil {
		details["read_cost_ns"] = ri.Cost.Nanoseconds()
		details["user_rdpmc"] = ri.UserRead
		details["user_rdpmc_reason"] = ri.UserReadReason
	}
	if s.Failed > 0 {
		m.Warnings = append(m.Warnings, warn.New("failed-runs", fmt.Sprintf("the command exited non-zero in %d of %d runs", s.Failed, s.Runs), "check the command runs cleanly on its own"))
	}
	m.Details = details
	if m.Primary == "" {
		m.Primary = "wall"
	}
	doc.Measurements = []result.Measurement{m}
	return doc
}
