package compare

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// pair is a baseline with a "fast" and a "slow" measurement of 20 runs
// each, and a newer document whose "fast" runs are scale times the
// baseline's.
func pair(scale float64) (old, cur *result.Document) {
	var fast, slow, scaled []float64
	for i := range 20 {
		jitter := float64(i%5) * 1e4
		fast = append(fast, 1e6+jitter)
		scaled = append(scaled, scale*(1e6+jitter))
		slow = append(slow, 2e6+jitter)
	}
	names := []string{"fast", "slow"}
	return document("CPU A", map[string][]float64{"fast": fast, "slow": slow}, names),
		document("CPU A", map[string][]float64{"fast": scaled, "slow": slow}, names)
}

func TestDocuments(t *testing.T) {
	for _, tt := range []struct {
		scale float64
		want  string
	}{
		{1.5, "1.50x slower (higher) than the baseline"},
		{0.5, "2.00x faster (lower) than the baseline"},
		{1, "no significant change (p = 1.0)"},
	} {
		old, cur := pair(tt.scale)
		d := Documents(old, cur, false)
		if len(d.OnlyOld) != 0 || len(d.OnlyNew) != 0 || len(d.Changes) != 2 {
			t.Fatalf("scale %g: %+v", tt.scale, d)
		}
		c := d.Changes[0]
		if c.Measurement != "fast" || c.Metric != "wall" || c.Unit != result.UnitNs || c.NOld != 20 || c.NNew != 20 ||
			c.OldMetric != &old.Measurements[0].Metrics[0] || c.NewMetric != &cur.Measurements[0].Metrics[0] {
			t.Errorf("scale %g: change %+v", tt.scale, c)
		}
		if want := stats.Median(cur.Measurements[0].Metrics[0].Values); c.New != want || c.Old != 1.02e6 {
			t.Errorf("scale %g: medians %v, %v, want 1.02e6, %v", tt.scale, c.Old, c.New, want)
		}
		if math.Abs(c.Ratio-tt.scale) > 1e-12 || c.Slowdown != c.Ratio {
			t.Errorf("scale %g: ratio %v, slowdown %v", tt.scale, c.Ratio, c.Slowdown)
		}
		if got := c.Conclusion(); got != tt.want {
			t.Errorf("scale %g: %q, want %q", tt.scale, got, tt.want)
		}
		// The gate's fields are not set by a diff.
		if c.Verdict != "" || !math.IsNaN(c.PHolm) || c.MoreRuns != -1 {
			t.Errorf("scale %g: a diff with a verdict: %q, Holm p %v, more runs %d", tt.scale, c.Verdict, c.PHolm, c.MoreRuns)
		}
	}
	// Measurements in one document only are named, not compared; so are
	// metrics of another unit, and non-primary ones unless all.
	old, cur := pair(1)
	cur.Measurements[0].Name = "renamed"
	cur.Measurements[1].Metrics[0].Unit = result.UnitCount
	cur.Measurements[1].Metrics = append(cur.Measurements[1].Metrics, result.Metric{Name: "user", Unit: result.UnitNs, Values: spread(1e5, 20)})
	old.Measurements[1].Metrics = append(old.Measurements[1].Metrics, result.Metric{Name: "user", Unit: result.UnitNs, Values: spread(1e5, 20)})
	d := Documents(old, cur, false)
	if strings.Join(d.OnlyOld, ",") != "fast" || strings.Join(d.OnlyNew, ",") != "renamed" || len(d.Changes) != 0 {
		t.Errorf("onlyOld %v onlyNew %v changes %+v", d.OnlyOld, d.OnlyNew, d.Changes)
	}
	if d := Documents(old, cur, true); len(d.Changes) != 1 || d.Changes[0].Metric != "user" {
		t.Errorf("all: %+v", d.Changes)
	}
}

