package report

import (
	"fmt"
	"html/template"
	"io"
	"strconv"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// historyPlot draws a series: its run medians against the run's number
// (runs are evenly spaced whatever their times, as commits are), joined by
// a line, the change points as dashed vertical lines between the runs on
// either side, and each segment's median as a horizontal line.
func historyPlot(s *historySeries, title string, n int) (*Plot, error) {
	if len(s.medians) == 0 {
		return nil, fmt.Errorf("report: the series %s has no runs to plot", title)
	}
	max := 0.0
	for _, v := range s.medians {
		max = maxAbs(max, v)
	}
	sc := scaleFor(s.det.Unit, max)
	p := newPlot("run (time order)", sc.label("median"))
	xy := make(plotter.XYs, len(s.medians))
	var hover []hoverPoint
	for i, v := range s.medians {
		xy[i] = plotter.XY{X: float64(i + 1), Y: v / sc.div}
		r := s.det.Runs[i]
		hover = append(hover, hoverPoint{X: xy[i].X, Y: xy[i].Y, Text: fmt.Sprintf("run %d, %s, commit %s: %s", i+1, r.Time.UTC().Format("2006-01-02 15:04"),
			short(r.Commit), tickLabel(xy[i].Y)+" "+sc.unit)})
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
	for _, c := range s.det.Changes {
		bounds = append(bounds, c.Index)
	}
	bounds = append(bounds, len(s.medians))
	for k := 0; k+1 < len(bounds); k++ {
		seg := s.medians[bounds[k]:bounds[k+1]]
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
	if len(s.det.Changes) > 0 {
		vl := &vlines{style: draw.LineStyle{Color: colorOf(3), Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}}
		for _, c := range s.det.Changes {
			vl.x = append(vl.x, float64(c.Index)+0.5)
		}
		p.Add(vl)
	}
	caption := fmt.Sprintf("%s; the median of each run, in time order; %s (dashed), each segment's median as a line", plural.Count(len(s.medians), "run"), plural.Count(len(s.det.Changes), "change point"))
	return render(p, plotW, plotH, "history-"+strconv.Itoa(n)+"-"+slug(title), title, caption, "run", sc.unit, hover)
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

// WriteHistoryHTML writes the series of a history document (chrono
// history trend --html) as one self-contained HTML page (the page of
// WriteHTML: no network, the same hover and zoom script), one plot per
// series: its run medians, its change points, each segment's median.
func WriteHistoryHTML(w io.Writer, d *result.Document) error {
	if d.Kind != result.KindHistory || d.Run.History == nil || d.Run.History.View == result.HistoryViewList {
		return fmt.Errorf("report: the history plot draws the series of chrono history trend, show, check or export, not a %s document", d.Kind)
	}
	page := struct {
		Title, Version, CommandLine string
		Docs                        []htmlDoc
		Compares                    []htmlCompare
		Timelines                   []template.HTML
		Nav                         [][2]string
	}{Title: "chrono history"}
	for i := range d.Measurements {
		s, err := newHistorySeries(&d.Measurements[i])
		if err != nil {
			return err
		}
		title := s.m.Name + ", " + s.det.Metric + s.plotTitle()
		p, err := historyPlot(s, title, i+1)
		if err != nil {
			return err
		}
		id := "series-" + strconv.Itoa(i+1)
		page.Docs = append(page.Docs, htmlDoc{ID: id, Title: title, Writer: "chrono history (change points: E-divisive means)", Plots: []*Plot{p}})
		page.Nav = append(page.Nav, [2]string{id, title})
	}
	return htmlPage().Execute(w, page)
}

// plotTitle says whose runs a series' plot shows, after its measurement
// and metric.
func (s *historySeries) plotTitle() string {
	switch {
	case s.det.Merged || s.det.Machine == nil:
		return " (every machine)"
	case s.det.Machine.Hash == "":
		return " on an unknown machine"
	}
	return " on " + s.det.Machine.Hash
}
