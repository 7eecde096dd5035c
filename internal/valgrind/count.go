package valgrind

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/excerpt"
	"github.com/chronograph/chronograph/internal/plural"
)

// SourceCallgrind labels counts simulated by valgrind's callgrind.
const SourceCallgrind = "simulated (valgrind callgrind)"

// Options configure a Session.
type Options struct {
	// Iterations are the loop counts measured, one region each: at least
	// two, positive and increasing. Three or more also check that the
	// counts grow exactly linearly (Result.PerOp's Exact).
	Iterations []int
	// Warmup is the loop count run first, with collection off.
	Warmup int
	// Repeats is how many times each count is measured (0: once); the
	// result keeps the repeat with the fewest instructions.
	Repeats int
	// CacheSim turns on callgrind's cache simulation (--cache-sim=yes):
	// the regions then also count memory reads and writes and the
	// simulated L1 and last-level misses, and EstimatedCycles applies.
	// The caches simulated are fixed (cacheGeometry), not this machine's,
	// so that the figures are the same on every machine. It slows
	// valgrind down further.
	CacheSim bool
	// Env is added to the program's environment, after the parent's own
	// and before the settings Session makes (EnvRegion, GOMAXPROCS=1,
	// GOGC=off, GODEBUG's asyncpreemptoff=1).
	Env []string
}

// Session prepares one run of a program under callgrind that measures one
// region. It does not start the process: run Argv with Env (os/exec, or
// package run's Spawner), then read the counts with Result. Count does
// all three. Close removes the output files.
type Session struct {
	// Argv is the command line to run: valgrind, its options, then the
	// program.
	Argv []string
	// Env is the program's whole environment.
	Env []string
	req Request
	dir string
	out string
	log string
}

// NewSession prepares a run of argv (argv[0] is the program, typically
// the running test binary, os.Args[0]; the rest selects what the program
// does, and the program must call Requested and Measure before anything
// else it would do) that measures the region called name. It fails when
// valgrind or the program cannot be found, the options are invalid, or no
// temporary directory can be made.
func NewSession(argv []string, name string, o Options) (*Session, error) {
	req := Request{Name: name, Iterations: o.Iterations, Warmup: o.Warmup, Repeats: o.Repeats}
	if err := req.check(); err != nil {
		return nil, err
	}
	vg, dir, err := prepare(argv, "chrono-callgrind-")
	if err != nil {
		return nil, err
	}
	s := &Session{req: req, dir: dir, out: filepath.Join(dir, "callgrind.out"), log: filepath.Join(dir, "valgrind.log")}
	s.Argv = []string{vg, "--tool=callgrind",
		"--callgrind-out-file=" + s.out, "--log-file=" + s.log,
		// Nothing is collected until Measure toggles it on, on its
		// thread only; the runtime's start-up runs uninstrumented.
		"--collect-atstart=no", "--instr-atstart=no",
		"--cache-sim=" + yesNo(o.CacheSim)}
	if o.CacheSim {
		s.Argv = append(s.Argv, cacheGeometry...)
	}
	s.Argv = append(s.Argv, argv...)
	s.Env = childEnv(os.Environ(), o.Env, req)
	return s, nil
}

// prepare finds valgrind and argv's program and makes a temporary
// directory for valgrind's files, named from prefix.
func prepare(argv []string, prefix string) (valgrind, dir string, err error) {
	if len(argv) == 0 {
		return "", "", errors.New("valgrind: no program to run")
	}
	if valgrind, err = exec.LookPath("valgrind"); err != nil {
		return "", "", fmt.Errorf("valgrind: valgrind is needed to count instructions: %w (install it, e.g. apt-get install valgrind)", err)
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return "", "", fmt.Errorf("valgrind: cannot run %s under valgrind: %w", argv[0], err)
	}
	if dir, err = os.MkdirTemp("", prefix); err != nil {
		return "", "", fmt.Errorf("valgrind: %w", err)
	}
	return valgrind, dir, nil
}

