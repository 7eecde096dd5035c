package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Sample holds the raw figures of one run of a command.
type Sample struct {
	// Iteration is the run's index among the command's timing runs,
	// from 0 (the value of CHRONO_ITERATION).
	Iteration int
	// Wall is the elapsed time from just before the process was started
	// to just after it was reaped, on the monotonic clock.
	Wall time.Duration
	// User and Sys are the CPU time of the process and of the children it
	// waited for (the child's own rusage, not RUSAGE_CHILDREN).
	User, Sys time.Duration
	// MaxRSSBytes is the peak resident set size; -1 when unavailable.
	MaxRSSBytes int64
	// Page faults without and with I/O, and voluntary and involuntary
	// context switches; -1 when unavailable.
	MinorFaults, MajorFaults int64
	VolCS, InvolCS           int64
	// ExitCode is the exit status, or -1 when the process was killed by
	// a signal (Signal names it, SignalNumber is its number).
	ExitCode     int
	Signal       string
	SignalNumber int
	// TimedOut is set when the run exceeded the timeout and its process
	// group was killed.
	TimedOut bool
	// Pid is the process id (and process group id) the run had.
	Pid int
	// Extra holds the figures of a Probe (e.g. hardware counters), by name.
	Extra map[string]float64
	// ExtraRunning holds, for the figures of Extra that were extrapolated
	// from part of the run (counters multiplexed by the kernel and scaled
	// by enabled/running time), the fraction of the run they were measured
	// in; figures measured all the time are absent.
	ExtraRunning map[string]float64
}

// A Probe measures something more about each run, e.g. hardware counters
// of the child. Start is called on the locked OS thread that starts the
// child, right before the fork (so per-thread settings such as
// perf_event_open with inherit and enable_on_exec reach the child);
// Stop is called on the same thread after the child is reaped and adds its
// figures to s.Extra; if the child could not be started, Stop is called
// with s.Pid == 0 and should only release what Start took.
type Probe interface {
	Start() error
	Stop(s *Sample) error
}

// execSpec is one process to start.
type execSpec struct {
	path string // resolved executable
	argv []string
	env  []string
	// stdin, stdout and stderr are the child's files; stderr nil means
	// "capture the tail into a ring buffer and discard the rest".
	stdin, stdout, stderr *os.File
	// stdoutPipe feeds stdout through a pipe whose content is discarded
	// (--output pipe) instead of stdout.
	stdoutPipe bool
	timeout    time.Duration
	// noProbe runs the process without the Probe (setup, cleanup,
	// prepare and conclude commands).
	noProbe bool
	// probe, if set, is this run's Probe instead of one from the
	// spawner's factory.
	probe Probe
}

// executor runs one process and measures it; the spawner is the real
// one, tests use fakes.
type executor interface {
	run(spec *execSpec) (Sample, []byte, error)
	cancel()
}

// spawner starts processes one at a time and can kill the running one's
// process group from another goroutine (on cancellation).
type spawner struct {
	mu       sync.Mutex
	cur      *os.Process
	canceled bool
	errTail  *tail
	probe    func() (Probe, error)
	// Long-lived pipes for stderr (tail kept) and stdout (--output pipe).
	errR, errW, outR, outW *os.File
	// lastYield is when run last let the scheduler run (see yieldEvery);
	// started counts the processes started.
	lastYield time.Time
	started   int
	//lint:ignore U1000 empty and unread where waitProcess keeps nothing (off Linux)
	waitState // what the platform's waitProcess keeps between runs
}

// yieldEvery is how often, at most, run yields the processor between
// runs (runtime.Gosched, outside the timed region). The goroutine that
// starts and waits for the children is locked to its thread and otherwise
// never passes through the scheduler: its P then counts as running on one
// scheduler tick for ever, and every 10 ms the runtime's sysmon thread
// preempts it (a signal that interrupts the wait) and hands its P to
// another thread, after which sysmon polls every 20 µs for a while again.
// Measured (2 vCPUs, runs of `true`): the other threads of the process
// used ~50 µs of CPU per run without the yield, ~15 µs with it; the wall
// times were the same.
const yieldEvery = 5 * time.Millisecond

