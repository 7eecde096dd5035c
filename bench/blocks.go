package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	mstats "github.com/aclements/go-moremath/stats"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// CPUDifferThreshold is how far apart (as a fraction: 0.05 = 5 %) the
// medians of two CPUs may be before a result says that its CPUs differ and
// widens its interval to span them.
const CPUDifferThreshold = 0.05

// minCPUSamples is the fewest samples a CPU needs to count in the
// decision whether CPUs differ.
const minCPUSamples = 3

// CPUResult summarizes the samples that ran on one CPU (a sample whose
// thread migrated during it belongs to no CPU).
type CPUResult struct {
	CPU     int `json:"cpu"`
	Samples int `json:"samples"`
	Blocks  int `json:"blocks"`
	// Median is the median ns/op of the CPU's samples, and CI its
	// interval: the order-statistic interval of the CPU's samples (or
	// their range, with fewer than 6), widened to the range of the
	// medians of the CPU's blocks when it ran more than one.
	Median float64        `json:"median"`
	CI     stats.Interval `json:"ci"`
}

// plan is where and how large the blocks of a measurement are.
type plan struct {
	// cpus are the CPUs the blocks visit in turn (block j runs on
	// cpus[j % len(cpus)]); empty when the blocks are not pinned (the
	// allowed CPUs are unknown).
	cpus []int
	// sizes holds the number of measured samples of each planned block.
	sizes []int
	// placement says where the thread ran, for reports.
	placement string
}

// cpu returns the CPU block j is pinned to, or -1.
func (p plan) cpu(j int) int {
	if len(p.cpus) == 0 {
		return -1
	}
	return p.cpus[j%len(p.cpus)]
}

// size returns the number of samples of block j (blocks beyond the plan,
// which the testing.B adapter adds to fill -benchtime, have the size of
// the last planned block).
func (p plan) size(j int) int {
	if j < len(p.sizes) {
		return p.sizes[j]
	}
	return p.sizes[len(p.sizes)-1]
}

// makePlan splits samples into blocks (at most one sample short of
// equal) and chooses their CPUs: the pinned one; or, spreading, the
// allowed CPUs in an order shuffled by seed (so that a run of few blocks
// on a large machine visits a sample of its CPUs), each CPU once before
// any twice. allowed nil means unknown: the blocks are not pinned.
func makePlan(samples, blocks int, pin int, allowed []int, seed uint64) plan {
	nb := max(min(blocks, samples), 1)
	p := plan{sizes: make([]int, nb)}
	for j := range p.sizes {
		p.sizes[j] = samples / nb
		if j < samples%nb {
			p.sizes[j]++
		}
	}
	switch {
	case pin >= 0:
		p.cpus = []int{pin}
		p.placement = fmt.Sprintf("pinned to CPU %d (Options.Pin): the figures hold for that CPU", pin)
	case len(allowed) == 0:
		p.placement = "not pinned: the CPUs the process may run on are unknown here"
	default:
		rng := rand.New(rand.NewPCG(seed, 0x637075)) // "cpu"
		for _, i := range rng.Perm(len(allowed)) {
			p.cpus = append(p.cpus, allowed[i])
		}
		if len(allowed) == 1 {
			p.placement = fmt.Sprintf("on CPU %d, the only one the process may run on", allowed[0])
		} else {
			visited := p.cpus[:min(nb, len(p.cpus))]
			p.placement = fmt.Sprintf("spread: %d blocks over CPUs %s of the %d allowed", nb, cpuList(visited), len(allowed))
		}
	}
	return p
}

