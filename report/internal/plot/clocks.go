package plot

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

// clocksPlots are the plots of a clocks document (chrono clocks): the
// read cost of every clock side by side (its timed batches), the observed
// tick of every clock beside its nominal resolution, and the timestamp
// counter's calibration (each segment's frequency, in ppm from the
// figure used, and the kernel's figure).
func clocksPlots(ps *set, d *result.Document, prefix string, o view.Options) error {
	if sets := sampleSets(d, "", o); len(sets) > 0 {
		if err := ps.add(prefix+"-read-cost", func(name string) (*Plot, error) {
			p, err := violinPlot(sets, name, "read cost per clock", plotW, o)
			if err != nil {
				return nil, err
			}
			p.Caption = "the cost of one read, from the timed batches of back-to-back reads; " + p.Caption
			return p, nil
		}); err != nil {
			return err
		}
	}
	if err := ps.add(prefix+"-tick", func(name string) (*Plot, error) { return tickPlot(d, name, o) }); err != nil {
		return err
	}
	return ps.add(prefix+"-tsc-calibration", func(name string) (*Plot, error) { return calibrationPlot(d, name) })
}

// tickPlot draws each clock's observed tick (the smallest step seen) and
// its nominal resolution on a log axis.
func tickPlot(d *result.Document, name string, o view.Options) (*Plot, error) {
	type row struct {
		name          string
		tick, nominal float64
		bound         string // "≤ " when the tick is an upper bound
	}
	var rows []row
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, m := range d.Measurements {
		cd := m.Detail.Clock
		if cd == nil || cd.Steps == nil || cd.Unavailable != "" {
			continue
		}
		r := row{name: m.Name, tick: cd.Steps.TickNs, nominal: cd.NominalNs}
		if cd.Steps.TickBasis == clock.TickUpperBound {
			r.bound = "≤ "
		}
		for _, v := range []float64{r.tick, r.nominal} {
			if v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 || math.IsInf(lo, 1) {
		return nil, nil
	}
	p := newPlot("tick, resolution (ns)", "")
	setLogDurations(&p.X, axisScale{1, "ns"})
	var names []string
	var hover []hoverPoint
	var ticks, noms plotter.XYs
	for i, r := range rows {
		y := rowY(i, len(rows))
		names = append(names, r.name)
		if r.tick > 0 {
			ticks = append(ticks, plotter.XY{X: r.tick, Y: y})
			hover = append(hover, hoverPoint{X: r.tick, Y: y, Text: fmt.Sprintf("%s: observed tick %s%s", r.name, r.bound, view.Figure(r.tick, result.UnitNs, unit.Precision{}, o.Unit))})
		}
		if r.nominal > 0 {
			noms = append(noms, plotter.XY{X: r.nominal, Y: y})
			hover = append(hover, hoverPoint{X: r.nominal, Y: y, Text: fmt.Sprintf("%s: nominal resolution %s", r.name, view.Figure(r.nominal, result.UnitNs, unit.Precision{}, o.Unit))})
		}
	}
	if len(ticks) > 0 {
		s, _ := plotter.NewScatter(ticks)
		s.Color, s.Radius, s.Shape = colorOf(0), vg.Points(4), draw.CircleGlyph{}
		p.Add(s)
		p.key("observed tick (smallest step seen)", s)
	}
	if len(noms) > 0 {
		s, _ := plotter.NewScatter(noms)
		s.Color, s.Radius, s.Shape = colorOf(1), vg.Points(4), draw.CrossGlyph{}
		p.Add(s)
		p.key("nominal resolution", s)
	}
	nominalY(p, names)
	p.X.Min, p.X.Max = lo/2, hi*2
	h := vg.Length(vg.Length(len(rows))*0.32*vg.Inch) + 1.1*vg.Inch
	return render(p, plotW, h, name, "observed tick per clock",
		"the smallest step between changes of back-to-back reads (for a clock that changed at every read, an upper bound on its tick; none when too few changes were seen) beside the resolution the system states; log axis", "ns", "", hover)
}

// calibrationPlot draws the timestamp counter's calibration segments: the
// frequency each measured, in ppm from the frequency used, with the
// kernel's figure as a line.
func calibrationPlot(d *result.Document, name string) (*Plot, error) {
	run := d.Run.Clocks
	if run == nil || run.TSC == nil || run.TSC.Calibration == nil || len(run.TSC.Calibration.SegmentHz) == 0 {
		return nil, nil
	}
	hz := float64(run.TSC.Hz)
	if hz <= 0 {
		return nil, nil
	}
	cal := run.TSC.Calibration
	p := newPlot("segment", "ppm from "+fmt.Sprintf("%.6g MHz", hz/1e6))
	var xy plotter.XYs
	var hover []hoverPoint
	for i, f := range cal.SegmentHz {
		ppm := (f - hz) / hz * 1e6
		xy = append(xy, plotter.XY{X: float64(i + 1), Y: ppm})
		hover = append(hover, hoverPoint{X: float64(i + 1), Y: ppm, Text: fmt.Sprintf("segment %d: %.9g MHz (%+.3g ppm)", i+1, f/1e6, ppm)})
	}
	l, s, err := plotter.NewLinePoints(xy)
	if err != nil {
		return nil, fmt.Errorf("report: calibration plot: %w", err)
	}
	l.Color, s.Color, s.Shape = colorOf(0), colorOf(0), draw.CircleGlyph{}
	p.Add(l, s)
	p.key("segment frequency", l, s)
	p.Add(&hline{y: 0, style: refLine})
	caption := fmt.Sprintf("calibration against %s over %s in %s: each segment's frequency, in ppm from the %s figure (%s); spread %.3g ppm",
		cal.Reference, unit.Duration(float64(cal.Window), unit.Precision{Resolution: 1}), plural.Count(cal.Segments, "segment"), run.TSC.Source, fmt.Sprintf("%.9g MHz", hz/1e6), cal.SpreadPPM)
	if k := run.KernelTSC; k != nil && k.Hz > 0 {
		kp := (k.Hz - hz) / hz * 1e6
		p.Add(&hline{y: kp, style: draw.LineStyle{Color: color.RGBA{0xc0, 0x30, 0x30, 0xff}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}})
		p.Y.Min, p.Y.Max = math.Min(p.Y.Min, kp), math.Max(p.Y.Max, kp)
		hover = append(hover, hoverPoint{X: float64(len(cal.SegmentHz)+1) / 2, Y: kp, Text: fmt.Sprintf("kernel: %.9g MHz (%+.3g ppm), from %s", k.Hz/1e6, kp, k.From)})
		caption += fmt.Sprintf("; dashed red: the kernel's figure (%s)", k.From)
	}
	// The axis spans the segments and the kernel's figure, a little
	// more (0.1 ppm either side when they are all one figure).
	pad := (p.Y.Max - p.Y.Min) * 0.15
	if !(pad > 0) {
		pad = 0.1
	}
	p.Y.Min, p.Y.Max = p.Y.Min-pad, p.Y.Max+pad
	return render(p, smallW*1.3, smallH, name, "TSC calibration", caption, "", "ppm", hover)
}
