package bench

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/warn"
)

// TestCPUTimeNetOfReads: with a CPU clock whose reads cost 1.5 µs (a
// system call, half of it before its reading and half after) and a
// StopTimer/StartTimer pair around a 60 ns body in every iteration, the
// raw CPU time of a sample is ~20x its wall time; net of the reads'
// measured cost it equals the wall time exactly (the thread is never
// preempted), and the subtraction and the warning say what was done.
// This replaces a real-clock test that failed on hosts with slow CPU
// clock reads.
func TestCPUTimeNetOfReads(t *testing.T) {
	for _, tt := range []struct {
		name      string
		stop      bool
		preemptNs uint64 // per iteration, off the CPU
		wantRatio float64
		wantWarn  bool
	}{
		{"stoptimer", true, 0, 1, true},
		// Each pair's segment: 80 ns on the CPU in 120 ns (the first
		// segment of a sample is empty: 20 ns of 20, hence the tolerance).
		{"stoptimer-preempted", true, 40, 80.0 / 120, true},
		{"plain", false, 0, 1, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fc := &fakeClock{tick: 1, read: 20, cpuRead: 1500}
			r, err := Run("x", func(b *B) {
				for b.Loop() {
					if tt.stop {
						b.StopTimer()
						b.StartTimer()
					}
					fc.advance(60)
					fc.preempt(tt.preemptNs)
				}
			}, fc.opts(Options{Target: 200 * time.Microsecond, Samples: 6, WarmupSamples: 1}))
			if err != nil {
				t.Fatal(err)
			}
			// An empty segment: 1500 ns of CPU clock read around one
			// 20 ns wall read that the wall time also has.
			if ns, mad := r.Overhead.CPUReadNs, r.Overhead.CPUReadMADNs; ns == nil || mad == nil || *ns != 1520 || *mad != 0 {
				t.Errorf("CPU read cost %v ± %v ns per segment, want 1520 ± 0", ns, mad)
			}
			if math.Abs(r.CPUPerWall-tt.wantRatio) > 1e-3 || (tt.preemptNs == 0 && r.CPUPerWall != 1) {
				t.Errorf("CPU/wall = %v, want %v", r.CPUPerWall, tt.wantRatio)
			}
			for _, s := range r.Samples {
				segs := 1
				if tt.stop {
					segs = int(s.Iterations) + 1 // a pair per iteration: a segment each, plus the sample's own
					if s.TimerStops != int(s.Iterations) {
						t.Fatalf("%d stops in %d iterations", s.TimerStops, s.Iterations)
					}
				}
				if want := float64(segs) * 1520; s.CPUReadNs != want {
					t.Errorf("subtracted %v ns from a sample of %d segments, want %v", s.CPUReadNs, segs, want)
				}
			}
			if got := hasWarning(r, "mostly the cost of reading the CPU clock"); got != tt.wantWarn {
				t.Errorf("read-cost warning %v, want %v: %q", got, tt.wantWarn, r.Warnings)
			}
			if tt.stop && !hasWarning(r, "inside the timed region") {
				t.Errorf("StopTimer warning does not say what falls inside the timed region: %q", r.Warnings)
			}
			if txt := textOf(t, r); !strings.Contains(txt, "CPU clock read 1.520 µs of CPU time per timed segment (subtracted)") {
				t.Errorf("the text does not state the subtracted read cost:\n%s", txt)
			}
		})
	}
}

