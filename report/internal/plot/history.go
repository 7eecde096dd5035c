package plot

import (
	"fmt"
	"strconv"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// History returns the plots of a history document of series (chrono
// history trend, show, check, export): one per series, named prefix, its
// number and its title ("history-1-parse-wall-on-0123456789abcdef"), each
// titled by its measurement, metric and machine; nil for a list of what a
// store holds. A measurement that is no series of runs is an error.
func History(d *result.Document, prefix string) ([]*Plot, error) {
	ps := &set{}
	if err := historyPlots(ps, d, prefix); err != nil {
		return nil, err
	}
	return ps.plots, nil
}

// historyPlots adds the plots of History to ps.
func historyPlots(ps *set, d *result.Document, prefix string) error {
	if h := d.Run.History; h == nil || h.View == result.HistoryViewList {
		return nil
	}
	for i := range d.Measurements {
		s, err := view.NewHistorySeries(&d.Measurements[i])
		if err != nil {
			return err
		}
		title := s.M.Name + ", " + s.Det.Metric + plotTitle(s)
		if err := ps.add(prefix+"-"+strconv.Itoa(i+1)+"-"+slug(title), func(name string) (*Plot, error) { return historyPlot(s, name, title) }); err != nil {
			return err
		}
	}
	return nil
}

// historyPlot draws a series: its run medians against the run's number
// (runs are evenly spaced whatever their times, as commits are), joined by
// a line, the change points as dashed vertical lines between the runs on
// either side, and each segment's median as a horizontal line.
func historyPlot(s *view.HistorySeries, name, title string) (*Plot, error) {
	if len(s.Medians) == 0 {
		return nil, fmt.Errorf("report: the series %s has no runs to plot", title)
	}
	max := 0.0
	for _, v := range s.Medians {
		max = maxAbs(max, v)
	}
	sc := scaleFor(s.Det.Unit, max)
	p := newPlot("run (time order)", sc.label("median"))
	xy := make(plotter.XYs, len(s.Medians))
	var hover []hoverPoint
	for i, v := range s.Medians {
		xy[i] = plotter.XY{X: float64(i + 1), Y: v / sc.div}
		r := s.Det.Runs[i]
		hover = append(hover, hoverPoint{X: xy[i].X, Y: xy[i].Y, Text: fmt.Sprintf("run %d, %s, commit %s: %s", i+1, r.Time.UTC().Format("2006-01-02 15:04"),
			view.ShortCommit(r.Commit), tickLabel(xy[i].Y)+" "+sc.unit)})
	}
	line, points, err := plotter.NewLinePoints(xy)
	if err != nil {
		return nil, fmt.Errorf("report: plotting %s: %w", title, err)
	}
	line.Color = colorOf(0)
	points.Color = colorOf(0)
	points.Radius = vg.Points(2)
	p.Add(line, points)
	// Segment medians between the changes.
	bounds := []int{0}
	for _, c := range s.Det.Changes {
		bounds = append(bounds, c.Index)
	}
	bounds = append(bounds, len(s.Medians))
	for k := 0; k+1 < len(bounds); k++ {
		seg := s.Medians[bounds[k]:bounds[k+1]]
		if len(seg) == 0 {
			continue
		}
		m := stats.Median(seg) / sc.div
		l, err := plotter.NewLine(plotter.XYs{{X: float64(bounds[k]) + 0.5, Y: m}, {X: float64(bounds[k+1]) + 0.5, Y: m}})
		if err == nil {
			l.Color = colorOf(1)
			l.Width = vg.Points(1.5)
			p.Add(l)
		}
	}
	if len(s.Det.Changes) > 0 {
		vl := &vlines{style: draw.LineStyle{Color: colorOf(3), Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}}
		for _, c := range s.Det.Changes {
			vl.x = append(vl.x, float64(c.Index)+0.5)
		}
		p.Add(vl)
	}
	caption := fmt.Sprintf("%s; the median of each run, in time order; %s (dashed), each segment's median as a line", plural.Count(len(s.Medians), "run"), plural.Count(len(s.Det.Changes), "change point"))
	return render(p, plotW, plotH, name, title, caption, "run", sc.unit, hover)
}

func maxAbs(a, v float64) float64 {
	if v < 0 {
		v = -v
	}
	if v > a {
		return v
	}
	return a
}

// plotTitle says whose runs a series' plot shows, after its measurement
// and metric.
func plotTitle(s *view.HistorySeries) string {
	switch {
	case s.Det.Merged || s.Det.Machine == nil:
		return " (every machine)"
	case s.Det.Machine.Hash == "":
		return " on an unknown machine"
	}
	return " on " + s.Det.Machine.Hash
}
