package plot

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

// pulsesPlots are the plots of a pulses document (chrono pulses): the
// waveform strip of its window (one lane per channel), then the
// distribution of each width, period and latency that varies (latencies
// first, at most maxDistributionPlots in all; one of equal values is its
// table's row). Duty cycles and frequencies are in the tables: a
// frequency is a rise period's inverse, a duty cycle the high width over
// it.
func pulsesPlots(ps *set, d *result.Document, prefix string, o view.Options) error {
	if run := d.Run.Pulses; run != nil && run.Window != nil && len(run.Window.Traces) > 0 {
		if err := ps.add(prefix+"-waveform", func(name string) (*Plot, error) { return waveformPlot(run, name) }); err != nil {
			return err
		}
	}
	var lat, widths []sampleSet
	for _, ss := range sampleSets(d, "", o) {
		if ss.s.Unit != result.UnitNs || !(ss.s.Summary.Max > ss.s.Summary.Min) {
			continue
		}
		if det := ss.m.Detail.Pulses; det != nil && det.Figure == result.PulseLatency {
			lat = append(lat, ss)
		} else {
			widths = append(widths, ss)
		}
	}
	sets := append(lat, widths...)
	for i := range sets {
		sets[i].color = i
	}
	for i, ss := range sets {
		if i == maxDistributionPlots {
			break
		}
		if err := ps.add(prefix+"-distribution-"+slug(ss.name), func(name string) (*Plot, error) { return distributionPlot(ss, name, o) }); err != nil {
			return err
		}
	}
	return nil
}

// The levels of a lane of the waveform strip, from its middle, in lanes.
const (
	laneHigh = 0.32
	laneLow  = -0.32
)

// waveformPlot draws the window of a pulses document: one lane per
// channel (the first on top), each a step line between its low and high
// level, x and z as shaded bars; the edges of each --between marked on
// their lanes. The time axis is in the unit of the capture's resolution
// (a 1 µs tick: µs), from the capture's time zero.
func waveformPlot(run *result.PulsesRun, name string) (*Plot, error) {
	w := run.Window
	n := len(w.Traces)
	res := unit.Precision{Resolution: run.ResolutionNs}
	tu := unit.For(run.ResolutionNs)
	lo, hi := w.StartNs/tu.Nanos, w.EndNs/tu.Nanos
	if !(hi > lo) {
		hi = lo + 1
	}
	p := newPlot("time ("+tu.Name+")", "")
	wf := &waveform{lo: lo, hi: hi}
	var pts []hoverPoint
	names := make([]string, n)
	at := func(ns float64) string { return unit.Duration(ns, res) }
	for i, tr := range w.Traces {
		y := rowY(i, n)
		names[i] = tr.Name
		lane := waveLane{y: y, color: colorOf(i)}
		for j, t := range tr.TimesNs {
			if j >= len(tr.Levels) {
				break
			}
			end := w.EndNs
			if j+1 < len(tr.TimesNs) {
				end = tr.TimesNs[j+1]
			}
			l := tr.Levels[j]
			lane.runs = append(lane.runs, waveRun{from: t / tu.Nanos, to: end / tu.Nanos, level: l})
			text := fmt.Sprintf("%s: %s at %s", tr.Name, levelName(l), at(t))
			if j+1 < len(tr.TimesNs) {
				text += fmt.Sprintf(", for %s", at(end-t))
			}
			pts = append(pts, hoverPoint{X: t / tu.Nanos, Y: y + levelY(l), Text: text})
		}
		wf.lanes = append(wf.lanes, lane)
	}
	p.Add(wf)
	caption := fmt.Sprintf("the first %s of the measured channels (%s to %s)", plural.Count(changes(w), "level change"), at(w.StartNs), at(w.EndNs))
	caption += "; glitches drawn as recorded; grey: x (unknown), pale: z (high impedance)"
	marks, err := betweenMarks(p, run, n)
	if err != nil {
		return nil, err
	}
	pts = append(pts, marks...)
	if len(marks) > 0 {
		caption += "; triangles: the edges of each --between (▲ its FROM, ▼ its TO edges in the window)"
	}
	nominalY(p, names)
	p.X.Min, p.X.Max = lo, hi
	h := vg.Length(float64(n)*0.45*float64(vg.Inch)) + 0.9*vg.Inch
	return render(p, plotW, h, name, "waveform: "+run.Source, caption, tu.Name, "", pts)
}

// changes counts the level changes in w (the first level of each trace
// included).
func changes(w *result.PulsesWindow) int {
	c := 0
	for _, tr := range w.Traces {
		c += len(tr.TimesNs)
	}
	return c
}

