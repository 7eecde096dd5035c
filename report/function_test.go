package report

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/warn"
)

// functionMetric is a metric of a function measurement.
func functionMetric(name, u string, res float64, xs []float64) result.Metric {
	return result.Metric{Name: name, Unit: u, Resolution: res, Values: xs}
}

// batchMeasurement is a batch measurement as package bench writes it:
// samples of ns per op in blocks of two, alternating between CPUs 0 and
// 1 (the second 10 % slower when slow1 is set), with thread CPU time,
// allocations, rusage and the task-clock and instructions counters.
func batchMeasurement(name string, base float64, slow1 bool) result.Measurement {
	var wall, iters, ticks, cpuT, allocs, bytes, gcs, zeros, cpus, taskClock, instr []float64
	var partialIdx []int
	var partial []float64
	for i := range 8 {
		block := i / 2
		cpu := float64(block % 2)
		v := base + float64(i%2)*0.01*base
		if slow1 && cpu == 1 {
			v *= 1.1
		}
		n := 1000 + 25*float64(i)
		wall = append(wall, v)
		iters = append(iters, n)
		ticks = append(ticks, math.Round(v*n/0.4))
		cpuT = append(cpuT, 0.98*v)
		allocs, bytes, gcs, zeros = append(allocs, 0), append(bytes, 0), append(gcs, 0), append(zeros, 0)
		cpus = append(cpus, cpu)
		taskClock = append(taskClock, 0.99*v)
		if i != 3 {
			instr = append(instr, 2000+float64(i))
			partialIdx = append(partialIdx, i)
		}
	}
	partial = instr
	cpuRead, mad := 650.0, 12.0
	return result.Measurement{
		Name: name, Primary: "wall",
		Metrics: []result.Metric{
			functionMetric("wall", result.UnitNsPerOp, 0.4/1000, wall),
			functionMetric("cpu_time", result.UnitNsPerOp, 1.0/1000, cpuT),
			functionMetric("allocs", result.UnitCountPerOp, 1.0/1000, allocs),
			functionMetric("bytes", result.UnitBytesPerOp, 1.0/1000, bytes),
			functionMetric("iterations", result.UnitCount, 1, iters),
			functionMetric("ticks", result.UnitCount, 1, ticks),
			functionMetric("gc_cycles", result.UnitCount, 1, gcs),
			functionMetric("vol_ctx_switches", result.UnitCount, 1, zeros),
			functionMetric("cpu", result.UnitCPU, 1, cpus),
			functionMetric("cpu_end", result.UnitCPU, 1, cpus),
			functionMetric("task-clock", result.UnitNsPerOp, 1.0/1000, taskClock),
		},
		Warnings: []warn.Warning{warn.New("test", "a warning of the benchmark", "its next step")},
		Detail: result.KindDetail{Function: &result.FunctionDetail{
			Mode: result.FunctionBatch, Benchmark: name,
			Clock:       result.FunctionClock{Name: "tsc", TickNs: 0.4, ReadNs: 9.7},
			Calibration: &result.FunctionCalibration{TargetNs: 1e7, GoalNs: 1e7, Iterations: 1000, JitterMax: 0.2, Trials: []result.FunctionTrial{{Iterations: 1, WallNs: 900}, {Iterations: 10, WallNs: 1100}}},
			Warmup:      []result.FunctionTrial{{Iterations: 1000, WallNs: base * 1000 * 1.2}, {Iterations: 1010, WallNs: base * 1010 * 1.1}},
			Overhead:    &result.FunctionOverhead{LoopNsPerOp: 0.48, LoopNsPerOpHigh: 0.52, TimerPairNs: 3085, TimerPairInsideNs: 22, CPUReadNs: &cpuRead, CPUReadMADNs: &mad},
			Placement:   &result.FunctionPlacement{Allowed: 2, BlockSizes: []int{2, 2, 2, 2}, BlockCPUs: []int{0, 1, 0, 1}},
			Counters: []result.FunctionCounter{
				{Event: "task-clock", Unit: "ns", OverheadPerSample: 2000, Samples: 8},
				{Event: "instructions", Unit: "count", OverheadPerSample: 500, Samples: 7, Scaled: true, Note: "user space only", PartialPerOp: partial, PartialSamples: partialIdx},
			},
			CountersUnavailable: []result.FunctionCounterUnavailable{{Event: "cycles", Reason: "no PMU"}, {Event: "branch-misses", Reason: "no PMU"}},
		}},
	}
}

