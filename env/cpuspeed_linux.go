//go:build linux

package env

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chronograph/chronograph/internal/thread"
)

// The CPU speed probe: rounds of one trial per CPU, at most speedBudget
// in all.
const (
	speedRounds = 5
	speedBudget = 50 * time.Millisecond
	// speedMaxCPUs bounds the CPUs measured (one locked thread each).
	speedMaxCPUs = 1024
)

// speedLoopSums is how many 1024-element sums a trial makes: ~20-40 µs on
// current CPUs.
const speedLoopSums = 64

// speedData is the loop's input: not constant, so that nothing is folded.
// Made at the first measurement, not at start-up: most programs that
// import env never measure the CPU speed.
var speedData = sync.OnceValue(func() []uint64 {
	xs := make([]uint64, 1024)
	seed := uint64(time.Now().UnixNano()) | 1
	for i := range xs {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		xs[i] = seed
	}
	return xs
})

// speedSink keeps the loop's results, so that the loop is never dropped.
var speedSink atomic.Uint64

// speedLoop sums xs n times. It is not inlined, so that every CPU runs the
// same machine code at the same address.
//
//go:noinline
func speedLoop(xs []uint64, n int) uint64 {
	var s uint64
	for range n {
		for _, x := range xs {
			s += x
		}
		s = s<<1 | s>>63 // each pass depends on the last
	}
	return s
}

// measureCPUSpeed times the loop on each of cpus: one goroutine per CPU,
// locked to its thread and pinned to its CPU (never unlocked: the thread
// dies with the goroutine, so the affinity never leaks), taking trials in
// turn when the coordinator hands it the token, so that only one runs at
// a time. Rounds visit the CPUs in alternating order; each CPU's best
// trial counts (a first, cold trial is slower and drops out). It stops
// after speedRounds rounds or when speedBudget has passed, counting the
// threads' start: CPUs not reached by then are listed as unmeasured.
func measureCPUSpeed(cpus []int) *CPUSpeed {
	data := speedData()
	t0 := time.Now()
	unmeasured := map[int]string{}
	if len(cpus) > speedMaxCPUs {
		for _, c := range cpus[speedMaxCPUs:] {
			unmeasured[c] = fmt.Sprintf("only the first %d CPUs are measured", speedMaxCPUs)
		}
		cpus = cpus[:speedMaxCPUs]
	}
	type worker struct {
		turn chan struct{}
		done chan float64
		err  error // the worker could not pin its thread
	}
	ws := make([]*worker, len(cpus))
	startWorker := func(cpu int) *worker {
		w := &worker{turn: make(chan struct{}), done: make(chan float64)}
		ready := make(chan error)
		thread.Go(func() { // locked for life: the pin dies with the thread
			if err := thread.Pin(cpu); err != nil {
				ready <- fmt.Errorf("env: %w", err)
				return
			}
			ready <- nil
			for range w.turn {
				start := time.Now()
				speedSink.Store(speedLoop(data, speedLoopSums))
				w.done <- float64(time.Since(start).Nanoseconds())
			}
		})
		w.err = <-ready
		return w
	}
	trials := map[int][]float64{}
	cut := false
rounds:
	for r := 0; r < speedRounds; r++ {
		for k := range cpus {
			i := k
			if r%2 == 1 {
				i = len(cpus) - 1 - k
			}
			if time.Since(t0) > speedBudget {
				cut = true
				break rounds
			}
			if ws[i] == nil {
				ws[i] = startWorker(cpus[i])
			}
			w := ws[i]
			if w.err != nil {
				continue
			}
			w.turn <- struct{}{}
			trials[cpus[i]] = append(trials[cpus[i]], <-w.done)
		}
	}
	for i, w := range ws {
		switch {
		case w == nil:
			unmeasured[cpus[i]] = fmt.Sprintf("the time bound of %v ran out first", speedBudget)
		case w.err != nil:
			unmeasured[cpus[i]] = "could not pin a thread to it: " + w.err.Error()
		default:
			close(w.turn)
		}
	}
	method := fmt.Sprintf("best of %d trials of a fixed loop per CPU, at most %v", speedRounds, speedBudget)
	if cut {
		method = fmt.Sprintf("best of up to %d trials of a fixed loop per CPU, cut at the bound of %v", speedRounds, speedBudget)
	}
	return analyzeCPUSpeed(trials, unmeasured, method, time.Since(t0))
}
