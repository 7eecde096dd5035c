package run

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/internal/thread"
	"github.com/chronograph/chronograph/profiles"
	"github.com/chronograph/chronograph/profiles/cpuprof"
)

// Profiler says how Profile profiles a command.
type Profiler string

// The profilers.
const (
	// ProfilerAuto uses ProfilerGo when the command writes a profile
	// through $CHRONO_CPUPROFILE (its first run tells), else ProfilerPerf.
	ProfilerAuto Profiler = "auto"
	// ProfilerGo asks a Go program built with profiles/cpuprof for its
	// own profile ($CHRONO_CPUPROFILE): runtime/pprof's, with source
	// lines, fit to guide go build -pgo.
	ProfilerGo Profiler = "go"
	// ProfilerPerf runs the command under `perf record -e cpu-clock -g`
	// (a software event: it works without a hardware PMU, in virtual
	// machines too) and converts `perf script` to a profile
	// (profiles.FromPerfScript): any command, function names without
	// source lines (enough to compare, not to guide a Go build).
	ProfilerPerf Profiler = "perf"
)

// ParseProfiler reads a profiler's name.
func ParseProfiler(s string) (Profiler, error) {
	switch p := Profiler(s); p {
	case ProfilerAuto, ProfilerGo, ProfilerPerf:
		return p, nil
	case "":
		return ProfilerAuto, nil
	}
	return "", usagef("run: profiler %q: use auto, go or perf", s)
}

// The sources Profile records (result.ProfileRef.Source).
const (
	SourceCPUProf = "cpuprof"
	SourcePerf    = "perf cpu-clock"
)

// ProfileOptions say how Profile profiles.
type ProfileOptions struct {
	// Dir is where the runs' profiles are written: DIR/C.R.pprof for
	// command C's run R (from 0), and, with ProfilerPerf, perf's
	// recording beside it (C.R.perf.data). It must exist.
	Dir string
	// Runs is the number of profiled runs per command (default 3).
	Runs int
	// Profiler is how (default ProfilerAuto).
	Profiler Profiler
	// Perf is the perf program (default "perf", looked up in PATH).
	Perf string
}

// CommandProfile is the profile of one command: its runs' profiles
// merged (summed, as go tool pprof merges them).
type CommandProfile struct {
	Command *Command
	// Profile is the merged profile; Runs how many runs it sums, Files
	// their profiles' files.
	Profile *profile.Profile
	Runs    int
	Files   []string
	// Source is SourceCPUProf or SourcePerf.
	Source string
}

// Profile runs every command opts.Runs more times under a profiler and
// returns each command's profile, its runs merged. The runs are not
// timed: they come after (or instead of) a benchmark's timing runs, so
// that the profiler's cost (perf's start-up, the signal handler, the
// profile written at exit) never reaches a timing. They go through the
// benchmark's one spawn path with opts' shell, input, output, prepare and
// conclude commands, environment ($CHRONO_ITERATION is "profile-R") and
// timeout; a run that fails, times out or writes no profile is an error
// that says what to do.
func Profile(ctx context.Context, cmds []Command, opts Options, po ProfileOptions) ([]CommandProfile, error) {
	if opts.Simulate {
		return nil, usagef("run: profiling runs real commands: drop --debug-mode")
	}
	if po.Runs == 0 {
		po.Runs = 3
	}
	if po.Runs < 0 {
		return nil, usagef("run: %d profiled runs: give 1 or more", po.Runs)
	}
	if po.Profiler == "" {
		po.Profiler = ProfilerAuto
	}
	if po.Perf == "" {
		po.Perf = "perf"
	}
	if st, err := os.Stat(po.Dir); err != nil || !st.IsDir() {
		return nil, usagef("run: the profile directory %q does not exist: create it first", po.Dir)
	}
	opts.Counters, opts.NewProbe, opts.Pin = nil, nil, nil
	b, err := newBench(cmds, opts, newSpawner())
	if err != nil {
		return nil, err
	}
	defer b.close()
	sp := b.exec.(*spawner)
	defer sp.close()
	stop := sp.watch(ctx)
	defer stop()
	var out []CommandProfile
	var runErr error
	done := make(chan struct{})
	thread.Go(func() { // the spawn path's locked thread, as Run's
		defer close(done)
		for i := range b.cmds {
			cp, err := b.profileCommand(ctx, i, po)
			if err != nil {
				runErr = err
				return
			}
			out = append(out, cp)
		}
	})
	<-done
	if ctx.Err() != nil && runErr != nil {
		return out, fmt.Errorf("run: profiling interrupted: %w", ctx.Err())
	}
	return out, runErr
}

