package report

import (
	"fmt"
	"html/template"
	"io"
	"strconv"
	"time"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/stats"
)

// HistoryPlot is one series of a history (chrono history trend): the run
// medians of a measurement's metric in time order, with its change points.
type HistoryPlot struct {
	// Title names the series (measurement, metric, machine).
	Title string
	// Times, Medians and Labels (the commits) hold one entry per run, in
	// time order; Unit is the medians' metric unit.
	Times   []time.Time
	Medians []float64
	Labels  []string
	Unit    string
	// Changes are the indexes of the first run after each change point.
	Changes []int
}

// historyPlot draws a series: its run medians against the run's number
// (runs are evenly spaced whatever their times, as commits are), joined by
// a line, the change points as dashed vertical lines between the runs on
// either side, and each segment's median as a horizontal line.
func historyPlot(hp HistoryPlot, n int) (*Plot, error) {
	if len(hp.Medians) == 0 {
		return nil, fmt.Errorf("report: the series %s has no runs to plot", hp.Title)
	}
	max := 0.0
	for _, v := range hp.Medians {
		max = maxAbs(max, v)
	}
	sc := scaleFor(hp.Unit, max)
	p := newPlot("run (time order)", sc.label("median"))
	xy := make(plotter.XYs, len(hp.Medians))
	var hover []hoverPoint
	for i, v := range hp.Medians {
		xy[i] = plotter.XY{X: float64(i + 1), Y: v / sc.div}
		label := ""
		if i < len(hp.Labels) {
			label = hp.Labels[i]
		}
		when := ""
		if i < len(hp.Times) {
			when = hp.Times[i].UTC().Format("2006-01-02 15:04")
		}
		hover = append(hover, hoverPoint{X: xy[i].X, Y: xy[i].Y, Text: fmt.Sprintf("run %d, %s, commit %s: %s", i+1, when, label, tickLabel(xy[i].Y)+" "+sc.unit)})
	}
	line, points, err := plotter.NewLinePoints(xy)
	if err != nil {
		return nil, fmt.Errorf("report: plotting %s: %w", hp.Title, err)
	}
	line.Color = colorOf(0)
	points.Color = colorOf(0)
	points.Radius = vg.Points(2)
	p.Add(line, points)
	// Segment medians between the changes.
	bounds := append(append([]int{0}, hp.Changes...), len(hp.Medians))
	for k := 0; k+1 < len(bounds); k++ {
		seg := hp.Medians[bounds[k]:bounds[k+1]]
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
	if len(hp.Changes) > 0 {
		vl := &vlines{style: draw.LineStyle{Color: colorOf(3), Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}}
		for _, c := range hp.Changes {
			vl.x = append(vl.x, float64(c)+0.5)
		}
		p.Add(vl)
	}
	caption := fmt.Sprintf("%s; the median of each run, in time order; %s (dashed), each segment's median as a line", plural.Count(len(hp.Medians), "run"), plural.Count(len(hp.Changes), "change point"))
	return render(p, plotW, plotH, "history-"+strconv.Itoa(n)+"-"+slug(hp.Title), hp.Title, caption, "run", sc.unit, hover)
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

// WriteHistoryHTML writes the series as one self-contained HTML page (the
// page of WriteHTML: no network, the same hover and zoom script), one plot
// per series.
func WriteHistoryHTML(w io.Writer, plots []HistoryPlot) error {
	page := struct {
		Title, Version, CommandLine string
		Docs                        []htmlDoc
		Compares                    []htmlCompare
		Timelines                   []template.HTML
		Nav                         [][2]string
	}{Title: "chrono history"}
	for i, hp := range plots {
		p, err := historyPlot(hp, i+1)
		if err != nil {
			return err
		}
		id := "series-" + strconv.Itoa(i+1)
		page.Docs = append(page.Docs, htmlDoc{ID: id, Title: hp.Title, Writer: "chrono history (change points: E-divisive means)", Plots: []*Plot{p}})
		page.Nav = append(page.Nav, [2]string{id, hp.Title})
	}
	return htmlPage.Execute(w, page)
}
