//go:build ignore

// Genxperf writes xperf.json: what golang.org/x/perf's benchstat computes
// (through github.com/aclements/go-moremath/stats, the module benchmath
// calls) for the stats tests to compare with:
//
//   - QuantileCI(n, 0.5, confidence), the median interval of benchmath's
//     AssumeNothing, for n = 1..200 at six confidence levels;
//   - MannWhitneyUTest(a, b, LocationDiffers), benchmath's comparison, for
//     every case of compare.json and for random samples with and without
//     ties.
//
// Run it from the module root: go run stats/testdata/genxperf.go
// (go-moremath is already in go.mod, through x/perf).
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/aclements/go-moremath/stats"
)

type qci struct {
	N          int     `json:"n"`
	Confidence float64 `json:"confidence"`
	LoOrder    int     `json:"lo_order"`
	HiOrder    int     `json:"hi_order"`
	Claimed    float64 `json:"claimed"` // QuantileCIResult.Confidence
}

type mwu struct {
	Name string    `json:"name"`
	A    []float64 `json:"a,omitempty"` // for the random cases; the others are in compare.json
	B    []float64 `json:"b,omitempty"`
	U    float64   `json:"u"`
	P    float64   `json:"p"`
	Err  string    `json:"err,omitempty"`
}

func main() {
	const dir = "stats/testdata/"
	var out struct {
		Meta        map[string]string `json:"meta"`
		QuantileCI  []qci             `json:"quantile_ci"`
		MannWhitney []mwu             `json:"mann_whitney"`
	}
	out.Meta = map[string]string{
		"generator": "go run stats/testdata/genxperf.go",
		"module":    "github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 (via golang.org/x/perf)",
	}
	for _, c := range []float64{0.5, 0.8, 0.9, 0.95, 0.99, 0.999} {
		for n := 1; n <= 200; n++ {
			r := stats.QuantileCI(n, 0.5, c)
			out.QuantileCI = append(out.QuantileCI, qci{n, c, r.LoOrder, r.HiOrder, r.Confidence})
		}
	}

	var cmp struct {
		Cases []struct {
			Name string
			A, B []float64
		}
	}
	data, err := os.ReadFile(dir + "compare.json")
	if err != nil {
		fail(err)
	}
	if err := json.Unmarshal(data, &cmp); err != nil {
		fail(err)
	}
	test := func(name string, a, b []float64, keep bool) {
		m := mwu{Name: name}
		if keep {
			m.A, m.B = a, b
		}
		r, err := stats.MannWhitneyUTest(a, b, stats.LocationDiffers)
		if err != nil {
			m.Err = err.Error()
		} else {
			m.U, m.P = r.U, r.P
		}
		out.MannWhitney = append(out.MannWhitney, m)
	}
	for _, c := range cmp.Cases {
		test(c.Name, c.A, c.B, false)
	}
	// Random samples up to 60 values: continuous (no ties) or rounded to
	// a few levels (ties), with and without a shift between them.
	rng := rand.New(rand.NewPCG(2026, 9))
	for i := range 240 {
		na, nb := 1+rng.IntN(60), 1+rng.IntN(60)
		if i%4 == 0 {
			na, nb = 1+rng.IntN(12), 1+rng.IntN(12)
		}
		levels := 0.0 // continuous
		if i%2 == 1 {
			levels = float64(2 + rng.IntN(12))
		}
		shift := rng.Float64() * 1.5
		draw := func(n int, mu float64) []float64 {
			xs := make([]float64, n)
			for j := range xs {
				x := rng.NormFloat64() + mu
				if levels > 0 {
					x = math.Round(x * levels / 4)
				} else {
					x = math.Round(x*1e6) / 1e6 // short JSON, ties unlikely
				}
				xs[j] = x
			}
			return xs
		}
		test(fmt.Sprintf("random_%d", i), draw(na, 0), draw(nb, shift), true)
	}

	// One line per record.
	var text []byte
	line := func(prefix string, v any, suffix string) {
		b, err := json.Marshal(v)
		if err != nil {
			fail(err)
		}
		text = append(append(append(text, prefix...), b...), suffix...)
	}
	line("{\n \"meta\": ", out.Meta, ",\n \"quantile_ci\": [\n")
	for i, q := range out.QuantileCI {
		line("  ", q, map[bool]string{true: ",\n", false: "\n ],\n \"mann_whitney\": [\n"}[i < len(out.QuantileCI)-1])
	}
	for i, m := range out.MannWhitney {
		line("  ", m, map[bool]string{true: ",\n", false: "\n ]\n}\n"}[i < len(out.MannWhitney)-1])
	}
	if err := os.WriteFile(dir+"xperf.json", text, 0o644); err != nil {
		fail(err)
	}
	fmt.Println("wrote", dir+"xperf.json")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "genxperf:", err)
	os.Exit(1)
}
