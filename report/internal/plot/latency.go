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
	"github.com/chronograph/chronograph/unit"
)

// latencyColumns is the number of columns the latency histogram spreads
// its bins over.
const latencyColumns = 300

// latencyPlots are the plots of a wake-up latency run (chrono latency):
// the histogram of every thread (and of all threads) on a logarithmic
// count axis, as cyclictest users plot its -h output, and the percentile
// distribution curve of each, HdrHistogram style: the latency at each
// percentile, the x axis in "nines" (90 %, 99 %, 99.9 %, ...).
// Measurements are read by their metric "latency" (binned, or raw).
func latencyPlots(ps *set, d *result.Document, prefix string, o view.Options) error {
	sets := sampleSets(d, "latency", o)
	if len(sets) == 0 {
		return nil
	}
	if err := ps.add(prefix+"-histogram", func(name string) (*Plot, error) { return latencyHistogram(sets, name) }); err != nil {
		return err
	}
	return ps.add(prefix+"-percentiles", func(name string) (*Plot, error) { return percentileCurve(sets, name, "latency by percentile", o) })
}

// latencyHistogram draws each series' counts over equal columns of its
// range as a step line, on a log count axis.
func latencyHistogram(sets []sampleSet, name string) (*Plot, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, ss := range sets {
		lo, hi = math.Min(lo, ss.s.Summary.Min), math.Max(hi, ss.s.Summary.Max)
	}
	if !(hi > lo) {
		hi = lo + 1
	}
	sc := scaleFor(sets[0].s.Unit, hi)
	// Latencies bunch near the lowest with a tail to the highest: over a
	// decade or more the columns are of equal width on a log axis, so
	// that the bulk is not squeezed into a few pixels.
	logX := lo > 0 && hi/lo >= 10
	width := (hi - lo) / latencyColumns
	ylabel := "count per " + view.Figure(width, sets[0].s.Unit, unitExactish(width), autoUnit) + " column"
	edge := func(j int) float64 { return lo + float64(float64(j)*width) }
	if logX {
		ylabel = "count per column"
		edge = func(j int) float64 { return lo * math.Pow(hi/lo, float64(j)/latencyColumns) }
	}
	p := newPlot(sc.label("latency"), ylabel)
	if logX {
		setLogDurations(&p.X, sc)
	}
	setLog(&p.Y)
	var hover []hoverPoint
	top := 1.0
	for _, ss := range sets {
		counts := view.SpreadColumns(ss.s, lo, hi, latencyColumns, logX)
		var hb []plotter.HistogramBin
		for j, c := range counts {
			if c <= 0 {
				continue
			}
			binLo, binHi := edge(j), edge(j+1)
			a, z := binLo/sc.div, binHi/sc.div
			hb = append(hb, plotter.HistogramBin{Min: a, Max: z, Weight: c})
			top = math.Max(top, c)
			prec := unitExactish(binHi - binLo)
			hover = append(hover, hoverPoint{X: (a + z) / 2, Y: c, Text: fmt.Sprintf("%s: %s … %s: %s", ss.name,
				view.Figure(binLo, ss.s.Unit, prec, autoUnit), view.Figure(binHi, ss.s.Unit, prec, autoUnit), strconv.FormatFloat(math.Round(c), 'f', -1, 64))})
		}
		if len(hb) == 0 {
			continue
		}
		c := colorOf(ss.color)
		h := &plotter.Histogram{Bins: hb, LogY: true, FillColor: faded(c, 40), LineStyle: draw.LineStyle{Color: c, Width: vg.Points(0.8)}}
		p.Add(h)
		p.key(shorten(ss.name, 30), h)
	}
	p.Y.Min, p.Y.Max = 0.5, top*2
	p.X.Min, p.X.Max = lo/sc.div, hi/sc.div
	caption := fmt.Sprintf("each thread's latencies in %d equal columns from the lowest to the highest; log count axis", latencyColumns)
	if logX {
		caption = fmt.Sprintf("each thread's latencies in %d columns of equal width on the log latency axis (each %.3g%% wider than the one before) from the lowest to the highest; log count axis",
			latencyColumns, 100*(math.Pow(hi/lo, 1.0/latencyColumns)-1))
	}
	if sets[0].s.Binned() {
		caption += "; the recorded bins are spread evenly over the columns they cover"
	}
	return render(p, plotW, plotH, name, "latency histogram", caption, sc.unit, "", hover)
}

