package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sync"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/valgrind"
)

// CountOptions say how Count runs a command and what it counts.
type CountOptions struct {
	// Events are the events counted in every run with perf_event_open
	// (nil: counters.DefaultEvents()); ignored with Valgrind.
	Events []counters.Event
	// Runs is the number of runs (at least 1).
	Runs int
	// Valgrind counts valgrind cachegrind's simulated events instead
	// (counters.CachegrindEvents): deterministic counts of a simulated
	// CPU with fixed caches, of the command and every process it starts
	// (valgrind --trace-children=yes), and much slower.
	Valgrind bool
	// Stdin is the command's standard input: nil, or a terminal, gives it
	// the null device (the command runs in a process group of its own,
	// which a terminal stops when it reads). Stdout and Stderr receive
	// its output (nil: discarded; the same writer may be given for both).
	// A stream that is not a file is copied through a pipe; all of it is
	// written when Count returns.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Count runs argv (no shell) opts.Runs times, as perf stat -r does, each
// run in a process group of its own as Run runs a benchmark's commands,
// and counts its events in it and in the processes it starts (from execve
// to exit). It returns the counts as a counters.Stat (its Document is the
// "counters" document) and each run's Sample (its times, exit code and
// signal), the runs made in order: a run that exits non-zero is counted
// like any other. When ctx is canceled (Ctrl-C), the running command is
// killed with everything it started, no further run is made and the
// finished runs are returned with Stat.Interrupted set. The error is
// non-nil when the command cannot be started or its counts read.
func Count(ctx context.Context, argv []string, opts CountOptions) (*counters.Stat, []Sample, error) {
	if len(argv) == 0 {
		return nil, nil, errors.New("run: Count needs a command to run")
	}
	if opts.Runs < 1 {
		return nil, nil, fmt.Errorf("run: Count needs at least 1 run, not %d", opts.Runs)
	}
	events := opts.Events
	if events == nil {
		events = counters.DefaultEvents()
	}
	stdio, err := newCountStdio(opts.Stdin, opts.Stdout, opts.Stderr)
	if err != nil {
		return nil, nil, err
	}
	defer stdio.close()
	sp := newProcSpawner(ctx)
	defer sp.Close()
	proc := proc{Argv: argv, Stdin: stdio.in, Stdout: stdio.out, Stderr: stdio.err}
	st := &counters.Stat{Argv: argv, Source: counters.SourcePerf, Asked: opts.Runs, CPUTimeResolution: cpuTimeResolution}
	for _, e := range events {
		st.Events = append(st.Events, e.Name)
	}
	var cg *valgrind.Command
	if opts.Valgrind {
		if cg, err = valgrind.NewCommand(argv); err != nil {
			return nil, nil, err
		}
		defer cg.Close()
		proc.Argv, proc.Path = cg.Argv, cg.Argv[0]
		st.Source, st.Events = counters.SourceCachegrind, counters.CachegrindEvents
	}
	st.Start = time.Now()
	var samples []Sample
	for range opts.Runs {
		var probe *countProbe
		if cg == nil {
			probe = &countProbe{events: events}
			proc.Probe = probe
		}
		s, err := sp.Run(proc)
		if errors.Is(err, errInterrupted) || ctx.Err() != nil {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		cr := counters.CommandRun{Wall: s.Wall, User: s.User, Sys: s.Sys, ExitCode: s.ExitCode}
		if cg != nil {
			cc, err := cg.Read(s.ExitCode)
			if err != nil {
				return nil, nil, err
			}
			cr.Reading = cc.Reading
		} else {
			cr.Reading = probe.reading
		}
		st.Runs = append(st.Runs, cr)
		samples = append(samples, s)
	}
	st.End = time.Now()
	stdio.close() // the command's output is all written before Count returns
	st.Interrupted = ctx.Err() != nil
	if cg == nil && len(st.Runs) > 0 {
		// The read cost of the events asked for (software ones when no
		// hardware one opens); the user-space read capability is the
		// host's, a property of its hardware counters.
		if info, err := counters.ProbeRead(events, counters.Options{}, 1000); err == nil {
			a := counters.Available()
			info.UserRead, info.UserReadReason = a.UserRead, a.UserReadReason
			st.Read = &info
		}
	}
	return st, samples, nil
}

// countProbe counts events in one run's child: the group is opened with
// counters.OpenForChild on the spawner's locked thread right before the
// fork and read after the child is reaped.
type countProbe struct {
	events  []counters.Event
	g       *counters.Group
	reading counters.Reading
}

func (p *countProbe) Start() error {
	g, err := counters.OpenForChild(p.events, counters.Options{}) // unavailable events are in the reading
	if g == nil {
		return err
	}
	p.g = g
	return nil
}

func (p *countProbe) Stop(s *Sample) error {
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

// countStdio holds the command's standard files (see CountOptions), with
// the pipes that copy streams that are not files.
type countStdio struct {
	in, out, err *os.File
	closers      []*os.File
	copies       sync.WaitGroup
}

func newCountStdio(in io.Reader, outw, errw io.Writer) (*countStdio, error) {
	st := &countStdio{}
	if f, ok := in.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice == 0 {
			st.in = f
		}
	} else if in != nil {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
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
	if outw != nil && reflect.TypeOf(outw).Comparable() && outw == errw {
		st.out = st.err // one writer: one pipe, so that the copies do not race
	} else if st.out, err = st.writer(outw); err != nil {
		st.close()
		return nil, err
	}
	return st, nil
}

// writer returns w as a file, through a pipe if it is not one (nil for
// nil: the null device).
func (st *countStdio) writer(w io.Writer) (*os.File, error) {
	if w == nil {
		return nil, nil
	}
	if f, ok := w.(*os.File); ok {
		return f, nil
	}
	r, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
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
func (st *countStdio) close() {
	for _, f := range st.closers {
		f.Close()
	}
	st.closers = nil
	st.copies.Wait()
}