// cacheGeometry fixes the simulated caches (size, associativity, line
// size), so that the simulated misses do not depend on the machine the
// count runs on: valgrind otherwise takes them from CPUID, and on the AMD
// EPYC virtual machine here it took a 256 MiB direct-mapped last-level
// cache for the 32 MiB L3. These are common current sizes: 32 KiB 8-way
// L1 caches and an 8 MiB 16-way last-level cache, with 64-byte lines.
var cacheGeometry = []string{"--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// childEnv is the program's environment: the parent's, extra, then the
// request and the runtime settings that keep the Go runtime's background
// work off the measuring thread. Asynchronous preemption is turned off
// because callgrind 3.19 aborts (an assertion in its signal tracking,
// threads.c "sigNum == current_state.sig") when a Go program's goroutine
// is preempted by signal; the GODEBUG settings already there are kept.
func childEnv(base, extra []string, req Request) []string {
	env := append(append([]string(nil), base...), extra...)
	godebug := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			godebug = v // the last setting of a variable is the one in force
		}
	}
	if godebug != "" {
		godebug += ","
	}
	return append(env, req.env(), "GOMAXPROCS=1", "GOGC=off", "GODEBUG="+godebug+"asyncpreemptoff=1")
}

// Result reads the counts of the run of Argv just made, which exited
// with exitCode (for the error message when the program measured
// nothing). It fails unless the program dumped every requested region,
// in order, and collected nothing outside them.
func (s *Session) Result(exitCode int) (*Result, error) {
	parts, err := filepath.Glob(s.out + ".*")
	if err != nil {
		return nil, fmt.Errorf("valgrind: %w", err)
	}
	final, err := os.ReadFile(s.out)
	if err != nil {
		return nil, fmt.Errorf("valgrind: callgrind wrote no output (exit code %d): %s", exitCode, s.logTail())
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("valgrind: the program measured no region %s (exit code %d): it must call valgrind.Requested and Request.Measure when %s is set", excerpt.Quote(s.req.Name), exitCode, EnvRegion)
	}
	sort.Slice(parts, func(i, j int) bool { return partNumber(parts[i]) < partNumber(parts[j]) })
	res := &Result{Name: s.req.Name, Iterations: s.req.Iterations}
	want := len(s.req.Iterations) * s.req.repeats()
	for _, p := range parts {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("valgrind: %w", err)
		}
		d, err := parseDump(b)
		if err != nil {
			return nil, fmt.Errorf("valgrind: %s: %w", filepath.Base(p), err)
		}
		k := len(res.Dumps)
		n := s.req.Iterations[k%len(s.req.Iterations)]
		reason, _ := strings.CutPrefix(d.trigger, "Client Request: ")
		gotK, gotN, wall, ok := parseTrigger(reason)
		if !ok || gotK != k || gotN != n || k >= want {
			return nil, fmt.Errorf("valgrind: %s was dumped by %s, want region %d of %d iterations: the program dumped callgrind's counts itself", filepath.Base(p), excerpt.Quote(d.trigger), k, n)
		}
		res.Dumps = append(res.Dumps, Dump{Iterations: n, Wall: wall, Reading: d.reading})
	}
	if len(res.Dumps) != want {
		return nil, fmt.Errorf("valgrind: the program measured %s of region %s, want %d (exit code %d)", plural.Count(len(res.Dumps), "region"), excerpt.Quote(s.req.Name), want, exitCode)
	}
	res.Regions = fewest(res.Dumps, len(s.req.Iterations))
	rest, err := parseDump(final)
	if err != nil {
		return nil, fmt.Errorf("valgrind: %s: %w", filepath.Base(s.out), err)
	}
	for _, c := range rest.reading.Counts {
		if c.Raw != 0 {
			return nil, fmt.Errorf("valgrind: %d %s were collected outside the measured regions: collection was toggled on another thread, or by the program itself", c.Raw, c.Event.Name)
		}
	}
	return res, nil
}

