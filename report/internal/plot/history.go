package plot

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
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
	p := newPlot(runAxisLabel(s), sc.label("median"))
	p.X.Tick.Marker = commitTicks(s, plotW)
	p.namedX = true // short commits, some of only digits
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
	caption := fmt.Sprintf("%s; the median of each run, in time order, by its commit; %s (dashed), each segment's median as a line", plural.Count(len(s.Medians), "run"), plural.Count(len(s.Det.Changes), "change point"))
	for _, c := range s.Det.Changes {
		caption += fmt.Sprintf("; change between %s and %s: ×%s [%s, %s], p = %s (%s)", view.ShortCommit(c.BeforeCommit), view.ShortCommit(c.AfterCommit),
			unit.Ratio(c.Ratio, c.Lo, c.Hi), unit.Ratio(c.Lo, c.Lo, c.Hi), unit.Ratio(c.Hi, c.Lo, c.Hi), unit.PValue(c.P), c.Verdict)
	}
	return render(p, plotW, plotH, name, title, caption, "run", sc.unit, hover)
}

// runAxisLabel is the label of a series' run axis: its runs' dates.
func runAxisLabel(s *view.HistorySeries) string {
	runs := s.Det.Runs
	if len(runs) == 0 {
		return "commit (runs in time order)"
	}
	const day, minute = "2006-01-02", "2006-01-02 15:04"
	a, z := runs[0].Time.UTC(), runs[len(runs)-1].Time.UTC()
	span := a.Format(minute) + " to " + z.Format(minute)
	switch {
	case a.Format(minute) == z.Format(minute):
		span = a.Format(minute)
	case a.Format(day) == z.Format(day):
		span = a.Format(minute) + " to " + z.Format("15:04")
	}
	return "commit (runs in time order, " + span + " UTC)"
}

// commitTicks labels a series' run axis (run i at x = i+1) with the runs'
// short commits, every k-th run so that the labels fit in width w.
func commitTicks(s *view.HistorySeries, w vg.Length) plot.ConstantTicks {
	n := len(s.Det.Runs)
	label := func(r result.HistoryPoint) string {
		c := view.ShortCommit(r.Commit)
		if len(c) > 7 {
			c = c[:7]
		}
		if c == "" {
			c = r.Time.UTC().Format("01-02 15:04")
		}
		return c
	}
	per := vg.Points(50) // a label's room: 7 characters at 9 points and a gap
	k := max(1, int(math.Ceil(float64(vg.Length(n)*per/(w*0.85)))))
	var ts []plot.Tick
	for i := 0; i < n; i++ {
		t := plot.Tick{Value: float64(i + 1)}
		if i%k == 0 {
			t.Label = label(s.Det.Runs[i])
		}
		ts = append(ts, t)
	}
	return ts
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
