package history

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/result"
)

func stepSeries(n, at int, before, after float64, unit string) []Point {
	r := rand.New(rand.NewPCG(1, 2))
	pts := make([]Point, n)
	for i := range pts {
		v := before
		if i >= at {
			v = after
		}
		pts[i] = Point{HistoryPoint: result.HistoryPoint{Commit: fmt.Sprintf("c%02d", i)}, Unit: unit, Median: v * (1 + 0.01*r.NormFloat64())}
	}
	return pts
}

func TestVerdict(t *testing.T) {
	for _, c := range []struct {
		worse, lo, hi, threshold float64
		want                     compare.Verdict
	}{
		{1.20, 1.10, 1.30, 0.05, compare.Regression},
		{0.80, 0.70, 0.90, 0.05, compare.Improvement},
		{1.50, 0.90, 2.50, 0.05, compare.Undecided}, // beyond the threshold, the interval reaches 1
		{0.60, 0.40, 1.10, 0.05, compare.Undecided},
		{1.04, 1.02, 1.06, 0.10, compare.NoChange}, // a real change, within the threshold
		{1.00, 0.95, 1.05, 0.05, compare.NoChange},
	} {
		if got := verdict(c.worse, c.lo, c.hi, c.threshold); got != c.want {
			t.Errorf("verdict(%v [%v, %v], threshold %v) = %q, want %q", c.worse, c.lo, c.hi, c.threshold, got, c.want)
		}
	}
}

func TestChanges(t *testing.T) {
	for _, c := range []struct {
		name             string
		pts              []Point
		threshold        float64
		want             compare.Verdict
		ratioLo, ratioHi float64
	}{
		{"slower", stepSeries(60, 30, 100, 120, "ns"), 0.05, compare.Regression, 1.15, 1.25},
		{"faster", stepSeries(60, 30, 100, 80, "ns"), 0.05, compare.Improvement, 0.75, 0.85},
		{"rate lower is worse", stepSeries(60, 30, 100, 80, "B/s"), 0.05, compare.Regression, 0.75, 0.85},
		{"within the threshold: no change", stepSeries(60, 30, 100, 104, "ns"), 0.10, compare.NoChange, 1.02, 1.06},
	} {
		chs, err := Changes(c.pts, CheckOptions{Threshold: c.threshold})
		if err != nil {
			t.Fatal(err)
		}
		if len(chs) != 1 {
			t.Fatalf("%s: %+v", c.name, chs)
		}
		ch := chs[0]
		if ch.Index != 30 || ch.Before.Commit != "c29" || ch.After.Commit != "c30" || ch.Verdict != c.want ||
			ch.Ratio < c.ratioLo || ch.Ratio > c.ratioHi || !(ch.Lo <= ch.Ratio && ch.Ratio <= ch.Hi) || ch.NBefore != 30 || ch.NAfter != 30 {
			t.Errorf("%s: %+v", c.name, ch)
		}
	}
	if chs, err := Changes(stepSeries(60, 60, 100, 100, "ns"), CheckOptions{Threshold: 0.05}); err != nil || len(chs) != 0 {
		t.Errorf("no change: %+v %v", chs, err)
	}
	if _, err := Changes(nil, CheckOptions{Threshold: -1}); err == nil {
		t.Error("negative threshold accepted")
	}
}

// exactSeries is a series of runs of three identical samples each, of
// the given values in order.
func exactSeries(values ...float64) []Point {
	pts := make([]Point, len(values))
	for i, v := range values {
		pts[i] = Point{HistoryPoint: result.HistoryPoint{Commit: fmt.Sprintf("c%02d", i), N: 3, Values: []float64{v, v, v}}, Unit: "count/op", Median: v}
	}
	return pts
}

// TestChangesExact: a deterministic series (every run's samples the same)
// changes exactly where its value does, with no test and however few
// runs there are, and its exact ratio meets the threshold.
func TestChangesExact(t *testing.T) {
	type want struct {
		index         int
		ratio         float64
		before, after int
		verdict       compare.Verdict
	}
	for _, c := range []struct {
		name      string
		pts       []Point
		threshold float64
		want      []want
	}{
		{"the newest run is 1 % more", exactSeries(4117, 4117, 4157), 0.005, []want{{2, 4157.0 / 4117, 2, 1, compare.Regression}}},
		{"within 5 %", exactSeries(4117, 4117, 4157), 0.05, []want{{2, 4157.0 / 4117, 2, 1, compare.NoChange}}},
		{"one instruction, threshold 0", exactSeries(4117, 4118), 0, []want{{1, 4118.0 / 4117, 1, 1, compare.Regression}}},
		{"up then down", exactSeries(100, 100, 120, 120, 120, 90), 0.05, []want{{2, 1.2, 2, 3, compare.Regression}, {5, 0.75, 3, 1, compare.Improvement}}},
		{"unchanged", exactSeries(4117, 4117, 4117), 0, nil},
	} {
		chs, err := Changes(c.pts, CheckOptions{Threshold: c.threshold})
		if err != nil {
			t.Fatal(err)
		}
		if len(chs) != len(c.want) {
			t.Fatalf("%s: %+v, want %d changes", c.name, chs, len(c.want))
		}
		for k, w := range c.want {
			ch := chs[k]
			if ch.Index != w.index || ch.Ratio != w.ratio || ch.Lo != w.ratio || ch.Hi != w.ratio || ch.NBefore != w.before || ch.NAfter != w.after ||
				ch.Verdict != w.verdict || !ch.Exact || ch.P != 0 {
				t.Errorf("%s: change %d = %+v, want %+v", c.name, k, ch, w)
			}
		}
	}
	// A run whose samples vary makes the series one to test.
	pts := exactSeries(4117, 4117, 4157)
	pts[0].Values = []float64{4117, 4118, 4117}
	if chs, err := Changes(pts, CheckOptions{Threshold: 0}); err != nil || len(chs) != 0 {
		t.Errorf("a varying run: %+v, %v (three runs are too few for the detector)", chs, err)
	}
}
