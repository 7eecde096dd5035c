package compare

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/stats"
)

func TestPairedConclusion(t *testing.T) {
	sig := stats.PairedRatio{Median: 0.5, Significant: true,
		Placed: stats.PlacedInterval{CI: stats.Interval{Lo: 0.48, Hi: 0.52}}, MannWhitney: stats.MannWhitneyResult{P: 1e-4}}
	fast := stats.PairedRatio{Median: 1.31, Significant: true,
		Placed: stats.PlacedInterval{CI: stats.Interval{Lo: 1.28, Hi: 1.34}}, MannWhitney: stats.MannWhitneyResult{P: 1e-4}}
	differ := sig
	differ.Placed.CPUsDiffer = true
	differ.Placed.PerCPU = []stats.CPUMedian{{CPU: 0, Median: 0.5, CI: stats.Interval{Lo: 0.49, Hi: 0.51}}, {CPU: 3, Median: 0.45, CI: stats.Interval{Lo: 0.44, Hi: 0.46}}}
	same := stats.PairedRatio{Median: 1.01, Placed: stats.PlacedInterval{CI: stats.Interval{Lo: 0.95, Hi: 1.07}}, MannWhitney: stats.MannWhitneyResult{P: 0.4}}
	for _, tt := range []struct {
		p    Paired
		want string
	}{
		{Paired{PairedRatio: sig}, "b is 2.00x slower than a [1.92, 2.08]"},
		{Paired{PairedRatio: fast}, "b is 1.31x faster than a [1.28, 1.34]"},
		{Paired{PairedRatio: differ}, "b is 2.00x slower than a [1.92, 2.08]; the ratio differs between CPUs (CPU 0 0.500, CPU 3 0.450): the interval spans them"},
		{Paired{PairedRatio: same}, "no significant difference between a and b (ratio 1.01 [0.95, 1.07], p = 0.40)"},
		{Paired{PairedRatio: stats.PairedRatio{Median: 2}, Err: errors.New("stats: 2 samples are too few")},
			"too few rounds for a verdict (median ratio 2.00): stats: 2 samples are too few"},
	} {
		tt.p.A, tt.p.B = "a", "b"
		if got := tt.p.Conclusion(); got != tt.want {
			t.Errorf("%q, want %q", got, tt.want)
		}
	}
}

// TestPairedRounds: the ratios are a's over b's, round by round, up to
// the shorter side; a round's CPU counts when both ran on it throughout.
func TestPairedRounds(t *testing.T) {
	a := Rounds{Name: "a", NsPerOp: []float64{20, 22, 21, 20, 23, 21, 22, 20, 21, 99}, Blocks: []int{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}}
	b := Rounds{Name: "b", NsPerOp: []float64{10, 11, 10.5, 10, 11.5, 10.5, 11, 10, 10.5}, Blocks: []int{0, 0, 0, 0, 0, 1, 1, 1, 1}}
	p := PairedRounds(a, b)
	if p.A != "a" || p.B != "b" || p.Err != nil || len(p.Ratios) != 9 || math.Abs(p.Median-2) > 1e-12 || !p.Significant {
		t.Fatalf("%+v", p)
	}
	if want, _ := stats.ComparePaired(a.NsPerOp[:9], b.NsPerOp, a.Blocks[:9], nil, stats.Confidence, stats.Alpha); p.Placed.CI != want.Placed.CI {
		t.Errorf("interval %v, want %v", p.Placed.CI, want.Placed.CI)
	}
	if got := p.Conclusion(); !strings.HasPrefix(got, "b is 2.00x faster than a") {
		t.Errorf("%q", got)
	}
	// CPUs: rounds on different CPUs, or migrated on one side, are
	// unknown; each CPU's ratio is the same, so they do not differ.
	a.CPUs = []int{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}
	b.CPUs = []int{0, 0, 1, -1, 0, 1, 1, 1, 1}
	p = PairedRounds(a, b)
	cpus := []int{0, 0, -1, -1, 0, 1, 1, 1, 1}
	want, _ := stats.ComparePaired(a.NsPerOp[:9], b.NsPerOp, a.Blocks[:9], cpus, stats.Confidence, stats.Alpha)
	if p.Err != nil || p.Placed.CI != want.Placed.CI || p.Placed.CPUsDiffer != want.Placed.CPUsDiffer || len(p.Placed.PerCPU) != len(want.Placed.PerCPU) {
		t.Errorf("with CPUs: %+v, want %+v", p.Placed, want.Placed)
	}
	// Too few rounds: no interval, and the conclusion says so.
	p = PairedRounds(Rounds{Name: "a", NsPerOp: []float64{2}, Blocks: []int{0}}, Rounds{Name: "b", NsPerOp: []float64{1}, Blocks: []int{0}})
	if p.Err == nil || !strings.HasPrefix(p.Conclusion(), "too few rounds for a verdict") {
		t.Errorf("one round: %v, %q", p.Err, p.Conclusion())
	}
}
