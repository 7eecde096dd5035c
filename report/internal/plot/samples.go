package plot

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// sampleSet is one measurement's metric as the plots see it.
type sampleSet struct {
	name   string
	m      *result.Measurement
	metric *result.Metric
	s      *view.Series
	color  int
}

// maxDistributionPlots bounds the per-measurement distribution plots of
// a document (the violin plot shows every measurement).
const maxDistributionPlots = 12

// sampleSets returns the measurements of d with samples of metric name
// (the primary metric when name is ""), in order, each metric's Series
// from o (its cache, when it holds one). Function documents contribute
// their batch measurements only.
func sampleSets(d *result.Document, name string, o view.Options) []sampleSet {
	var out []sampleSet
	for i := range d.Measurements {
		m := &d.Measurements[i]
		if fd := m.Detail.Function; fd != nil && fd.Mode != result.FunctionBatch {
			continue
		}
		n := name
		if n == "" {
			n = m.Primary
		}
		if n == "" && len(m.Metrics) > 0 {
			n = m.Metrics[0].Name
		}
		met := m.Metric(n)
		if met == nil {
			continue
		}
		s := o.Series(met)
		if s.N() == 0 {
			continue
		}
		out = append(out, sampleSet{name: m.Name, m: m, metric: met, s: s, color: len(out)})
	}
	return out
}

// samplePlots are the plots of a document of samples (command, function,
// counters, numbers, traces and every kind without its own): per
// measurement its distribution; all measurements side by side (violin);
// the samples in run order; the ratios to the reference with their
// intervals; the primary metric per CPU where samples ran on several;
// and every other metric side by side.
func samplePlots(ps *set, d *result.Document, o view.Options, prefix string) error {
	sets := sampleSets(d, "", o)
	if len(sets) == 0 {
		return nil
	}
	metric := sets[0].metric.Name
	for i, ss := range sets {
		if i == maxDistributionPlots {
			break
		}
		if err := ps.add(prefix+"-distribution-"+slug(ss.name), func(name string) (*Plot, error) { return distributionPlot(ss, name, o) }); err != nil {
			return err
		}
	}
	if len(sets) > 1 && comparable(sets) {
		if err := ps.add(prefix+"-violin", func(name string) (*Plot, error) {
			return violinPlot(sets, name, metric+" of every measurement", smallW*1.5, o)
		}); err != nil {
			return err
		}
	}
	if err := ps.add(prefix+"-sequence", func(name string) (*Plot, error) { return sequencePlot(d, sets, name) }); err != nil {
		return err
	}
	if err := ps.add(prefix+"-comparison", func(name string) (*Plot, error) { return comparisonPlot(d, sets, name, o) }); err != nil {
		return err
	}
	if err := ps.add(prefix+"-per-cpu", func(name string) (*Plot, error) { return perCPUPlot(sets, name, o) }); err != nil {
		return err
	}
	return otherMetricPlots(ps, d, sets, prefix, o)
}

// medians is compare.Medians of the samples of ss against ref's, from
// their sorted copies when those hold every sample (no NaN).
func medians(ss, ref sampleSet) (stats.MedianRatio, error) {
	if len(ss.s.Sorted) == len(ss.metric.Values) && len(ref.s.Sorted) == len(ref.metric.Values) {
		return compare.MediansSorted(ss.s.Sorted, ref.s.Sorted, 1)
	}
	return compare.Medians(ss.metric.Values, ref.metric.Values, 1)
}

// comparable reports whether the medians of sets lie within a factor of
// 10 of each other, so that their distributions side by side on one axis
// show their shapes (Go benchmarks of unrelated functions do not: each
// would be a sliver on a log axis; their own distribution plots show
// them).
func comparable(sets []sampleSet) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, ss := range sets {
		lo, hi = math.Min(lo, ss.s.Summary.Median), math.Max(hi, ss.s.Summary.Median)
	}
	return lo > 0 && hi <= 10*lo || lo == hi
}