// TestCPUTimeUnavailable: without a CPU clock, CPU figures are -1, never 0.
func TestCPUTimeUnavailable(t *testing.T) {
	fc := &fakeClock{tick: 1, read: 20, noCPUTime: true}
	r, err := Run("x", func(b *B) {
		for b.Loop() {
			fc.advance(100)
		}
	}, fc.opts(Options{Target: 100 * time.Microsecond, Samples: 4, WarmupSamples: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if r.CPUPerWall != -1 || r.Overhead.CPUReadNs != nil || r.Overhead.CPUReadMADNs != nil {
		t.Errorf("CPU/wall %v, read cost %v: want -1 and none for unavailable", r.CPUPerWall, r.Overhead.CPUReadNs)
	}
	for _, s := range r.Samples {
		if s.CPUNs != -1 {
			t.Errorf("sample CPU time %v, want -1", s.CPUNs)
		}
	}
}

func TestNetCPU(t *testing.T) {
	for _, tt := range []struct {
		raw, perSeg    float64
		segs           int
		wantCPU, wantS float64
	}{
		{1000, 300, 2, 400, 600},
		{500, 300, 2, 0, 500}, // never below 0
		{1000, 0, 5, 1000, 0},
		{0, 300, 1, 0, 0},
	} {
		cpu, sub := netCPU(tt.raw, tt.segs, tt.perSeg)
		if cpu != tt.wantCPU || sub != tt.wantS {
			t.Errorf("netCPU(%v, %d, %v) = %v, %v; want %v, %v", tt.raw, tt.segs, tt.perSeg, cpu, sub, tt.wantCPU, tt.wantS)
		}
	}
}

// costOn returns a body that costs the CPU's ns per iteration.
func costOn(fc *fakeClock, ns map[int]uint64) func(*B) {
	return func(b *B) {
		for b.Loop() {
			fc.advance(ns[cpuOf(b)])
		}
	}
}

// TestSpreadCPUsThatDiffer: CPU 1 runs the body 35 % slower than CPU 0
// (as seen on a 2-vCPU host). Unpinned, the blocks alternate between the
// CPUs, every sample records its CPU, the per-CPU medians are reported,
// and the interval spans both levels instead of claiming ±0.
func TestSpreadCPUsThatDiffer(t *testing.T) {
	fc := &fakeClock{tick: 1, read: 20}
	r, err := Run("sum", costOn(fc, map[int]uint64{0: 306, 1: 415}),
		fc.opts(Options{Target: 100 * time.Microsecond, Samples: 8, WarmupSamples: 1}))
	if err != nil {
		t.Fatal(err)
	}
	perBlock := map[int]int{}
	for _, s := range r.Samples {
		if s.CPU != s.CPUEnd || s.CPU < 0 {
			t.Fatalf("sample CPU %d..%d", s.CPU, s.CPUEnd)
		}
		if c, ok := perBlock[s.Block]; ok && c != s.CPU {
			t.Errorf("block %d ran on CPUs %d and %d", s.Block, c, s.CPU)
		}
		perBlock[s.Block] = s.CPU
	}
	if len(perBlock) != defaultBlocks {
		t.Errorf("%d blocks, want %d", len(perBlock), defaultBlocks)
	}
	if len(r.Placement.PerCPU) != 2 || r.Placement.PerCPU[0].CPU != 0 || r.Placement.PerCPU[1].CPU != 1 {
		t.Fatalf("per-CPU results %+v, want CPUs 0 and 1", r.Placement.PerCPU)
	}
	for i, want := range []float64{306, 415} {
		if c := r.Placement.PerCPU[i]; math.Abs(c.Median-want) > 0.5 || c.Samples != 4 || c.Blocks != 2 {
			t.Errorf("CPU %d: median %v over %d samples in %d blocks, want %v over 4 in 2", c.CPU, c.Median, c.Samples, c.Blocks, want)
		}
	}
	if !r.Placement.CPUsDiffer || !hasWarning(r, "the CPUs differ: CPU 0 306") {
		t.Errorf("CPUs differ %v, warnings %q", r.Placement.CPUsDiffer, r.Warnings)
	}
	if !(r.CI.Lo <= 306.5 && r.CI.Hi >= 414.5) {
		t.Errorf("interval [%v, %v] hides the CPUs' difference (306 and 415 ns/op)", r.CI.Lo, r.CI.Hi)
	}
	if !strings.Contains(r.CI.Method, "every CPU's interval") {
		t.Errorf("interval method %q does not say it spans the CPUs", r.CI.Method)
	}
	if pl := r.Placement; pl.Pinned || pl.Allowed != 2 || !slices.Equal(pl.BlockSizes, []int{2, 2, 2, 2}) || len(pl.BlockCPUs) != 4 {
		t.Errorf("placement %+v, want 4 blocks of 2 samples over the 2 allowed CPUs", pl)
	}
}

// TestPinOneCPU: pinned, every block runs on that CPU, and the figures
// are that CPU's.
func TestPinOneCPU(t *testing.T) {
	fc := &fakeClock{tick: 1, read: 20}
	r, err := Run("sum", costOn(fc, map[int]uint64{0: 306, 1: 415}),
		fc.opts(Options{Target: 100 * time.Microsecond, Samples: 8, WarmupSamples: 1, Pin: true, CPU: 1}))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Samples {
		if s.CPU != 1 {
			t.Fatalf("sample on CPU %d, pinned to 1", s.CPU)
		}
	}
	if len(r.Placement.PerCPU) != 1 || r.Placement.CPUsDiffer || math.Abs(r.NsPerOp.Median-415) > 0.5 {
		t.Errorf("per CPU %+v, differ %v, median %v; want CPU 1 only at 415", r.Placement.PerCPU, r.Placement.CPUsDiffer, r.NsPerOp.Median)
	}
	if pl := r.Placement; !pl.Pinned || !slices.Equal(pl.BlockCPUs, []int{1, 1, 1, 1}) {
		t.Errorf("placement %+v, want pinned to CPU 1", pl)
	}
}

// TestSpreadCPUsAlike: CPUs of the same speed are reported per CPU but do
// not widen the interval.
func TestSpreadCPUsAlike(t *testing.T) {
	fc := &fakeClock{tick: 1, read: 20}
	r, err := Run("sum", costOn(fc, map[int]uint64{0: 300, 1: 303}),
		fc.opts(Options{Target: 100 * time.Microsecond, Samples: 8, WarmupSamples: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Placement.PerCPU) != 2 || r.Placement.CPUsDiffer || hasWarning(r, "the CPUs differ: ") {
		t.Errorf("per CPU %+v, differ %v, warnings %q", r.Placement.PerCPU, r.Placement.CPUsDiffer, r.Warnings)
	}
	// The blocks alternate 300 and 303: the t interval of their mean
	// covers both.
	if !(r.CI.Lo <= 300.5 && r.CI.Hi >= 302.5) {
		t.Errorf("interval [%v, %v]", r.CI.Lo, r.CI.Hi)
	}
}

// TestCompareSpread: Compare moves all cases across CPUs together; a
// ratio that is the same on every CPU is reported as such, one that
// differs between CPUs widens the interval and says so.
func TestCompareSpread(t *testing.T) {
	for _, tt := range []struct {
		name     string
		b        map[int]uint64
		wantNote bool
	}{
		{"same-ratio", map[int]uint64{0: 50, 1: 75}, false},
		{"ratio-differs", map[int]uint64{0: 50, 1: 100}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fc := &fakeClock{tick: 1, read: 20}
			c, err := Compare([]Case{
				{Name: "old", F: costOn(fc, map[int]uint64{0: 100, 1: 150})},
				{Name: "new", F: costOn(fc, tt.b)},
			}, fc.opts(Options{Target: 200 * time.Microsecond, Samples: 8}))
			if err != nil {
				t.Fatal(err)
			}
			cpus := map[int]bool{}
			for i, s := range c.Results[0].Samples {
				cpus[s.CPU] = true
				if s2 := c.Results[1].Samples[i]; s2.CPU != s.CPU || s2.Block != s.Block {
					t.Fatalf("round %d: cases on CPU %d and %d", i, s.CPU, s2.CPU)
				}
			}
			if len(cpus) != 2 {
				t.Errorf("rounds ran on CPUs %v, want both", cpus)
			}
			p := c.Pairs[0]
			if note := strings.Contains(p.Verdict, "the ratio differs between CPUs"); p.CPUsDiffer != tt.wantNote || note != tt.wantNote {
				t.Errorf("CPUs differ %v, verdict %q; want the ratios to differ: %v", p.CPUsDiffer, p.Verdict, tt.wantNote)
			}
			if tt.wantNote && !(p.CI.Lo <= 1.5 && p.CI.Hi >= 2) {
				t.Errorf("ratio interval [%v, %v] hides the per-CPU ratios 2 and 1.5", p.CI.Lo, p.CI.Hi)
			}
			if !tt.wantNote && !strings.HasPrefix(p.Verdict, "new is 2.00x faster than old [2.00, 2.00]") {
				t.Errorf("verdict %q", p.Verdict)
			}
		})
	}
}

// samplesOf makes samples with the given ns/op per block (one slice per
// block), on the given CPU per block.
func samplesOf(cpus []int, blocks ...[]float64) []Sample {
	var ss []Sample
	for j, b := range blocks {
		for _, x := range b {
			ss = append(ss, Sample{Iterations: 10, WallNs: 10 * x, CPU: cpus[j], CPUEnd: cpus[j], Block: j})
		}
	}
	return ss
}

// TestIntervalOf: the samples' blocks and CPUs reach stats.PlacedMedianCI
// (its tests have the arithmetic); a sample whose thread changed CPU
// belongs to no CPU.
func TestIntervalOf(t *testing.T) {
	rep := func(x float64, n int) []float64 { return slices.Repeat([]float64{x}, n) }
	ss := samplesOf([]int{0, 1, 0, 1}, rep(100, 5), rep(110, 5), rep(100, 5), rep(110, 5))
	ss = append(ss, Sample{Iterations: 1, WallNs: 300, CPU: 0, CPUEnd: 1, Block: 4})
	p, err := intervalOf(ss, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if !p.CPUsDiffer || len(p.PerCPU) != 2 || p.PerCPU[0].Samples != 10 || p.PerCPU[1].Samples != 10 || len(p.BlockMedians) != 5 {
		t.Errorf("%+v: want 2 CPUs of 10 samples that differ, 5 blocks", p)
	}
	if p.CI.Lo > 100 || p.CI.Hi < 110 {
		t.Errorf("interval [%v, %v] does not span 100 and 110", p.CI.Lo, p.CI.Hi)
	}
}

func TestMakePlan(t *testing.T) {
	p := makePlan(20, 4, -1, []int{0, 1, 2, 3}, 1)
	if !slices.Equal(p.sizes, []int{5, 5, 5, 5}) {
		t.Errorf("sizes %v", p.sizes)
	}
	seen := map[int]bool{}
	for j := range 4 {
		seen[p.cpu(j)] = true
	}
	if len(seen) != 4 {
		t.Errorf("4 blocks on 4 CPUs visited %v, want each once", seen)
	}
	if p.cpu(4) != p.cpu(0) || p.size(7) != 5 {
		t.Errorf("blocks beyond the plan: CPU %d (block 0: %d), size %d", p.cpu(4), p.cpu(0), p.size(7))
	}
	if q := makePlan(7, 4, -1, []int{0, 1, 2, 3}, 1); !slices.Equal(q.sizes, []int{2, 2, 2, 1}) {
		t.Errorf("7 samples in 4 blocks: %v", q.sizes)
	}
	if q := makePlan(3, 4, -1, nil, 1); len(q.sizes) != 3 || q.cpu(0) != -1 || q.allowed != 0 || q.pinned {
		t.Errorf("unknown CPUs: %+v", q)
	}
	if q := makePlan(20, 4, 5, []int{0, 1}, 1); q.cpu(3) != 5 || !q.pinned || q.allowed != 2 {
		t.Errorf("pinned: %+v", q)
	}
	if q := makePlan(20, 4, -1, []int{3}, 1); q.cpu(2) != 3 || q.allowed != 1 {
		t.Errorf("one allowed CPU: %+v", q)
	}
	// The placement of samples: the blocks' sizes from the samples, each
	// block's CPU from the plan.
	ss := samplesOf([]int{-1, -1, -1}, []float64{1, 1}, []float64{1}, []float64{1, 1, 1})
	pl := p.placement(ss)
	if !slices.Equal(pl.BlockSizes, []int{2, 1, 3}) || !slices.Equal(pl.BlockCPUs, []int{p.cpu(0), p.cpu(1), p.cpu(2)}) || pl.Allowed != 4 {
		t.Errorf("placement %+v", pl)
	}
	if pl := makePlan(3, 4, -1, nil, 1).placement(ss); pl.BlockCPUs != nil {
		t.Errorf("unpinned placement %+v, want no block CPUs", pl)
	}
}

// TestCPUClockCoarse: a thread CPU clock charged at clock interrupts
// (GetThreadTimes on Windows) raises the cpu-time-coarse note naming it,
// and its unit sets the cpu_time metric's resolution; a fine clock, or
// none, raises nothing.
func TestCPUClockCoarse(t *testing.T) {
	windows := clock.CPUClock{Name: "GetThreadTimes", UnitNs: 100, Coarse: true}
	linux := clock.CPUClock{Name: "CLOCK_THREAD_CPUTIME_ID", UnitNs: 1}
	for _, tt := range []struct {
		name      string
		cpu       clock.CPUClock
		noCPUTime bool
		wantNote  bool
	}{
		{"windows", windows, false, true},
		{"linux", linux, false, false},
		{"windows, no CPU time", windows, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fc := &fakeClock{tick: 1, read: 20, noCPUTime: tt.noCPUTime}
			o := fc.opts(Options{Target: 100 * time.Microsecond, Samples: 4, WarmupSamples: 1})
			o.cpuClock = &tt.cpu
			r, err := Run("x", func(b *B) {
				for b.Loop() {
					fc.advance(100)
				}
			}, o)
			if err != nil {
				t.Fatal(err)
			}
			var note *warn.Warning
			for i := range r.Warnings {
				if r.Warnings[i].Code == warnCPUTimeCoarse {
					note = &r.Warnings[i]
				}
			}
			if (note != nil) != tt.wantNote {
				t.Fatalf("cpu-time-coarse note %v, want %v", note, tt.wantNote)
			}
			if note != nil && (!strings.Contains(note.Message, "GetThreadTimes: 100 ns units") || note.Severity != warn.Note) {
				t.Errorf("note %+v", note)
			}
			if tt.noCPUTime {
				return
			}
			fewest := uint64(math.MaxUint64)
			for _, s := range r.Samples {
				fewest = min(fewest, s.Iterations)
			}
			for _, m := range perOpMetrics(r.Samples, 1, r.CPUClock.UnitNs) {
				if m.Name == "cpu_time" && m.Resolution != tt.cpu.UnitNs*(1/float64(fewest)) {
					t.Errorf("cpu_time resolution %v, want %v / %d iterations", m.Resolution, tt.cpu.UnitNs, fewest)
				}
			}
		})
	}
}
