package plot

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
)

// plotSleepCell is one measurement of a sleep document as its plots see
// it: a mechanism at a requested duration, with its samples.
type plotSleepCell struct {
	mechanism string
	requested float64 // ns
	m         *result.Measurement
}

// plotSleepCellOf reads a sleep measurement's mechanism and requested
// duration from its typed detail; for documents without one (version 1,
// other writers) the requested duration comes from its samples (achieved
// minus overshoot, exact by construction), else from the parameter
// "requested_ns" or the name's "@DURATION", and the mechanism from the
// parameter "mechanism", else the name before "@" (or before its last
// space). ok is false when neither can be told.
func plotSleepCellOf(m *result.Measurement) (plotSleepCell, bool) {
	if sd := m.Detail.Sleep; sd != nil {
		return plotSleepCell{m: m, mechanism: sd.Mechanism, requested: float64(sd.RequestedNs)}, sd.Mechanism != "" && sd.RequestedNs > 0
	}
	c := plotSleepCell{m: m, requested: math.NaN()}
	a, o := m.Metric("achieved"), m.Metric("overshoot")
	if a != nil && o != nil && len(a.Values) > 0 && len(a.Values) == len(o.Values) {
		c.requested = math.Round(a.Values[0] - o.Values[0])
	}
	name := m.Name
	if v, ok := m.Parameters["mechanism"]; ok {
		c.mechanism = v
	} else if i := strings.LastIndex(name, "@"); i > 0 {
		c.mechanism = name[:i]
	} else if i := strings.LastIndex(name, " "); i > 0 {
		c.mechanism = name[:i]
	}
	if math.IsNaN(c.requested) {
		if v, err := strconv.ParseFloat(m.Parameters["requested_ns"], 64); err == nil {
			c.requested = v
		} else if i := strings.LastIndexAny(name, "@ "); i > 0 {
			if dur, err := time.ParseDuration(name[i+1:]); err == nil {
				c.requested = float64(dur)
			}
		}
	}
	return c, c.mechanism != "" && c.requested > 0
}

// sleepPlots are the plots of a sleep study: the error of each mechanism
// (achieved minus requested: its median, and its 10th to 90th percentile
// as a whisker) against the requested duration on log-log axes, and the
// CPU time each wait cost, likewise.
func sleepPlots(ps *set, d *result.Document, prefix string, o view.Options) error {
	var cells []plotSleepCell
	var mechs []string
	seen := map[string]bool{}
	for i := range d.Measurements {
		c, ok := plotSleepCellOf(&d.Measurements[i])
		if !ok {
			continue
		}
		cells = append(cells, c)
		if !seen[c.mechanism] {
			seen[c.mechanism] = true
			mechs = append(mechs, c.mechanism)
		}
	}
	if len(cells) == 0 {
		return nil
	}
	for _, what := range []struct {
		metric, name, title, ylabel, caption string
	}{
		{"overshoot", "error", "error against the requested duration", "achieved − requested",
			"per mechanism: the median error of its waits (points), and its 10th to 90th percentile (whiskers); log-log axes"},
		{"cpu", "cpu", "CPU time per wait", "CPU time per wait",
			"per mechanism: the median CPU time of one wait (points), and its 10th to 90th percentile (whiskers); log-log axes"},
	} {
		if err := ps.add(prefix+"-"+what.name, func(name string) (*Plot, error) {
			return sleepPlot(cells, mechs, what.metric, name, what.title, what.ylabel, what.caption, o)
		}); err != nil {
			return err
		}
	}
	return nil
}