// distributionPlot draws one measurement's histogram (as a density) with
// its kernel density estimate and a line at the median.
func distributionPlot(ss sampleSet, name string, o view.Options) (*Plot, error) {
	s := ss.s
	lo, hi := s.Summary.Min, s.Summary.Max
	sc := scaleFor(s.Unit, hi)
	logX := view.LogWorthy(lo, hi)
	p := newPlot(sc.label(ss.metric.Name), "density")
	p.Y.Tick.Label.Font.Size = 0 // a density's values say nothing by themselves
	p.Y.Tick.Marker = plot.ConstantTicks{}
	if logX {
		setLogDurations(&p.X, sc)
	}
	var hbins []plotter.HistogramBin
	caption := plural.Count(s.N(), "sample")
	if s.Binned() {
		h := s.Histogram()
		for i, c := range h.Counts {
			w := h.Bounds[i+1] - h.Bounds[i]
			if w > 0 {
				hbins = append(hbins, plotter.HistogramBin{Min: h.Bounds[i] / sc.div, Max: h.Bounds[i+1] / sc.div, Weight: float64(c) / (float64(s.N()) * w / sc.div)})
			}
		}
		caption += ", as recorded in bins"
	} else if hi > lo {
		q := func(f float64) float64 { return s.Quantile(f) }
		k := binCount(s.N(), lo, hi, q(0.75)-q(0.25))
		if logX {
			k = max(5, min(100, k))
		}
		scaled := scaleValues(s.Sorted, sc.div)
		hbins = bins(scaled, lo/sc.div, hi/sc.div, k, logX)
		caption += " in " + plural.Count(k, "bin")
	}
	var pts []hoverPoint
	if len(hbins) > 0 {
		h := &plotter.Histogram{Bins: hbins, FillColor: faded(colorOf(ss.color), 90), LineStyle: draw.LineStyle{Color: faded(colorOf(ss.color), 200), Width: vg.Points(0.5)}}
		p.Add(h)
		for _, b := range hbins {
			if b.Weight > 0 {
				bp := unit.Precision{Resolution: (b.Max - b.Min) * sc.div / 10}
				pts = append(pts, hoverPoint{X: (b.Min + b.Max) / 2, Y: b.Weight,
					Text: fmt.Sprintf("%s … %s: %.3g%% of the samples", view.Figure(b.Min*sc.div, s.Unit, bp, o.Unit), view.Figure(b.Max*sc.div, s.Unit, bp, o.Unit), 100*b.Weight*(b.Max-b.Min))})
			}
		}
	}
	if !s.Binned() {
		scaled := scaleValues(s.Sorted, sc.div)
		if dens, ok := kde(scaled, lo/sc.div, hi/sc.div, 200, logX); ok {
			xy := make(plotter.XYs, len(dens.X))
			for i := range dens.X {
				xy[i].X, xy[i].Y = dens.X[i], dens.Y[i]
			}
			l, err := plotter.NewLine(xy)
			if err == nil {
				l.Color, l.Width = colorOf(ss.color), vg.Points(1.5)
				p.Add(l)
				p.key("kernel density", l)
			}
			caption += "; kernel density: Gaussian, Silverman's bandwidth"
		}
	}
	med := s.Summary.Median / sc.div
	p.Add(&vlines{x: []float64{med}, style: draw.LineStyle{Color: color.Gray{Y: 30}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}})
	p.Y.Min = 0
	pts = append(pts, hoverPoint{X: med, Y: p.Y.Max / 2, Text: "median " + view.Figure(s.Summary.Median, s.Unit, s.AtQuantile(0.5), o.Unit)})
	caption += "; dashed: the median"
	return render(p, smallW, smallH, name, ss.name+": distribution of "+ss.metric.Name, caption, sc.unit, "", pts)
}

// scaleValues divides sorted values by div (a copy; the same slice when
// div is 1).
func scaleValues(xs []float64, div float64) []float64 {
	if div == 1 {
		return xs
	}
	out := make([]float64, len(xs))
	for i, v := range xs {
		out[i] = v / div
	}
	return out
}