// tailBytes is how much of a run's stderr is kept for error messages.
const tailBytes = 4096

func newSpawner() *spawner { return &spawner{errTail: newTail(tailBytes)} }

// cancel kills the running process group, if any, and makes later starts
// fail. It is safe to call from any goroutine.
func (sp *spawner) cancel() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.canceled = true
	if sp.cur != nil {
		killGroup(sp.cur)
	}
}

var errCanceled = errors.New("run: interrupted")

// pipes returns the write ends of the long-lived stderr and stdout pipes,
// creating them on first use. One pipe of each serves every run, each with
// one reader goroutine for the whole benchmark: a run costs no pipe
// creation and no goroutine, and a quiet command wakes nobody. The stderr
// reader keeps the tail in errTail; the stdout reader discards.
func (sp *spawner) pipes(wantErr, wantOut bool) (errW, outW *os.File, err error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if wantErr && sp.errW == nil {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, nil, fmt.Errorf("run: creating a pipe for stderr: %w", err)
		}
		sp.errR, sp.errW = r, w
		go func() {
			io.CopyBuffer(sp.errTail, r, make([]byte, 64<<10))
		}()
	}
	if wantOut && sp.outW == nil {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, nil, fmt.Errorf("run: creating a pipe for stdout: %w", err)
		}
		sp.outR, sp.outW = r, w
		go func() {
			io.CopyBuffer(io.Discard, r, make([]byte, 64<<10))
		}()
	}
	return sp.errW, sp.outW, nil
}

// close closes the pipes (their readers then stop).
func (sp *spawner) close() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	closeQuiet(sp.errW, sp.errR, sp.outW, sp.outR)
	sp.errW, sp.errR, sp.outW, sp.outR = nil, nil, nil, nil
}

// settledTail waits until the stderr reader has caught up (nothing new
// for 20 ms, at most 500 ms) and returns the tail. Used only after a
// failing run, so its waiting costs nothing in the measurement.
func (sp *spawner) settledTail() []byte {
	deadline := time.Now().Add(500 * time.Millisecond)
	last := sp.errTail.Total()
	for time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		n := sp.errTail.Total()
		if n == last {
			break
		}
		last = n
	}
	b, _ := sp.errTail.Bytes()
	return b
}

