package bench

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/stats"
)

// Comparison is the outcome of Compare.
type Comparison struct {
	// Results holds one result per case; their samples are the rounds'.
	Results []*Benchmark
	// Iterations is the one iteration count all cases ran per round
	// (before the jitter, which is the same for all cases of a round).
	Iterations uint64
	// Order lists, per round, the order the cases ran in (indexes into
	// Results).
	Order [][]int
	// Pairs compares every case with the first (the baseline).
	Pairs []Pair
}

// Pair compares case B against the baseline A.
type Pair struct {
	A, B string
	// Ratios are the per-round paired ratios A ns/op / B ns/op: above 1,
	// B was faster in that round.
	Ratios []float64
	// Median is the median ratio and CI its 95 % confidence interval, as
	// Benchmark.CI is built (stats.PlacedMedianCI): the hull of the
	// order-statistic (sign-test) interval of the paired ratios, the t
	// interval of the blocks' median ratios, and every CPU's interval when
	// the ratio differs between CPUs (CPUsDiffer; PerCPU has each CPU's
	// median ratio). CIErr says why there is no interval.
	Median     float64
	CI         stats.Interval
	CIErr      string
	PerCPU     []stats.CPUMedian
	CPUsDiffer bool
	// P is the two-sided Mann-Whitney U p-value of A's against B's ns/op
	// (NaN when there is no test), and Significant is set when P <=
	// stats.Alpha and the interval excludes 1.
	P           float64
	Significant bool
	// Verdict is the plain conclusion, e.g. "B is 1.31x faster than A
	// [1.28, 1.34]" or "no significant difference ...", as chrono report
	// words it (compare.Paired.Conclusion).
	Verdict string
}

// Compare measures the cases in interleaved rounds: every case is
// calibrated, all then run with one iteration count (the slowest case's,
// raised if needed so that the fastest case's samples still last 1000x the
// clock's tick and read cost), and each round runs every case once, in an
// order that is balanced within blocks of rounds (a random Latin square per
// block, reseeded per block from Options.Seed; for two cases ABBA or BAAB),
// so that drift of the machine hits all cases alike. Options.Samples is the
// number of rounds. The rounds run in Options.Blocks blocks; without
// Options.Pin all cases move together to another allowed CPU for every
// block (see Options.Pin) and run one discarded round there. Each case
// runs in one invocation of its function, which waits between its samples.
func Compare(cases []Case, opts *Options) (*Comparison, error) {
	if len(cases) < 2 {
		return nil, errors.New("bench: Compare needs at least two cases")
	}
	if opts != nil && opts.Profile {
		return nil, errors.New("bench: Options.Profile profiles one benchmark's samples, not interleaved rounds of several: profile each case with Run")
	}
	for _, c := range cases {
		if c.F == nil {
			return nil, fmt.Errorf("bench: %s: nil benchmark function", c.Name)
		}
	}
	if req, err := childRequest(); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	} else if req != nil {
		return nil, ErrSkipped
	}
	if opts != nil && opts.Instructions != nil {
		return nil, errors.New("bench: Compare times interleaved rounds and does not count instructions: count each case with Run or RunCases and Options.Instructions, then compare the documents (chrono report --baseline)")
	}
	s, err := newSetup(opts)
	if err != nil {
		return nil, err
	}
	k := len(cases)
	rounds := s.opts.Samples
	pl := s.plan(rounds)
	rs := make([]*runner, k)
	for i, c := range cases {
		rs[i] = start(c.F, s.clk, &s.opts, pl.cpu(0))
	}
	finishAll := func() {
		for _, r := range rs {
			r.finish()
		}
	}
	results := make([]*Benchmark, k)
	reads := make([][]cpuRead, k)
	var n uint64
	var fastest float64
	for i, c := range cases {
		rep, err := rs[i].probe()
		if err != nil {
			finishAll()
			return nil, fmt.Errorf("%w (case %s)", err, c.Name)
		}
		reads[i] = append(reads[i], rep.cpuRead)
		ni, trials, err := calibrate(rs[i], s.goal)
		if err != nil {
			finishAll()
			return nil, fmt.Errorf("%w (case %s)", err, c.Name)
		}
		results[i] = s.newResult(c)
		results[i].Calibration = trials
		results[i].setTimerPair(rep.pair)
		last := trials[len(trials)-1]
		if i == 0 || ni < n {
			n = ni
		}
		if op := last.NsPerOp(); i == 0 || op < fastest {
			fastest = op
		}
	}
	if fastest > 0 {
		need := math.Ceil(1000 * max(s.probe.TickNs, s.probe.ReadNs) / fastest)
		n = max(n, uint64(min(need, maxIterations)))
	}
	cmp := &Comparison{Results: results, Iterations: n}
	// The rounds run in blocks, as Run's samples do: before every block
	// but the first, all cases move to the plan's next CPU together and
	// run one discarded round there. Round -1 warms up.
	round := 0
	for j := 0; j < len(pl.sizes); j++ {
		const warm = 1
		if j > 0 {
			for i, r := range rs {
				r.block = j
				cr, err := r.move(pl.cpu(j))
				if err != nil {
					finishAll()
					return nil, fmt.Errorf("%w (case %s)", err, cases[i].Name)
				}
				reads[i] = append(reads[i], cr)
			}
		}
		for b := -warm; b < pl.size(j); b++ {
			order := identity(k)
			if b >= 0 {
				order = roundOrder(k, round, s.opts.Seed)
				cmp.Order = append(cmp.Order, order)
			}
			nr := s.jitter(n)
			for _, i := range order {
				smp, err := rs[i].sample(nr)
				if err != nil {
					finishAll()
					return nil, fmt.Errorf("%w (case %s)", err, cases[i].Name)
				}
				if b < 0 {
					results[i].Warmup = append(results[i].Warmup, smp)
				} else {
					results[i].Samples = append(results[i].Samples, smp)
				}
			}
			if b >= 0 {
				round++
			}
		}
	}
	for i, r := range rs {
		if err := r.finish(); err != nil {
			finishAll()
			return nil, fmt.Errorf("%w (case %s)", err, cases[i].Name)
		}
	}
	loop, empty, err := measureLoopOverhead(s, n, pl.cpu(0))
	if err != nil {
		return nil, err
	}
	end := time.Now()
	for i, r := range results {
		r.Iterations = n
		r.End = end
		r.Placement = pl.placement(r.Samples)
		r.Overhead.LoopNsPerOp, r.Overhead.LoopNsPerOpHigh = loop.lo, loop.hi
		r.setCPURead(reads[i])
		if len(s.opts.Counters) > 0 {
			r.analyzeCounters(rs[i].counted, rs[i].unavailable, rs[i].notes, counterOverhead(empty))
		}
		r.analyze(s)
	}
	for i := 1; i < k; i++ {
		cmp.Pairs = append(cmp.Pairs, comparePair(results[0], results[i]))
	}
	return cmp, nil
}