// violinPlot draws the distributions of several series side by side.
func violinPlot(sets []sampleSet, name, title string, w vg.Length, o view.Options) (*Plot, error) {
	hi, lo := math.Inf(-1), math.Inf(1)
	for _, ss := range sets {
		hi, lo = math.Max(hi, ss.s.Summary.Max), math.Min(lo, ss.s.Summary.Min)
	}
	sc := scaleFor(sets[0].s.Unit, hi)
	// Log when the values span decades, or when the medians lie more
	// than a factor of 10 apart (per CPU: a benchmark of 14 ns beside one
	// of 150 ns), where a linear axis leaves the smaller ones slivers.
	logX := view.LogWorthy(lo, hi) || (lo > 0 && !comparable(sets))
	p := newPlot(sc.label(sets[0].metric.Name), "")
	if logX {
		setLogDurations(&p.X, sc)
	}
	v := &violin{}
	var names []string
	var pts []hoverPoint
	for i, ss := range sets {
		s := ss.s
		q := func(f float64) float64 { return s.Quantile(f) / sc.div }
		r := violinRow{q01: q(0.01), q25: q(0.25), q50: q(0.5), q75: q(0.75), q99: q(0.99),
			min: s.Summary.Min / sc.div, max: s.Summary.Max / sc.div, color: colorOf(ss.color)}
		if !s.Binned() {
			r.dens, _ = kde(scaleValues(s.Sorted, sc.div), r.min, r.max, 120, logX)
		} else {
			r.dens = binnedDensity(s, sc.div)
		}
		v.rows = append(v.rows, r)
		names = append(names, ss.name)
		f := func(x float64, qq float64) string { return view.Figure(x, s.Unit, s.AtQuantile(qq), o.Unit) }
		pts = append(pts, hoverPoint{X: r.q50, Y: rowY(i, len(sets)), Text: fmt.Sprintf("%s: median %s; p25 %s, p75 %s; p1 %s, p99 %s (%s)",
			ss.name, f(s.Summary.Median, 0.5), f(s.Quantile(0.25), 0.25), f(s.Quantile(0.75), 0.75), f(s.Quantile(0.01), 0.01), f(s.Quantile(0.99), 0.99), plural.Count(s.N(), "sample"))})
	}
	p.Add(v)
	nominalY(p, names)
	h := vg.Length(vg.Length(len(sets))*0.55*vg.Inch) + 0.9*vg.Inch
	return render(p, w, h, name, title,
		"shape: kernel density; box: p25 to p75; ringed white dot: the median; line: p1 to p99", sc.unit, "", pts)
}

// binnedDensity is the density of a binned series at its bins' middles.
func binnedDensity(s *view.Series, div float64) density {
	var d density
	h := s.Histogram()
	for i, c := range h.Counts {
		w := (h.Bounds[i+1] - h.Bounds[i]) / div
		if w <= 0 {
			continue
		}
		d.X = append(d.X, (h.Bounds[i]+h.Bounds[i+1])/2/div)
		d.Y = append(d.Y, float64(c)/w)
	}
	return d
}

// maxSequencePoints is the number of samples up to which the sequence
// plot draws every sample; above it, it draws an envelope over
// sequenceColumns columns.
const (
	maxSequencePoints = 2000
	sequenceColumns   = 800
)

