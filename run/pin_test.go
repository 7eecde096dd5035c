package run

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/report"
)

// cpuFake is an executor whose runs take the wall time of the CPU the
// bench last pinned its thread to (a fake, so no thread is pinned).
type cpuFake struct {
	cpu   *int
	walls map[int]time.Duration
	cpus  []int // the CPU of every run, in order (overhead runs included)
}

func (f *cpuFake) run(spec *execSpec) (Sample, []byte, error) {
	f.cpus = append(f.cpus, *f.cpu)
	s := Sample{MaxRSSBytes: 1 << 20, User: time.Millisecond, Sys: time.Millisecond}
	if spec.argv[len(spec.argv)-1] == "" { // the shell's empty command
		s.Wall = time.Millisecond
		return s, nil, nil
	}
	s.Wall = f.walls[*f.cpu] + time.Duration(len(f.cpus))*time.Microsecond // a little spread
	return s, nil, nil
}
func (f *cpuFake) cancel() {}

func runPinned(t *testing.T, pin []int, walls map[int]time.Duration, opts Options, lines ...string) (*Benchmark, *cpuFake) {
	t.Helper()
	cpu := -1
	f := &cpuFake{cpu: &cpu, walls: walls}
	opts.Pin = pin
	b, err := newBench(fakeCommands(t, lines...), opts, f)
	if err != nil {
		t.Fatal(err)
	}
	b.pinTo = func(c int) error { cpu = c; return nil }
	if len(pin) == 1 {
		cpu = pin[0] // Run pins the thread to a single CPU before the loop
	}
	defer b.close()
	b.loop()
	return b.rep, f
}

// TestPinRotates: with --pin 0,1 the runs alternate between the CPUs (all
// commands of a round on the same CPU), every run's CPU is recorded, and
// CPUs that differ by 35 % are reported per CPU with an interval that
// spans them.
func TestPinRotates(t *testing.T) {
	walls := map[int]time.Duration{0: 20 * time.Millisecond, 1: 27 * time.Millisecond}
	rep, f := runPinned(t, []int{0, 1}, walls, Options{Runs: 10, Warmup: 2}, "A", "B")
	for _, res := range rep.Results {
		want := []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}
		if !slices.Equal(res.CPUs, want) {
			t.Errorf("%s: run CPUs %v, want %v", res.Command.Name, res.CPUs, want)
		}
	}
	if !slices.Contains(f.cpus, 0) || !slices.Contains(f.cpus, 1) {
		t.Errorf("runs on CPUs %v", f.cpus)
	}
	a := rep.analyze(rep.Results[0])
	if len(a.PerCPU) != 2 || a.PerCPU[0].Runs != 5 || a.PerCPU[1].Runs != 5 || !a.CPUsDiffer {
		t.Fatalf("per CPU %+v, differ %v", a.PerCPU, a.CPUsDiffer)
	}
	// Overhead (1 ms, subtracted) comes off every run.
	if m0, m1 := a.PerCPU[0].Median, a.PerCPU[1].Median; m0 < 19e6 || m0 > 20e6 || m1 < 26e6 || m1 > 27e6 {
		t.Errorf("per-CPU medians %v, %v ns", m0, m1)
	}
	found := false
	for _, w := range a.Warnings {
		found = found || strings.HasPrefix(w.Message, "the CPUs differ: CPU 0 19.03 ms (5 runs), CPU 1 26.03 ms (5 runs)")
	}
	if !found {
		t.Errorf("no per-CPU warning: %q", warnText(a.Warnings))
	}
	d := docOf(rep)
	out := render(t, d, report.Text)
	// The median's interval spans both CPUs' medians.
	for _, want := range []string{"  per CPU:       CPU 0 19.03 ms (5 runs), CPU 1 26.03 ms (5 runs)", "95% CI [19.02 ms, 26.04 ms]"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	m := d.Measurements[0]
	cpu := m.Metric("cpu")
	if cpu == nil || cpu.Unit != "cpu" || !slices.Equal(cpu.Values, []float64{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}) || !m.Detail.Command.CPUsDiffer {
		t.Errorf("cpu metric %+v, cpus_differ %v", cpu, m.Detail.Command.CPUsDiffer)
	}
}

// TestPinAlike: CPUs within 5 % are listed per CPU but do not widen the
// interval or warn.
func TestPinAlike(t *testing.T) {
	walls := map[int]time.Duration{0: 20 * time.Millisecond, 2: 20300 * time.Microsecond}
	rep, _ := runPinned(t, []int{0, 2}, walls, Options{Runs: 12}, "A")
	a := rep.analyze(rep.Results[0])
	if len(a.PerCPU) != 2 || a.CPUsDiffer {
		t.Errorf("per CPU %+v, differ %v", a.PerCPU, a.CPUsDiffer)
	}
	for _, w := range a.Warnings {
		if w.Code == "cpus-differ" {
			t.Errorf("warning %q", w)
		}
	}
}

// TestPinOne: one CPU: every run is recorded on it, no rotation, no
// per-CPU figures.
func TestPinOne(t *testing.T) {
	pinned := 0
	cpu := 3
	f := &cpuFake{cpu: &cpu, walls: map[int]time.Duration{3: time.Millisecond}}
	b, err := newBench(fakeCommands(t, "A"), Options{Runs: 4, Pin: []int{3}}, f)
	if err != nil {
		t.Fatal(err)
	}
	b.pinTo = func(int) error { pinned++; return nil }
	defer b.close()
	b.loop()
	res := b.rep.Results[0]
	if !slices.Equal(res.CPUs, []int{3, 3, 3, 3}) || pinned != 0 {
		t.Errorf("CPUs %v, re-pinned %d times", res.CPUs, pinned)
	}
	if a := b.rep.analyze(res); len(a.PerCPU) != 0 {
		t.Errorf("per CPU %+v", a.PerCPU)
	}
	// Without --pin no CPU is claimed.
	rep, _ := runPinned(t, nil, map[int]time.Duration{-1: time.Millisecond}, Options{Runs: 3}, "A")
	if rep.Results[0].CPUs != nil {
		t.Errorf("CPUs %v without --pin", rep.Results[0].CPUs)
	}
}
