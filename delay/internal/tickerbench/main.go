// Command tickerbench checks delay.Ticker over many periods: no tick lost
// while the consumer keeps up, and lateness that does not grow with k
// (least-squares slope of lateness against k). Used by
// scripts/delay-ticker.sh.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/chronograph/chronograph/delay"
	"github.com/chronograph/chronograph/stats"
)

func main() {
	n := flag.Int("n", 10000, "ticks")
	period := flag.Duration("period", time.Millisecond, "period")
	catchUp := flag.Bool("catchup", false, "use the CatchUp overrun policy (default Skip)")
	flag.Parse()
	policy := delay.Skip
	if *catchUp {
		policy = delay.CatchUp
	}
	t, err := delay.NewTicker(*period, policy)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	late := make([]float64, 0, *n)
	var lost, lastK int64
	var first time.Time
	var drift time.Duration
	for i := 0; i < *n; i++ {
		tick := <-t.C
		lost += tick.K - lastK - 1
		lastK = tick.K
		if i == 0 {
			first = tick.Deadline
		}
		// Deadline of tick k relative to the first must be exactly (k-1) periods.
		if d := tick.Deadline.Sub(first) - time.Duration(tick.K-1)*(*period); d != 0 {
			drift = d
		}
		late = append(late, float64(tick.Lateness))
	}
	t.Stop()
	st := t.Stats()
	// Least-squares slope of lateness (ns) against tick index.
	var sx, sy, sxx, sxy float64
	for i, y := range late {
		x := float64(i)
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+float64(x*x), sxy+float64(x*y)
	}
	m := float64(len(late))
	slope := (float64(m*sxy) - float64(sx*sy)) / (float64(m*sxx) - float64(sx*sx))
	q := len(late) / 10
	a, b := stats.Summarize(late[:q]), stats.Summarize(late[len(late)-q:])
	fmt.Printf("policy=%s ticks=%d period=%v lost=%d missed(stats)=%d deadline_drift=%v\n", map[bool]string{false: "skip", true: "catchup"}[*catchUp], len(late), *period, lost, st.Missed, drift)
	fmt.Printf("lateness: median=%.0fns p99=%.0fns max=%.0fns mean=%.0fns\n",
		stats.Summarize(late).Median, stats.Percentile(late, 99, stats.Linear), stats.Summarize(late).Max, stats.Summarize(late).Mean)
	fmt.Printf("first 10%%: median=%.0fns mean=%.0fns   last 10%%: median=%.0fns mean=%.0fns\n", a.Median, a.Mean, b.Median, b.Mean)
	fmt.Printf("slope=%.4f ns per tick (%.1f ns over the run)\n", slope, slope*m)
}