// sequencePlot draws every measurement's samples in the order taken:
// each sample as a point (or, for many, the min-max envelope and the
// median of each column of consecutive samples), far outliers (beyond 3
// interquartile ranges from the quartiles) circled, and for function
// documents the discarded warm-up samples before 0 and the blocks as
// vertical lines.
func sequencePlot(d *result.Document, sets []sampleSet, name string) (*Plot, error) {
	var raw []sampleSet
	hi := math.Inf(-1)
	for _, ss := range sets {
		if !ss.s.Binned() && len(ss.metric.Values) >= 2 {
			raw = append(raw, ss)
			hi = math.Max(hi, ss.s.Summary.Max)
		}
	}
	if len(raw) == 0 {
		return nil, nil
	}
	sc := scaleFor(raw[0].s.Unit, hi)
	p := newPlot("sample (in run order)", sc.label(raw[0].metric.Name))
	p.X.Tick.Marker = niceTicks{integer: true}
	lo := math.Inf(1)
	for _, ss := range raw {
		lo = math.Min(lo, ss.s.Summary.Min)
	}
	if view.LogWorthy(lo, hi) || (lo > 0 && !comparable(raw)) {
		setLogDurations(&p.Y, sc) // measurements that differ by decades, or medians by more than 10 times
	}
	var pts []hoverPoint
	var notes []string
	enveloped := false
	outliers := 0
	for _, ss := range raw {
		xs := ss.metric.Values
		c := colorOf(ss.color)
		q1, q3 := ss.s.Quantile(0.25), ss.s.Quantile(0.75)
		fenceLo, fenceHi := q1-float64(3*(q3-q1)), q3+float64(3*(q3-q1))
		if len(xs) <= maxSequencePoints {
			xy := make(plotter.XYs, 0, len(xs))
			for i, v := range xs {
				if !math.IsNaN(v) {
					xy = append(xy, plotter.XY{X: float64(i), Y: v / sc.div})
					pts = append(pts, hoverPoint{X: float64(i), Y: v / sc.div, Text: fmt.Sprintf("%s: sample %d: %s", ss.name, i, view.Figure(v, ss.s.Unit, ss.s.Observed(), autoUnit))})
				}
			}
			l, s, err := plotter.NewLinePoints(xy)
			if err != nil {
				return nil, fmt.Errorf("report: sequence plot: %w", err)
			}
			l.Color, l.Width = faded(c, 90), vg.Points(0.6)
			s.Color, s.Radius, s.Shape = c, vg.Points(1.6), draw.CircleGlyph{}
			p.Add(l, s)
			p.key(shorten(ss.name, 30), s)
		} else {
			enveloped = true
			cols := min(sequenceColumns, len(xs))
			b := &band{color: faded(c, 70)}
			med := make(plotter.XYs, 0, cols)
			buf := make([]float64, 0, len(xs)/cols+1)
			for j := range cols {
				a, z := j*len(xs)/cols, (j+1)*len(xs)/cols
				buf = buf[:0]
				for _, v := range xs[a:z] {
					if !math.IsNaN(v) {
						buf = append(buf, v)
					}
				}
				if len(buf) == 0 {
					continue
				}
				bmin, bmax := slices.Min(buf), slices.Max(buf)
				bmed := view.MiddleOf(buf)
				x := float64(a+z-1) / 2
				b.x, b.lo, b.hi = append(b.x, x), append(b.lo, bmin/sc.div), append(b.hi, bmax/sc.div)
				med = append(med, plotter.XY{X: x, Y: bmed / sc.div})
				pts = append(pts, hoverPoint{X: x, Y: bmed / sc.div, Text: fmt.Sprintf("%s: samples %d–%d: median %s, min %s, max %s", ss.name, a, z-1,
					view.Figure(bmed, ss.s.Unit, ss.s.Observed(), autoUnit), view.Figure(bmin, ss.s.Unit, ss.s.Observed(), autoUnit), view.Figure(bmax, ss.s.Unit, ss.s.Observed(), autoUnit))})
			}
			l, err := plotter.NewLine(med)
			if err != nil {
				return nil, fmt.Errorf("report: sequence plot: %w", err)
			}
			l.Color, l.Width = c, vg.Points(1)
			p.Add(b, l)
			p.key(shorten(ss.name, 30), l)
		}
		// Far outliers, circled (at most maxHover of them).
		var out plotter.XYs
		for i, v := range xs {
			if q3 > q1 && (v < fenceLo || v > fenceHi) {
				outliers++
				if len(out) < maxHover {
					out = append(out, plotter.XY{X: float64(i), Y: v / sc.div})
					pts = append(pts, hoverPoint{X: float64(i), Y: v / sc.div, Text: fmt.Sprintf("%s: sample %d: %s (far outlier)", ss.name, i, view.Figure(v, ss.s.Unit, ss.s.Observed(), autoUnit))})
				}
			}
		}
		if len(out) > 0 {
			s, _ := plotter.NewScatter(out)
			s.Color, s.Radius, s.Shape = color.RGBA{0xc0, 0x10, 0x10, 0xff}, vg.Points(3.5), draw.RingGlyph{}
			p.Add(s)
		}
	}
	// Function documents: warm-up before 0, blocks as vertical lines.
	if fd := raw[0].m.Detail.Function; fd != nil {
		var warm plotter.XYs
		for i, t := range fd.Warmup {
			if t.Iterations > 0 {
				v := t.WallNs / float64(t.Iterations) / sc.div
				x := float64(i - len(fd.Warmup))
				warm = append(warm, plotter.XY{X: x, Y: v})
				pts = append(pts, hoverPoint{X: x, Y: v, Text: fmt.Sprintf("%s: warm-up sample %d (discarded): %s/op", raw[0].name, i, view.Figure(t.WallNs/float64(t.Iterations), result.UnitNs, raw[0].s.Observed(), autoUnit))})
			}
		}
		if len(warm) > 0 {
			s, _ := plotter.NewScatter(warm)
			s.Color, s.Radius, s.Shape = color.Gray{Y: 110}, vg.Points(2.5), boldCross{}
			p.Add(s)
			p.key("warm-up (discarded)", s)
			notes = append(notes, "crosses before 0: the discarded warm-up samples of "+raw[0].name)
		}
		if pl := fd.Placement; pl != nil && len(pl.BlockSizes) > 1 {
			var xs []float64
			at := 0
			for _, n := range pl.BlockSizes[:len(pl.BlockSizes)-1] {
				at += n
				xs = append(xs, float64(at)-0.5)
			}
			p.Add(&vlines{x: xs, style: draw.LineStyle{Color: color.Gray{Y: 160}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}})
			notes = append(notes, "dotted lines: the blocks (each a fresh thread, maybe on another CPU)")
		}
	}
	if d.Run.Function != nil && d.Run.Function.Compare != nil {
		notes = append(notes, "the cases ran in interleaved rounds: sample i of every case is round i")
	}
	caption := "every sample in the order taken"
	if enveloped {
		caption = fmt.Sprintf("more than %d samples: the band is the min–max of each of %d runs of consecutive samples, the line their median", maxSequencePoints, sequenceColumns)
	}
	if outliers > 0 {
		caption += fmt.Sprintf("; red rings: %d far outliers (beyond 3 IQR from the quartiles)", outliers)
	}
	if len(notes) > 0 {
		caption += "; " + strings.Join(notes, "; ")
	}
	return render(p, plotW, plotH, name, "samples in run order: "+raw[0].metric.Name, caption, "", sc.unit, pts)
}