// betweenMarks marks on p, for each --between of run whose channels are
// lanes of the window, its FROM edges (▲) and its TO edges (▼), each
// between in a colour of its own with a legend entry; it returns their
// hover points. Which FROM pairs with which TO is the analysis' (its
// latencies); the strip shows where the edges fall.
func betweenMarks(p *chart, run *result.PulsesRun, n int) ([]hoverPoint, error) {
	w := run.Window
	lane := func(ref string) (int, string, bool) {
		i := strings.LastIndexByte(ref, ':')
		if i < 0 {
			return 0, "", false
		}
		ch, err := run.Capture.Lookup(ref[:i])
		if err != nil {
			return 0, "", false
		}
		for j, tr := range w.Traces {
			if tr.Name == ch.Name {
				return j, ref[i+1:], true
			}
		}
		return 0, "", false
	}
	tu := unit.For(run.ResolutionNs)
	res := unit.Precision{Resolution: run.ResolutionNs}
	var pts []hoverPoint
	for bi, b := range run.Between {
		c := colorOf(len(w.Traces) + bi)
		label := b.From + " → " + b.To
		for k, ref := range []string{b.From, b.To} {
			li, edge, ok := lane(ref)
			if !ok {
				continue
			}
			tr := w.Traces[li]
			y := rowY(li, n)
			var xy plotter.XYs
			for j := 1; j < len(tr.TimesNs) && j < len(tr.Levels); j++ {
				prev, cur := tr.Levels[j-1], tr.Levels[j]
				if edge == "rise" && prev == '0' && cur == '1' || edge == "fall" && prev == '1' && cur == '0' {
					ym := y + laneHigh + 0.12
					if k == 1 {
						ym = y + laneLow - 0.12
					}
					xy = append(xy, plotter.XY{X: tr.TimesNs[j] / tu.Nanos, Y: ym})
					role := "from"
					if k == 1 {
						role = "to"
					}
					pts = append(pts, hoverPoint{X: tr.TimesNs[j] / tu.Nanos, Y: ym, Text: fmt.Sprintf("%s at %s (%s of %s)", ref, unit.Duration(tr.TimesNs[j], res), role, label)})
				}
			}
			if len(xy) == 0 {
				continue
			}
			s, err := plotter.NewScatter(xy)
			if err != nil {
				return nil, fmt.Errorf("report: the waveform's marks of %s: %w", label, err)
			}
			s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: triangle{down: k == 1}}
			p.Add(s)
			if k == 0 {
				p.key(label, s)
			}
		}
	}
	return pts, nil
}

// levelName says a level of a window's trace in words.
func levelName(l byte) string {
	switch l {
	case '1':
		return "high"
	case '0':
		return "low"
	case 'z':
		return "z (high impedance)"
	}
	return "x (unknown)"
}

// levelY is the height of level l in its lane, from the lane's middle.
func levelY(l byte) float64 {
	switch l {
	case '1':
		return laneHigh
	case '0':
		return laneLow
	}
	return 0
}

// waveform draws the lanes of a waveform strip.
type waveform struct {
	lo, hi float64
	lanes  []waveLane
}

type waveLane struct {
	y     float64
	color color.RGBA
	runs  []waveRun
}

// waveRun is one level of a lane from one time to the next (in the axis'
// unit).
type waveRun struct {
	from, to float64
	level    byte
}

func (wf *waveform) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, l := range wf.lanes {
		line := draw.LineStyle{Color: l.color, Width: vg.Points(1.4)}
		// Each stretch of 0 and 1 levels is one step line, its edges
		// included.
		var step []vg.Point
		flush := func() {
			if len(step) > 0 {
				c.StrokeLines(line, c.ClipLinesX(step)...)
			}
			step = nil
		}
		for _, r := range l.runs {
			x0, x1 := tx(math.Max(r.from, wf.lo)), tx(math.Min(r.to, wf.hi))
			switch r.level {
			case '0', '1':
				y := ty(l.y + levelY(r.level))
				step = append(step, vg.Point{X: x0, Y: y}, vg.Point{X: x1, Y: y})
			default:
				flush()
				fill := color.Color(color.Gray{Y: 170})
				if r.level == 'z' {
					fill = color.Gray{Y: 220}
				}
				pts := []vg.Point{{X: x0, Y: ty(l.y + laneLow)}, {X: x1, Y: ty(l.y + laneLow)}, {X: x1, Y: ty(l.y + laneHigh)}, {X: x0, Y: ty(l.y + laneHigh)}}
				c.FillPolygon(fill, c.ClipPolygonXY(pts))
			}
		}
		flush()
	}
}

func (wf *waveform) DataRange() (xmin, xmax, ymin, ymax float64) {
	return wf.lo, wf.hi, -0.5, float64(len(wf.lanes)) - 0.5
}

// boldCross is gonum's cross glyph (×) with strokes of 1.2 points
// instead of 0.5, which a small cross needs to be seen.
type boldCross struct{}

func (boldCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.2)})
	r := vg.Length(sty.Radius * vg.Length(math.Sqrt2/2))
	var p vg.Path
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
	c.Stroke(p)
	p = p[:0]
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
	c.Stroke(p)
}

// triangle is a filled triangle glyph pointing up, or down.
type triangle struct{ down bool }

func (t triangle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	tip, base := r, -r/2 // from pt, pointing up
	if t.down {
		tip, base = -r, r/2
	}
	half := vg.Length(r * vg.Length(math.Sqrt(3)/2))
	var path vg.Path
	path.Move(vg.Point{X: pt.X, Y: pt.Y + tip})
	path.Line(vg.Point{X: pt.X - half, Y: pt.Y + base})
	path.Line(vg.Point{X: pt.X + half, Y: pt.Y + base})
	path.Close()
	c.SetColor(sty.Color)
	c.Fill(path)
}
