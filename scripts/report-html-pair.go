//go:build ignore

// Command report-html-pair is the fixture and the anchor of
// report-html-pair.sh.
//
//	go run report-html-pair.go gen DIR       writes DIR/old.json and DIR/new.json:
//	                                         two command documents of 1,000,000
//	                                         wall samples each (log-normal, seeded)
//	go run report-html-pair.go sort OLD NEW  reads both documents as chrono does
//	                                         (result.ReadFile) and sorts each one's
//	                                         wall samples once: the anchor
package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/chronograph/chronograph/result"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "report-html-pair:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 2 && args[0] == "gen":
		r := rand.New(rand.NewPCG(3, 4))
		for k, name := range []string{"old.json", "new.json"} {
			wall := make([]float64, 1_000_000)
			for i := range wall {
				v := 1e6 * (1 + 0.05*float64(k)) * math.Exp(0.05*r.NormFloat64())
				if r.Float64() < 1e-4 {
					v *= 5
				}
				wall[i] = math.Round(v)
			}
			d := &result.Document{Schema: result.Schema, Version: result.Version, Kind: result.KindCommand,
				Tool: result.Tool{Name: "chrono", Version: "bench"}, Start: time.Date(2026, 11, 30, 12, k, 0, 0, time.UTC),
				Measurements: []result.Measurement{{Name: "build", Primary: "wall", Metrics: []result.Metric{
					{Name: "wall", Unit: result.UnitNs, Resolution: 1, Values: wall}}}}}
			if err := result.WriteFile(filepath.Join(args[1], name), d); err != nil {
				return err
			}
		}
		return nil
	case len(args) == 3 && args[0] == "sort":
		n := 0
		var read, sorting time.Duration
		for _, p := range args[1:] {
			t0 := time.Now()
			d, err := result.ReadFile(p)
			if err != nil {
				return err
			}
			t1 := time.Now()
			xs := slices.Clone(d.Measurements[0].Metric("wall").Values)
			slices.Sort(xs)
			read, sorting = read+t1.Sub(t0), sorting+time.Since(t1)
			n += len(xs)
		}
		fmt.Printf("%d samples: read in %.3f s, sorted in %.3f s\n", n, read.Seconds(), sorting.Seconds())
		return nil
	}
	return fmt.Errorf("usage: report-html-pair gen DIR | sort OLD NEW")
}
