package delay

import (
	"bytes"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/golden"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/warn"
)

// fixedStudy is a sleep study built by hand: two durations, a mechanism
// on its own thread with CPU times, one on the Go runtime's threads, an
// unavailable one and one whose waits partly failed; a spin margin, the
// read cost and an interruption.
func fixedStudy() *StudyResult {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	durs := []time.Duration{100 * time.Microsecond, time.Millisecond}
	mechs := []string{"clock_nanosleep(ABS)", "delay.Sleep", "timerfd", "time.Sleep"}
	r := &StudyResult{Options: StudyOptions{Durations: durs, Mechanisms: mechs, Budget: 2 * time.Second, MaxSamples: 4,
		Settings: ThreadSettings{Priority: 10, CPUs: []int{1}}},
		Start: start, End: start.Add(2 * time.Second), Tick: 20, ReadCost: 24.5,
		Durations: durs, Mechanisms: mechs, SpinMargin: 55 * time.Microsecond, Interrupted: true}
	for _, d := range durs {
		base := float64(d)
		r.Cells = append(r.Cells,
			&Cell{Mechanism: mechs[0], Requested: d, OwnThread: true, TimerSlack: 1,
				Achieved: []float64{base + 52000, base + 51980, base + 60020, base + 52040},
				CPU:      []float64{3100, 2980, 3300, 3020}, CPUClock: "thread", CPUReadCost: 410, CPUTick: 1},
			&Cell{Mechanism: mechs[1], Requested: d, TimerSlack: -1, Achieved: []float64{base + 120, base + 80, base + 100}, Incomplete: d == time.Millisecond},
			&Cell{Mechanism: mechs[2], Requested: d, OwnThread: true, TimerSlack: -1, Unavailable: &PermissionError{Setting: "SCHED_FIFO priority 10", Err: errors.New("operation not permitted"), Fix: "run as root"}},
			&Cell{Mechanism: mechs[3], Requested: d, TimerSlack: -1, Achieved: []float64{base + 1e6}, Failed: 2, Err: errors.New("interrupted system call")})
	}
	return r
}

// fixedLatency is a latency test's result built by hand: an unpinned
// thread with its latencies split by CPU and runtime yields, a pinned
// SCHED_FIFO thread, and their merge.
func fixedLatency(t *testing.T) *LatencyResult {
	t.Helper()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := &LatencyResult{Options: LatencyOptions{Interval: 200 * time.Microsecond, Loops: 5, Threads: 2, Priority: 80, HistogramMax: 12 * time.Microsecond},
		Start: start, End: start.Add(time.Millisecond), HistogramMax: 12 * time.Microsecond, Tick: 20}
	all, err := stats.NewHistogram(1, int64(defaultHistogramRange), latencyDigits)
	if err != nil {
		t.Fatal(err)
	}
	r.All = all
	for i, lat := range [][]int64{{11900, 11950, 11910, 12300, 11920}, {11800, 11820, 11810, 11990, 11815}} {
		h, err := stats.NewHistogram(1, int64(defaultHistogramRange), latencyDigits)
		if err != nil {
			t.Fatal(err)
		}
		var mom moments
		th := ThreadLatency{Thread: i, TID: 4000 + i, CPU: -1, Interval: 200 * time.Microsecond, TimerSlack: 50000,
			Min: math.MaxInt64}
		for _, v := range lat {
			h.Record(v)
			all.Record(v)
			mom.add(float64(v))
			th.Count++
			th.Sum += time.Duration(v)
			th.Min, th.Max, th.Act = min(th.Min, time.Duration(v)), max(th.Max, time.Duration(v)), time.Duration(v)
			if v >= int64(r.HistogramMax) {
				th.Overflows++
			}
		}
		th.Avg = th.Sum / time.Duration(th.Count)
		th.StdDev = mom.stdDev()
		if i == 0 {
			th.Overruns, th.Yields, th.YieldMax = 1, 2, 30*time.Microsecond
			th.PerCPU = []result.LatencyCPU{{CPU: 0, Count: 3, MinNs: 11900, MaxNs: 12300, MeanNs: 36110.0 / 3, StdDevNs: 184.4},
				{CPU: 1, Count: 2, MinNs: 11920, MaxNs: 11950, MeanNs: 23870.0 / 2, StdDevNs: 15}}
		} else {
			th.CPU, th.Priority, th.TimerSlack = 1, 80, 0
		}
		r.Threads = append(r.Threads, th)
		r.Histograms = append(r.Histograms, h)
		r.moments = append(r.moments, mom)
	}
	return r
}

// TestDocumentGolden: the JSON of the study's and the latency test's
// documents of hand-built results is the golden one
// (testdata/{sleep,latency}.json; go test -update rewrites them).
func TestDocumentGolden(t *testing.T) {
	held := &Held{Settings: ThreadSettings{Priority: 10, CPUs: []int{1}}, MLocked: true, DMALatency: 0, BestEffort: true,
		Refused: []string{"SCHED_FIFO priority 80"}, Warnings: []warn.Warning{warn.New("setting-refused", "SCHED_FIFO priority 80 refused", "run as root")}}
	m := result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}}
	study, nothing, lat := fixedStudy(), fixedStudy(), fixedLatency(t)
	study.Held, lat.Held = held, held
	for name, d := range map[string]*result.Document{
		"sleep.json":         study.Document(m),
		"sleep-nothing.json": nothing.Document(m),
		"latency.json":       lat.Document(m),
	} {
		var b bytes.Buffer
		if err := result.Encode(&b, d); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "testdata/"+name, b.Bytes())
	}
}
