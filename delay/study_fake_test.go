package delay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chronograph/chronograph/result"
)

// fakeMechanism waits on a counter instead of a clock: wait n returns the
// achieved duration achieved(n), or fail(n)'s error, or blocks (block(n))
// until stop or release.
type fakeMechanism struct {
	mu       sync.Mutex
	n        int
	achieved func(n int) int64
	fail     func(n int) error
	block    func(n int) bool
	onBlock  func() // called when a wait starts blocking
	release  chan struct{}
	// interruptible waits end on stop; others only on release.
	interruptible bool
	interrupts    int
	cleaned       chan struct{}
}

func (f *fakeMechanism) mechanism(name string) mechanism {
	return mechanism{name: name, setup: func(d time.Duration, stop *stopFlag) (*waiter, error) {
		w := &waiter{wait: func() (int64, int64, error) {
			f.mu.Lock()
			f.n++
			n := f.n
			f.mu.Unlock()
			if f.block != nil && f.block(n) {
				if f.onBlock != nil {
					f.onBlock()
				}
				if f.interruptible {
					select {
					case <-stop.ch:
						return 0, 0, errStopped
					case <-f.release:
					}
				} else {
					<-f.release
				}
				return 0, int64(d), nil
			}
			if f.fail != nil {
				if err := f.fail(n); err != nil {
					return 0, 1e12, err // a failed wait's times mean nothing
				}
			}
			return 0, f.achieved(n), nil
		}, cleanup: func() {
			if f.cleaned != nil {
				close(f.cleaned)
			}
		}}
		if f.interruptible {
			w.interrupt = func() {
				f.mu.Lock()
				f.interrupts++
				f.mu.Unlock()
			}
		}
		return w, nil
	}}
}

func withMechanisms(t *testing.T, ms ...mechanism) {
	old := studyMechanisms
	studyMechanisms = func() []mechanism { return ms }
	t.Cleanup(func() { studyMechanisms = old })
}

