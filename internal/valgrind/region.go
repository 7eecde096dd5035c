package valgrind

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/chronograph/chronograph/internal/excerpt"
)

// EnvRegion is the environment variable through which Count tells the
// program it re-executes under callgrind which region to measure: a
// Request in JSON. Requested reads it.
const EnvRegion = "CHRONO_VALGRIND_REGION"

// Request is what the parent asks of the re-executed program: run the
// region called Name warm-up times with nothing counted, then once for
// each of Iterations with callgrind collecting, each run dumped apart.
type Request struct {
	// Name says which region (benchmark) to run; the program decides
	// what it names.
	Name string `json:"name"`
	// Iterations are the loop counts measured, in order: at least two,
	// positive and increasing.
	Iterations []int `json:"iterations"`
	// Warmup is the loop count run before the measured regions, with
	// collection off (0: none).
	Warmup int `json:"warmup"`
	// Repeats is how many times each count is measured (0: once).
	Repeats int `json:"repeats,omitempty"`
}

// repeats returns the number of times each count is measured.
func (r Request) repeats() int { return max(r.Repeats, 1) }

// check reports what is wrong with r, if anything.
func (r Request) check() error {
	if r.Name == "" {
		return errors.New("valgrind: the region has no name")
	}
	if len(r.Iterations) < 2 {
		return fmt.Errorf("valgrind: %d iteration counts for region %s, want at least 2 (the count per iteration is the difference of two)", len(r.Iterations), excerpt.Quote(r.Name))
	}
	for i, n := range r.Iterations {
		if n <= 0 || (i > 0 && n <= r.Iterations[i-1]) {
			return fmt.Errorf("valgrind: iteration counts %v for region %s must be positive and increasing", r.Iterations, excerpt.Quote(r.Name))
		}
	}
	if r.Warmup < 0 {
		return fmt.Errorf("valgrind: warm-up of %d iterations for region %s, want 0 or more", r.Warmup, excerpt.Quote(r.Name))
	}
	if r.Repeats < 0 {
		return fmt.Errorf("valgrind: %d repeats of region %s, want 1 or more (0 for 1)", r.Repeats, excerpt.Quote(r.Name))
	}
	return nil
}

// env returns r as the EnvRegion variable's setting.
func (r Request) env() string {
	b, _ := json.Marshal(r) // cannot fail: strings and ints
	return EnvRegion + "=" + string(b)
}

// Requested returns the Request the parent passed in EnvRegion, or nil
// when the variable is not set (the program is not a child of Count). A
// program that finds a request measures the region (Request.Measure) and
// exits; an error means the variable is set but malformed.
func Requested() (*Request, error) {
	v, ok := os.LookupEnv(EnvRegion)
	if !ok {
		return nil, nil
	}
	var r Request
	dec := json.NewDecoder(strings.NewReader(v))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("valgrind: %s=%s is not a region request: %w (it is set by valgrind.Count; unset it to run normally)", EnvRegion, excerpt.Quote(v), err)
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	return &r, nil
}

// triggerPrefix starts the reason of every dump Measure asks for:
// "chrono-region <dump index> <iterations> <wall ns>".
const triggerPrefix = "chrono-region "

// trigger is the dump reason of the k-th dump, of a region that ran n
// iterations in wall time d.
func trigger(k, n int, d time.Duration) string {
	return triggerPrefix + strconv.Itoa(k) + " " + strconv.Itoa(n) + " " + strconv.FormatInt(d.Nanoseconds(), 10)
}

// parseTrigger returns the dump index, iterations and wall time of a
// trigger that Measure wrote, and false for any other.
func parseTrigger(s string) (k, n int, d time.Duration, ok bool) {
	f := strings.Fields(strings.TrimPrefix(s, triggerPrefix))
	if !strings.HasPrefix(s, triggerPrefix) || len(f) != 3 {
		return 0, 0, 0, false
	}
	k, err1 := strconv.Atoi(f[0])
	n, err2 := strconv.Atoi(f[1])
	ns, err3 := strconv.ParseInt(f[2], 10, 64)
	return k, n, time.Duration(ns), err1 == nil && err2 == nil && err3 == nil
}

// PreemptAfter is how long a goroutine runs before the Go runtime's sysmon
// asks it to yield (forcePreemptNS in the runtime, 10 ms). With
// asynchronous preemption off it yields at its next function call that
// checks the stack, and the scheduler work that follows runs on the
// measuring thread and is counted. Measure yields just before each
// region, so a region that lasts less than this under valgrind is not
// preempted; Result.Longest says how long the longest lasted.
const PreemptAfter = 10 * time.Millisecond