func identity(k int) []int {
	o := make([]int, k)
	for i := range o {
		o[i] = i
	}
	return o
}

// roundOrder returns the order of the cases in the given round. Rounds
// come in blocks of k; each block is a Latin square (every case once in
// every position) built from a random permutation, its rows shuffled, with
// a generator seeded from seed and the block number, so that any block can
// be reproduced on its own.
func roundOrder(k, round int, seed uint64) []int {
	block, row := round/k, round%k
	rng := rand.New(rand.NewPCG(seed, uint64(block)+0x6f72646572)) // "order"
	perm := rng.Perm(k)
	rows := rng.Perm(k)
	shift := rows[row]
	o := make([]int, k)
	for j := range o {
		o[j] = perm[(j+shift)%k]
	}
	return o
}

// comparePair computes the paired ratios of a against b and the verdict
// (compare.PairedRounds over the rounds, their blocks and CPUs: a round's
// CPU is known when both cases ran on it from start to end).
func comparePair(a, b *Benchmark) Pair {
	pr := compare.PairedRounds(rounds(a), rounds(b))
	p := Pair{A: a.Name, B: b.Name, Ratios: pr.Ratios, Median: pr.Median, PerCPU: pr.Placed.PerCPU, CPUsDiffer: pr.Placed.CPUsDiffer,
		P: pr.MannWhitney.P, Significant: pr.Significant, Verdict: pr.Conclusion()}
	if pr.Err != nil {
		p.CIErr = pr.Err.Error()
	} else {
		p.CI = pr.Placed.CI
	}
	return p
}

// rounds are r's samples as the rounds of a comparison: a sample's CPU
// is known when it started and ended on it.
func rounds(r *Benchmark) compare.Rounds {
	cpus := make([]int, len(r.Samples))
	for i, s := range r.Samples {
		cpus[i] = -1
		if s.CPU >= 0 && s.CPU == s.CPUEnd {
			cpus[i] = s.CPU
		}
	}
	return compare.Rounds{Name: r.Name, NsPerOp: nsPerOps(r.Samples), Blocks: blocksOf(r.Samples), CPUs: cpus}
}