// TestStudyFailedWaits: failed waits are counted, kept out of every
// figure, and their first error is kept, wrapped.
func TestStudyFailedWaits(t *testing.T) {
	cause := errors.New("clock_nanosleep: invalid argument")
	f := &fakeMechanism{
		achieved: func(n int) int64 { return 1000 + int64(n%3) },
		fail: func(n int) error {
			if n%4 == 0 {
				return cause
			}
			return nil
		},
	}
	withMechanisms(t, f.mechanism("fake"))
	res, err := Study(context.Background(), StudyOptions{Durations: []time.Duration{time.Microsecond}, MaxSamples: 41, Budget: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Cells[0]
	// 41 attempts after the warm-up (wait 1): waits 2..42, of which
	// 4, 8, ..., 40 (10) fail.
	if c.Failed != 10 || len(c.Achieved) != 31 {
		t.Fatalf("%d failed, %d samples; want 10, 31", c.Failed, len(c.Achieved))
	}
	if !errors.Is(c.Err, cause) || !strings.HasPrefix(c.Err.Error(), "delay: fake 1µs: ") {
		t.Errorf("Err = %v, want the cause wrapped and named", c.Err)
	}
	for _, a := range c.Achieved {
		if a > 1002 {
			t.Fatalf("a failed wait reached the samples: %v ns", a)
		}
	}
	m := c.measurement(1)
	if det := m.Detail.Sleep; det == nil || det.FailedWaits != 10 || !strings.Contains(det.FailedError, "invalid argument") ||
		len(m.Warnings) != 1 || m.Warnings[0].Code != "waits-failed" || !strings.Contains(m.Warnings[0].Message, "10 of 41 waits failed") {
		t.Errorf("export: detail %+v, warnings %q", m.Detail.Sleep, m.Warnings)
	}
}

// TestStudyInterrupted: cancelling the context ends a study at once, with
// the samples taken so far, whether or not the wait in progress can be
// interrupted; a wait that cannot be, ends in the background and its
// sample is dropped.
func TestStudyInterrupted(t *testing.T) {
	for _, interruptible := range []bool{true, false} {
		ctx, cancel := context.WithCancel(context.Background())
		f := &fakeMechanism{
			achieved:      func(int) int64 { return 1000 },
			block:         func(n int) bool { return n == 6 }, // the warm-up and 4 samples, then it hangs
			onBlock:       cancel,
			release:       make(chan struct{}),
			interruptible: interruptible,
			cleaned:       make(chan struct{}),
		}
		other := &fakeMechanism{achieved: func(int) int64 { return 1000 }}
		withMechanisms(t, f.mechanism("fake"), other.mechanism("next"))
		res, err := Study(ctx, StudyOptions{Durations: []time.Duration{time.Microsecond}, MaxSamples: 100, Budget: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Interrupted || len(res.Cells) != 1 || !res.Cells[0].Incomplete || len(res.Cells[0].Achieved) != 4 {
			t.Fatalf("interruptible %v: interrupted %v, %d cells, want the first cell with its 4 samples", interruptible, res.Interrupted, len(res.Cells))
		}
		if interruptible {
			if f.interrupts != 1 {
				t.Errorf("%d interrupts, want 1", f.interrupts)
			}
		} else {
			close(f.release) // the wait ends after the study returned
		}
		<-f.cleaned
		if n := len(res.Cells[0].Achieved); n != 4 {
			t.Errorf("interruptible %v: %d samples after the wait ended, want 4 (its sample dropped)", interruptible, n)
		}
		cancel()
	}
}

// TestRestorer: whoever comes second does not run the restore again, and
// a setting made after an interruption is undone at once.
func TestRestorer(t *testing.T) {
	var r restorer
	n := 0
	if !r.set(func() { n++ }) {
		t.Fatal("set before run refused")
	}
	r.run()
	r.run()
	if n != 1 {
		t.Errorf("restored %d times, want 1", n)
	}
	var late restorer
	late.run() // interrupted before the setting was made
	m := 0
	if late.set(func() { m++ }) || m != 1 {
		t.Errorf("a setting made after the interruption: set accepted it or did not undo it (%d)", m)
	}
}

// TestStudyDocument: the study as a result document: one measurement per
// MECHANISM@DURATION with the requested duration as a number, the raw
// samples as metrics with the clock's tick as their resolution, no spin
// margin without a delay.Sleep cell, and a strict round trip.
func TestStudyDocument(t *testing.T) {
	oldTick := studyTick
	studyTick = func() int64 { return 20 }
	t.Cleanup(func() { studyTick = oldTick })
	f := &fakeMechanism{achieved: func(n int) int64 { return 1500 + int64(n%4) }}
	g := &fakeMechanism{achieved: func(n int) int64 { return 1000 }}
	withMechanisms(t, f.mechanism("fake"), g.mechanism("exact"))
	res, err := Study(context.Background(), StudyOptions{Durations: []time.Duration{time.Microsecond, 1500 * time.Nanosecond}, MaxSamples: 8, Budget: time.Hour,
		Settings: ThreadSettings{Priority: 0, CPUs: []int{0}}})
	if err != nil {
		t.Fatal(err)
	}
	res.Held = &Held{DMALatency: 0, MLocked: true, BestEffort: true, Refused: []string{"SCHED_FIFO priority 80"}}
	d := res.Document(result.Meta{Tool: result.Tool{Name: "test"}})
	var b bytes.Buffer
	if err := result.Encode(&b, d); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&b)
	dec.DisallowUnknownFields()
	var back result.Document
	if err := dec.Decode(&back); err != nil {
		t.Fatalf("strict decoding: %v", err)
	}
	r := back.Run.Sleep
	if back.Kind != result.KindSleep || r == nil || len(r.DurationsNs) != 2 || r.DurationsNs[1] != 1500 || r.BudgetNs != int64(time.Hour) || r.MaxSamples != 8 {
		t.Fatalf("run %+v", r)
	}
	if c := r.Conditions; !c.MLocked || c.DMALatencyUs == nil || *c.DMALatencyUs != 0 || len(c.Pin) != 1 || !c.BestEffort || len(c.Refused) != 1 {
		t.Errorf("conditions %+v", c)
	}
	if r.SpinMarginNs != nil {
		t.Errorf("spin margin %d without a delay.Sleep cell", *r.SpinMarginNs)
	}
	wantNames := []string{"fake@1µs", "exact@1µs", "fake@1.5µs", "exact@1.5µs"}
	if len(back.Measurements) != 4 {
		t.Fatalf("%d measurements", len(back.Measurements))
	}
	for i, m := range back.Measurements {
		det := m.Detail.Sleep
		if m.Name != wantNames[i] || det == nil || det.RequestedNs != []int64{1000, 1000, 1500, 1500}[i] {
			t.Errorf("measurement %d: %q %+v", i, m.Name, det)
			continue
		}
		a, o := m.Metric("achieved"), m.Metric("overshoot")
		if m.Primary != "achieved" || a == nil || o == nil || len(a.Values) != 8 || a.Resolution != 20 || a.Unit != result.UnitNs {
			t.Errorf("%s: metrics %+v", m.Name, m.Metrics)
			continue
		}
		for j := range a.Values {
			if o.Values[j] != a.Values[j]-float64(det.RequestedNs) {
				t.Errorf("%s: overshoot %v of achieved %v", m.Name, o.Values[j], a.Values[j])
			}
		}
		if c := m.Metric("cpu"); c != nil && (det.CPUClock != "process" || det.CPUReadCostNs == nil) {
			t.Errorf("%s: a cpu metric without its clock and read cost: %+v", m.Name, det)
		}
	}
}

// TestStudySpinPreemptedWarning: busy-spin's median overshoot against its
// floor (the larger of a clock read and the clock's step), from injected
// figures: a median above 10 floors warns, naming every such cell;
// at or below, or without busy-spin samples or a floor, nothing.
func TestStudySpinPreemptedWarning(t *testing.T) {
	spin := func(req time.Duration, overshoots ...float64) *Cell {
		c := &Cell{Mechanism: "busy-spin", Requested: req}
		for _, o := range overshoots {
			c.Achieved = append(c.Achieved, float64(req)+o)
		}
		return c
	}
	other := &Cell{Mechanism: "time.Sleep", Requested: time.Millisecond, Achieved: []float64{2e6, 2e6, 2e6}}
	const next = "; measure on an idle machine (stop other work; uptime shows the load), or give the waits a CPU of their own: --pin and -p (SCHED_FIFO)"
	tests := []struct {
		name     string
		tick     time.Duration
		readCost float64
		cells    []*Cell
		want     string // "" for no warning
	}{
		{"idle: about half a read", 20, 25, []*Cell{spin(time.Microsecond, 10, 12, 30), spin(10*time.Millisecond, 8, 40, 13), other}, ""},
		{"at 10 floors: no warning", 20, 25, []*Cell{spin(time.Millisecond, 250, 250, 250)}, ""},
		{"loaded: the long waits were preempted", 20, 25,
			[]*Cell{spin(time.Microsecond, 12, 13, 14), spin(10*time.Millisecond, 40, 314e3, 2e6), spin(time.Second, 12e3)},
			"busy-spin overshot by a median of 314.0 µs at 10ms, 12.00 µs at 1s, more than 10 times its floor (a clock read costs 25.0 ns): the spinning thread lost its CPU, so the machine was preempting the waits and every figure here includes that" + next},
		{"a clock coarser than a read: its step is the floor", 100, 25,
			[]*Cell{spin(time.Millisecond, 700, 900, 950), spin(10*time.Millisecond, 1100, 1200, 1300)},
			"busy-spin overshot by a median of 1.2 µs at 10ms, more than 10 times its floor (the clock steps by 100 ns): the spinning thread lost its CPU, so the machine was preempting the waits and every figure here includes that" + next},
		{"no busy-spin samples", 20, 25, []*Cell{other, {Mechanism: "busy-spin", Requested: time.Second}}, ""},
		{"no floor measured", 0, 0, []*Cell{spin(time.Millisecond, 1e6)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &StudyResult{Tick: tt.tick, ReadCost: tt.readCost, Cells: tt.cells}
			ws := r.warnings()
			d := r.Document(result.Meta{Tool: result.Tool{Name: "test"}})
			if tt.want == "" {
				if len(ws) != 0 || len(d.Warnings) != 0 {
					t.Errorf("warnings %q, document's %q; want none", ws, d.Warnings)
				}
				return
			}
			if len(ws) != 1 || ws[0].String() != tt.want || ws[0].Code != warnSpinPreempted || ws[0].Severity != "warning" {
				t.Fatalf("warnings %+v\nwant one %s warning: %s", ws, warnSpinPreempted, tt.want)
			}
			if len(d.Warnings) != 1 || d.Warnings[0] != ws[0] {
				t.Errorf("the document's warnings %+v, want the study's", d.Warnings)
			}
			if tt.readCost > 0 && d.Run.Sleep.ReadCostNs != tt.readCost {
				t.Errorf("document read cost %v, want %v", d.Run.Sleep.ReadCostNs, tt.readCost)
			}
		})
	}
}

// TestStudyMeasuresReadCost: a study records the clock's read cost (here
// injected) for its busy-spin floor.
func TestStudyMeasuresReadCost(t *testing.T) {
	old := studyReadCost
	studyReadCost = func() float64 { return 23.5 }
	t.Cleanup(func() { studyReadCost = old })
	f := &fakeMechanism{achieved: func(int) int64 { return 1000 }}
	withMechanisms(t, f.mechanism("fake"))
	res, err := Study(context.Background(), StudyOptions{Durations: []time.Duration{time.Microsecond}, MaxSamples: 2, Budget: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if res.ReadCost != 23.5 {
		t.Errorf("read cost %v, want the 23.5 ns measured", res.ReadCost)
	}
}

// TestReadCost: readCost is the median per-read cost of the batches, from
// a fake clock that advances 3 ns per read (a batch of n reads spans n+1
// steps between its two timing reads).
func TestReadCost(t *testing.T) {
	var now int64
	read := func() int64 { now += 3; return now }
	if got := readCost(read, 5, 100); got != 3.03 {
		t.Errorf("readCost = %v, want 3.03 (101 steps of 3 ns over 100 reads)", got)
	}
}

// TestObservedTick: the smallest step of a clock, read past n reads until
// it has moved twice when it is coarse (one that steps every 5000 reads
// by 15.625 ms, as the interrupt time does, shows its step after 1000
// reads too).
func TestObservedTick(t *testing.T) {
	tests := []struct {
		name  string
		every int   // reads per step
		step  int64 // ns
		want  int64
	}{
		{"fine", 1, 25, 25},
		{"coarse", 5000, 15_625_000, 15_625_000},
		{"coarse, moving once in n reads", 900, 1_000_000, 1_000_000},
	}
	for _, tt := range tests {
		reads := 0
		read := func() int64 {
			reads++
			return int64(reads/tt.every) * tt.step
		}
		if got := observedTick(read, 1000); got != tt.want {
			t.Errorf("%s: observedTick = %d ns after %d reads, want %d", tt.name, got, reads, tt.want)
		}
	}
}