// fewest returns, for each of the counts (the dumps repeat them in
// order), the reading of the dump that counted the fewest instructions.
func fewest(dumps []Dump, counts int) []counters.Reading {
	out := make([]counters.Reading, counts)
	best := make([]float64, counts)
	for k, d := range dumps {
		v, _ := d.Reading.Value("instructions")
		if i := k % counts; k < counts || v < best[i] {
			out[i], best[i] = d.Reading, v
		}
	}
	return out
}

// partNumber returns the N of a dump file callgrind.out.N.
func partNumber(path string) int {
	n, _ := strconv.Atoi(path[strings.LastIndexByte(path, '.')+1:])
	return n
}

// dump is one callgrind output file.
type dump struct {
	trigger string // the "desc: Trigger:" line: "Client Request: ...", "Program termination"
	reading counters.Reading
}

// parseDump reads a callgrind output file: its trigger and its totals,
// named as counters names cachegrind's ("instructions" for Ir).
func parseDump(b []byte) (dump, error) {
	var d dump
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "desc: Trigger: "); ok {
			d.trigger = v
			break
		}
	}
	r, err := counters.ParseCachegrind(bytes.NewReader(b))
	if err != nil {
		return dump{}, err
	}
	r.Source = SourceCallgrind
	d.reading = r
	return d, nil
}

// logTail returns the last lines of the session's valgrind log.
func (s *Session) logTail() string { return logTail(s.log) }

// logTail returns the last lines of a valgrind log, for an error message.
func logTail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "no valgrind log"
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	for i, l := range lines {
		if j := strings.Index(l, "== "); strings.HasPrefix(l, "==") && j > 0 {
			lines[i] = l[j+3:] // valgrind prefixes its lines with ==pid==
		}
	}
	return strings.Join(lines, "; ")
}

// Close removes the session's files.
func (s *Session) Close() error {
	if err := os.RemoveAll(s.dir); err != nil {
		return fmt.Errorf("valgrind: %w", err)
	}
	return nil
}

// Count runs argv under callgrind with os/exec and returns the counts of
// its region name (NewSession, then Result). The program's output is
// kept for the error message when it fails.
func Count(ctx context.Context, argv []string, name string, o Options) (*Result, error) {
	s, err := NewSession(argv, name, o)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	cmd := exec.CommandContext(ctx, s.Argv[0], s.Argv[1:]...)
	cmd.Env = s.Env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if err != nil {
		code := -1
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			code = ee.ExitCode()
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("valgrind: %w", ctx.Err())
		}
		return nil, fmt.Errorf("valgrind: %s under callgrind failed (exit code %d): %s; %s", excerpt.Quote(argv[0]), code, excerpt.Clip(out.String()), s.logTail())
	}
	r, err := s.Result(0)
	if err != nil {
		return nil, err
	}
	r.Wall = wall
	r.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return r, nil
}

// Result holds the counts of one region measured for several iteration
// counts.
type Result struct {
	// Name is the region's name.
	Name string
	// Iterations are the loop counts, one per region.
	Iterations []int
	// Regions are callgrind's totals for each count, in the order of
	// Iterations, with Source SourceCallgrind: "instructions" (callgrind's
	// Ir), and with the cache simulation Dr, Dw, I1mr, D1mr, D1mw, ILmr,
	// DLmr, DLmw. When a count was measured more than once (Repeats), it
	// is the repeat with the fewest instructions: work that is not the
	// region's (the scheduler's, when the goroutine was preempted) only
	// ever adds instructions.
	Regions []counters.Reading
	// Dumps are all the regions measured, in the order they ran: the
	// counts of Iterations, Repeats times.
	Dumps []Dump
	// Wall is how long the whole run under valgrind took, and CPU the
	// CPU time (user and system) it used (Count only): valgrind's cost,
	// start-up included.
	Wall, CPU time.Duration
}

// Dump is one region as measured.
type Dump struct {
	// Iterations is the region's loop count.
	Iterations int
	// Wall is how long the region took under valgrind.
	Wall time.Duration
	// Reading is callgrind's totals for the region.
	Reading counters.Reading
}

