package bench

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/result"
)

// fakeClock is a deterministic clock: every read costs read ns, readings
// are quantized to tick ns, and benchmark bodies advance it by their
// simulated cost. Accesses are ordered by the runner's channels.
//
// It also simulates the benchmark thread's CPU clock and CPU (see
// fakeThread): cpu is the CPU time of the running thread, which advances
// with the wall time except while preempted; a CPU clock read costs
// cpuRead ns of wall and CPU time, its reading taken halfway; the
// allowed CPUs are 0 .. cpus-1 (2 by default).
type fakeClock struct {
	t, tick, read uint64
	cpu, cpuRead  uint64
	cpus          int
	// noCPUTime makes the CPU clock unreadable.
	noCPUTime bool
}

func (f *fakeClock) now() uint64 {
	f.t += f.read
	f.cpu += f.read
	return f.t / f.tick * f.tick
}

// advance runs the thread for d ns.
func (f *fakeClock) advance(d uint64) { f.t += d; f.cpu += d }

// preempt lets d ns of wall time pass with the thread off the CPU.
func (f *fakeClock) preempt(d uint64) { f.t += d }

func (f *fakeClock) source() *clockSource {
	return &clockSource{name: "fake", now: f.now, fenced: f.now, ns: nsIdentity}
}

// platform returns the fake CPUs and threads.
func (f *fakeClock) platform() *platform {
	return &platform{
		allowed: func() []int {
			n := f.cpus
			if n == 0 {
				n = 2
			}
			return identity(n)
		},
		thread:       func() threadOps { return &fakeThread{fc: f, on: 0} },
		readMemStats: func(m *runtime.MemStats) { *m = runtime.MemStats{} },
	}
}

// opts returns o with the fake clock and platform.
func (f *fakeClock) opts(o Options) *Options {
	o.clock, o.plat = f.source(), f.platform()
	return &o
}

// fakeThread is a benchmark thread of the fake platform: it runs on the
// CPU it was last pinned to (0 until then).
type fakeThread struct {
	fc *fakeClock
	on int
}

func (t *fakeThread) pin(cpu int) error { t.on = cpu; return nil }
func (t *fakeThread) cpu() int          { return t.on }
func (t *fakeThread) cpuTime() int64 {
	if t.fc.noCPUTime {
		return -1
	}
	half := t.fc.cpuRead / 2
	t.fc.advance(half)
	v := t.fc.cpu
	t.fc.advance(t.fc.cpuRead - half)
	return int64(v)
}

// cpuOf returns the CPU the benchmark's (fake) thread runs on.
func cpuOf(b *B) int { return b.th.(*fakeThread).on }

// costSampler simulates samples of a body costing perOp ns, plus fixed ns
// per sample, without any goroutine.
type costSampler struct {
	perOp, fixed float64
	asked        []uint64
}

func (c *costSampler) sample(n uint64) (Sample, error) {
	c.asked = append(c.asked, n)
	return Sample{Iterations: n, WallNs: c.fixed + c.perOp*float64(n)}, nil
}

func TestCalibrate(t *testing.T) {
	tests := []struct {
		name         string
		perOp, fixed float64
		goal         float64
		wantTrials   []uint64
		wantN        uint64
	}{
		// 37 ns/op: 10^4 iterations are the first to exceed 10 % of 1 ms.
		{"37ns", 37, 0, 1e6, []uint64{1, 10, 100, 1000, 10000}, 27028},
		// 0.5 ns/op: ramp to 10^6 (0.5 ms > 0.1 ms).
		{"halfns", 0.5, 0, 1e6, []uint64{1, 10, 100, 1000, 10000, 100000, 1000000}, 2000000},
		// 2 ms/op: the first sample already exceeds the goal: n stays 1.
		{"slow", 2e6, 0, 1e6, []uint64{1}, 1},
		// Fixed cost per sample inflates the estimate a little only.
		{"fixed", 100, 5000, 1e6, []uint64{1, 10, 100, 1000}, 9524},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := &costSampler{perOp: tt.perOp, fixed: tt.fixed}
			n, trials, err := calibrate(cs, tt.goal)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cs.asked, tt.wantTrials) || len(trials) != len(tt.wantTrials) {
				t.Errorf("trials %v, want %v", cs.asked, tt.wantTrials)
			}
			if n != tt.wantN {
				t.Errorf("n = %d, want %d", n, tt.wantN)
			}
		})
	}
}