// unitExactish is the precision of a column bound: a tenth of the
// column's width.
func unitExactish(width float64) unit.Precision { return unit.Precision{Resolution: width / 10} }

// percentileCurve draws each series' quantiles against the percentile,
// the x axis in nines: x = -log10(1 - q), so that 90 %, 99 %, 99.9 %
// are equally spaced, up to the last percentile the samples resolve
// (1 - 1/n).
func percentileCurve(sets []sampleSet, name, title string, o view.Options) (*Plot, error) {
	hi := 0.0
	maxN := 0
	for _, ss := range sets {
		hi = math.Max(hi, ss.s.Summary.Max)
		maxN = max(maxN, ss.s.N())
	}
	if maxN < 2 {
		return nil, nil
	}
	sc := scaleFor(sets[0].s.Unit, hi)
	p := newPlot("percentile", sc.label(sets[0].metric.Name))
	p.X.Tick.Marker = ninesTicks{}
	var hover []hoverPoint
	lo := math.Inf(1)
	for _, ss := range sets {
		n := ss.s.N()
		if n < 2 {
			continue
		}
		top := math.Log10(float64(n)) // the last resolved percentile: 1 - 1/n
		var xy plotter.XYs
		const steps = 240
		for k := 0; k <= steps; k++ {
			x := top * float64(k) / steps
			q := 1 - math.Pow(10, -x)
			v := ss.s.Quantile(q)
			xy = append(xy, plotter.XY{X: x, Y: v / sc.div})
			lo = math.Min(lo, v/sc.div)
		}
		for _, pc := range []float64{0.5, 0.9, 0.99, 0.999, 0.9999, 0.99999} {
			if pc > 1-1/float64(n) {
				break
			}
			x := -math.Log10(1 - pc)
			v := ss.s.Quantile(pc)
			hover = append(hover, hoverPoint{X: x, Y: v / sc.div, Text: fmt.Sprintf("%s: %s: %s", ss.name, unit.Percent(pc), view.Figure(v, ss.s.Unit, ss.s.AtQuantile(pc), o.Unit))})
		}
		xy = append(xy, plotter.XY{X: top, Y: ss.s.Summary.Max / sc.div})
		hover = append(hover, hoverPoint{X: top, Y: ss.s.Summary.Max / sc.div, Text: fmt.Sprintf("%s: max %s (%s)", ss.name, view.Figure(ss.s.Summary.Max, ss.s.Unit, ss.s.Observed(), o.Unit), plural.Count(int(n), "sample"))})
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("report: percentile curve: %w", err)
		}
		l.Color, l.Width = colorOf(ss.color), vg.Points(1.5)
		p.Add(l)
		p.key(shorten(ss.name, 30), l)
	}
	if view.LogWorthy(lo, hi/sc.div) {
		setLogDurations(&p.Y, sc)
	}
	p.X.Min = 0
	return render(p, plotW, plotH, name, title,
		"the latency at each percentile, HdrHistogram style: the x axis in nines (90%, 99%, 99.9%, …) up to the last percentile the samples resolve, then the maximum", "", sc.unit, hover)
}

// ninesTicks labels the nines axis: 0%, 90%, 99%, 99.9%, ...
type ninesTicks struct{}

func (ninesTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for k := 0.0; k <= hi+1e-9; k++ {
		if k < lo-1e-9 {
			continue
		}
		q := 1 - math.Pow(10, -k)
		ts = append(ts, plot.Tick{Value: k, Label: unit.Percent(q)})
		if k+float64(math.Log10(2)) <= hi && k+1 > hi+1e-9 {
			break
		}
		// Minor ticks at 50 % of the next nine (e.g. 95 %, 99.5 %).
		if m := k - float64(math.Log10(0.5)); m <= hi {
			ts = append(ts, plot.Tick{Value: m})
		}
	}
	return ts
}
