package bench

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// TestAnalyzeCounters checks the subtraction of the empty samples' counts
// (their minimum, per event), the per-op figures, IPC, clamping and
// events missing from some samples, on made-up samples.
func TestAnalyzeCounters(t *testing.T) {
	insn, cyc := counters.Event{Name: "instructions", Unit: "count"}, counters.Event{Name: "cycles", Unit: "count"}
	tc := counters.Event{Name: "task-clock", Unit: "ns"}
	empty := []Sample{
		{Iterations: 1, Counters: map[string]float64{"instructions": 600, "cycles": 900, "task-clock": 2100}},
		{Iterations: 1, Counters: map[string]float64{"instructions": 500, "cycles": 800, "task-clock": 2000}},
	}
	tests := []struct {
		name      string
		samples   []Sample
		wantInsn  float64 // median instructions/op
		wantIPC   float64 // 0: no IPC
		wantN     int     // samples that counted instructions
		wantTC    float64
		wantUnavl int
	}{
		{"net", []Sample{
			{Iterations: 100, Counters: map[string]float64{"instructions": 100500, "cycles": 50800, "task-clock": 12000}},
			{Iterations: 200, Counters: map[string]float64{"instructions": 200500, "cycles": 100800, "task-clock": 22000}},
			{Iterations: 100, Counters: map[string]float64{"instructions": 100500, "cycles": 50800, "task-clock": 12000}},
		}, 1000, 2, 3, 100, 0},
		{"missing in one sample", []Sample{
			{Iterations: 100, Counters: map[string]float64{"instructions": 100500, "task-clock": 12000}},
			{Iterations: 100, Counters: map[string]float64{"task-clock": 12000}},
		}, 1000, 0, 1, 100, 1},
		{"below the overhead clamps at 0", []Sample{
			{Iterations: 10, Counters: map[string]float64{"instructions": 400, "cycles": 700, "task-clock": 1000}},
		}, 0, 0, 1, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Benchmark{Samples: tt.samples}
			r.analyzeCounters([]counters.Event{insn, cyc, tc}, nil, nil, counterOverhead(empty))
			got := map[string]Counter{}
			for _, c := range r.Counters {
				got[c.Event] = c
			}
			if c, ok := got["instructions"]; !ok || c.PerOp.Median != tt.wantInsn || c.Samples != tt.wantN || c.OverheadPerSample != 500 {
				t.Errorf("instructions %+v, want median %v over %d samples, overhead 500", c, tt.wantInsn, tt.wantN)
			}
			if c := got["task-clock"]; c.PerOp.Median != tt.wantTC || c.OverheadPerSample != 2000 || c.PerOpName() != "task-clock-ns/op" {
				t.Errorf("task-clock %+v (%s), want median %v, overhead 2000", c, c.PerOpName(), tt.wantTC)
			}
			switch {
			case tt.wantIPC == 0 && r.IPC != nil:
				t.Errorf("IPC %v, want none", r.IPC.Median)
			case tt.wantIPC != 0 && (r.IPC == nil || math.Abs(r.IPC.Median-tt.wantIPC) > 1e-9):
				t.Errorf("IPC %v, want %v", r.IPC, tt.wantIPC)
			}
			if len(r.CountersUnavailable) != tt.wantUnavl {
				t.Errorf("unavailable %v, want %d", r.CountersUnavailable, tt.wantUnavl)
			}
			// The document has one value per counting sample, never a 0
			// for a sample that did not count.
			m := r.measurements()[0]
			c := m.Detail.Function.Counters[0]
			if mt := m.Metric("instructions"); tt.wantN == len(tt.samples) {
				if mt == nil || len(mt.Values) != tt.wantN || c.PartialPerOp != nil {
					t.Errorf("document: instructions metric %+v, partial %v; want %d values", mt, c.PartialPerOp, tt.wantN)
				}
			} else if mt != nil || len(c.PartialPerOp) != tt.wantN || len(c.PartialSamples) != tt.wantN {
				t.Errorf("document: instructions metric %+v, partial %v at %v; want no metric and %d partial values", mt, c.PartialPerOp, c.PartialSamples, tt.wantN)
			}
		})
	}
}

