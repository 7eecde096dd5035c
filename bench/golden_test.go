package bench

import (
	"bytes"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/golden"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/warn"
)

// fixedResult is a benchmark result built by hand with every part a
// function document can hold: samples on two CPUs in two blocks (one
// migrated, one with a StopTimer), calibration and warm-up trials, the
// overhead with a net figure, counters (one counted in every sample, one
// in some), IPC, an unavailable event, the latency, cold and parallel
// modes and a warning.
func fixedResult(t *testing.T) *Benchmark {
	t.Helper()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var ss []Sample
	for i := range 6 {
		n := uint64(1000 + 10*i)
		wall := float64(n) * (37 + float64(i%3))
		s := Sample{Iterations: n, WallNs: wall, Ticks: uint64(wall * 2.5), CPUNs: wall * 0.99, CPUReadNs: 410,
			CPU: i % 2, CPUEnd: i % 2, Block: i / 3, Allocs: n, Bytes: 16 * n, GCs: uint64(i % 2),
			VolCtxSw: int64(i % 2), InvolCtxSw: 1, MinFlt: 0, MajFlt: 0,
			Counters: map[string]float64{"instructions": 120 * float64(n), "cycles": 90 * float64(n)}}
		if i != 4 {
			s.Counters["branch-misses"] = 0.5 * float64(n)
		}
		if i == 2 {
			s.CPUEnd = 1 // migrated
			s.TimerStops = 1
			s.CountersScaled = []string{"cycles"}
		}
		ss = append(ss, s)
	}
	h, err := stats.NewHistogram(1, 1e9, latencyDigits)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []int64{35, 36, 36, 37, 41, 52, 380} {
		h.Record(v)
	}
	ipc := stats.Summarize([]float64{1.3, 1.33, 1.34})
	worker := func(ns float64) []Sample {
		return []Sample{{Iterations: 1000, WallNs: 1000 * ns, CPU: -1, CPUEnd: -1}, {Iterations: 1000, WallNs: 1000 * (ns + 2), CPU: -1, CPUEnd: -1}}
	}
	cpuRead, cpuReadMAD, net := 410.0, 12.0, 37.7
	wallPerOp := make([]float64, len(ss))
	for i, s := range ss {
		wallPerOp[i] = s.NsPerOp()
	}
	return &Benchmark{
		Name: "sum/n=2", Params: map[string]string{"n": "2"}, Start: start, End: start.Add(3 * time.Second),
		Clock: "tsc", Probe: clockProbe{TickNs: 0.4, ReadNs: 9.5},
		Target: time.Millisecond, GoalNs: 1e6, Iterations: 1000,
		Samples: ss, Calibration: []Sample{trial(1, 120), trial(100, 3900), trial(1000, 37100)},
		Warmup:  []Sample{trial(1000, 37500)},
		NsPerOp: stats.Summarize(wallPerOp), P99: 38.9,
		CI: stats.Interval{Lo: 37, Hi: 39, Confidence: 0.95, Method: "order-statistic", Coverage: 0.96875},
		Placement: result.FunctionPlacement{Allowed: 2, BlockSizes: []int{3, 3}, BlockMedians: []float64{38, 38},
			PerCPU: []stats.CPUMedian{{CPU: 0, Samples: 3, Blocks: 2, Median: 38}, {CPU: 1, Samples: 2, Blocks: 2, Median: 38.5}}, Migrations: 1},
		CPUPerWall: 0.99, AllocsPerOp: 1, BytesPerOp: 16,
		Overhead: result.FunctionOverhead{LoopNsPerOp: 0.3, LoopNsPerOpHigh: 0.6,
			TimerPairNs: 61, TimerPairInsideNs: 20, CPUReadNs: &cpuRead, CPUReadMADNs: &cpuReadMAD},
		NetNsPerOp: &net,
		Cold:       []Sample{trial(1, 2400), trial(1, 1900)},
		Latency: &Latency{Ops: 7, OpsPerSample: 7, ReadOverheadNs: 18, Min: 35, P50: 36, P90: 52, P99: 380, P999: 380,
			Max: 380, Mean: 88.1, StdDev: 119.5, Histogram: h,
			Warnings: []warn.Warning{warn.NewNote("latency-few-ops", "only 7 operations were timed", "time more")}},
		Parallel: &Parallel{Workers: 2, Iterations: 1000, WallNs: []float64{40000, 41000}, OpsPerSec: []float64{5e7, 4.9e7},
			PerWorker: [][]Sample{worker(38), worker(39)}},
		Counters: []Counter{
			{FunctionCounter: result.FunctionCounter{Event: "instructions", Unit: "count", OverheadPerSample: 1000, Samples: 6},
				PerOp: stats.Summarize([]float64{119, 119, 119, 119, 119, 119})},
			{FunctionCounter: result.FunctionCounter{Event: "cycles", Unit: "count", OverheadPerSample: 800, Samples: 6, Scaled: true},
				PerOp: stats.Summarize([]float64{89, 89, 89})},
			{FunctionCounter: result.FunctionCounter{Event: "branch-misses", Unit: "count", OverheadPerSample: 0, Samples: 5, Note: "user space only",
				PartialPerOp: []float64{0.5, 0.5, 0.5, 0.5, 0.5}, PartialSamples: []int{0, 1, 2, 3, 5}}},
		},
		IPC:                 &ipc,
		CountersUnavailable: []result.FunctionCounterUnavailable{{Event: "ref-cycles", Reason: "not supported by this CPU"}},
		Warnings:            []warn.Warning{warn.New("cpus-differ", "CPU 1 is 1.3 % slower than CPU 0", "pin the benchmark")},
	}
}

// trial is a discarded sample of n iterations in ns.
func trial(n uint64, ns float64) Sample {
	return Sample{Iterations: n, WallNs: ns, CPUNs: -1, CPU: -1, CPUEnd: -1}
}

// fixedComparison is a comparison of two hand-built results: one pair
// with figures, one without an interval.
func fixedComparison(t *testing.T) *Comparison {
	a, b, c := fixedResult(t), fixedResult(t), fixedResult(t)
	a.Name, b.Name, c.Name = "old", "new", "newer"
	a.Latency, b.Latency, c.Latency, a.Parallel, b.Parallel, c.Parallel = nil, nil, nil, nil, nil, nil
	return &Comparison{Results: []*Benchmark{a, b, c}, Iterations: 1000, Order: [][]int{{0, 1, 2}, {2, 1, 0}},
		Pairs: []Pair{
			{A: "old", B: "new", Ratios: []float64{1.5, 1.52}, Median: 1.51, CI: stats.Interval{Lo: 1.49, Hi: 1.53, Confidence: 0.95, Method: "order-statistic"},
				P: 0.002, Significant: true, Verdict: "new is 1.51x faster than old [1.49, 1.53]"},
			{A: "old", B: "newer", Ratios: []float64{1, 1.1}, Median: 1.05, CIErr: "too few rounds", P: 0.5},
		}}
}

// TestDocumentGolden: the JSON of Document and Comparison.Document of
// the hand-built results is the golden one (testdata/document*.json; go
// test -update rewrites them).
func TestDocumentGolden(t *testing.T) {
	m := result.Meta{Tool: result.Tool{Name: "chronograph/bench", Version: "test"}}
	for name, d := range map[string]*result.Document{
		"document.json":         Document(m, fixedResult(t)),
		"document-compare.json": fixedComparison(t).Document(m),
	} {
		var b bytes.Buffer
		if err := result.Encode(&b, d); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "testdata/"+name, b.Bytes())
	}
}