// functionDoc is a function document with every mode: a batch
// measurement whose CPUs differ, its latency, cold and parallel modes,
// and a second benchmark pinned to one CPU without CPU time.
func functionDoc() *result.Document {
	d := result.New(result.KindFunction, result.Meta{Tool: result.Tool{Name: "chronograph/bench", Version: "test"}})
	d.Start = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	d.End = d.Start.Add(3 * time.Second)
	d.Environment = &env.Host{CPU: env.CPU{Model: "Test CPU", LogicalCPUs: 2},
		Go:       env.Go{Version: "go1.26.0", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 2, NumCPU: 2},
		Warnings: []warn.Warning{warn.New("hypervisor", "running under a hypervisor", "measure on bare metal")}}
	a := batchMeasurement("sum/n=100", 171.3, true)
	b := batchMeasurement("sum/n=1000", 1523.7, false)
	b.Metrics = b.Metrics[:1] // wall only: no CPU time, counts or CPUs here
	b.Metrics = append(b.Metrics, functionMetric("iterations", result.UnitCount, 1, a.Metric("iterations").Values))
	fb := *b.Detail.Function
	fb.Placement = &result.FunctionPlacement{Pinned: true, Allowed: 2, BlockSizes: []int{2, 2, 2, 2}, BlockCPUs: []int{1, 1, 1, 1}}
	fb.Overhead = &result.FunctionOverhead{LoopNsPerOp: 0.48, LoopNsPerOpHigh: 0.52, TimerPairNs: 3085, TimerPairInsideNs: 22}
	fb.Counters, fb.CountersUnavailable = nil, nil
	b.Detail.Function, b.Warnings = &fb, nil

	sd := 12.5
	lat := result.Measurement{Name: "sum/n=100/latency", Primary: "latency",
		Metrics: []result.Metric{{Name: "latency", Unit: result.UnitNs, Resolution: 1,
			Histogram: &result.Histogram{Bounds: []float64{160, 170, 180, 200, 400}, Counts: []int64{100, 700, 190, 10},
				Min: 161, Max: 390, Mean: 176.2, StdDev: &sd}}},
		Warnings: []warn.Warning{warn.New("latency-few-ops", "only 1000 operations timed: p99.9 needs at least 1000", "raise Options.Samples or Options.Target")},
		Detail: result.KindDetail{Function: &result.FunctionDetail{Mode: result.FunctionLatency, Benchmark: "sum/n=100",
			Clock:   result.FunctionClock{Name: "tsc", TickNs: 0.4, ReadNs: 9.7},
			Latency: &result.FunctionLatencyMode{Ops: 1000, OpsPerSample: 125, ReadOverheadNs: 20.3, SignificantDigits: 3}}}}
	cold := result.Measurement{Name: "sum/n=100/cold", Primary: "wall",
		Metrics: []result.Metric{functionMetric("wall", result.UnitNsPerOp, 0.4, []float64{2400, 1800.4, 2033.2})},
		Detail: result.KindDetail{Function: &result.FunctionDetail{Mode: result.FunctionCold, Benchmark: "sum/n=100",
			Clock: result.FunctionClock{Name: "tsc", TickNs: 0.4, ReadNs: 9.7}}}}
	par := result.Measurement{Name: "sum/n=100/parallel", Primary: "wall",
		Metrics: []result.Metric{
			functionMetric("wall", result.UnitNsPerOp, 0.4/2000, []float64{90, 92, 91, 95}),
			functionMetric("elapsed", result.UnitNs, 0.4, []float64{180000, 184000, 182000, 190000}),
			functionMetric("worker0", result.UnitNsPerOp, 0.4/1000, []float64{175, 180, 178, 186}),
			functionMetric("worker1", result.UnitNsPerOp, 0.4/1000, []float64{179, 183, 181, 189}),
		},
		Detail: result.KindDetail{Function: &result.FunctionDetail{Mode: result.FunctionParallel, Benchmark: "sum/n=100",
			Clock:    result.FunctionClock{Name: "tsc", TickNs: 0.4, ReadNs: 9.7},
			Parallel: &result.FunctionParallelMode{Workers: 2, Iterations: 1000}}}}
	d.Measurements = []result.Measurement{a, lat, cold, par, b}
	return d
}