// Measure runs the requested region under callgrind. loop(n) must run the
// work n times; its instructions, and only its, are counted. It is Begin,
// loop(Warmup), then for every region Start, loop(n), Stop, and End: see
// Begin for what is set up and why.
//
// The counts include loop's own loop and call overhead and a fixed cost
// per region (the toggles, loop's entry and exit), which Result.PerOp
// cancels by taking differences. Measure fails when the program does not
// run under valgrind.
func (r *Request) Measure(loop func(n int)) error {
	g, err := r.Begin()
	if err != nil {
		return err
	}
	defer g.End()
	if r.Warmup > 0 {
		loop(r.Warmup)
	}
	for n, ok := g.Next(); ok; n, ok = g.Next() {
		g.Start()
		loop(n)
		g.Stop()
	}
	return nil
}

// Regions measures the requested regions from a loop the caller drives
// itself, for a harness whose loop is not a function of n (package
// bench's B.Loop): Begin prepares the calling thread, Next gives each
// region's iteration count, Start and Stop bound the region, End restores
// the runtime's settings. All of them must be called on the goroutine
// that called Begin.
type Regions struct {
	req     *Request
	k       int // the index of the next region (dump)
	started bool
	start   time.Time
	procs   int
	gc      int
}

// Begin prepares the calling goroutine to measure the requested regions:
//   - it locks the goroutine to its OS thread, because callgrind's
//     collection state belongs to the thread (other threads, such as the
//     runtime's sysmon and idle threads, keep collection off and are not
//     counted, and neither are signal handlers, which start with
//     collection off too);
//   - it sets GOMAXPROCS to 1 and turns the garbage collector off (after
//     one collection), so no GC work or other goroutine runs on this
//     thread during the regions;
//   - it turns callgrind's instrumentation on (the parent starts the
//     program with it off, so the runtime's start-up runs at full
//     speed).
//
// Then run the warm-up (Request.Warmup iterations, with collection off)
// and, for each count n that Next returns: Start, n iterations, Stop.
// Start yields (runtime.Gosched, so that sysmon's PreemptAfter starts
// afresh) and toggles collection on; Stop toggles it off and dumps the
// counts, tagged with the region's index, n and its wall time. End
// restores GOMAXPROCS, the GC and the thread. Begin fails when the
// program does not run under valgrind.
func (r *Request) Begin() (*Regions, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	if Running() == 0 {
		return nil, fmt.Errorf("valgrind: region %s was requested (%s is set) but the program does not run under valgrind", excerpt.Quote(r.Name), EnvRegion)
	}
	runtime.LockOSThread()
	g := &Regions{req: r, procs: runtime.GOMAXPROCS(1)}
	runtime.GC()
	g.gc = debug.SetGCPercent(-1)
	StartInstrumentation()
	return g, nil
}

// Next returns the iteration count of the next region, and false when
// every region (every count, Repeats times) has been measured.
func (g *Regions) Next() (n int, ok bool) {
	its := g.req.Iterations
	if g.k >= len(its)*g.req.repeats() {
		return 0, false
	}
	return its[g.k%len(its)], true
}

// Start starts the next region: the first time, it zeroes callgrind's
// counts (the warm-up's: none were collected); then it yields and
// toggles collection on. Run the region's iterations right after it.
func (g *Regions) Start() {
	if g.k == 0 {
		ZeroStats()
	}
	g.started = true
	runtime.Gosched()
	g.start = time.Now()
	ToggleCollect()
}

// Stop ends the region Start started: it toggles collection off and
// dumps the region's counts. Without a started region it does nothing.
//
// It is nosplit and issues the toggle itself, so that no stack check (a
// point where a goroutine that sysmon asked to yield does so, and the
// scheduler's work is counted) comes between the region's last iteration
// and the end of collection: a call to a function that checks its stack
// there added 1,140 instructions to every region that ran longer than
// PreemptAfter.
//
//go:nosplit
func (g *Regions) Stop() {
	if !g.started {
		return
	}
	request(0, reqToggleCollect, 0, 0, 0, 0, 0)
	d := time.Since(g.start)
	n, _ := g.Next()
	DumpStatsAt(trigger(g.k, n, d))
	g.k++
	g.started = false
}

// End restores what Begin changed: GOMAXPROCS, the GC and the thread's
// lock.
func (g *Regions) End() {
	debug.SetGCPercent(g.gc)
	runtime.GOMAXPROCS(g.procs)
	runtime.UnlockOSThread()
}
