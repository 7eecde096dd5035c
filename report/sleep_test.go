package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/warn"
)

// sleepDoc builds a sleep document by hand: two durations, three
// mechanisms (one unavailable), known samples.
func sleepDoc() *result.Document {
	d := result.New(result.KindSleep, result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	d.Start = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	d.End = d.Start.Add(time.Second)
	margin := int64(37_123)
	d.Run.Sleep = &result.SleepRun{DurationsNs: []int64{100_000, 1_000_000}, Mechanisms: []string{"time.Sleep", "busy-spin", "delay.Sleep", "timerfd"},
		BudgetNs: int64(time.Second), MaxSamples: 10000, SpinMarginNs: &margin}
	cell := func(mech string, req float64, over func(i int) float64, cpu func(i int) float64, own bool) result.Measurement {
		var ach, ov, c []float64
		for i := range 40 {
			ov = append(ov, over(i))
			ach = append(ach, req+over(i))
			c = append(c, cpu(i))
		}
		cost := 500.0
		return result.Measurement{Name: mech + "@" + time.Duration(req).String(), Primary: "achieved",
			Metrics: []result.Metric{{Name: "achieved", Unit: "ns", Values: ach, Resolution: 20}, {Name: "overshoot", Unit: "ns", Values: ov, Resolution: 20},
				{Name: "cpu", Unit: "ns", Values: c, Resolution: 500}},
			Detail: result.KindDetail{Sleep: &result.SleepDetail{Mechanism: mech, RequestedNs: int64(req), OwnThread: own, CPUClock: map[bool]string{true: "thread", false: "process"}[own], CPUReadCostNs: &cost}}}
	}
	for _, req := range []float64{100_000, 1_000_000} {
		d.Measurements = append(d.Measurements,
			cell("time.Sleep", req, func(i int) float64 { return 1_000_000 + float64(i*1000) }, func(i int) float64 { return 40_000 + float64(i*10) }, false),
			cell("busy-spin", req, func(i int) float64 { return 17 + float64(i%5)*20 }, func(i int) float64 { return req + 300 }, true),
			cell("delay.Sleep", req, func(i int) float64 { return 20 + float64(i%7)*20 }, func(i int) float64 { return 0.05*req + float64(i) }, false),
		)
		un := result.Measurement{Name: "timerfd@" + time.Duration(req).String(), Metrics: []result.Metric{},
			Detail:   result.KindDetail{Sleep: &result.SleepDetail{Mechanism: "timerfd", RequestedNs: int64(req), OwnThread: true, Unavailable: "timerfd_create: too many open files"}},
			Warnings: []warn.Warning{warn.New("mechanism-unavailable", "not measured: timerfd_create: too many open files", "the error says what failed; the other mechanisms were measured")}}
		d.Measurements = append(d.Measurements, un)
	}
	return d
}

func TestSleepViewGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    Format
	}{{"sleep.txt", Text}, {"sleep.md", Markdown}, {"sleep.csv", CSV}} {
		var b bytes.Buffer
		if err := Render(&b, Subject{Docs: []*result.Document{sleepDoc()}}, tt.f, Options{}); err != nil {
			t.Fatal(err)
		}
		golden(t, tt.name, b.Bytes())
	}
}

// The marks come from the samples: busy-spin has the smallest median
// overshoot, delay.Sleep spends 5 % of the request in CPU (frugal); an
// interrupted study keeps them in its last, partial table; the spin
// margin shows only when the document has one.
func TestSleepViewMarks(t *testing.T) {
	d := sleepDoc()
	d.Measurements = d.Measurements[:7] // interrupted in the second duration
	d.Measurements[6].Incomplete = true
	d.Incomplete = true
	d.Run.Sleep.SpinMarginNs = nil
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	second := out[strings.Index(out, "requested 1ms"):]
	for _, want := range []string{"*  busy-spin", "+  delay.Sleep (incomplete)", "interrupted:"} {
		if !strings.Contains(second, want) {
			t.Errorf("the partial table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "spin margin") {
		t.Errorf("a spin margin without one in the document:\n%s", out)
	}
	if strings.Count(out, "*") != 3 { // two marks and the legend
		t.Errorf("want one best mark per duration:\n%s", out)
	}
}

// A p99 of 343 samples is not known to the ns: its digits follow its
// uncertainty (from the order statistics around it), not the clock.
func TestSleepViewDigits(t *testing.T) {
	d := sleepDoc()
	var ach, over []float64
	for i := range 343 {
		over = append(over, float64(i*2000+7))
		ach = append(ach, 100_000+float64(i*2000+7))
	}
	m := &d.Measurements[0]
	m.Metrics = []result.Metric{{Name: "achieved", Unit: "ns", Values: ach, Resolution: 1}, {Name: "overshoot", Unit: "ns", Values: over, Resolution: 1}}
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	line := strings.Split(b.String(), "\n")[4]
	// p99 = 677.167 µs, its 95 % interval from rank 335 to 343: ±9.2 µs.
	if !strings.Contains(line, "  677 µs  ") || !strings.Contains(line, "  684.0 µs  ") {
		t.Errorf("p99 and max of 343 samples: %q, want 677 µs (not 677.167 µs) and the max to the ns resolution's 4 digits", line)
	}
}
