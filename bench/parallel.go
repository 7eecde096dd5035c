package bench

import (
	"fmt"

	"github.com/chronograph/chronograph/stats"
)

// Parallel is the parallel mode's result: Workers invocations of the
// function ran at once, each on its own locked thread, each sample started
// together through a barrier.
type Parallel struct {
	Workers int
	// Iterations is the count per worker per sample (the single-thread
	// calibration's).
	Iterations uint64
	// WallNs holds, per sample, the time from the first worker's start to
	// the last worker's end; OpsPerSec the aggregate throughput of each
	// sample (all workers' iterations over WallNs).
	WallNs    []float64
	OpsPerSec []float64
	// Aggregate summarizes OpsPerSec.
	Aggregate stats.Summary
	// PerWorker holds each worker's samples; NsPerOp summarizes the ns/op
	// of every worker's every sample (the per-op distribution under
	// contention).
	PerWorker [][]Sample
	NsPerOp   stats.Summary
	// WorkerOpsPerSec is each worker's median throughput.
	WorkerOpsPerSec []float64
}

func measureParallel(f func(*B), s *setup, n uint64) (*Parallel, error) {
	w := s.opts.Parallel
	rs := make([]*runner, w)
	wopts := s.opts
	wopts.Counters = nil // batch samples only
	for i := range rs {
		rs[i] = start(f, s.clk, &wopts, -1)
	}
	finishAll := func() error {
		var first error
		for _, r := range rs {
			if err := r.finish(); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	p := &Parallel{Workers: w, Iterations: n, PerWorker: make([][]Sample, w)}
	for i := 0; i <= s.opts.Samples; i++ { // sample 0 warms up
		gate := make(chan struct{})
		early := make([]*reply, len(rs))
		for j, r := range rs {
			if rep, ok := r.send(command{n: n, gate: gate}); ok {
				early[j] = &rep
			}
		}
		close(gate)
		var lo, hi uint64
		var ops uint64
		var errs []error
		for j, r := range rs {
			var rep reply
			if early[j] != nil {
				rep = *early[j]
			} else {
				rep = <-r.replies
			}
			if rep.done {
				r.exited = true
				if rep.err == nil {
					rep.err = errEarlyReturn
				}
				errs = append(errs, rep.err)
				continue
			}
			if j == 0 || rep.start < lo {
				lo = rep.start
			}
			if j == 0 || rep.end > hi {
				hi = rep.end
			}
			ops += rep.s.Iterations
			if i > 0 {
				p.PerWorker[j] = append(p.PerWorker[j], rep.s)
			}
		}
		if len(errs) > 0 {
			finishAll()
			return nil, errs[0]
		}
		if i == 0 {
			continue
		}
		wall := s.clk.ns(hi - lo)
		p.WallNs = append(p.WallNs, wall)
		if wall > 0 {
			p.OpsPerSec = append(p.OpsPerSec, float64(ops)/wall*1e9)
		}
	}
	if err := finishAll(); err != nil {
		return nil, err
	}
	p.Aggregate = stats.Summarize(p.OpsPerSec)
	var all []float64
	for _, ss := range p.PerWorker {
		xs := nsPerOps(ss)
		all = append(all, xs...)
		med := stats.Median(xs)
		tp := 0.0
		if med > 0 {
			tp = 1e9 / med
		}
		p.WorkerOpsPerSec = append(p.WorkerOpsPerSec, tp)
	}
	p.NsPerOp = stats.Summarize(all)
	if len(p.OpsPerSec) == 0 {
		return nil, fmt.Errorf("bench: parallel mode measured nothing")
	}
	return p, nil
}