func softwareOrSkip(t *testing.T) counters.Availability {
	t.Helper()
	a := counters.Available()
	if !a.Software {
		t.Skipf("software counters are not available here: %s", a.SoftwareReason)
	}
	return a
}

func countedSum(b *B) {
	xs := make([]uint64, 2000)
	for i := range xs {
		xs[i] = uint64(i)
	}
	for b.Loop() {
		var s uint64
		for _, x := range xs {
			s += x
		}
		b.Keep(s)
	}
}

// TestCountersSoftware counts software events for real: task-clock per
// op agrees loosely with the thread's CPU time per op, every sample has
// it, and the empty sample's task-clock (the reads) is subtracted.
func TestCountersSoftware(t *testing.T) {
	softwareOrSkip(t)
	evs, err := counters.ParseEvents("task-clock,context-switches,page-faults")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run("sum", countedSum, &Options{Target: 2 * time.Millisecond, Samples: 8, WarmupSamples: 1, Counters: evs})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.CountersUnavailable) > 0 {
		t.Errorf("unavailable: %v", r.CountersUnavailable)
	}
	if len(r.Counters) != 3 {
		t.Fatalf("counters %+v, want 3", r.Counters)
	}
	for _, s := range r.Samples {
		if _, ok := s.Counters["task-clock"]; !ok {
			t.Errorf("a sample without task-clock: %v", s.Counters)
		}
	}
	tc := r.Counters[0]
	var cpu []float64
	for _, s := range r.Samples {
		cpu = append(cpu, s.cpuNsPerOp())
	}
	cpuMed := stats.Median(cpu)
	if tc.Event != "task-clock" || tc.OverheadPerSample <= 0 || tc.PerOp.Median <= 0 {
		t.Errorf("task-clock %+v", tc)
	}
	if cpuMed > 0 && (tc.PerOp.Median < cpuMed/3 || tc.PerOp.Median > cpuMed*3) {
		t.Errorf("task-clock %v ns/op, thread CPU time %v ns/op: want them to agree loosely", tc.PerOp.Median, cpuMed)
	}
	if txt := textOf(t, r); !strings.Contains(txt, "counters per op") || !strings.Contains(txt, "task-clock") {
		t.Errorf("text without counters:\n%s", txt)
	}
	if m := r.measurements()[0].Metric("task-clock"); m == nil || m.Unit != "ns/op" || len(m.Values) != len(r.Samples) {
		t.Errorf("document without a task-clock ns/op metric per sample: %+v", m)
	}
}

var hwEvents = "instructions,cycles,branch-misses"

// TestCountersHardware needs a PMU: instructions per op of a sum of 2000
// are at least 2000, and IPC is reported.
func TestCountersHardware(t *testing.T) {
	a := softwareOrSkip(t)
	if !a.Hardware {
		t.Skipf("hardware counters: %s", a.HardwareReason)
	}
	evs, _ := counters.ParseEvents(hwEvents)
	r, err := Run("sum", countedSum, &Options{Target: 2 * time.Millisecond, Samples: 8, WarmupSamples: 1, Counters: evs})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Counters) != 3 || r.Counters[0].PerOp.Median < 2000 || r.IPC == nil || r.IPC.Median <= 0 {
		t.Errorf("counters %+v, IPC %v", r.Counters, r.IPC)
	}
}

