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