// run starts spec, waits for it and measures it. It must be called on a
// goroutine locked to its OS thread (see Run), which is where a Probe
// starts and stops: this is the one place for setup -> start -> wait, for
// chrono run and chrono stat alike (procSpawner).
//
// Between the start and the wait it does as little as it can: whatever
// chrono does while the child runs competes with the child for the CPUs
// and lands in its counts (see waitProcess).
func (sp *spawner) run(spec *execSpec) (Sample, []byte, error) {
	if now := time.Now(); now.Sub(sp.lastYield) >= yieldEvery {
		runtime.Gosched()
		sp.lastYield = now
	}
	s := Sample{MaxRSSBytes: -1, MinorFaults: -1, MajorFaults: -1, VolCS: -1, InvolCS: -1}
	errW, outW, err := sp.pipes(spec.stderr == nil, spec.stdoutPipe)
	if err != nil {
		return s, nil, err
	}
	stdout, stderr := spec.stdout, spec.stderr
	if stderr == nil {
		stderr = errW
		sp.errTail.Reset()
	}
	if spec.stdoutPipe {
		stdout = outW
	}
	attr := &os.ProcAttr{Env: spec.env, Sys: sysProcAttr(), Files: []*os.File{spec.stdin, stdout, stderr}}

	probe := spec.probe
	if probe == nil && sp.probe != nil && !spec.noProbe {
		if probe, err = sp.probe(); err != nil {
			return s, nil, err
		}
	}
	if sp.isCanceled() {
		return s, nil, errCanceled
	}
	if probe != nil {
		if err := probe.Start(); err != nil {
			return s, nil, err
		}
	}
	start := time.Now()
	p, err := os.StartProcess(spec.path, spec.argv, attr)
	if err != nil {
		if probe != nil {
			probe.Stop(&s) // s.Pid == 0: release what Start took
		}
		return s, nil, fmt.Errorf("run: starting %s: %w", spec.path, err)
	}
	s.Pid = p.Pid
	sp.started++
	if err := attachGroup(p); err != nil {
		p.Kill()
		p.Wait()
		if probe != nil {
			s.Pid = 0 // as for a child that could not start: release only
			probe.Stop(&s)
		}
		return s, nil, err
	}
	defer releaseGroup(p)
	sp.mu.Lock()
	sp.cur = p
	if sp.canceled {
		killGroup(p)
	}
	sp.mu.Unlock()
	var deadline time.Time
	if spec.timeout > 0 {
		deadline = start.Add(spec.timeout)
	}
	ps, timedOut, werr := sp.waitProcess(p, spec, deadline)
	s.Wall = time.Since(start)
	// Kill what is left of the process group (background children of the
	// command), so that no run leaves orphans behind.
	sp.mu.Lock()
	killGroup(p)
	sp.cur = nil
	canceled := sp.canceled
	sp.mu.Unlock()
	if probe != nil {
		if err := probe.Stop(&s); err != nil && werr == nil {
			werr = err
		}
	}
	if werr != nil {
		return s, nil, fmt.Errorf("run: waiting for %s: %w", spec.path, werr)
	}
	s.User, s.Sys = ps.UserTime(), ps.SystemTime()
	fillUsage(&s, ps)
	s.ExitCode = ps.ExitCode()
	if s.ExitCode < 0 {
		s.Signal, s.SignalNumber = signalOf(ps)
	}
	s.TimedOut = timedOut
	var errTail []byte
	if s.ExitCode != 0 && spec.stderr == nil {
		errTail = sp.settledTail()
	}
	if canceled && !s.TimedOut {
		return s, errTail, errCanceled
	}
	return s, errTail, nil
}

func (sp *spawner) isCanceled() bool {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.canceled
}

func closeQuiet(fs ...*os.File) {
	for _, f := range fs {
		if f != nil {
			f.Close()
		}
	}
}

// watch cancels sp when ctx is done; the returned function stops watching.
func (sp *spawner) watch(ctx context.Context) func() bool {
	return context.AfterFunc(ctx, sp.cancel)
}

// waitBlocking waits for p in a blocking system call (os.Process.Wait),
// killing its process group at the deadline (if not zero). It is the wait
// where waitProcess cannot wait quietly.
func waitBlocking(p *os.Process, deadline time.Time) (*os.ProcessState, bool, error) {
	var timedOut atomic.Bool
	if !deadline.IsZero() {
		timer := time.AfterFunc(time.Until(deadline), func() {
			timedOut.Store(true)
			killGroup(p)
		})
		defer timer.Stop()
	}
	ps, err := p.Wait()
	return ps, timedOut.Load(), err
}

// errInterrupted is returned by procSpawner.Run when its context was
// canceled before or during the run (the process, if started, was killed
// with its process group).
var errInterrupted = errCanceled

// proc is one process for a procSpawner to run.
type proc struct {
	// Path is the executable (found in PATH from Argv[0] when empty);
	// Argv the argument list, Argv[0] included.
	Path string
	Argv []string
	// Env is the environment (nil: this process's, as it was at the
	// first Run).
	Env []string
	// Stdin, Stdout and Stderr are the process's standard files; nil is
	// the null device.
	Stdin, Stdout, Stderr *os.File
	// Timeout, when positive, kills the process group after that long;
	// the Sample says TimedOut.
	Timeout time.Duration
	// Probe, if not nil, measures the run: Start right before the fork and
	// Stop after the reaping, both on the spawner's thread.
	Probe Probe
}

