package compare

import (
	"errors"
	"math"
	"testing"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// commands is a command document (as chrono run writes it, seed 7) of
// the commands name=base, n runs each spread ±1 %, each also counted in
// instructions (10 per ns of its base).
func commands(n int, names []string, bases map[string]float64) *result.Document {
	d := document("CPU A", nil, nil)
	d.Run.Command = &result.CommandRun{Order: "interleaved", Seed: 7}
	for _, name := range names {
		w := spread(bases[name], n)
		ins := spread(10*bases[name], n)
		d.Measurements = append(d.Measurements, result.Measurement{Name: name, Primary: "wall",
			Metrics: []result.Metric{{Name: "wall", Unit: result.UnitNs, Values: w, Resolution: 1}, {Name: "instructions", Unit: result.UnitCount, Values: ins}},
			Detail:  result.KindDetail{Command: &result.CommandDetail{CommandLine: "sh -c " + name, Complete: true, Probes: []string{"instructions"}}}})
	}
	return d
}

func TestCommandDocument(t *testing.T) {
	d := commands(10, []string{"slow", "fast", "mid"}, map[string]float64{"slow": 3e6, "fast": 1e6, "mid": 2e6})
	c, err := CommandDocument(d, "")
	if err != nil {
		t.Fatal(err)
	}
	// The fastest by median is the reference; the others in the
	// document's order, wall then counters.
	if c.Reference != 1 || len(c.Wall) != 2 || len(c.Counters) != 2 {
		t.Fatalf("%+v", c)
	}
	for i, want := range []struct {
		a         string
		index     int
		ratio     float64
		text      string
		rtext, ci string
	}{
		{"slow", 0, 3, `"slow" is 3.00x as slow as "fast"`, "3.00", "[2.97, 3.03]"},
		{"mid", 2, 2, `"mid" is 2.00x as slow as "fast"`, "2.00", "[1.98, 2.02]"},
	} {
		w := c.Wall[i]
		if w.A != want.a || w.B != "fast" || w.Command != want.index || w.Metric != "wall" || math.Abs(w.Ratio-want.ratio) > 1e-9 || !w.HasCI || w.NoRatio || w.Err != nil || !w.Significant {
			t.Errorf("wall %d: %+v", i, w)
		}
		if got := w.Conclusion(); got != want.text {
			t.Errorf("wall %d: %q, want %q", i, got, want.text)
		}
		// The document's seed: the interval is stats.CompareMedians'.
		r, _ := stats.CompareMedians(d.Measurements[want.index].Metrics[0].Values, d.Measurements[1].Metrics[0].Values, stats.Confidence, stats.Alpha, 7)
		if w.CI != r.CI || w.MannWhitney != r.MannWhitney {
			t.Errorf("wall %d: %v, p %v; want seed 7's %v, p %v", i, w.CI, w.MannWhitney.P, r.CI, r.MannWhitney.P)
		}
		if w.RatioText() != want.rtext || w.CIText() != want.ci {
			t.Errorf("wall %d: %s %s, want %s %s", i, w.RatioText(), w.CIText(), want.rtext, want.ci)
		}
	}
	if got := c.Counters[0].Conclusion(); got != `"slow" has 3.00x the instructions of "fast" (more)` {
		t.Errorf("counters: %q", got)
	}
	// By name or command line; an unknown one is refused.
	for _, ref := range []string{"mid", "sh -c mid"} {
		if c, err := CommandDocument(d, ref); err != nil || c.Reference != 2 || c.Wall[1].Conclusion() != `"fast" is 2.00x as fast as "mid"` {
			t.Errorf("reference %q: %v, %+v", ref, err, c)
		}
	}
	d.Run.Command.Reference = "slow"
	if c, err := CommandDocument(d, ""); err != nil || c.Reference != 0 {
		t.Errorf("the document's reference: %v, %+v", err, c)
	}
	if _, err := CommandDocument(d, "nope"); err == nil || err.Error() != `compare: the reference "nope" is none of the commands of the document: name a command by its name or command line` {
		t.Errorf("unknown reference: %v", err)
	}
}

// TestCommandDocumentNoRatio: with the overhead subtracted, a median
// within the overhead's scaled MAD gives no ratio, only the test; a
// counter median of 0 gives no comparison; a command without runs none.
func TestCommandDocumentNoRatio(t *testing.T) {
	d := commands(10, []string{"a", "b", "c"}, map[string]float64{"a": 1e6, "b": 1e4, "c": 1e6})
	d.Run.Command.Overhead = &result.CommandOverhead{Kind: "shell", Command: "sh", Subtracted: true,
		Metrics: []result.Metric{{Name: "wall", Unit: result.UnitNs, Values: []float64{1e6, 1.1e6, 0.9e6, 1.2e6, 0.8e6}}}}
	d.Measurements[0].Metrics[1].Values = make([]float64, 10) // no instructions counted
	d.Measurements[2].Metrics = d.Measurements[2].Metrics[1:] // no wall time
	c, err := CommandDocument(d, "")
	if err != nil {
		t.Fatal(err)
	}
	if c.Reference != 1 || len(c.Wall) != 1 {
		t.Fatalf("%+v", c)
	}
	w := c.Wall[0]
	if !w.NoRatio || w.Ratio != 0 || w.Err != nil || w.MannWhitney.P == 0 ||
		w.Conclusion() != `no ratio: the corrected median of "b" is below the resolution of the overhead correction (see its warning); time both with -N to compare them` {
		t.Errorf("no ratio: %+v %q", w, w.Conclusion())
	}
	// Counters: "a" counted none (median 0); "c" has no wall time, but
	// its instructions are compared.
	if len(c.Counters) != 1 || c.Counters[0].A != "c" {
		t.Errorf("counters: %+v", c.Counters)
	}
	if s := c.Stored(); len(s) != 1 || s[0].A != "c" || s[0].Metric != "instructions" {
		t.Errorf("stored: %+v", s)
	}
}

// TestCommandDocumentStored: the stored comparisons are the
// comparisons; without an interval (too few runs) none is stored.
func TestCommandDocumentStored(t *testing.T) {
	for _, n := range []int{4, 8} {
		d := commands(n, []string{"a", "b"}, map[string]float64{"a": 10e6, "b": 17.5e6})
		c, err := CommandDocument(d, "")
		if err != nil {
			t.Fatal(err)
		}
		s := c.Stored()
		if len(s) != 2 {
			t.Fatalf("%d runs: %+v", n, s)
		}
		for i, x := range append(c.Wall, c.Counters...) {
			want := result.Comparison{A: "b", B: "a", Metric: x.Metric, Statistic: "median", Ratio: x.Ratio, Test: "mann-whitney-u", P: x.MannWhitney.P, Verdict: x.Conclusion()}
			if n >= 6 {
				want.Lo, want.Hi, want.Confidence = x.CI.Lo, x.CI.Hi, stats.Confidence
			}
			if s[i] != want {
				t.Errorf("%d runs: stored %+v, want %+v", n, s[i], want)
			}
		}
		if n < 6 && (c.Wall[0].HasCI || c.Wall[0].Significant || c.Wall[0].CIText() != "[no CI: fewer than 6 runs]" ||
			c.Wall[0].Conclusion() != `not significant: too few runs to tell "b" and "a" apart (no CI: fewer than 6 runs)`) {
			t.Errorf("%d runs: %+v, %q", n, c.Wall[0], c.Wall[0].Conclusion())
		}
	}
	// No timed command: no reference, nothing compared.
	d := commands(8, []string{"a"}, map[string]float64{"a": 1e6})
	d.Measurements[0].Metrics = nil
	if c, err := CommandDocument(d, ""); err != nil || c.Reference != -1 || len(c.Wall)+len(c.Counters) != 0 || c.Stored() != nil {
		t.Errorf("no runs: %v, %+v", err, c)
	}
}

// TestCommandConclusions words every branch of a comparison's
// conclusion and interval.
func TestCommandConclusions(t *testing.T) {
	sig := func(r, lo, hi float64) stats.MedianRatio {
		return stats.MedianRatio{Ratio: r, CI: stats.Interval{Lo: lo, Hi: hi}, Significant: true, MannWhitney: stats.MannWhitneyResult{P: 1e-6}}
	}
	for _, tt := range []struct {
		c          CommandComparison
		unit       string
		want, ciOf string
	}{
		{CommandComparison{Metric: "wall", MedianRatio: sig(0.5, 0.45, 0.55), HasCI: true}, result.UnitNs,
			`"a" is 2.00x as fast as "b"`, "[0.45, 0.55]"},
		{CommandComparison{Metric: "instructions", MedianRatio: sig(0.5, 0.49, 0.51), HasCI: true}, result.UnitCount,
			`"a" has 0.500x the instructions of "b" (fewer)`, "[0.490, 0.510]"},
		{CommandComparison{Metric: "task-clock", MedianRatio: sig(0.5, 0.49, 0.51), HasCI: true}, result.UnitNs,
			`"a" has 0.500x the task-clock of "b" (less)`, "[0.490, 0.510]"},
		{CommandComparison{Metric: "wall", MedianRatio: stats.MedianRatio{Ratio: 1.01, CI: stats.Interval{Lo: 0.9, Hi: 1.1}, MannWhitney: stats.MannWhitneyResult{P: 0.5}}, HasCI: true}, result.UnitNs,
			`not significant: no difference between "a" and "b" can be shown (p = 0.50)`, "[0.90, 1.10]"},
		{CommandComparison{Metric: "wall", MedianRatio: stats.MedianRatio{Ratio: 2, CI: stats.Interval{Lo: 1, Hi: math.Inf(1)}}}, result.UnitNs,
			`not significant: the ratio of "a" to "b" has no bounded interval (a median of 0 in some resamples)`, "[no bounded CI]"},
		{CommandComparison{Metric: "cycles", Err: errTest}, result.UnitCount,
			`not significant: "a" and "b" cannot be told apart in cycles (stats: too few)`, "[no CI: fewer than 6 runs]"},
	} {
		tt.c.A, tt.c.B = "a", "b"
		if got := tt.c.conclude(tt.unit); got != tt.want {
			t.Errorf("%q, want %q", got, tt.want)
		}
		if got := tt.c.CIText(); got != tt.ciOf {
			t.Errorf("%s: CI %q, want %q", tt.want, got, tt.ciOf)
		}
	}
}

var errTest = errors.New("stats: too few")

// TestFewRunsWithoutResampling: with too few runs for an interval,
// a comparison whose interval would be bounded skips the bootstrap, and
// says and stores exactly what the one made with the bootstrap does; one
// whose resamples could divide by 0 (or hold NaN) still resamples.
func TestFewRunsWithoutResampling(t *testing.T) {
	for _, tc := range []struct {
		name        string
		a, b        []float64
		unresampled bool
	}{
		{"equal", []float64{1e6, 1e6}, []float64{1e6, 1e6}, true},
		{"slower", []float64{3e6, 3.1e6, 2.9e6}, []float64{1e6, 1.1e6, 0.9e6}, true},
		{"five runs", spread(2e6, 5), spread(1e6, 5), true},
		{"one side short", spread(2e6, 20), spread(1e6, 3), true},
		{"a zero in a", []float64{0, 2e6}, []float64{1e6, 1e6}, true},
		{"a zero in b", []float64{2e6, 2e6, 2e6}, []float64{0, 1e6, 2e6}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := document("CPU A", map[string][]float64{"a": tc.a, "b": tc.b}, []string{"a", "b"})
			d.Run.Command = &result.CommandRun{Seed: 7}
			got := compareMetric(d, 0, 1, "wall", 0, 7)
			if got.unresampled != tc.unresampled {
				t.Fatalf("unresampled %v, want %v", got.unresampled, tc.unresampled)
			}
			// The comparison as it was made before: always resampled.
			want := CommandComparison{A: "a", B: "b", Metric: "wall"}
			want.MedianRatio, want.Err = stats.CompareMedians(tc.a, tc.b, stats.Confidence, stats.Alpha, 7)
			want.Significant = false // too few runs
			want.conclusion = want.conclude(result.UnitNs)
			if got.HasCI || got.Significant != want.Significant || got.Conclusion() != want.Conclusion() || got.CIText() != want.CIText() ||
				got.RatioText() != want.RatioText() || got.MannWhitney != want.MannWhitney || (got.Err == nil) != (want.Err == nil) {
				t.Errorf("got  %+v: %q %s\nwant %+v: %q %s", got, got.Conclusion(), got.CIText(), want, want.Conclusion(), want.CIText())
			}
			if got.Ratio != want.Ratio {
				t.Errorf("ratio %v, want %v", got.Ratio, want.Ratio)
			}
			if tc.unresampled && !(math.IsNaN(got.CI.Lo) && math.IsNaN(got.CI.Hi)) {
				t.Errorf("CI %v without resampling: want NaN (none computed)", got.CI)
			}
			gs, ws := (&Commands{Wall: []CommandComparison{got}}).Stored(), (&Commands{Wall: []CommandComparison{want}}).Stored()
			if len(gs) != len(ws) || len(gs) == 1 && gs[0] != ws[0] {
				t.Errorf("stored %+v, want %+v", gs, ws)
			}
		})
	}
}