// TestDocumentsSmallSamples: with fewer than 6 samples on a side a ratio
// has no interval and no change is called significant, though the test
// alone would reach p <= 0.05 with 4 and 4.
func TestDocumentsSmallSamples(t *testing.T) {
	old := document("CPU A", map[string][]float64{"x": {10, 10.1, 10.2, 10}}, []string{"x"})
	cur := document("CPU A", map[string][]float64{"x": {20, 20.2, 20.4, 20}}, []string{"x"})
	c := Documents(old, cur, false).Changes[0]
	if c.Err != nil || c.NoCI != "no CI: fewer than 6 runs" || c.Significant || c.MannWhitney.P > stats.Alpha {
		t.Errorf("%+v", c)
	}
	if got := c.Conclusion(); got != "cannot tell: too few samples (no CI: fewer than 6 runs)" {
		t.Errorf("conclusion %q", got)
	}
}

// TestDocumentsBinned: binned metrics get their medians from the bins,
// and no test.
func TestDocumentsBinned(t *testing.T) {
	binned := func(counts ...int64) *result.Document {
		d := document("CPU A", nil, nil)
		d.Measurements = []result.Measurement{{Name: "thread 0", Primary: "latency", Metrics: []result.Metric{{Name: "latency", Unit: result.UnitNs,
			Histogram: &result.Histogram{Bounds: []float64{0, 10, 20, 30}, Counts: counts, Min: 1, Max: 29}}}}}
		return d
	}
	c := Documents(binned(10, 80, 10), binned(10, 10, 80), false).Changes[0]
	if c.Old != 15 || c.New != 20+(30.0/80)*10 || c.NOld != 100 || c.NNew != 100 {
		t.Errorf("medians %v, %v (want 15, and 23.75: between the 30th and 31st of the last bin's 80 values); n %d, %d", c.Old, c.New, c.NOld, c.NNew)
	}
	if c.Err == nil || !strings.HasPrefix(c.Conclusion(), "cannot tell: the samples are binned") {
		t.Errorf("binned: %v, %q", c.Err, c.Conclusion())
	}
	// Empty histograms are not compared.
	if d := Documents(binned(10, 80, 10), binned(0, 0, 0), false); len(d.Changes) != 0 {
		t.Errorf("empty: %+v", d.Changes)
	}
}

func TestChangeConclusion(t *testing.T) {
	for _, tt := range []struct {
		c    Change
		want string
	}{
		{Change{Err: errors.New("stats: 1 sample is too few")}, "cannot tell: stats: 1 sample is too few"},
		{Change{NoCI: "no CI: fewer than 6 runs"}, "cannot tell: too few samples (no CI: fewer than 6 runs)"},
		{Change{MedianRatio: stats.MedianRatio{Ratio: 1.01, MannWhitney: stats.MannWhitneyResult{P: 0.4}}}, "no significant change (p = 0.40)"},
		{Change{MedianRatio: stats.MedianRatio{Ratio: 1.5, CI: stats.Interval{Lo: 1.45, Hi: 1.55}, Significant: true}}, "1.50x slower (higher) than the baseline"},
		{Change{MedianRatio: stats.MedianRatio{Ratio: 0.8, CI: stats.Interval{Lo: 0.5, Hi: 1}, Significant: true}}, "1.2x faster (lower) than the baseline"},
	} {
		if got := tt.c.Conclusion(); got != tt.want {
			t.Errorf("%q, want %q", got, tt.want)
		}
	}
}

func TestTooFewForCI(t *testing.T) {
	for _, tt := range []struct {
		na, nb int
		few    bool
	}{{6, 6, false}, {5, 100, true}, {100, 5, true}, {0, 0, true}} {
		few, why := TooFewForCI(tt.na, tt.nb)
		if few != tt.few || why != "no CI: fewer than 6 runs" {
			t.Errorf("TooFewForCI(%d, %d) = %v, %q", tt.na, tt.nb, few, why)
		}
	}
}