// compareDoc is a document of bench.Compare: "new" takes half the time
// of "old" in every one of 8 interleaved rounds.
func compareDoc() *result.Document {
	d := functionDoc()
	old := batchMeasurement("old", 200, false)
	nw := batchMeasurement("new", 100, false)
	for _, m := range []*result.Measurement{&old, &nw} {
		m.Warnings = nil
		m.Detail.Function.Counters, m.Detail.Function.CountersUnavailable = nil, nil
		m.Metrics = m.Metrics[:len(m.Metrics)-1] // no counters
	}
	d.Measurements = []result.Measurement{old, nw}
	d.Run.Function = &result.FunctionRun{Compare: &result.FunctionCompare{Cases: []string{"old", "new"}, Iterations: 1000,
		Order: [][]int{{0, 1}, {1, 0}, {1, 0}, {0, 1}, {0, 1}, {1, 0}, {1, 0}, {0, 1}}}}
	// A stored verdict that the samples contradict: the view recomputes.
	d.Comparisons = []result.Comparison{{A: "old", B: "new", Metric: "wall", Ratio: 1.545, Lo: 1.5, Hi: 1.6, Verdict: "stale"}}
	return d
}

func TestFunctionGolden(t *testing.T) {
	tests := []struct {
		name string
		doc  func() *result.Document
		f    Format
		o    Options
	}{
		{"function.txt", functionDoc, Text, Options{}},
		{"function.md", functionDoc, Markdown, Options{}},
		{"function.csv", functionDoc, CSV, Options{Percentiles: []float64{50, 90, 99}}},
		{"function.benchfmt", functionDoc, Benchfmt, Options{}},
		{"function-compare.txt", compareDoc, Text, Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(&b, Subject{Docs: []*result.Document{tt.doc()}}, tt.f, tt.o); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, b.Bytes())
		})
	}
}

// TestFunctionViewRecomputes: the interval, the per-CPU medians and a
// comparison's verdict come from the samples, not from what the document
// stores.
func TestFunctionViewRecomputes(t *testing.T) {
	d := compareDoc()
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "old vs new: new is 2.00x faster than old [") || strings.Contains(out, "stale") || strings.Contains(out, "1.545") {
		t.Errorf("the verdict is not recomputed from the rounds:\n%s", out)
	}
	d = functionDoc()
	b.Reset()
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	out = b.String()
	for _, want := range []string{"per CPU (samples): CPU 0 ", "spread: 4 blocks over CPUs 0-1 of the 2 allowed", "pinned to CPU 1 (Options.Pin)",
		"instructions 2004 (in 7 of 8 samples) (scaled) (user space only)", "counters: cycles, branch-misses: not available: no PMU"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	// A figure that was not measured is shown as missing, never as 0.
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "sum/n=1000 ") && !strings.Contains(l, "–") {
			t.Errorf("sum/n=1000 has no CPU time, allocations or bytes, but its row shows no missing figure: %q", l)
		}
	}
}

// TestFunctionDamaged: a document whose blocks do not hold its samples is
// an error that says so, not a wrong interval.
func TestFunctionDamaged(t *testing.T) {
	d := functionDoc()
	d.Measurements[0].Detail.Function.Placement.BlockSizes = []int{2, 2}
	err := Render(&bytes.Buffer{}, Subject{Docs: []*result.Document{d}}, Text, Options{})
	if err == nil || !strings.Contains(err.Error(), "its blocks hold 4 samples, its metrics 8") {
		t.Errorf("err = %v", err)
	}
}

// TestFunctionV1: a version 1 function document (untyped details) gets
// the generic view.
func TestFunctionV1(t *testing.T) {
	v1 := `{"schema":"chronograph.result","version":1,"kind":"function","start":"2026-11-30T12:00:00Z","end":"2026-11-30T12:00:01Z",
"measurements":[{"name":"sum","primary":"wall","metrics":[{"name":"wall","unit":"ns/op","values":[10,11,12,13,14,15]},{"name":"allocs","unit":"allocs/op","values":[0,0,0,0,0,0]}],"details":{"clock":"tsc"}}]}`
	d, err := result.Unmarshal([]byte(v1))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{All: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "sum          wall") || !strings.Contains(b.String(), "count/op") && !strings.Contains(b.String(), "allocs") {
		t.Errorf("v1 document:\n%s", b.String())
	}
}