func TestFiniteRatios(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		xs, ys []float64
		want   bool
	}{
		{[]float64{1, 2}, []float64{1, 2}, true},
		{[]float64{0, 0}, []float64{1}, true},
		{[]float64{1}, []float64{0, 1}, false},
		{[]float64{1}, []float64{-1, 1}, false},
		{[]float64{nan}, []float64{1}, false},
		{[]float64{1}, []float64{nan}, false},
		{[]float64{inf}, []float64{1}, false},
		{[]float64{1}, []float64{inf}, false},
		{nil, []float64{1}, false},
		{[]float64{1}, nil, false},
	} {
		if got := finiteRatios(tc.xs, tc.ys); got != tc.want {
			t.Errorf("finiteRatios(%v, %v) = %v, want %v", tc.xs, tc.ys, got, tc.want)
		}
	}
}

// TestCommandDocumentByInstructions: the commands of chrono run
// --instructions (primary metric instructions) are ranked by it: the
// reference is the one with the fewest, whatever the times, and counts
// that do not vary compare exactly, without a test.
func TestCommandDocumentByInstructions(t *testing.T) {
	d := commands(3, []string{"a", "b"}, map[string]float64{"a": 2e6, "b": 1e6})
	for i, ins := range []float64{1000, 1500} { // a: slower, fewer instructions
		m := &d.Measurements[i]
		m.Primary = "instructions"
		m.Metrics[1].Values = []float64{ins, ins, ins}
	}
	c, err := CommandDocument(d, "")
	if err != nil {
		t.Fatal(err)
	}
	if c.Reference != 0 || c.RankedBy != "instructions" || len(c.Counters) != 1 {
		t.Fatalf("reference %d, ranked by %q, counters %+v", c.Reference, c.RankedBy, c.Counters)
	}
	x := c.Counters[0]
	if x.A != "b" || x.Ratio != 1.5 || x.CI.Lo != 1.5 || x.CI.Hi != 1.5 || !x.Significant || !x.HasCI || x.Exact == "" || x.CIText() != "[exact]" {
		t.Errorf("%+v", x)
	}
	if got, want := x.Conclusion(), `"b" has exactly 1.500x the instructions of "a" (more; every sample identical on both sides (3 and 3))`; got != want {
		t.Errorf("conclusion %q, want %q", got, want)
	}
	// Without the primary metric in every command, wall time ranks.
	d.Measurements[1].Primary = "wall"
	if c, err := CommandDocument(d, ""); err != nil || c.Reference != 1 || c.RankedBy != "wall" {
		t.Errorf("mixed primaries: reference %d, ranked by %q, %v", c.Reference, c.RankedBy, err)
	}
}

func TestStoredExact(t *testing.T) {
	d := commands(3, []string{"a", "b"}, map[string]float64{"a": 2e6, "b": 1e6})
	for i, ins := range []float64{1000, 1500} {
		d.Measurements[i].Primary = "instructions"
		d.Measurements[i].Metrics[1].Values = []float64{ins, ins, ins}
	}
	c, err := CommandDocument(d, "")
	if err != nil {
		t.Fatal(err)
	}
	var got *result.Comparison
	for _, s := range c.Stored() {
		if s.Metric == "instructions" {
			got = &s
		}
	}
	if got == nil || got.Ratio != 1.5 || got.Lo != 1.5 || got.Hi != 1.5 || got.Confidence != 1 || got.Test != "" {
		t.Errorf("stored exact comparison %+v", got)
	}
}
