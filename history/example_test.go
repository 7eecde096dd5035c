package history_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/chronograph/chronograph/history"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// A benchmark program adds its result document to the history: the
// default store is .chrono/history.db in the working directory (or
// $CHRONO_HISTORY_DB); a postgres:// address selects PostgreSQL.
func Example() {
	dir, _ := os.MkdirTemp("", "history-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	s, err := history.Open(ctx, filepath.Join(dir, "history.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	d := result.New("numbers", result.Meta{Tool: result.Tool{Name: "mybench"}})
	d.Measurements = []result.Measurement{{Name: "parse", Primary: "wall",
		Metrics: []result.Metric{{Name: "wall", Unit: "ns", Values: []float64{1200, 1180, 1230}}}}}
	meta := history.Meta{Git: history.ReadGit(ctx, "."), Tags: map[string]string{"ci": "example"}}
	a, err := s.Add(ctx, d, meta)
	if err != nil {
		fmt.Println(err)
		return
	}
	pts, _ := s.Series(ctx, "parse", "wall", history.Filter{})
	fmt.Println(a.Points, len(pts), pts[0].Median)
	// Output: 1 1 1200
}

// A trend document holds a measurement's series (its run medians in time
// order, one run each with its commit) and the change points found;
// package report renders it as chrono history trend prints it.
func ExampleStore_TrendDocument() {
	dir, _ := os.MkdirTemp("", "history-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	s, err := history.Open(ctx, filepath.Join(dir, "history.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	for i := range 12 {
		v := 1000.0 + float64(i%3) // ns; 50 % slower from the 7th run
		if i >= 6 {
			v *= 1.5
		}
		d := result.New("numbers", result.Meta{Tool: result.Tool{Name: "mybench"}})
		d.Start = time.Date(2026, 11, 1, i, 0, 0, 0, time.UTC)
		d.Measurements = []result.Measurement{{Name: "parse", Primary: "wall",
			Metrics: []result.Metric{{Name: "wall", Unit: "ns", Values: []float64{v, v + 10, v - 10}}}}}
		meta := history.Meta{Git: history.Git{Commit: fmt.Sprintf("c%02d", i)}}
		if _, err := s.Add(ctx, d, meta); err != nil {
			fmt.Println(err)
			return
		}
	}
	o := history.CheckOptions{Threshold: 0.05, Detector: stats.EDivisiveOptions{MinSegment: 3, Seed: 1}}
	d, err := s.TrendDocument(ctx, history.Query{Name: "parse"}, o, false, result.Meta{Tool: result.Tool{Name: "mybench"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	series := d.Measurements[0]
	c := series.Detail.History.Changes[0]
	fmt.Println(d.Kind, series.Name, len(series.Metrics[0].Values), "runs")
	fmt.Printf("change at run %d (%s..%s): %.2fx, %s\n", c.Index+1, c.BeforeCommit, c.AfterCommit, c.Ratio, c.Verdict)
	// Output:
	// history parse 12 runs
	// change at run 7 (c05..c06): 1.50x, regression
}
