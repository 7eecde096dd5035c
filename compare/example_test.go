package compare_test

import (
	"fmt"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

// samples are n wall times in ns around base, spread ±1 % in a fixed
// pattern.
func samples(base float64, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = base * (1 + 0.01*float64((i*7)%11-5)/5)
	}
	return xs
}

// wallDocument is a document with one measurement per name, each with
// its wall times.
func wallDocument(walls map[string][]float64, names ...string) *result.Document {
	d := &result.Document{Schema: result.Schema, Version: result.Version, Kind: result.KindCommand}
	for _, n := range names {
		d.Measurements = append(d.Measurements, result.Measurement{Name: n, Primary: "wall",
			Metrics: []result.Metric{{Name: "wall", Unit: result.UnitNs, Values: walls[n]}}})
	}
	return d
}

// Two samples: the ratio of their medians with its bootstrap interval
// (seed 1) and the Mann-Whitney U test.
func ExampleMedians() {
	a, b := samples(1.5e6, 20), samples(1e6, 20)
	r, err := compare.Medians(a, b, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("a/b = %s [%s, %s], p = %s, significant: %v\n", unit.Ratio(r.Ratio, r.CI.Lo, r.CI.Hi),
		unit.Ratio(r.CI.Lo, r.CI.Lo, r.CI.Hi), unit.Ratio(r.CI.Hi, r.CI.Lo, r.CI.Hi), unit.PValue(r.MannWhitney.P), r.Significant)
	// Output: a/b = 1.50 [1.49, 1.51], p = 1.5e-11, significant: true
}

// A newer document against a baseline: every metric in both, with its
// conclusion.
func ExampleDocuments() {
	old := wallDocument(map[string][]float64{"parse": samples(1e6, 20), "print": samples(2e6, 20)}, "parse", "print")
	cur := wallDocument(map[string][]float64{"parse": samples(1.5e6, 20), "print": samples(2e6, 20), "sort": samples(1e6, 20)}, "parse", "print", "sort")
	d := compare.Documents(old, cur, false)
	for _, c := range d.Changes {
		fmt.Printf("%s: %s\n", c.Measurement, c.Conclusion())
	}
	fmt.Println("only in the new document:", d.OnlyNew)
	// Output:
	// parse: 1.50x slower (higher) than the baseline
	// print: no significant change (p = 1.0)
	// only in the new document: [sort]
}

// A regression gate with a 5 % threshold: a 20 % slowdown regressed, a
// 3 % one did not change, and 3 runs cannot decide anything.
func ExampleGateDocuments() {
	old := wallDocument(map[string][]float64{"parse": samples(1e6, 30), "print": samples(1e6, 30), "sort": samples(1e6, 3)}, "parse", "print", "sort")
	cur := wallDocument(map[string][]float64{"parse": samples(1.2e6, 30), "print": samples(1.03e6, 30), "sort": samples(1.3e6, 3)}, "parse", "print", "sort")
	g, err := compare.GateDocuments(old, cur, compare.GateOptions{Threshold: 0.05})
	if err != nil {
		panic(err)
	}
	for _, c := range g.Changes {
		if c.Why != "" {
			fmt.Printf("%s: %s (%s)\n", c.Measurement, c.Verdict, c.Why)
		} else {
			fmt.Printf("%s: %s\n", c.Measurement, c.Verdict)
		}
	}
	fmt.Println("fails:", g.Regressed())
	// Output:
	// parse: regression
	// print: no change
	// sort: undecided (too few samples (3 and 3): no test of them can reach p ≤ 0.05)
	// fails: true
}

// The interleaved rounds of two cases, in two blocks: the median of the
// paired ratios with its interval.
func ExamplePairedRounds() {
	blocks := []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}
	linear := samples(300, 12)
	binary := make([]float64, 12)
	for i, x := range samples(100, 12) {
		binary[(i+5)%12] = x // the same spread, in another order
	}
	p := compare.PairedRounds(compare.Rounds{Name: "linear", NsPerOp: linear, Blocks: blocks},
		compare.Rounds{Name: "binary", NsPerOp: binary, Blocks: blocks})
	fmt.Println(p.Conclusion())
	// Output: binary is 3.01x faster than linear [2.94, 3.10]
}

// The commands of a command document compared with the fastest, as
// chrono run shows and stores them.
func ExampleCommandDocument() {
	d := wallDocument(map[string][]float64{"gzip -1": samples(2.3e6, 20), "gzip -9": samples(5.6e6, 20)}, "gzip -1", "gzip -9")
	c, err := compare.CommandDocument(d, "")
	if err != nil {
		panic(err)
	}
	fmt.Println("reference:", d.Measurements[c.Reference].Name)
	for _, w := range c.Wall {
		fmt.Printf("%s %s: %s\n", w.RatioText(), w.CIText(), w.Conclusion())
	}
	// Output:
	// reference: gzip -1
	// 2.43 [2.42, 2.45]: "gzip -9" is 2.43x as slow as "gzip -1"
}
