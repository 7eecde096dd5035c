package env

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/warn"
)

func TestAnalyzeCPUSpeed(t *testing.T) {
	t.Run("differ", func(t *testing.T) {
		// CPU 1 takes 35.6 % longer at best (as on a host whose second
		// vCPU shares a core with busy work); a slow trial on CPU 0 (a
		// preemption) does not count.
		s := analyzeCPUSpeed(map[int][]float64{0: {310, 306, 900}, 1: {415, 420, 416}}, nil, "m", time.Millisecond)
		if len(s.CPUs) != 2 || s.CPUs[0].LoopNs != 306 || s.CPUs[1].LoopNs != 415 || s.CPUs[0].Trials != 3 {
			t.Fatalf("CPUs %+v", s.CPUs)
		}
		if s.CPUs[0].Relative != 1 || math.Abs(s.CPUs[1].Relative-306.0/415) > 1e-12 {
			t.Errorf("relative %v, %v", s.CPUs[0].Relative, s.CPUs[1].Relative)
		}
		if math.Abs(s.Spread-(415.0/306-1)) > 1e-12 || !s.Differ {
			t.Errorf("spread %v differ %v", s.Spread, s.Differ)
		}
		w := speedWarning(s)
		for _, want := range []string{"took up to 36% longer", "relative speed CPU 0 1.00, CPU 1 0.74", "`taskset -c 0`", "--pin 0", "Options.Pin"} {
			if !strings.Contains(w, want) {
				t.Errorf("warning %q lacks %q", w, want)
			}
		}
	})
	t.Run("threshold", func(t *testing.T) {
		for _, tt := range []struct {
			slow float64
			want bool
		}{{104.9, false}, {105.1, true}} {
			s := analyzeCPUSpeed(map[int][]float64{0: {100}, 1: {tt.slow}}, nil, "m", 0)
			if s.Differ != tt.want || (speedWarning(s) != "") != tt.want {
				t.Errorf("100 vs %v: differ %v, want %v", tt.slow, s.Differ, tt.want)
			}
		}
	})
	t.Run("unmeasured", func(t *testing.T) {
		s := analyzeCPUSpeed(map[int][]float64{0: {100}, 1: nil}, map[int]string{1: "the time bound of 50ms ran out first", 7: "could not pin"}, "m", 0)
		if len(s.CPUs) != 1 || s.Differ || s.Unmeasured["1"] == "" || s.Unmeasured["7"] != "could not pin" {
			t.Errorf("%+v", s)
		}
		if txt := s.String(); !strings.Contains(txt, "only CPU 0 measured") || !strings.Contains(txt, "not measured: CPUs 1,7 (could not pin; the time bound of 50ms ran out first)") {
			t.Errorf("text %q", txt)
		}
	})
}

func TestSpeedClasses(t *testing.T) {
	// A hybrid CPU: 8 performance cores, 8 efficiency cores ~60 % slower.
	trials := map[int][]float64{}
	for c := range 16 {
		ns := 100.0 + float64(c%3)
		if c >= 8 {
			ns = 160 + float64(c%2)
		}
		trials[c] = []float64{ns}
	}
	s := analyzeCPUSpeed(trials, nil, "best of 5", 2*time.Millisecond)
	if got, want := classesText(s.CPUs), "CPUs 0-7 0.98-1.00, CPUs 8-15 0.62"; got != want {
		t.Errorf("classes %q, want %q", got, want)
	}
	if got := s.String(); !strings.HasPrefix(got, "differ: the slowest takes 61% longer; relative speed CPUs 0-7 0.98-1.00, CPUs 8-15 0.62 (best of 5; 2ms)") {
		t.Errorf("text %q", got)
	}
	alike := analyzeCPUSpeed(map[int][]float64{0: {100}, 1: {101}, 2: {100.5}}, nil, "best of 5", 0)
	if got := alike.String(); !strings.HasPrefix(got, "alike: CPUs 0-2 within 1.0%") {
		t.Errorf("text %q", got)
	}
}

// TestCaptureCPUSpeed wires an injected measurement through the capture:
// the field, the warning, the text row and the JSON.
func TestCaptureCPUSpeed(t *testing.T) {
	measured := analyzeCPUSpeed(map[int][]float64{0: {306}, 1: {415}}, nil, "best of 5 trials of a fixed loop per CPU, at most 50ms", time.Millisecond)
	h := captureFrom(crosstest.TempDir(t), probes{cpuSpeed: func() (*CPUSpeed, error) { return measured, nil }})
	if h.CPUSpeed != measured || h.Reason("cpu_speed") != "" {
		t.Fatalf("cpu speed %+v, reason %q", h.CPUSpeed, h.Reason("cpu_speed"))
	}
	found := false
	for _, w := range h.Warnings {
		found = found || (w.Code == "cpu-speed" && w.Severity == warn.Warn)
	}
	if !found {
		t.Errorf("no cpu-speed warning in %+v", h.Warnings)
	}
	if got, want := h.CPUSpeed.String(), "differ: the slowest takes 36% longer; relative speed CPU 0 1.00, CPU 1 0.74 (best of 5 trials of a fixed loop per CPU, at most 50ms; 1ms)"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	js, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"cpu_speed":{"cpus":[{"cpu":0,"loop_ns":306,"trials":1,"relative":1},{"cpu":1,"loop_ns":415,"trials":1,"relative":0.7373493975903614}],"spread":0.35620915032679745,"differ":true`) {
		t.Errorf("JSON: %s", js)
	}

	failed := captureFrom(crosstest.TempDir(t), probes{cpuSpeed: func() (*CPUSpeed, error) { return nil, errors.New("env: sched_getaffinity: EPERM") }})
	if failed.CPUSpeed != nil || !strings.Contains(failed.Reason("cpu_speed"), "sched_getaffinity: EPERM") {
		t.Errorf("failed probe: %+v, reason %q", failed.CPUSpeed, failed.Reason("cpu_speed"))
	}
	none := captureFrom(crosstest.TempDir(t), probes{reason: "not probed in this test"})
	if none.CPUSpeed != nil || none.Reason("cpu_speed") != "not probed in this test" {
		t.Errorf("no probe: reason %q", none.Reason("cpu_speed"))
	}
}