// TestBenchfmtParses: benchstat's reader (x/perf/benchfmt) reads the Go
// benchmark format rendering: one result per sample of the batch, cold
// and parallel measurements, one for the latency mode, with the
// configuration of the environment and every unit.
func TestBenchfmtParses(t *testing.T) {
	d := functionDoc()
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Benchfmt, Options{}); err != nil {
		t.Fatal(err)
	}
	rd := benchfmt.NewReader(bytes.NewReader(b.Bytes()), "function.benchfmt")
	count := map[string]int{}
	units := map[string]map[string]bool{}
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Fatalf("benchfmt: %v", rec)
		case *benchfmt.Result:
			name := string(rec.Name)
			count[name]++
			if units[name] == nil {
				units[name] = map[string]bool{}
			}
			for _, v := range rec.Values {
				u := v.OrigUnit
				if u == "" {
					u = v.Unit
				}
				units[name][u] = true
			}
			if got := rec.GetConfig("goos"); got != "linux" {
				t.Errorf("%s: goos %q", name, got)
			}
			if got := rec.GetConfig("cpu"); got != "Test CPU" {
				t.Errorf("%s: cpu %q", name, got)
			}
			if name == "Sum/n=100-2" && rec.Iters < 1000 {
				t.Errorf("%s: %d iterations, want the sample's", name, rec.Iters)
			}
			if name == "Sum/n=100/parallel-2" && rec.Iters != 2000 {
				t.Errorf("%s: %d iterations, want both workers' 2000", name, rec.Iters)
			}
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"Sum/n=100-2": 8, "Sum/n=100/latency-2": 1, "Sum/n=100/cold-2": 3, "Sum/n=100/parallel-2": 4, "Sum/n=1000-2": 8}
	for name, n := range want {
		if count[name] != n {
			t.Errorf("%s: %d results, want %d (all: %v)", name, count[name], n, count)
		}
	}
	for _, u := range []string{"ns/op", "cpu-ns/op", "B/op", "allocs/op", "task-clock-ns/op"} {
		if !units["Sum/n=100-2"][u] {
			t.Errorf("batch results lack %s: %v", u, units["Sum/n=100-2"])
		}
	}
	// instructions were not counted in every sample: no per-sample figure.
	if units["Sum/n=100-2"]["instructions/op"] {
		t.Error("a partially counted event is written per sample")
	}
	if !units["Sum/n=100/latency-2"]["p99-ns/op"] {
		t.Errorf("latency units %v", units["Sum/n=100/latency-2"])
	}
}

// TestBenchfmtOtherKinds: documents of other kinds are refused with an
// error that says what benchfmt holds and which formats to use.
func TestBenchfmtOtherKinds(t *testing.T) {
	err := Render(&bytes.Buffer{}, Subject{Docs: []*result.Document{doc(1)}}, Benchfmt, Options{})
	if err == nil || !strings.Contains(err.Error(), "this is a custom document: use --format text, markdown, csv or json") {
		t.Errorf("err = %v", err)
	}
	if f, err := ParseFormat("benchfmt"); err != nil || f != Benchfmt {
		t.Errorf("ParseFormat(benchfmt) = %v, %v", f, err)
	}
}

func TestBenchfmtName(t *testing.T) {
	for _, tt := range []struct {
		name  string
		procs int
		want  string
	}{
		{"sum/n=10", 2, "BenchmarkSum/n=10-2"},
		{"BenchmarkSum", 1, "BenchmarkSum"},
		{"a b\tc", 0, "BenchmarkA_b_c"},
		{"", 4, "Benchmark_-4"},
		{"état", 1, "BenchmarkÉtat"},
	} {
		if got := benchfmtName(tt.name, tt.procs); got != tt.want {
			t.Errorf("benchfmtName(%q, %d) = %q, want %q", tt.name, tt.procs, got, tt.want)
		}
	}
}
