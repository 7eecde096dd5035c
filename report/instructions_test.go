package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/result"
)

// instructionDoc is a function document with one instruction-mode
// measurement: exact counts of 4,117 instructions per iteration, with or
// without the cache simulation's figures.
func instructionDoc(exact, cacheSim bool) *result.Document {
	ins := []float64{4117, 4117, 4117}
	if !exact {
		ins = []float64{4117, 4145.2, 4117}
	}
	m := result.Measurement{Name: "sum1024", Primary: "instructions", Metrics: []result.Metric{
		{Name: "instructions", Unit: result.UnitCountPerOp, Values: ins, Resolution: 1.0 / 40, Exact: exact},
		{Name: "iterations", Unit: result.UnitCount, Values: []float64{40, 40, 40}, Resolution: 1},
	}}
	mode := &result.FunctionInstructionsMode{Source: "simulated (valgrind callgrind)", Valgrind: "valgrind-3.19.0", Iterations: []int{20, 40, 60},
		Warmup: 20, Repeats: 3, Repeatable: exact, Linear: true, Events: []result.FunctionSimulatedEvent{{Event: "instructions", PerOp: 4117, Fixed: 64, Exact: true}},
		NativeNsPerOp: 294, SimulatedNsPerOp: 28591, Slowdown: 97.2, LongestRegionNs: 1.9e6, Runtime: []string{"GOMAXPROCS=1", "GOGC=off"}}
	if cacheSim {
		mode.CacheSim, mode.Caches, mode.CycleModel = true, "I1 32 KiB", "the model"
		m.Metrics = append(m.Metrics,
			result.Metric{Name: "l1_misses", Unit: result.UnitCountPerOp, Values: []float64{0.5, 0.5, 0.5}, Resolution: 1.0 / 40},
			result.Metric{Name: "ll_misses", Unit: result.UnitCountPerOp, Values: []float64{0.025, 0.025, 0.025}, Resolution: 1.0 / 40},
			result.Metric{Name: "estimated_cycles", Unit: result.UnitCountPerOp, Values: []float64{5150.5, 5150.5, 5150.5}, Resolution: 1.0 / 40})
	}
	m.Detail.Function = &result.FunctionDetail{Mode: result.FunctionInstructions, Benchmark: "sum1024", Instructions: mode}
	return &result.Document{Schema: result.Schema, Version: result.Version, Kind: result.KindFunction, Measurements: []result.Measurement{m}}
}

func TestInstructionView(t *testing.T) {
	for _, tt := range []struct {
		name            string
		exact, cacheSim bool
		text, benchfmt  []string
	}{
		{"exact", true, false,
			[]string{"sum1024:", "instructions: 4,117 per iteration, exact (3 repeats of regions of 20, 40, 60 iterations, fixed cost 64 per region (cancelled); simulated (valgrind callgrind), valgrind-3.19.0)",
				"valgrind: the loop ran 97× slower than natively (28.59 µs/op against 294.0 ns/op), longest region 1.900 ms; GOMAXPROCS=1 GOGC=off"},
			[]string{"BenchmarkSum1024\t40\t4117 instructions/op\n"}},
		{"not exact", false, false,
			[]string{"instructions: 4,117 per iteration, not exact (see the warnings; the median of the repeats)"},
			[]string{"BenchmarkSum1024\t40\t4145.2 instructions/op\n"}},
		{"cache simulation", true, true,
			[]string{"cache (simulated: I1 32 KiB): L1 misses 0.5, LL misses 0.025, estimated cycles 5,150.5 per iteration; the model"},
			[]string{"BenchmarkSum1024\t40\t4117 instructions/op\t0.5 l1-misses/op\t0.025 ll-misses/op\t5150.5 estimated-cycles/op\n"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := instructionDoc(tt.exact, tt.cacheSim)
			for f, wants := range map[Format][]string{Text: tt.text, Benchfmt: tt.benchfmt} {
				var b bytes.Buffer
				if err := Render(&b, Subject{Docs: []*result.Document{d}}, f, Options{}); err != nil {
					t.Fatal(err)
				}
				for _, w := range wants {
					if !strings.Contains(b.String(), w) {
						t.Errorf("%s lacks %q:\n%s", f, w, b.String())
					}
				}
			}
		})
	}
}

// TestGateViewExact: the gate's view of an exact metric says that it was
// compared without a test, and how.
func TestGateViewExact(t *testing.T) {
	old, cur := instructionDoc(true, false), instructionDoc(true, false)
	cur.Measurements[0].Metrics[0].Values = []float64{4157, 4157, 4157}
	g, err := compare.GateDocuments(old, cur, compare.GateOptions{Threshold: 0.005})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Render(&b, Subject{Gate: g}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 regression,", "over 0 tests; 1 exact, compared without a test)", "+0.972%  exact    no test", "exact: deterministic metrics"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the gate's text lacks %q:\n%s", want, b.String())
		}
	}
}

// TestInstructionHardware: the hardware's counts beside the simulation
// are on a line of their own, labelled as the hardware's, with the
// samples they are the median of; unavailable ones say why, never a 0.
func TestInstructionHardware(t *testing.T) {
	counted := instructionDoc(true, false)
	m := &counted.Measurements[0]
	m.Metrics = append(m.Metrics, result.Metric{Name: "instructions:u", Unit: result.UnitCountPerOp, Values: []float64{4130.5, 4131, 4129.75, 4131, 4130}, Resolution: 1.0 / 200})
	m.Detail.Function.Counters = []result.FunctionCounter{{Event: "instructions:u", Unit: "count", OverheadPerSample: 410, Samples: 5}}
	m.Detail.Function.Calibration = &result.FunctionCalibration{Iterations: 200}
	none := instructionDoc(true, false)
	none.Measurements[0].Detail.Function.CountersUnavailable = []result.FunctionCounterUnavailable{{Event: "instructions:u", Reason: "no PMU"}}
	for _, tt := range []struct {
		name string
		d    *result.Document
		want string
	}{
		{"counted", counted, "  hardware (perf_event_open, natively; the hardware's count, not the simulation's): instructions:u 4,130 per iteration (median of 5 samples of 200 iterations, net of an empty sample's counts)\n"},
		{"unavailable", none, "  hardware: instructions:u: not available: no PMU\n"},
	} {
		var b bytes.Buffer
		if err := Render(&b, Subject{Docs: []*result.Document{tt.d}}, Text, Options{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tt.want) {
			t.Errorf("%s: the text lacks %q:\n%s", tt.name, tt.want, b.String())
		}
	}
}