func TestRunFakeClock(t *testing.T) {
	fc := &fakeClock{tick: 1000, read: 20}
	opts := fc.opts(Options{Target: 100 * time.Microsecond, Samples: 8, WarmupSamples: 2})
	setups := 0
	opts.Setup = func() { setups++ }
	r, err := Run("fake37", func(b *B) {
		for b.Loop() {
			fc.advance(37)
		}
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	// The goal is 1000 ticks of 1 µs = 1 ms, above the 100 µs target.
	if r.GoalNs != 1e6 {
		t.Errorf("goal %v ns, want 1e6 (1000 x the 1 µs tick)", r.GoalNs)
	}
	if r.Probe.TickNs != 1000 || math.Abs(r.Probe.ReadNs-20) > 1 {
		t.Errorf("probe %+v, want tick 1000 and read ~20", r.Probe)
	}
	var trials []uint64
	for _, s := range r.Calibration {
		trials = append(trials, s.Iterations)
	}
	if !slices.Equal(trials, []uint64{1, 10, 100, 1000, 10000}) {
		t.Errorf("calibration counts %v", trials)
	}
	if want := 1e6 / 37.0; math.Abs(float64(r.Iterations)-want)/want > 0.01 {
		t.Errorf("calibrated n = %d, want ~%.0f", r.Iterations, want)
	}
	// Two warm-up samples, then one more at the start of each block but
	// the first.
	if len(r.Samples) != 8 || len(r.Warmup) != 2+defaultBlocks-1 {
		t.Fatalf("%d samples and %d warm-up, want 8 and %d", len(r.Samples), len(r.Warmup), 2+defaultBlocks-1)
	}
	jittered := false
	for _, s := range r.Samples {
		if s.Iterations < r.Iterations || float64(s.Iterations) > 1.2*float64(r.Iterations) {
			t.Errorf("sample of %d iterations outside [n, 1.2n] for n=%d", s.Iterations, r.Iterations)
		}
		jittered = jittered || s.Iterations != r.Iterations
		if op := s.NsPerOp(); math.Abs(op-37) > 0.5 {
			t.Errorf("sample ns/op %v, want ~37", op)
		}
	}
	if !jittered {
		t.Error("no sample was jittered")
	}
	// Setup ran before every sample: calibration, warm-up, measured.
	if want := len(r.Calibration) + len(r.Warmup) + len(r.Samples); setups != want {
		t.Errorf("setup ran %d times, want %d", setups, want)
	}
	if math.Abs(r.NsPerOp.Median-37) > 0.5 {
		t.Errorf("median %v, want ~37", r.NsPerOp.Median)
	}
}

func TestAnalyze(t *testing.T) {
	mk := func(ops ...float64) []Sample {
		var ss []Sample
		for i, op := range ops {
			ss = append(ss, Sample{Iterations: 1000, WallNs: op * 1000, CPUNs: op * 900,
				Allocs: 2000, Bytes: 64000, GCs: uint64(i % 2)})
		}
		return ss
	}
	s := &setup{probe: clockProbe{TickNs: 10, ReadNs: 20}}
	tests := []struct {
		name       string
		ops        []float64
		loop       float64
		wantMedian float64
		wantFloor  bool
	}{
		{"clear", []float64{10, 11, 12, 13, 14, 15, 16}, 0.5, 13, false},
		{"floor", []float64{0.6, 0.7, 0.8, 0.9, 1.0, 1.1}, 0.6, 0.85, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Benchmark{Samples: mk(tt.ops...), Iterations: 1000, Overhead: result.FunctionOverhead{LoopNsPerOp: tt.loop}}
			r.analyze(s)
			if math.Abs(r.NsPerOp.Median-tt.wantMedian) > 1e-9 {
				t.Errorf("median %v, want %v", r.NsPerOp.Median, tt.wantMedian)
			}
			if r.AllocsPerOp != 2 || r.BytesPerOp != 64 {
				t.Errorf("allocs %v bytes %v per op, want 2 and 64", r.AllocsPerOp, r.BytesPerOp)
			}
			if math.Abs(r.CPUPerWall-0.9) > 1e-9 {
				t.Errorf("cpu/wall %v, want 0.9", r.CPUPerWall)
			}
			if got := hasWarning(r, "noise floor"); got != tt.wantFloor {
				t.Errorf("noise-floor warning %v, want %v: %q", got, tt.wantFloor, r.Warnings)
			}
			if (r.NetNsPerOp != nil) == tt.wantFloor || r.PossiblyOptimizedAway != tt.wantFloor {
				t.Errorf("net ns/op %v, possibly optimized away %v with floor %v", r.NetNsPerOp, r.PossiblyOptimizedAway, tt.wantFloor)
			}
			if !hasWarning(r, "garbage collection") {
				t.Errorf("no GC warning: %q", r.Warnings)
			}
			if len(tt.ops) >= 6 && r.CI.Method == "" {
				t.Error("no confidence interval")
			}
		})
	}
}

func hasWarning(r *Benchmark, sub string) bool {
	for _, w := range r.Warnings {
		if strings.Contains(w.String(), sub) {
			return true
		}
	}
	return false
}

func TestRoundOrder(t *testing.T) {
	for _, k := range []int{2, 3, 4} {
		for block := 0; block < 5; block++ {
			pos := make([]map[int]int, k) // position -> case -> count
			for i := range pos {
				pos[i] = map[int]int{}
			}
			for row := 0; row < k; row++ {
				o := roundOrder(k, block*k+row, 7)
				if got := slices.Sorted(slices.Values(o)); !slices.Equal(got, identity(k)) {
					t.Fatalf("k=%d round %d: %v is not a permutation", k, block*k+row, o)
				}
				if !slices.Equal(o, roundOrder(k, block*k+row, 7)) {
					t.Fatal("order is not reproducible")
				}
				for p, c := range o {
					pos[p][c]++
				}
			}
			for p := range pos {
				for c := 0; c < k; c++ {
					if pos[p][c] != 1 {
						t.Errorf("k=%d block %d: case %d in position %d %d times, want once", k, block, c, p, pos[p][c])
					}
				}
			}
		}
	}
	// Two cases: every block is AB,BA or BA,AB, and both patterns occur.
	seen := map[string]bool{}
	for block := 0; block < 20; block++ {
		a, b := roundOrder(2, 2*block, 1), roundOrder(2, 2*block+1, 1)
		seen[strings.Trim(strings.Join(strings.Fields(strings.Trim(
			strings.ReplaceAll(strings.ReplaceAll(sprint(a)+sprint(b), "0", "A"), "1", "B"), "[]")), ""), "[]")] = true
	}
	if len(seen) != 2 {
		t.Errorf("blocks of two cases: %v, want both ABBA and BAAB", seen)
	}
}

func sprint(o []int) string {
	var sb strings.Builder
	for _, x := range o {
		sb.WriteByte(byte('0' + x))
	}
	return sb.String()
}

func TestCompareFakeClock(t *testing.T) {
	fc := &fakeClock{tick: 1, read: 20}
	opts := fc.opts(Options{Target: 200 * time.Microsecond, Samples: 10})
	body := func(cost uint64) func(*B) {
		return func(b *B) {
			for b.Loop() {
				fc.advance(cost)
			}
		}
	}
	tests := []struct {
		name        string
		a, b        uint64
		wantVerdict string
	}{
		{"faster", 100, 50, "new is 2.00x faster than old [2.00, 2.00]"},
		{"slower", 50, 100, "new is 2.00x slower than old [2.00, 2.00]"},
		{"same", 80, 80, "no significant difference"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Compare([]Case{{Name: "old", F: body(tt.a)}, {Name: "new", F: body(tt.b)}}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Order) != 10 || len(c.Pairs) != 1 {
				t.Fatalf("%d rounds, %d pairs", len(c.Order), len(c.Pairs))
			}
			for _, r := range c.Results {
				if len(r.Samples) != 10 {
					t.Errorf("%s: %d samples, want 10", r.Name, len(r.Samples))
				}
			}
			// All cases ran the same count in each round.
			for i := range c.Results[0].Samples {
				if c.Results[0].Samples[i].Iterations != c.Results[1].Samples[i].Iterations {
					t.Errorf("round %d: counts differ", i)
				}
			}
			if v := c.Pairs[0].Verdict; !strings.HasPrefix(v, tt.wantVerdict) {
				t.Errorf("verdict %q, want prefix %q", v, tt.wantVerdict)
			}
		})
	}
}