// TestCountersNoPMU runs where hardware counters are missing (a VM): the
// events are listed once with the reason, never shown as 0, and neither
// the table, the document nor the adapter report them.
func TestCountersNoPMU(t *testing.T) {
	a := softwareOrSkip(t)
	if a.Hardware {
		t.Skip("this host has hardware counters: TestCountersHardware covers it")
	}
	evs, _ := counters.ParseEvents("task-clock," + hwEvents)
	opts := &Options{Target: time.Millisecond, Samples: 6, WarmupSamples: 1, Counters: evs}
	r, err := Run("sum", countedSum, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Counters) != 1 || r.Counters[0].Event != "task-clock" || r.IPC != nil {
		t.Errorf("counters %+v, IPC %v: want task-clock only", r.Counters, r.IPC)
	}
	if len(r.CountersUnavailable) != 3 {
		t.Errorf("unavailable %+v, want the 3 hardware events", r.CountersUnavailable)
	}
	for _, s := range r.Samples {
		if _, ok := s.Counters["instructions"]; ok {
			t.Errorf("a sample has instructions: %v", s.Counters)
		}
	}
	if txt := textOf(t, r, r); strings.Count(txt, "\ncounters: ") != 1 {
		t.Errorf("%d 'counters: ... not available' lines, want 1:\n%s", strings.Count(txt, "\ncounters: "), txt)
	}
	m := r.measurements()[0]
	for _, name := range []string{"instructions", "cycles", "branch-misses", "ipc"} {
		if m.Metric(name) != nil {
			t.Errorf("document has %s", name)
		}
	}
	if u := m.Detail.Function.CountersUnavailable; len(u) != 3 {
		t.Errorf("document lists %+v as unavailable, want the 3 hardware events", u)
	}
}

// TestCountHardware: the instruction mode's native counts
// (Instructions.Hardware) are counted over hardwareSamples samples of
// the calibrated size, net of an empty sample's, and become the
// measurement's metrics and detail; the default, the hardware's
// user-space instructions, is either counted (a PMU) or listed as
// unavailable with the reason (no PMU), never a 0; NoHardware counts none.
func TestCountHardware(t *testing.T) {
	a := softwareOrSkip(t)
	s, err := newSetup(&Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 2000
	tc, err := counters.ParseEvents("task-clock")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		in    Instructions
		event string
	}{
		{"software", Instructions{Hardware: tc}, "task-clock"},
		{"default", Instructions{}, "instructions:u"},
		{"none", Instructions{NoHardware: true}, ""},
	} {
		evs, err := tt.in.hardware()
		if err != nil {
			t.Fatal(err)
		}
		r := &Benchmark{Name: "sum", Iterations: n,
			Instructions: &result.FunctionInstructionsMode{Iterations: []int{1, 2}}, Simulated: []SimulatedFigure{{Name: "instructions", PerRepeat: []float64{7}}}}
		if len(evs) > 0 {
			if err := r.countHardware(countedSum, s, evs, n); err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
		}
		m := r.instructionsMeasurement(result.FunctionClock{})
		fd := m.Detail.Function
		if tt.event == "" {
			if len(r.Counters)+len(r.CountersUnavailable)+len(fd.Counters) != 0 || len(m.Metrics) != 2 {
				t.Errorf("%s: counters %+v, unavailable %+v, metrics %d", tt.name, r.Counters, r.CountersUnavailable, len(m.Metrics))
			}
			continue
		}
		met := m.Metric(tt.event)
		counted := tt.event == "task-clock" || a.Hardware
		switch {
		case counted && (met == nil || len(met.Values) != hardwareSamples || len(r.HardwareSamples) != hardwareSamples || len(fd.Counters) != 1):
			t.Errorf("%s: metric %+v, %d samples, detail %+v", tt.name, met, len(r.HardwareSamples), fd.Counters)
		case counted:
			for _, v := range met.Values {
				if !(v > 0) {
					t.Errorf("%s: %s values %v: not all positive", tt.name, tt.event, met.Values)
					break
				}
			}
			if fd.Counters[0].Event != tt.event || fd.Counters[0].OverheadPerSample <= 0 {
				t.Errorf("%s: detail %+v: no overhead subtracted", tt.name, fd.Counters[0])
			}
		case met != nil || len(fd.CountersUnavailable) != 1 || fd.CountersUnavailable[0].Event != tt.event || fd.CountersUnavailable[0].Reason == "":
			t.Errorf("%s: no PMU, but metric %+v, unavailable %+v", tt.name, met, fd.CountersUnavailable)
		}
	}
}
