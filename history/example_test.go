package history_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chronograph/chronograph/history"
	"github.com/chronograph/chronograph/result"
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