func TestLatencyFakeClock(t *testing.T) {
	fc := &fakeClock{tick: 1, read: 20}
	r, err := Run("lat", func(b *B) {
		for b.Loop() {
			fc.advance(500)
		}
	}, fc.opts(Options{Target: 100 * time.Microsecond, Samples: 5, WarmupSamples: 1, Latency: true}))
	if err != nil {
		t.Fatal(err)
	}
	l := r.Latency
	if l == nil || l.Ops == 0 {
		t.Fatal("no latency result")
	}
	// Every op is 500 ns plus the reads; the empty loop's reads are
	// subtracted, so the quantiles are 500 within the histogram's error.
	for _, q := range []float64{l.P50, l.P99, l.P999} {
		if math.Abs(q-500) > 1 {
			t.Errorf("latency quantile %v, want 500 (all %+v)", q, l)
		}
	}
	if l.ReadOverheadNs <= 0 {
		t.Errorf("read overhead %v, want > 0", l.ReadOverheadNs)
	}
}

var sinkBytes []byte

// TestRealThread runs the real clock, threads and CPUs and checks what
// does not depend on timing: allocations are counted, CPU time is a
// figure or -1 (never 0), and every sample records the CPU it ran on
// (where the platform tells). Timing claims (noise floor, agreement with
// testing.B) are in scripts/bench-vs-testingb.sh; the logic is tested
// with fake clocks above.
func TestRealThread(t *testing.T) {
	xs := make([]uint64, 1000)
	for i := range xs {
		xs[i] = uint64(i)
	}
	opts := &Options{Target: time.Millisecond, Samples: 6, WarmupSamples: 1}
	sum, err := Run("sum", func(b *B) {
		for b.Loop() {
			var s uint64
			for _, x := range xs {
				s += x
			}
			b.Keep(s)
		}
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum.AllocsPerOp != 0 {
		t.Errorf("b.Keep(uint64) allocates: %v allocs/op", sum.AllocsPerOp)
	}
	alloc, err := Run("alloc", func(b *B) {
		for b.Loop() {
			sinkBytes = make([]byte, 64)
		}
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	// The runtime publishes allocation counts when a span of the size
	// class is handed back (8 KiB spans of 64-byte objects: 128 at a
	// time), so each sample's count may be off by up to a span at each
	// end; few iterations per sample (slow allocations under -race and
	// load) make that a large fraction. Check the totals within that.
	// (Counts are of the whole process: other goroutines' allocations
	// can only add, so the upper bound is loose and the bytes are checked
	// from below.)
	var allocs, bytes, iters uint64
	for _, s := range alloc.Samples {
		allocs, bytes, iters = allocs+s.Allocs, bytes+s.Bytes, iters+s.Iterations
	}
	lag := float64(2 * 128 * len(alloc.Samples))
	if n := float64(iters); float64(allocs) < n-lag || float64(allocs) > 1.25*n+lag || float64(bytes) < 64*(n-lag) {
		t.Errorf("alloc: %d allocations, %d bytes in %d iterations (allowed lag %v objects); want one 64-byte allocation per iteration", allocs, bytes, iters, lag)
	}
	known := realPlatform.allowed() != nil
	// A CPU clock charged at clock interrupts (GetThreadTimes on Windows:
	// 10 ms steps under Wine, 15.6 ms on Windows by default) honestly reads
	// zero over a short sample; one that is read can still never be -1.
	coarse := clock.ThreadCPUClock().Coarse
	for _, s := range sum.Samples {
		if s.CPUNs == 0 && !coarse {
			t.Error("thread CPU time is zero, want a figure or -1")
		}
		if coarse && s.CPUNs < 0 {
			t.Errorf("thread CPU time %v from %s, which can be read here", s.CPUNs, clock.ThreadCPUClock().Name)
		}
		if known && (s.CPU < 0 || s.CPUEnd < 0) {
			t.Errorf("sample CPU %d..%d on a platform that tells the CPU", s.CPU, s.CPUEnd)
		}
	}
	if len(sum.Placement.BlockSizes) == 0 {
		t.Error("no placement")
	}
}

func TestParallel(t *testing.T) {
	r, err := Run("par", func(b *B) {
		m := map[int]int{1: 1}
		for b.Loop() {
			b.Keep(m[1])
		}
	}, &Options{Target: time.Millisecond, Samples: 3, WarmupSamples: 1, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	p := r.Parallel
	if p == nil || p.Workers != 2 || len(p.WallNs) != 3 || len(p.PerWorker) != 2 {
		t.Fatalf("parallel result %+v", p)
	}
	for w, ss := range p.PerWorker {
		if len(ss) != 3 {
			t.Errorf("worker %d: %d samples", w, len(ss))
		}
	}
	if p.Aggregate.Median <= 0 || p.NsPerOp.N != 6 {
		t.Errorf("aggregate %v ops/s, %d per-op values", p.Aggregate.Median, p.NsPerOp.N)
	}
}

func TestErrors(t *testing.T) {
	quick := &Options{Target: time.Millisecond, Samples: 3, WarmupSamples: 1}
	tests := []struct {
		name string
		f    func(*B)
		opts *Options
		want string
	}{
		{"nil", nil, quick, "nil benchmark function"},
		{"noloop", func(b *B) {}, quick, "never called B.Loop"},
		{"break", func(b *B) {
			for b.Loop() {
				break
			}
		}, quick, "returned before B.Loop reported false"},
		{"panic", func(b *B) {
			for b.Loop() {
				panic("boom")
			}
		}, quick, "panicked: boom"},
		{"negative", func(b *B) {}, &Options{Samples: -1}, "negative Samples"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(tt.name, tt.f, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "bench: ") {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := Compare([]Case{{Name: "a", F: emptyLoop}}, quick); err == nil {
		t.Error("Compare of one case did not fail")
	}
	_ = errors.New
}
