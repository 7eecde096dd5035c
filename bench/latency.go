package bench

import (
	"fmt"
	"math"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// Latency is the per-operation latency mode's result: every iteration
// timed on its own with the fenced clock read, minus the read overhead,
// recorded in an HDR histogram (3 significant digits, 1 ns to 1 hour).
// Figures are in nanoseconds.
type Latency struct {
	// Ops is the number of operations timed; OpsPerSample how many per
	// sample.
	Ops          int64
	OpsPerSample uint64
	// ReadOverheadNs is the median time of an empty iteration timed the
	// same way (the cost of the fenced reads and the loop), subtracted
	// from every duration (results below zero are recorded as 0).
	ReadOverheadNs float64
	// Quantiles of single operations (HdrHistogram's definition: the
	// upper end of the bucket that holds the rank, within the exact
	// extremes), and the exact mean and population standard deviation of
	// the durations recorded.
	Min    float64
	P50    float64
	P90    float64
	P99    float64
	P999   float64
	Max    float64
	Mean   float64
	StdDev float64
	// Histogram holds every recorded duration, to latencyDigits
	// significant digits.
	Histogram *stats.Histogram
	// Warnings say when these figures are weak.
	Warnings []warn.Warning
}

// latencyDigits is the latency histogram's precision in significant
// decimal digits.
const latencyDigits = 3

// Below this median the clock read dominates single-op timings.
const latencyMinOpNs = 100

// maxLatencyOps caps the operations of one latency sample (memory: 8 bytes
// each).
const maxLatencyOps = 1 << 20

// latencySamples runs samples of ops operations each and returns the raw
// durations in ns, discarding the first sample as warm-up.
func latencySamples(r *runner, s *setup, ops uint64, samples int) ([]float64, error) {
	var out []float64
	for i := 0; i <= samples; i++ {
		rep, err := r.do(command{n: ops, latency: true})
		if err != nil {
			return nil, err
		}
		if i == 0 {
			continue
		}
		for _, d := range rep.lat {
			out = append(out, s.clk.ns(d))
		}
	}
	return out, nil
}

func measureLatency(f func(*B), s *setup, cpu int) (*Latency, error) {
	plain := s.opts
	plain.Setup, plain.Teardown, plain.Counters = nil, nil, nil
	// The read overhead: an empty loop timed per iteration.
	er := start(emptyLoop, s.clk, &plain, cpu)
	empty, err := latencySamples(er, s, 10000, 3)
	if err != nil {
		er.finish()
		return nil, err
	}
	if err := er.finish(); err != nil {
		return nil, err
	}
	over := stats.Median(empty)

	counted := s.opts
	counted.Counters = nil // batch samples only
	r := start(f, s.clk, &counted, cpu)
	// Size the samples from a batch calibration of this invocation.
	n, trials, err := calibrate(r, s.goal)
	if err != nil {
		r.finish()
		return nil, err
	}
	last := trials[len(trials)-1]
	perOp := last.NsPerOp() + over
	ops := uint64(min(max(s.goal/max(perOp, 1), 1), maxLatencyOps))
	_ = n
	raw, err := latencySamples(r, s, ops, s.opts.Samples)
	if err != nil {
		r.finish()
		return nil, err
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	h, err := stats.NewHistogram(1, 3600e9, latencyDigits)
	if err != nil {
		return nil, fmt.Errorf("bench: latency histogram: %w", err)
	}
	// The exact mean and standard deviation of what is recorded (the
	// histogram keeps values to its precision only).
	var sum, sumSq float64
	for _, d := range raw {
		v := math.Round(max(d-over, 0))
		h.Record(int64(v))
		sum += v
		sumSq += float64(v * v)
	}
	l := &Latency{
		Ops: h.Count(), OpsPerSample: ops, ReadOverheadNs: over,
		Min: float64(h.Min()), P50: float64(h.Quantile(0.5)), P90: float64(h.Quantile(0.9)),
		P99: float64(h.Quantile(0.99)), P999: float64(h.Quantile(0.999)), Max: float64(h.Max()),
		Histogram: h,
	}
	if n := float64(len(raw)); n > 0 {
		l.Mean = sum / n
		l.StdDev = math.Sqrt(max(sumSq/n-float64(l.Mean*l.Mean), 0))
	}
	if l.P50 < latencyMinOpNs {
		l.Warnings = append(l.Warnings, warn.New(warnLatencyBelowRead,
			fmt.Sprintf("single operations of %s are below ~%d ns: the clock read (%s, subtracted) dominates them",
				unit.Duration(l.P50, unit.Precision{Resolution: 1}), latencyMinOpNs, unit.Duration(over, unit.Precision{Resolution: s.probe.TickNs})),
			"use the batch figures"))
	}
	if l.Ops < 1000 {
		l.Warnings = append(l.Warnings, warn.New(warnLatencyFewOps,
			fmt.Sprintf("only %s timed: p99.9 needs at least 1000", plural.Count(int(l.Ops), "operation")),
			"raise Options.Samples or Options.Target"))
	}
	return l, nil
}
