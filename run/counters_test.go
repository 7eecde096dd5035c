package run

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chronograph/chronograph/counters"
)

// TestCountersReal counts software events for real in -N true (they work
// without a PMU) together with hardware events, which this host may not
// have: those must be named once with a reason and never recorded.
func TestCountersReal(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("perf_event_open is Linux only")
	}
	if !counters.Available().Software {
		t.Skip("software counters unavailable: " + counters.Available().SoftwareReason)
	}
	hw := counters.Available().Hardware
	evs, err := counters.ParseEvents("task-clock,page-faults,cycles,instructions")
	if err != nil {
		t.Fatal(err)
	}
	cmds, err := Commands([]string{"true"}, nil, nil, Options{NoShell: true})
	if err != nil {
		t.Fatal(err)
	}
	var user atomic.Int64 // a user's probe, chained with the counters
	opts := Options{Runs: 4, Warmup: 1, NoShell: true, Counters: evs, Prepare: []string{"true"},
		NewProbe: func() (Probe, error) { return &countingProbe{n: &user}, nil }}
	rep, err := Run(context.Background(), cmds, opts)
	if err != nil || rep.Err != nil {
		t.Fatal(err, rep.Err)
	}
	res := rep.Results[0]
	for _, s := range res.Samples {
		for _, name := range []string{"task-clock", "page-faults"} {
			if v, ok := s.Extra[name]; !ok || v <= 0 {
				t.Errorf("run %d: %s = %v (present %v), want > 0", s.Iteration, name, v, ok)
			}
		}
		if !hw {
			if _, ok := s.Extra["cycles"]; ok {
				t.Errorf("run %d: cycles recorded on a host without hardware counters: %v", s.Iteration, s.Extra)
			}
		}
		if s.Extra["user-probe"] != 1 {
			t.Errorf("run %d: the user's probe did not run with the counters: %v", s.Iteration, s.Extra)
		}
	}
	// The user's probe ran for the timing, warm-up and overhead runs, not
	// for the prepare commands.
	if want := int64(len(res.Samples) + 1 + len(rep.Overhead.Samples)); user.Load() != want {
		t.Errorf("user probe ran %d times, want %d (4 timing + 1 warm-up + %d overhead runs, no prepare runs)", user.Load(), want, len(rep.Overhead.Samples))
	}
	a := rep.analyze(res)
	if m := a.Metric("task-clock"); m == nil || len(m.Values) != 4 || m.Unit != "ns" || m.Subtracted {
		t.Errorf("task-clock analysis %+v (with -N nothing is subtracted)", m)
	}
	if m := a.Metric("page-faults"); m == nil || len(m.Values) != 4 || m.Unit != "count" {
		t.Errorf("page-faults analysis %+v", m)
	}
	w, _ := rep.countersWarning()
	note := w.Message
	if !hw {
		if len(rep.CountersUnavailable) != 2 || !strings.Contains(note, "cycles, instructions: ") {
			t.Errorf("unavailable %+v, note %q; want cycles and instructions with one reason", rep.CountersUnavailable, note)
		}
		if a.Metric("cycles") != nil {
			t.Errorf("cycles analysed without values")
		}
	}
}

type countingProbe struct{ n *atomic.Int64 }

func (p *countingProbe) Start() error { p.n.Add(1); return nil }
func (p *countingProbe) Stop(s *Sample) error {
	if s.Extra == nil {
		s.Extra = map[string]float64{}
	}
	s.Extra["user-probe"] = 1
	return nil
}

// TestCountersShellSubtracted: with a shell, the overhead runs carry the
// shell's own counts, and their median is subtracted like wall time.
func TestCountersShellSubtracted(t *testing.T) {
	f := &fake{walls: map[string]time.Duration{"A": 10 * time.Millisecond}, overhead: 2 * time.Millisecond}
	rep := runFake(t, f, Options{Runs: 6}, "A")
	for i := range rep.Results[0].Samples {
		rep.Results[0].Samples[i].Extra = map[string]float64{"page-faults": 300, "task-clock": 5e6}
	}
	for i := range rep.Overhead.Samples {
		rep.Overhead.Samples[i].Extra = map[string]float64{"page-faults": 100} // no task-clock: not subtracted
	}
	a := rep.analyze(rep.Results[0])
	pf, tc := a.Metric("page-faults"), a.Metric("task-clock")
	if pf == nil || !pf.Subtracted || pf.Overhead != 100 || pf.Summary.Median != 200 || pf.Raw[0] != 300 {
		t.Errorf("page-faults %+v, want 300 - 100 subtracted", pf)
	}
	if tc == nil || tc.Subtracted || tc.Summary.Median != 5e6 {
		t.Errorf("task-clock %+v, want not subtracted (the overhead runs lack it)", tc)
	}
	// A figure missing in some runs is not summarized, and a warning says so.
	delete(rep.Results[0].Samples[2].Extra, "page-faults")
	a = rep.analyze(rep.Results[0])
	if a.Metric("page-faults") != nil || !strings.Contains(warnText(a.Warnings), "page-faults was counted in only 5 of 6 runs and is left out") {
		t.Errorf("partial figure: metric %+v, warnings %q", a.Metric("page-faults"), a.Warnings)
	}
}

// TestSetupOrder: as in hyperfine, a command's setup runs right before its
// runs; with setup commands the default order is sequential, and an
// explicit interleaved order says that all setups ran first.
func TestSetupOrder(t *testing.T) {
	tests := []struct {
		order Order
		want  string
		note  string
	}{
		{"", "setup-A A A cleanup-A setup-B B B cleanup-B", "ran in sequence"},
		{Sequential, "setup-A A A cleanup-A setup-B B B cleanup-B", ""},
		{Interleaved, "setup-A setup-B A B B A cleanup-A cleanup-B", "every setup command ran before the first timing run"},
	}
	for _, tt := range tests {
		f := &fake{walls: map[string]time.Duration{"A": time.Millisecond, "B": time.Millisecond}}
		rep := runFake(t, f, Options{Runs: 2, Order: tt.order, Setup: []string{"setup-A", "setup-B"}, Cleanup: []string{"cleanup-A", "cleanup-B"}}, "A", "B")
		var got []string
		for _, c := range f.calls {
			if c != "" {
				got = append(got, c)
			}
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("order %q: calls %q, want %q", tt.order, g, tt.want)
		}
		notes := warnText(rep.Notes)
		if tt.note == "" && notes != "" || !strings.Contains(notes, tt.note) {
			t.Errorf("order %q: notes %q, want %q", tt.order, notes, tt.note)
		}
	}
}