// cpuList formats CPU numbers as a sorted list with ranges ("0-3,6").
func cpuList(cpus []int) string {
	cs := slices.Sorted(slices.Values(cpus))
	cs = slices.Compact(cs)
	var parts []string
	for i := 0; i < len(cs); {
		j := i
		for j+1 < len(cs) && cs[j+1] == cs[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", cs[i], cs[j]))
		} else {
			parts = append(parts, fmt.Sprint(cs[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// intervalOf computes the confidence interval of the median ns/op of ss
// that Result.CI documents, with the medians of the blocks in order, the
// per-CPU summaries and whether the CPUs differ. It fails when there are
// too few samples for any interval.
func intervalOf(ss []Sample, conf float64) (iv stats.Interval, blockMeds []float64, per []CPUResult, differ bool, err error) {
	xs := nsPerOps(ss)
	var parts []string
	have := false
	widen := func(o stats.Interval) {
		if !have {
			iv, have = o, true
			return
		}
		iv.Lo, iv.Hi = min(iv.Lo, o.Lo), max(iv.Hi, o.Hi)
	}
	if o, e := stats.MedianCI(xs, conf); e == nil {
		widen(o)
		parts = append(parts, fmt.Sprintf("order statistics of the %d samples", len(xs)))
	} else {
		err = e
	}
	blockMeds = medians(groupBy(ss, func(s Sample) int { return s.Block }))
	if len(blockMeds) >= 2 {
		widen(tInterval(blockMeds, conf))
		parts = append(parts, fmt.Sprintf("t-interval of the mean of the %d block medians (between-block variation)", len(blockMeds)))
	}
	per = perCPU(ss, conf)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range per {
		if c.Samples >= minCPUSamples {
			lo, hi = min(lo, c.Median), max(hi, c.Median)
		}
	}
	if lo > 0 && hi/lo-1 > CPUDifferThreshold {
		differ = true
		for _, c := range per {
			if c.Samples >= minCPUSamples {
				widen(c.CI)
			}
		}
		parts = append(parts, fmt.Sprintf("every CPU's interval, since the CPUs' medians differ by %s%%", unit.Sig(100*(hi/lo-1), 2)))
	}
	if !have {
		return stats.Interval{}, blockMeds, per, differ, err
	}
	iv.Confidence, iv.Coverage = conf, 0
	iv.Method = "hull of: " + strings.Join(parts, "; ")
	return iv, blockMeds, per, differ, nil
}

// groupBy returns the ns/op of ss grouped by key, groups in the order of
// their first sample.
func groupBy(ss []Sample, key func(Sample) int) [][]float64 {
	idx := map[int]int{}
	var groups [][]float64
	for _, s := range ss {
		k := key(s)
		i, ok := idx[k]
		if !ok {
			i = len(groups)
			idx[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], s.NsPerOp())
	}
	return groups
}

func medians(groups [][]float64) []float64 {
	out := make([]float64, len(groups))
	for i, g := range groups {
		out[i] = stats.Median(g)
	}
	return out
}

// perCPU summarizes the samples of every CPU (known, not migrated), in
// CPU order; nil when no sample's CPU is known.
func perCPU(ss []Sample, conf float64) []CPUResult {
	byCPU := map[int][]Sample{}
	for _, s := range ss {
		if s.CPU >= 0 && !s.Migrated() {
			byCPU[s.CPU] = append(byCPU[s.CPU], s)
		}
	}
	var out []CPUResult
	for _, cpu := range slices.Sorted(func(yield func(int) bool) {
		for c := range byCPU {
			if !yield(c) {
				return
			}
		}
	}) {
		cs := byCPU[cpu]
		xs := nsPerOps(cs)
		bm := medians(groupBy(cs, func(s Sample) int { return s.Block }))
		r := CPUResult{CPU: cpu, Samples: len(cs), Blocks: len(bm), Median: stats.Median(xs)}
		if iv, err := stats.MedianCI(xs, conf); err == nil {
			r.CI = iv
		} else {
			r.CI = stats.Interval{Lo: slices.Min(xs), Hi: slices.Max(xs), Confidence: conf, Method: "range of the samples (too few for order statistics)"}
		}
		if len(bm) >= 2 {
			r.CI.Lo, r.CI.Hi = min(r.CI.Lo, slices.Min(bm)), max(r.CI.Hi, slices.Max(bm))
			r.CI.Method += ", widened to the range of the block medians"
			r.CI.Coverage = 0
		}
		out = append(out, r)
	}
	return out
}

// tInterval returns the Student t confidence interval of the mean of xs
// (at least 2 values): mean ± t(1-(1-conf)/2, n-1) · s/√n.
func tInterval(xs []float64, conf float64) stats.Interval {
	n := float64(len(xs))
	m := stats.Mean(xs)
	ss := 0.0
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	sd := math.Sqrt(ss / (n - 1))
	h := tQuantile(1-(1-conf)/2, n-1) * sd / math.Sqrt(n)
	return stats.Interval{Lo: m - h, Hi: m + h, Confidence: conf, Method: "student-t"}
}

// tQuantile returns the p quantile (0.5 < p < 1) of Student's t
// distribution with df degrees of freedom, by bisection on its CDF
// (go-moremath's, as benchstat uses): to ~1e-12 relative.
func tQuantile(p, df float64) float64 {
	d := mstats.TDist{V: df}
	lo, hi := 0.0, 1.0
	for d.CDF(hi) < p {
		lo, hi = hi, 2*hi
	}
	for range 100 {
		mid := (lo + hi) / 2
		if d.CDF(mid) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}
