package plot

import (
	"strconv"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// Plots returns the plots of document d, the n-th of a report (its
// number starts every plot's Name): per kind, what its readers look at
// (see samplePlots, sleepPlots, latencyPlots, clocksPlots and History).
// Environment documents have none. What a plot cannot show is binned or
// down-sampled for drawing and its caption says so; the statistics are
// computed from every sample. With only set, the one plot of that name is
// drawn (the others are named but not drawn: an SVG file holds one plot);
// "" draws them all.
func Plots(d *result.Document, n int, o view.Options, only string) ([]*Plot, error) {
	prefix := strconv.Itoa(n) + "-" + slug(d.Kind)
	ps := &set{only: only}
	var err error
	switch d.Kind {
	case result.KindEnv:
	case result.KindSleep:
		err = sleepPlots(ps, d, prefix, o)
	case result.KindLatency:
		err = latencyPlots(ps, d, prefix, o)
	case result.KindClocks:
		err = clocksPlots(ps, d, prefix, o)
	case result.KindPulses:
		err = pulsesPlots(ps, d, prefix, o)
	case result.KindHistory:
		if h := d.Run.History; h != nil && h.View != result.HistoryViewList {
			err = historyPlots(ps, d, prefix)
			break
		}
		err = samplePlots(ps, d, o, prefix)
	default:
		err = samplePlots(ps, d, o, prefix)
	}
	if err != nil {
		return nil, err
	}
	return ps.plots, nil
}

// Names returns the names of the plots of d (see Plots), the n-th of a
// report, in order.
func Names(d *result.Document, n int, o view.Options) ([]string, error) {
	plots, err := Plots(d, n, o, "")
	if err != nil {
		return nil, err
	}
	names := make([]string, len(plots))
	for i, p := range plots {
		names[i] = p.Name
	}
	return names, nil
}

// set collects the plots of a document in order; with only set, it
// draws only the plot of that name.
type set struct {
	only  string
	plots []*Plot
}

// add draws the plot named name with draw, unless another one is wanted,
// and keeps it; a nil plot (nothing to show) is left out.
func (s *set) add(name string, draw func(name string) (*Plot, error)) error {
	if s.only != "" && name != s.only {
		return nil
	}
	p, err := draw(name)
	if err != nil {
		return err
	}
	if p != nil {
		s.plots = append(s.plots, p)
	}
	return nil
}

// Comparison draws the ratios of a diff's changes (document n against
// document 1, the baseline, of a report) with their intervals, recomputed
// from the samples; nil when no change has a ratio. all names each row by
// its measurement and metric.
func Comparison(d *compare.Diff, n int, all bool) (*Plot, error) {
	var rows []ratioRow
	for _, c := range d.Changes {
		if c.Err != nil {
			continue
		}
		name := c.Measurement
		if all {
			name += " (" + c.Metric + ")"
		}
		rows = append(rows, ratioRow{name: name, ratio: c.Ratio, lo: c.CI.Lo, hi: c.CI.Hi, significant: c.Significant,
			verdict: c.Measurement + " " + c.Metric + ": " + c.Conclusion()})
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return ratioPlot(rows, "compare-"+strconv.Itoa(n)+"-ratios", "new / baseline",
		"ratio of medians (document "+strconv.Itoa(n)+" / document 1) with its "+unit.Percent(stats.Confidence)+" bootstrap interval, recomputed from the samples; red: significantly higher (slower), green: significantly lower (faster); Mann-Whitney U, p ≤ "+tickLabel(stats.Alpha), "new / baseline")
}