// Repeatable reports whether every repeat of each count counted the same
// instructions (true when each count was measured once).
func (r *Result) Repeatable() bool {
	for k, d := range r.Dumps {
		v, _ := d.Reading.Value("instructions")
		first, _ := r.Dumps[k%len(r.Iterations)].Reading.Value("instructions")
		if v != first {
			return false
		}
	}
	return true
}

// Longest returns the wall time of the longest region. Regions longer
// than PreemptAfter may have been preempted, and their counts include the
// scheduler's work.
func (r *Result) Longest() time.Duration {
	var l time.Duration
	for _, d := range r.Dumps {
		l = max(l, d.Wall)
	}
	return l
}

// Repeats returns each repeat of the counts as a Result of its own (one
// region per count, in the order of Iterations), so that its PerOp is the
// count per iteration that repeat measured: with Options.Repeats, the
// samples of which r's own PerOp (of the fewest instructions per count) is
// the best.
func (r *Result) Repeats() []*Result {
	c := len(r.Iterations)
	if c == 0 {
		return nil
	}
	var out []*Result
	for j := 0; (j+1)*c <= len(r.Dumps); j++ {
		dumps := r.Dumps[j*c : (j+1)*c]
		rr := &Result{Name: r.Name, Iterations: r.Iterations, Dumps: dumps}
		for _, d := range dumps {
			rr.Regions = append(rr.Regions, d.Reading)
		}
		out = append(out, rr)
	}
	return out
}

// PerOp is one event's count per iteration of a region.
type PerOp struct {
	// Event is the event's name ("instructions", "D1mr", ...).
	Event string
	// PerOp is the count per iteration: the difference between the last
	// and the first region's counts over the difference of their
	// iteration counts, which cancels the fixed cost of the region.
	PerOp float64
	// Fixed is that fixed cost: the first region's count less its
	// iterations times PerOp (toggling collection, entering and leaving
	// the loop; with the cache simulation, the cold misses too).
	Fixed float64
	// Exact says that the count grows exactly linearly with the
	// iterations: every region's count is Fixed + n·PerOp with PerOp a
	// whole number. Instruction counts of deterministic code are exact;
	// simulated cache misses usually are not.
	Exact bool
}

// PerOp returns the count per iteration of every event, in the order of
// the regions' events.
func (r *Result) PerOp() ([]PerOp, error) {
	if len(r.Regions) < 2 || len(r.Regions) != len(r.Iterations) {
		return nil, fmt.Errorf("valgrind: %s for %s: want one region per count, at least 2", plural.Count(len(r.Regions), "region"), plural.Count(len(r.Iterations), "iteration count"))
	}
	first := r.Regions[0]
	n0, n1 := int64(r.Iterations[0]), int64(r.Iterations[len(r.Iterations)-1])
	var out []PerOp
	for _, c := range first.Counts {
		e := c.Event.Name
		var raws []int64
		for _, reg := range r.Regions {
			rc, ok := reg.Get(e)
			if !ok || !rc.IsCounted() || rc.Raw > math.MaxInt64 {
				return nil, fmt.Errorf("valgrind: event %s is missing from a region", excerpt.Quote(e))
			}
			raws = append(raws, int64(rc.Raw))
		}
		d := raws[len(raws)-1] - raws[0]
		p := PerOp{Event: e, PerOp: float64(d) / float64(n1-n0)}
		p.Fixed = float64(raws[0]) - float64(float64(n0)*p.PerOp)
		if d%(n1-n0) == 0 {
			per := d / (n1 - n0)
			fixed := raws[0] - n0*per
			p.Exact = true
			for i, v := range raws {
				p.Exact = p.Exact && v == fixed+int64(r.Iterations[i])*per
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// Instructions returns the instruction count per iteration (PerOp's
// "instructions").
func (r *Result) Instructions() (PerOp, error) {
	ps, err := r.PerOp()
	if err != nil {
		return PerOp{}, err
	}
	for _, p := range ps {
		if p.Event == "instructions" {
			return p, nil
		}
	}
	return PerOp{}, errors.New("valgrind: callgrind counted no instructions")
}