// procSpawner runs processes one at a time exactly as Run runs a
// benchmark's commands (Count uses it): each in a process group of its own
// that is killed, with everything the command started, when the command
// exits, times out or the context is canceled; started from a goroutine
// locked to its OS thread (so that a Probe's per-thread setup, such as
// counters.OpenForChild, reaches the child); and waited for without
// waking up chrono while it runs (see waitProcess). A procSpawner is not
// safe for concurrent use; Close it when done.
type procSpawner struct {
	sp      *spawner
	stop    func() bool
	devNull *os.File
	env     []string // this process's environment, read once
}

// newProcSpawner returns a procSpawner whose running process is killed
// (with its process group) when ctx is canceled; Run then returns
// errInterrupted, and starts nothing more.
func newProcSpawner(ctx context.Context) *procSpawner {
	sp := newSpawner()
	return &procSpawner{sp: sp, stop: sp.watch(ctx)}
}

// Run runs p and waits for it. A process that exits non-zero or is killed
// by a signal is not an error: the Sample says so (ExitCode, Signal). The
// error is non-nil when the process could not be started or waited for,
// when the Probe failed, and (errInterrupted, with the Sample of the
// killed run) when the context was canceled.
func (s *procSpawner) Run(p proc) (Sample, error) {
	if len(p.Argv) == 0 {
		return Sample{}, errors.New("run: no command to run")
	}
	path := p.Path
	if path == "" {
		var err error
		if path, err = exec.LookPath(p.Argv[0]); err != nil {
			return Sample{}, fmt.Errorf("run: cannot start %s: %w (check the name and PATH, or that the file is executable)", p.Argv[0], err)
		}
	}
	spec := &execSpec{path: path, argv: p.Argv, env: p.Env, timeout: p.Timeout, probe: p.Probe, noProbe: p.Probe == nil}
	files := []**os.File{&spec.stdin, &spec.stdout, &spec.stderr}
	for i, f := range []*os.File{p.Stdin, p.Stdout, p.Stderr} {
		if f == nil {
			if s.devNull == nil {
				dn, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
				if err != nil {
					return Sample{}, fmt.Errorf("run: %w", err)
				}
				s.devNull = dn
			}
			f = s.devNull
		}
		*files[i] = f
	}
	if spec.env == nil {
		if s.env == nil {
			s.env = os.Environ()
		}
		spec.env = s.env
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	sample, _, err := s.sp.run(spec)
	return sample, err
}

// Close stops watching the context and closes what the procSpawner
// opened.
func (s *procSpawner) Close() {
	s.stop()
	s.sp.close()
	closeQuiet(s.devNull)
	s.devNull = nil
}

// ToolCommand returns the exec.Cmd of a program chrono runs beside the
// benchmark (go build, go test, perf script) that ctx's end stops at once,
// as it stops a run: the program runs in a process group of its own,
// killed whole when ctx is done (what it started too: go build's
// compilers, go test's test binary, which a kill of the go command alone
// leaves running with its output open, and Wait waiting for it), and
// Wait returns within toolWaitDelay even when a process outside the group
// still holds that output (on Windows, where only the program is killed).
func ToolCommand(ctx context.Context, name string, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, name, args...)
	c.SysProcAttr = sysProcAttr()
	c.Cancel = func() error {
		killGroup(c.Process)
		return nil
	}
	c.WaitDelay = toolWaitDelay
	return c
}

// toolWaitDelay bounds ToolCommand's Wait for the program's output once
// it exited or was killed: long enough to read what it wrote (the
// error of a failed go build), short against an orphan that would hold
// the output open for minutes.
const toolWaitDelay = time.Second
