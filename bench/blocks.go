package bench

import (
	"math/rand/v2"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// plan is where and how large the blocks of a measurement are.
type plan struct {
	// cpus are the CPUs the blocks visit in turn (block j runs on
	// cpus[j % len(cpus)]); empty when the blocks are not pinned (the
	// allowed CPUs are unknown).
	cpus []int
	// sizes holds the number of measured samples of each planned block.
	sizes []int
	// pinned is set when Options.Pin chose the one CPU; allowed is the
	// number of CPUs the process may run on (0: unknown).
	pinned  bool
	allowed int
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
	p := plan{sizes: make([]int, nb), allowed: len(allowed)}
	for j := range p.sizes {
		p.sizes[j] = samples / nb
		if j < samples%nb {
			p.sizes[j]++
		}
	}
	switch {
	case pin >= 0:
		p.cpus, p.pinned = []int{pin}, true
	case len(allowed) > 0:
		rng := rand.New(rand.NewPCG(seed, 0x637075)) // "cpu"
		for _, i := range rng.Perm(len(allowed)) {
			p.cpus = append(p.cpus, allowed[i])
		}
	}
	return p
}

// placement describes where samples taken by the plan ran: the blocks'
// sizes (from the samples, which are in block order) and the CPUs they
// were pinned to. The figures computed from the samples are added by
// Benchmark.analyze.
func (p plan) placement(ss []Sample) result.FunctionPlacement {
	pl := result.FunctionPlacement{Pinned: p.pinned, Allowed: p.allowed}
	for i, s := range ss {
		if i == 0 || s.Block != ss[i-1].Block {
			pl.BlockSizes = append(pl.BlockSizes, 0)
			if len(p.cpus) > 0 {
				pl.BlockCPUs = append(pl.BlockCPUs, p.cpu(s.Block))
			}
		}
		pl.BlockSizes[len(pl.BlockSizes)-1]++
	}
	return pl
}

// intervalOf computes the confidence interval of the median ns/op of ss
// that Benchmark.CI documents (stats.PlacedMedianCI over the samples' blocks
// and CPUs), with the figures it is built from.
func intervalOf(ss []Sample, conf float64) (stats.PlacedInterval, error) {
	return stats.PlacedMedianCI(nsPerOps(ss), blocksOf(ss), cpusOf(ss), conf)
}

// blocksOf returns the block of every sample.
func blocksOf(ss []Sample) []int {
	bs := make([]int, len(ss))
	for i, s := range ss {
		bs[i] = s.Block
	}
	return bs
}

// cpusOf returns the CPU of every sample, -1 where it is unknown or the
// thread changed CPU during the sample.
func cpusOf(ss []Sample) []int {
	cs := make([]int, len(ss))
	for i, s := range ss {
		cs[i] = s.CPU
		if s.migrated() {
			cs[i] = -1
		}
	}
	return cs
}