// ratioRow is one comparison of the comparison plot.
type ratioRow struct {
	name          string
	ratio, lo, hi float64
	significant   bool
	verdict       string
}

// comparisonPlot draws each measurement's ratio to the reference with
// its interval, recomputed from the samples: the paired ratios of a
// function comparison's rounds (compare.PairedRounds, as its text view),
// else the ratio of medians (compare.Medians, seed 1) against the
// reference (view.Options.Reference, or the fastest by median).
func comparisonPlot(d *result.Document, sets []sampleSet, name string, o view.Options) (*Plot, error) {
	if len(sets) < 2 {
		return nil, nil
	}
	var rows []ratioRow
	var ref string
	caption := ""
	large := false
	if d.Kind == result.KindFunction && (d.Run.Function == nil || d.Run.Function.Compare == nil) {
		// The benchmarks of one function document are different
		// functions (Go's benchmark text, chrono bench without
		// --compare): a ratio compares one benchmark's runs, old and new
		// (the comparison of documents), never two benchmarks.
		return nil, nil
	}
	if c := d.Run.Function; c != nil && c.Compare != nil && len(c.Compare.Cases) > 1 {
		rounds := map[string]compare.Rounds{}
		for _, ss := range sets {
			if r, err := view.FunctionRounds(ss.m, o); err == nil {
				rounds[ss.name] = r
			}
		}
		ref = c.Compare.Cases[0]
		a, aok := rounds[ref]
		for _, bn := range c.Compare.Cases[1:] {
			b, bok := rounds[bn]
			if !aok || !bok {
				continue
			}
			pr := compare.PairedRounds(a, b)
			if pr.Err != nil {
				continue
			}
			// Time of b over time of a: the inverse of the paired ratio a/b.
			rows = append(rows, ratioRow{name: bn, ratio: 1 / pr.Median, lo: 1 / pr.Placed.CI.Hi, hi: 1 / pr.Placed.CI.Lo,
				significant: pr.Significant, verdict: pr.Conclusion()})
		}
		caption = "median of the paired ratios of interleaved rounds (time of the case / time of " + ref + ") with its " + unit.Percent(stats.Confidence) + " interval"
	} else {
		refSet := sets[0]
		for _, ss := range sets {
			if o.Reference != "" && ss.name == o.Reference {
				refSet = ss
				break
			}
			if o.Reference == "" && ss.s.Summary.Median < refSet.s.Summary.Median {
				refSet = ss
			}
		}
		ref = refSet.name
		if refSet.s.Binned() {
			return nil, nil
		}
		for _, ss := range sets {
			if ss.name == ref || ss.s.Binned() {
				continue
			}
			r, err := medians(ss, refSet)
			if err != nil {
				continue
			}
			if len(ss.metric.Values)+len(refSet.metric.Values) > compare.BootstrapLimit {
				large = true
			}
			v := "no significant difference"
			if r.Significant {
				v = "significant"
			}
			rows = append(rows, ratioRow{name: ss.name, ratio: r.Ratio, lo: r.CI.Lo, hi: r.CI.Hi, significant: r.Significant,
				verdict: fmt.Sprintf("%s / %s = %s [%s, %s], p = %s: %s", ss.name, ref, unit.Ratio(r.Ratio, r.CI.Lo, r.CI.Hi), unit.Ratio(r.CI.Lo, r.CI.Lo, r.CI.Hi), unit.Ratio(r.CI.Hi, r.CI.Lo, r.CI.Hi), unit.PValue(r.MannWhitney.P), v)})
		}
		caption = "ratio of medians (measurement / " + ref + ") with its " + unit.Percent(stats.Confidence) + " bootstrap interval, recomputed from the samples"
		if large {
			caption = "ratio of medians (measurement / " + ref + ") with its " + unit.Percent(stats.Confidence) + " interval, recomputed from the samples: bootstrap, or asymptotic (the medians' distribution-free intervals combined in log ratio) where a pair holds more than " + strconv.Itoa(compare.BootstrapLimit) + " samples"
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return ratioPlot(rows, name, "ratios to "+ref, caption+"; red: significantly slower, green: significantly faster (two-sided Mann-Whitney U, p ≤ "+tickLabel(stats.Alpha)+", interval excluding 1)", "ratio to "+shorten(ref, 30))
}

// ratioPlot draws ratios with their intervals, one row each, and a line
// at 1.
func ratioPlot(rows []ratioRow, name, title, caption, xlabel string) (*Plot, error) {
	p := newPlot(xlabel, "")
	lo, hi := 1.0, 1.0
	for _, r := range rows {
		for _, v := range []float64{r.lo, r.hi, r.ratio} {
			if v > 0 && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if hi/lo > 4 {
		setLog(&p.X)
	}
	var names []string
	var pts []hoverPoint
	for i, r := range rows {
		c := color.RGBA{0x70, 0x70, 0x70, 0xff}
		if r.significant && r.ratio > 1 {
			c = color.RGBA{0xc0, 0x30, 0x30, 0xff}
		} else if r.significant {
			c = color.RGBA{0x2a, 0x8a, 0x3a, 0xff}
		}
		y := rowY(i, len(rows))
		xy := plotter.XYs{{X: r.ratio, Y: y}}
		s, _ := plotter.NewScatter(xy)
		s.Color, s.Radius, s.Shape = c, vg.Points(3.5), draw.CircleGlyph{}
		if !math.IsNaN(r.lo) && !math.IsNaN(r.hi) {
			l, _ := plotter.NewLine(plotter.XYs{{X: math.Max(r.lo, lo), Y: y}, {X: math.Min(r.hi, hi), Y: y}})
			l.Color, l.Width = c, vg.Points(2)
			p.Add(l)
		}
		p.Add(s)
		names = append(names, r.name)
		pts = append(pts, hoverPoint{X: r.ratio, Y: y, Text: r.verdict})
	}
	p.Add(&vlines{x: []float64{1}, style: draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(1)}})
	nominalY(p, names)
	p.X.Min, p.X.Max = lo/1.05, hi*1.05
	h := vg.Length(vg.Length(len(rows))*0.45*vg.Inch) + 0.9*vg.Inch
	return render(p, smallW*1.5, h, name, title, caption, "", "", pts)
}

// perCPUPlot draws the primary metric per CPU, for measurements whose
// samples ran on more than one (metric "cpu"; a function measurement's
// samples that changed CPU, "cpu" and "cpu_end" differing, count for
// none).
func perCPUPlot(sets []sampleSet, name string, o view.Options) (*Plot, error) {
	var rows []sampleSet
	migrated := 0
	for _, ss := range sets {
		cm := ss.m.Metric("cpu")
		if cm == nil || cm.Unit != result.UnitCPU || len(cm.Values) != len(ss.metric.Values) {
			continue
		}
		ce := ss.m.Metric("cpu_end")
		by := map[int][]float64{}
		for i, c := range cm.Values {
			if ce != nil && len(ce.Values) == len(cm.Values) && ce.Values[i] != c {
				migrated++
				continue
			}
			by[int(c)] = append(by[int(c)], ss.metric.Values[i])
		}
		if len(by) < 2 {
			continue
		}
		for _, cpu := range slicesSortedKeys(by) {
			met := &result.Metric{Name: ss.metric.Name, Unit: ss.metric.Unit, Resolution: ss.metric.Resolution, Values: by[cpu]}
			rows = append(rows, sampleSet{name: fmt.Sprintf("%s on CPU %d", shorten(ss.name, 18), cpu), m: ss.m, metric: met, s: view.NewSeries(met), color: ss.color})
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	p, err := violinPlot(rows, name, "per CPU: "+rows[0].metric.Name, smallW*1.5, o)
	if err != nil || p == nil {
		return p, err
	}
	p.Caption = "the samples of each measurement split by the CPU they ran on; " + p.Caption
	if migrated > 0 {
		p.Caption += "; " + plural.Count(migrated, "sample") + " that changed CPU while running " + plural.Is(migrated) + " left out"
	}
	return p, nil
}

func slicesSortedKeys(m map[int][]float64) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// skipMetric reports whether a metric is bookkeeping rather than a
// figure to plot beside the primary one.
func skipMetric(name, un string) bool {
	switch name {
	case "cpu", "cpu_end", "iterations", "ticks", "exit_code", "cpu_read_subtracted", "timer_stops":
		return true
	}
	return un == result.UnitCPU || strings.HasSuffix(name, "_raw") || strings.HasSuffix(name, "_running") || strings.HasPrefix(name, "worker")
}

// maxOtherMetrics bounds the plots of other metrics per document.
const maxOtherMetrics = 12

// otherMetrics lists the metrics of sets' measurements other than their
// primary one and bookkeeping, in order.
func otherMetrics(sets []sampleSet) []string {
	primary := sets[0].metric.Name
	var names []string
	seen := map[string]bool{}
	for _, ss := range sets {
		for _, met := range ss.m.Metrics {
			if met.Name == primary || seen[met.Name] || skipMetric(met.Name, met.Unit) {
				continue
			}
			seen[met.Name] = true
			names = append(names, met.Name)
		}
	}
	return names
}

// otherMetricPlots draws every other metric (rusage, counters, CPU time,
// allocations) of the measurements side by side, one small plot each:
// integer counts, and figures of one value in each measurement (a Go
// benchmark's B/op), as dots; other figures as violins. Metrics whose
// values are all equal have no plot: Unvaried says them in a line.
func otherMetricPlots(ps *set, d *result.Document, sets []sampleSet, prefix string, o view.Options) error {
	plotted := 0
	for _, n := range otherMetrics(sets) {
		if plotted == maxOtherMetrics {
			break
		}
		rows := sampleSets(d, n, o)
		if !varies(rows) {
			continue
		}
		plotted++
		if err := ps.add(prefix+"-metric-"+slug(n), func(name string) (*Plot, error) {
			if integral(rows) || constant(rows) {
				return dotPlot(rows, name, n, smallW, o)
			}
			return violinPlot(rows, name, n, smallW, o)
		}); err != nil {
			return err
		}
	}
	return nil
}

// varies reports whether some row's values differ from another's or
// among themselves.
func varies(rows []sampleSet) bool {
	for _, r := range rows {
		if r.s.Summary.Max > r.s.Summary.Min || r.s.Summary.Min != rows[0].s.Summary.Min {
			return true
		}
	}
	return false
}

// Unvaried lists, one line each, the other metrics of document d (see
// Plots) whose values are one number in every sample of every
// measurement ("major_faults: 0 in all 40 samples"), which have no plot.
func Unvaried(d *result.Document, o view.Options) []string {
	switch d.Kind {
	case result.KindEnv, result.KindSleep, result.KindLatency, result.KindClocks, result.KindHistory:
		return nil
	}
	sets := sampleSets(d, "", o)
	if len(sets) == 0 {
		return nil
	}
	var out []string
	for _, n := range otherMetrics(sets) {
		rows := sampleSets(d, n, o)
		if len(rows) == 0 || varies(rows) {
			continue
		}
		total := 0
		for _, r := range rows {
			total += r.s.N()
		}
		s := rows[0].s
		out = append(out, fmt.Sprintf("%s: %s in all %s (%s): no variation, no plot", n, view.Figure(s.Summary.Min, s.Unit, s.Observed(), autoUnit),
			plural.Count(total, "sample"), plural.Count(len(rows), "measurement")))
	}
	return out
}

// maxDots bounds the distinct values of an integer metric drawn as dots.
const maxDots = 40

// integral reports whether rows hold counts (not durations or sizes) of
// whole numbers with at most maxDots distinct values, which a density
// would smear into a shape that is not there.
func integral(rows []sampleSet) bool {
	distinct := map[float64]bool{}
	for _, r := range rows {
		if u := r.s.Unit; u != result.UnitCount && u != result.UnitCountPerOp && u != result.UnitOne && u != "" {
			return false
		}
		if r.s.Binned() {
			return false
		}
		for _, v := range r.s.Sorted {
			if v != math.Trunc(v) {
				return false
			}
			distinct[v] = true
			if len(distinct) > maxDots {
				return false
			}
		}
	}
	return true
}

// constant reports whether every row (measurement) has one value in all
// its samples: a violin of it would have no width.
func constant(rows []sampleSet) bool {
	for _, r := range rows {
		if r.s.Binned() || r.s.Summary.Max > r.s.Summary.Min {
			return false
		}
	}
	return len(rows) > 0
}

// dotPlot draws integer counts, or figures of one value per measurement:
// one row per measurement, a dot at each value that occurred, its area
// the share of the samples with it, and a ring at the median; when each
// measurement has one value, the dot is labelled with it.
func dotPlot(rows []sampleSet, name, title string, w vg.Length, o view.Options) (*Plot, error) {
	whole, one := integral(rows), constant(rows)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		lo, hi = math.Min(lo, r.s.Summary.Min), math.Max(hi, r.s.Summary.Max)
	}
	sc := axisScale{1, scaleFor(rows[0].s.Unit, 0).unit} // counts: as counted
	if !whole {
		sc = scaleFor(rows[0].s.Unit, math.Max(math.Abs(lo), math.Abs(hi)))
	}
	p := newPlot(sc.label(title), "")
	p.X.Tick.Marker = niceTicks{integer: whole}
	d := &dots{labelled: one}
	var names []string
	var pts []hoverPoint
	for i, r := range rows {
		y := rowY(i, len(rows))
		xs := r.s.Sorted
		n := len(xs)
		for j := 0; j < n; {
			k := j
			for k < n && xs[k] == xs[j] {
				k++
			}
			fig := view.Figure(xs[j], r.s.Unit, r.s.Observed(), o.Unit)
			if whole {
				fig = strconv.FormatFloat(xs[j], 'f', -1, 64)
			}
			d.pts = append(d.pts, dot{x: xs[j] / sc.div, y: y, share: float64(k-j) / float64(n), color: colorOf(r.color), label: fig})
			pts = append(pts, hoverPoint{X: xs[j] / sc.div, Y: y, Text: fmt.Sprintf("%s: %s in %d of %s", r.name, fig, k-j, plural.Count(n, "sample"))})
			j = k
		}
		d.medians = append(d.medians, plotter.XY{X: r.s.Summary.Median / sc.div, Y: y})
		names = append(names, r.name)
	}
	p.Add(d)
	nominalY(p, names)
	pad := 0.5
	if !whole {
		pad = float64(0.06 * (hi - lo) / sc.div)
	}
	p.X.Min, p.X.Max = lo/sc.div-pad, hi/sc.div+pad
	h := vg.Length(vg.Length(len(rows))*0.45*vg.Inch) + 0.9*vg.Inch
	caption := "whole numbers: a dot at each value that occurred, its area the share of the samples with it; ring: the median"
	if one {
		caption = "one value in every sample of each measurement: a dot at it, labelled"
	}
	return render(p, w, h, name, title, caption, sc.unit, "", pts)
}

// dots draws the dots of dotPlot (with their labels when labelled).
type dots struct {
	pts      []dot
	medians  plotter.XYs
	labelled bool
}

type dot struct {
	x, y, share float64
	color       color.RGBA
	label       string
}

// dotLabel is the style of a dot's label.
var dotLabel = draw.TextStyle{Color: color.Black, Font: keyFont, Handler: plot.DefaultTextHandler}

func (d *dots) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, q := range d.pts {
		c.DrawGlyph(draw.GlyphStyle{Color: faded(q.color, 200), Radius: vg.Points(1.5 + float64(6*math.Sqrt(q.share))), Shape: draw.CircleGlyph{}}, vg.Point{X: tx(q.x), Y: ty(q.y)})
	}
	for _, m := range d.medians {
		c.DrawGlyph(draw.GlyphStyle{Color: color.Gray{Y: 20}, Radius: vg.Points(9), Shape: draw.RingGlyph{}}, vg.Point{X: tx(m.X), Y: ty(m.Y)})
	}
	if !d.labelled {
		return
	}
	// Each label beside its ring, on the side with room: right of dots
	// in the left half, left of the others.
	inPhase(c, "note", func() {
		mid := (c.Min.X + c.Max.X) / 2
		for _, q := range d.pts {
			x, sty := tx(q.x), dotLabel
			if x < mid {
				x += vg.Points(12)
			} else {
				x -= vg.Points(12)
				sty.XAlign = draw.XRight
			}
			sty.YAlign = draw.YCenter
			c.FillText(sty, vg.Point{X: x, Y: ty(q.y)}, q.label)
		}
	})
}

func (d *dots) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for _, q := range d.pts {
		xmin, xmax = math.Min(xmin, q.x), math.Max(xmax, q.x)
	}
	return xmin, xmax, ymin, ymax
}