// sleepPlot draws metric per mechanism against the requested duration.
func sleepPlot(cells []plotSleepCell, mechs []string, metric, name, title, ylabel, caption string, o view.Options) (*Plot, error) {
	type pt struct{ x, med, p10, p90 float64 }
	per := map[string][]pt{}
	var lo, hi float64 = math.Inf(1), math.Inf(-1)
	var xlo, xhi float64 = math.Inf(1), math.Inf(-1)
	var hover []hoverPoint
	nonPositive := 0
	for _, c := range cells {
		met := c.m.Metric(metric)
		if met == nil {
			continue
		}
		s := o.Series(met)
		if s.N() == 0 {
			continue
		}
		q := pt{x: c.requested, med: s.Summary.Median, p10: s.Quantile(0.1), p90: s.Quantile(0.9)}
		per[c.mechanism] = append(per[c.mechanism], q)
		for _, v := range []float64{q.med, q.p10, q.p90} {
			if v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		xlo, xhi = math.Min(xlo, c.requested), math.Max(xhi, c.requested)
		hover = append(hover, hoverPoint{X: c.requested, Y: q.med, Text: fmt.Sprintf("%s at %s: median %s (p10 %s, p90 %s), %s",
			c.mechanism, time.Duration(c.requested).String(), view.Figure(q.med, s.Unit, s.AtQuantile(0.5), o.Unit),
			view.Figure(q.p10, s.Unit, s.AtQuantile(0.1), o.Unit), view.Figure(q.p90, s.Unit, s.AtQuantile(0.9), o.Unit), plural.Count(s.N(), "wait"))})
	}
	if len(per) == 0 || math.IsInf(lo, 1) {
		return nil, nil
	}
	sc := scaleFor(result.UnitNs, hi)
	xs := scaleFor(result.UnitNs, xhi)
	floor := lo / 2 // where values <= 0 are drawn on the log axis
	p := newPlot(xs.label("requested duration"), sc.label(ylabel))
	setLogDurations(&p.X, xs)
	setLogDurations(&p.Y, sc)
	for i, mech := range mechs {
		qs := per[mech]
		if len(qs) == 0 {
			continue
		}
		c := colorOf(i)
		xy := make(plotter.XYs, 0, len(qs))
		for _, q := range qs {
			y := q.med
			if y <= 0 {
				y = floor
				nonPositive++
			}
			xy = append(xy, plotter.XY{X: q.x / xs.div, Y: y / sc.div})
			a, z := math.Max(q.p10, floor), math.Max(q.p90, floor)
			w, err := plotter.NewLine(plotter.XYs{{X: q.x / xs.div, Y: a / sc.div}, {X: q.x / xs.div, Y: z / sc.div}})
			if err == nil {
				w.Color, w.Width = faded(c, 160), vg.Points(1.2)
				p.Add(w)
			}
		}
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, fmt.Errorf("report: sleep plot: %w", err)
		}
		l.Color, l.Width = c, vg.Points(1.2)
		s.Color, s.Radius, s.Shape = c, vg.Points(2.8), shapeOf(i)
		p.Add(l, s)
		p.key(shorten(mech, 36), l, s)
	}
	for i := range hover {
		hover[i].X /= xs.div
		hover[i].Y = math.Max(hover[i].Y, floor) / sc.div
	}
	p.X.Min, p.X.Max = xlo/xs.div/1.5, xhi/xs.div*1.5
	p.Y.Min = math.Min(p.Y.Min, floor/sc.div)
	if nonPositive > 0 {
		caption += "; " + plural.Count(nonPositive, "median") + " at or below 0 " + plural.Is(nonPositive) + " drawn at the bottom"
	}
	return render(p, plotW*0.9, plotH*1.1, name, title, caption, xs.unit, sc.unit, hover)
}

// shapeOf is the glyph of the i-th series.
func shapeOf(i int) draw.GlyphDrawer {
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}}
	return shapes[i%len(shapes)]
}

// hline draws a horizontal line at y across the data area.
type hline struct {
	y     float64
	style draw.LineStyle
}

func (h *hline) Plot(c draw.Canvas, p *plot.Plot) {
	_, ty := p.Transforms(&c)
	if h.y < p.Y.Min || h.y > p.Y.Max {
		return
	}
	inPhase(c, "ref", func() { c.StrokeLine2(h.style, c.Min.X, ty(h.y), c.Max.X, ty(h.y)) })
}

var refLine = draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(1)}
