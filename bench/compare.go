package bench

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// Comparison is the outcome of Compare.
type Comparison struct {
	// Results holds one result per case; their samples are the rounds'.
	Results []*Result `json:"results"`
	// Iterations is the one iteration count all cases ran per round
	// (before the jitter, which is the same for all cases of a round).
	Iterations uint64 `json:"iterations"`
	// Order lists, per round, the order the cases ran in (indexes into
	// Results).
	Order [][]int `json:"order"`
	// Pairs compares every case with the first (the baseline).
	Pairs []Pair `json:"pairs"`
}

// Pair compares case B against the baseline A.
type Pair struct {
	A, B string
	// Ratios are the per-round paired ratios A ns/op / B ns/op: above 1,
	// B was faster in that round.
	Ratios []float64 `json:"ratios"`
	// Median is the median ratio and CI its 95 % confidence interval, as
	// Result.CI is built: the hull of the order-statistic (sign-test)
	// interval of the paired ratios, the t interval of the blocks' median
	// ratios, and every CPU's interval when the ratio differs between CPUs
	// (then Note says so); CIErr says why there is no interval.
	Median float64        `json:"median"`
	CI     stats.Interval `json:"ci"`
	CIErr  string         `json:"ci_error,omitempty"`
	Note   string         `json:"note,omitempty"`
	// P is the two-sided Mann-Whitney U p-value of A's against B's ns/op.
	P float64 `json:"p"`
	// Verdict is the plain conclusion, e.g. "B is 1.31x faster than A
	// [1.28, 1.34]" or "no significant difference".
	Verdict string `json:"verdict"`
}

// Alpha is the significance level of Compare's verdicts.
const Alpha = 0.05

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
	for _, c := range cases {
		if c.F == nil {
			return nil, fmt.Errorf("bench: %s: nil benchmark function", c.Name)
		}
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
	results := make([]*Result, k)
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
		results[i] = &Result{Name: c.Name, Params: c.Params, Clock: s.clk.name, Probe: s.probe, GoalNs: s.goal, Calibration: trials, Placement: pl.placement}
		results[i].Overhead.setTimerPair(rep.pair)
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
	for i, r := range results {
		r.Iterations = n
		r.Overhead.LoopNsPerOp, r.Overhead.LoopNsPerOpHigh = loop.lo, loop.hi
		r.Overhead.setCPURead(reads[i])
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

// comparePair computes the paired ratios of a against b and the verdict.
// The interval of the median ratio is built as Result.CI is (see
// intervalOf): from the ratios, the blocks' median ratios and, when the
// ratio differs between CPUs, every CPU's interval.
func comparePair(a, b *Result) Pair {
	p := Pair{A: a.Name, B: b.Name}
	xa, xb := nsPerOps(a.Samples), nsPerOps(b.Samples)
	var rs []Sample // one per round: the ratio as a 1-iteration "sample"
	for i := range min(len(xa), len(xb)) {
		if xb[i] > 0 {
			p.Ratios = append(p.Ratios, xa[i]/xb[i])
			sa, sb := a.Samples[i], b.Samples[i]
			cpu, end := sa.CPU, sa.CPUEnd
			if sb.CPU != sa.CPU || sb.CPUEnd != sa.CPUEnd {
				cpu, end = -1, -1 // the two ran on different CPUs: no CPU
			}
			rs = append(rs, Sample{Iterations: 1, WallNs: xa[i] / xb[i], CPU: cpu, CPUEnd: end, Block: sa.Block})
		}
	}
	p.Median = stats.Median(p.Ratios)
	ci, _, per, differ, err := intervalOf(rs, 0.95)
	if err != nil {
		p.CIErr = err.Error()
	} else {
		p.CI = ci
	}
	if differ {
		var parts []string
		for _, c := range per {
			parts = append(parts, fmt.Sprintf("CPU %d %s", c.CPU, unit.Sig(c.Median, 3)))
		}
		p.Note = "the ratio differs between CPUs (" + strings.Join(parts, ", ") + "): the interval spans them"
	}
	p.P = math.NaN()
	if mw, err := stats.MannWhitneyU(xa, xb); err == nil {
		p.P = mw.P
	}
	p.Verdict = verdict(p)
	return p
}

func verdict(p Pair) string {
	v := verdictOf(p)
	if p.Note != "" {
		v += "; " + p.Note
	}
	return v
}

func verdictOf(p Pair) string {
	if p.CIErr != "" {
		return fmt.Sprintf("too few rounds for a verdict (median ratio %s): %s", unit.Sig(p.Median, 3), p.CIErr)
	}
	sig := p.P <= Alpha // benchstat's rule, as stats.MannWhitneyResult.Significant
	switch {
	case sig && p.CI.Lo > 1:
		return fmt.Sprintf("%s is %sx faster than %s [%s, %s]", p.B, unit.Sig(p.Median, 3), p.A, unit.Sig(p.CI.Lo, 3), unit.Sig(p.CI.Hi, 3))
	case sig && p.CI.Hi < 1:
		return fmt.Sprintf("%s is %sx slower than %s [%s, %s]", p.B, unit.Sig(1/p.Median, 3), p.A, unit.Sig(1/p.CI.Hi, 3), unit.Sig(1/p.CI.Lo, 3))
	}
	return fmt.Sprintf("no significant difference between %s and %s (ratio %s [%s, %s], p=%s)",
		p.A, p.B, unit.Sig(p.Median, 3), unit.Sig(p.CI.Lo, 3), unit.Sig(p.CI.Hi, 3), unit.Sig(p.P, 2))
}