// profileCommand makes the profiled runs of command i and merges them.
func (b *bench) profileCommand(ctx context.Context, i int, po ProfileOptions) (CommandProfile, error) {
	c := &b.cmds[i]
	cp := CommandProfile{Command: c}
	how := po.Profiler
	var runs []profiles.Weighted
	for r := 0; r < po.Runs; r++ {
		path := filepath.Join(po.Dir, strconv.Itoa(i)+"."+strconv.Itoa(r)+".pprof")
		os.Remove(path) // a stale file must not pass for this run's
		p, used, err := b.profileRun(ctx, c, r, path, how, po)
		if err != nil {
			return cp, err
		}
		how = used // auto decides on the first run
		cp.Files = append(cp.Files, path)
		runs = append(runs, profiles.Weighted{Profile: p, Weight: 1})
	}
	cp.Source = SourceCPUProf
	if how == ProfilerPerf {
		cp.Source = SourcePerf
	}
	m, err := profiles.Merge(runs, profiles.ByFactor)
	if err != nil {
		return cp, fmt.Errorf("run: merging the profiles of %s: %w", c.Name, err)
	}
	cp.Profile, cp.Runs = m.Profile, po.Runs
	return cp, nil
}

// profileRun makes profiled run r of c, writing its profile to path, and
// returns the profile and the profiler used; ctx's end stops perf script
// as it stops the run.
func (b *bench) profileRun(ctx context.Context, c *Command, r int, path string, how Profiler, po ProfileOptions) (*profile.Profile, Profiler, error) {
	iter := "profile-" + strconv.Itoa(r)
	if how == ProfilerGo || how == ProfilerAuto {
		spec := b.spec(c, c.Argv, c.Path, iter, "")
		spec.env = append(spec.env, cpuprof.Env+"="+path)
		if err := b.profiledRun(c, spec); err != nil {
			return nil, how, err
		}
		st, err := os.Stat(path)
		switch {
		case err == nil && st.Size() > 0:
			p, err := profiles.Read(path)
			return p, ProfilerGo, err
		case how == ProfilerGo:
			return nil, how, fmt.Errorf("run: %s wrote no profile to $%s: build it with profiles/cpuprof (defer cpuprof.Start()() first in main) or write one with runtime/pprof where $%s says, or profile it with perf (--profiler perf)",
				c.Name, cpuprof.Env, cpuprof.Env)
		}
		// auto: not a program that writes its profile; perf then.
		if _, err := exec.LookPath(po.Perf); err != nil {
			return nil, how, fmt.Errorf("run: %s wrote no profile to $%s, and %s is not there to profile it (%v): build it with profiles/cpuprof, or install linux-perf",
				c.Name, cpuprof.Env, po.Perf, err)
		}
		how = ProfilerPerf
	}
	data := path + ".perf.data"
	perf, err := exec.LookPath(po.Perf)
	if err != nil {
		return nil, how, fmt.Errorf("run: --profiler perf: %w (install linux-perf)", err)
	}
	argv := append([]string{perf, "record", "-q", "-e", "cpu-clock", "-g", "-o", data, "--"}, c.Argv...)
	argv[len(argv)-len(c.Argv)] = c.Path
	if err := b.profiledRun(c, b.spec(c, argv, perf, iter, "")); err != nil {
		return nil, how, err
	}
	var script, stderr bytes.Buffer
	cmd := ToolCommand(ctx, perf, "script", "-i", data)
	cmd.Stdout, cmd.Stderr = &script, &stderr
	if err := cmd.Run(); err != nil {
		return nil, how, fmt.Errorf("run: perf script -i %s: %v: %s", data, err, firstLine(stderr.String()))
	}
	p, err := profiles.FromPerfScript(&script)
	if err != nil {
		return nil, how, fmt.Errorf("run: the perf recording of %s: %w", c.Name, err)
	}
	if err := profiles.Write(path, p); err != nil {
		return nil, how, err
	}
	return p, how, nil
}

// profiledRun makes one untimed run of c with its prepare and conclude
// commands; a failure is an error.
func (b *bench) profiledRun(c *Command, spec *execSpec) error {
	if _, err := b.hook("prepare", b.opts.Prepare, c); err != nil {
		return err
	}
	spec.noProbe = true
	s, tail, err := b.exec.run(spec)
	if err != nil {
		return err
	}
	if s.TimedOut {
		return fmt.Errorf("run: a profiled run of %s timed out: raise --timeout", c.Name)
	}
	if s.ExitCode != 0 && !b.ignored(s) {
		return &FailureError{What: "profiled run", Command: c.Name, ExitCode: s.ExitCode, Signal: s.Signal, Stderr: string(tail)}
	}
	_, err = b.hook("conclude", b.opts.Conclude, c)
	return err
}
