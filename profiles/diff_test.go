package profiles

import (
	"math"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// TestCompare: a function made slower between two builds comes first,
// with its change per iteration and its share of the total change, and
// the sides' different iteration counts are divided out.
func TestCompare(t *testing.T) {
	// base: 1000 iterations; new: 2000 iterations, main.slow costs 3×
	// as much per iteration, main.fast the same, main.gone was removed
	// and main.added is new.
	base := build([]stack{
		{[]string{"main.slow", "main.work", "main.main"}, 100},
		{[]string{"main.fast", "main.work", "main.main"}, 300},
		{[]string{"main.gone", "main.main"}, 20},
		{[]string{"main.main"}, 80},
	})
	next := build([]stack{
		{[]string{"main.slow", "main.work", "main.main"}, 600},
		{[]string{"main.fast", "main.work", "main.main"}, 600},
		{[]string{"main.added", "main.main"}, 10},
		{[]string{"main.main"}, 160},
	})
	d, err := Compare(base, next, 1000, 2000)
	if err != nil {
		t.Fatal(err)
	}
	const ns = periodNs // per sample
	if d.Unit != "nanoseconds" {
		t.Errorf("unit %q", d.Unit)
	}
	// Totals per iteration: base 500 samples / 1000, new 1370 / 2000.
	wantTotal := Change{Before: 0.5 * ns, After: 0.685 * ns, Delta: 0.185 * ns, Share: 1}
	if !near(d.Total, wantTotal) {
		t.Errorf("total %+v, want %+v", d.Total, wantTotal)
	}
	total := 0.185 * ns
	want := []FuncChange{
		// slow: 0.1 → 0.3 samples per iteration.
		{"main.slow", Change{0.1 * ns, 0.3 * ns, 0.2 * ns, 0.2 / 0.185}, Change{0.1 * ns, 0.3 * ns, 0.2 * ns, 0.2 / 0.185}},
		{"main.gone", Change{0.02 * ns, 0, -0.02 * ns, -0.02 / 0.185}, Change{0.02 * ns, 0, -0.02 * ns, -0.02 / 0.185}},
		{"main.added", Change{0, 0.005 * ns, 0.005 * ns, 0.005 / 0.185}, Change{0, 0.005 * ns, 0.005 * ns, 0.005 / 0.185}},
		// No flat change: by the cumulative one.
		{"main.work", Change{0, 0, 0, 0}, Change{0.4 * ns, 0.6 * ns, 0.2 * ns, 0.2 / 0.185}},
		// main's flat time is unchanged per iteration (80/1000 = 160/2000),
		// its cumulative time is the total's.
		{"main.main", Change{0.08 * ns, 0.08 * ns, 0, 0}, Change{0.5 * ns, 0.685 * ns, 0.185 * ns, 1}},
	}
	if len(d.Funcs) != len(want) {
		t.Fatalf("%d functions changed, want %d (main.fast did not): %+v", len(d.Funcs), len(want), d.Funcs)
	}
	var flatShares, flatDeltas float64
	for i, w := range want {
		g := d.Funcs[i]
		if g.Name != w.Name || !near(g.Flat, w.Flat) || !near(g.Cum, w.Cum) {
			t.Errorf("function %d:\n got %+v\nwant %+v", i, g, w)
		}
		flatShares += g.Flat.Share
		flatDeltas += g.Flat.Delta
	}
	if math.Abs(flatShares-1) > 1e-12 || math.Abs(flatDeltas-total) > 1e-6 {
		t.Errorf("flat shares add up to %v and deltas to %v, want 1 and the total's %v", flatShares, flatDeltas, total)
	}
}

// TestCompareNormalizers: the same profile compared with itself at
// twice the iterations halves every figure; the same iterations change
// nothing, and no share is defined.
func TestCompareNormalizers(t *testing.T) {
	p := build([]stack{{[]string{"f", "main"}, 40}, {[]string{"main"}, 60}})
	d, err := Compare(p, p, 10, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Funcs) != 0 || d.Total.Delta != 0 || d.Total.Share != 0 {
		t.Errorf("a profile against itself: %+v", d)
	}
	d, err = Compare(p, p, 10, 20)
	if err != nil {
		t.Fatal(err)
	}
	if d.Funcs[0].Name != "main" || d.Funcs[0].Flat.Delta != -3*periodNs || d.Funcs[1].Name != "f" || d.Funcs[1].Flat.Delta != -2*periodNs {
		t.Errorf("halved: %+v", d.Funcs)
	}
}

// TestCompareCounts: profiles without CPU time compare by sample count;
// a side with CPU time and one without compare by their common count.
func TestCompareCounts(t *testing.T) {
	counts := func(p *profile.Profile) *profile.Profile {
		p.SampleType = p.SampleType[:1]
		for _, s := range p.Sample {
			s.Value = s.Value[:1]
		}
		return p
	}
	a := counts(build([]stack{{[]string{"f"}, 4}}))
	b := build([]stack{{[]string{"f"}, 6}})
	d, err := Compare(a, b, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if d.Unit != "count" || d.Funcs[0].Flat.Delta != 2 {
		t.Errorf("by count: %+v", d)
	}
}

func TestCompareErrors(t *testing.T) {
	p := build([]stack{{[]string{"f"}, 4}})
	heap := &profile.Profile{SampleType: []*profile.ValueType{{Type: "alloc_space", Unit: "bytes"}}}
	for _, tt := range []struct {
		name       string
		base, next *profile.Profile
		bi, ni     float64
		want       string
	}{
		{"zero base iterations", p, p, 0, 1, "the base profile's iteration count is 0"},
		{"infinite new iterations", p, p, 1, math.Inf(1), "the new profile's iteration count is +Inf"},
		{"nan", p, p, math.NaN(), 1, "iteration count is NaN"},
		{"nil", p, nil, 1, 1, "comparing needs two profiles"},
		{"heap", p, heap, 1, 1, "no CPU value in common (base: samples/count, cpu/nanoseconds; new: alloc_space/bytes)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compare(tt.base, tt.next, tt.bi, tt.ni)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func near(a, b Change) bool {
	eq := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }
	return eq(a.Before, b.Before) && eq(a.After, b.After) && eq(a.Delta, b.Delta) && eq(a.Share, b.Share)
}
