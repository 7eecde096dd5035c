// Package plot draws the plots of result documents for package report's
// HTML and SVG renderers: SVG drawn by gonum.org/v1/plot through its
// vgsvg backend, with what a page's script needs to show the figures
// under the pointer. The statistics come from package view's Series
// (every sample); only the drawing bins or down-samples.
package plot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

// A Plot is one chart of an HTML report (or one SVG file of --svg DIR):
// an SVG drawn by gonum.org/v1/plot through its vgsvg backend, with the
// points a reader can hover over for their figures.
type Plot struct {
	// Name is the plot's file name without ".svg", unique within a
	// report: the document's number, its kind and what the plot shows
	// ("1-command-distribution-gzip-9").
	Name string
	// Title heads the plot; Caption says what it shows and what was
	// binned or down-sampled for drawing (never the statistics).
	Title, Caption string
	// SVG is a standalone SVG document.
	SVG []byte
	// hover is what the page's script reads (see hoverData); width the
	// SVG's width.
	hover hoverData
	width vg.Length
}

// hoverData tells the page's script where a plot's data area lies in the
// SVG's coordinates (F: x0, y0, x1, y1, then the axes' ranges xmin, xmax,
// ymin, ymax, then 1 for a logarithmic x and y axis), the axes' units
// for the read-out, and the points that show a text when hovered (P:
// [x, y, text] in SVG coordinates).
type hoverData struct {
	F  [10]float64 `json:"f"`
	XU string      `json:"xu"`
	YU string      `json:"yu"`
	P  [][3]any    `json:"p"`
}

// maxHover bounds the hover points of one plot (they are embedded in the
// page).
const maxHover = 2000

// The size of a plot, in points (1/72 inch), and of a small one.
const (
	plotW, plotH   = 6.4 * vg.Inch, 3.6 * vg.Inch
	smallW, smallH = 4.2 * vg.Inch, 2.8 * vg.Inch
)

// plotFont is the typeface of every plot's text: Liberation Sans (gonum's
// embedded fonts, used for layout); the SVG names Arimo, Arial and
// sans-serif as fallbacks (the first two have its metrics; a wider
// fallback may overhang the plot's edge, which the page allows).
var plotFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// newPlot returns a gonum plot with chrono's style: sans-serif text, a
// light grid, no title (the page heads the figure).
func newPlot(xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(plotFont, 11)
		ax.Tick.Label.Font = font.From(plotFont, 9)
	}
	p.Legend.TextStyle.Font = font.From(plotFont, 9)
	p.Legend.Top = true
	p.X.Label.Text, p.Y.Label.Text = xlabel, ylabel
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 225}
	g.Horizontal.Color = color.Gray{Y: 225}
	p.Add(g)
	return p
}

// palette is the colour of the i-th series (Tableau 10, readable on
// white and for most colour-blind readers).
var palette = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0xe1, 0x57, 0x59, 0xff}, {0x76, 0xb7, 0xb2, 0xff},
	{0x59, 0xa1, 0x4f, 0xff}, {0xed, 0xc9, 0x48, 0xff}, {0xb0, 0x7a, 0xa1, 0xff}, {0xff, 0x9d, 0xa7, 0xff},
	{0x9c, 0x75, 0x5f, 0xff}, {0xba, 0xb0, 0xac, 0xff},
}

func colorOf(i int) color.RGBA { return palette[i%len(palette)] }

// faded is c with alpha a (0..255).
func faded(c color.RGBA, a uint8) color.RGBA {
	f := float64(a) / 255
	return color.RGBA{uint8(float64(c.R) * f), uint8(float64(c.G) * f), uint8(float64(c.B) * f), a}
}

// hoverPoint is a point in data coordinates with its text.
type hoverPoint struct {
	X, Y float64
	Text string
}

// render draws p at w×h into a Plot named name, with hover points pts
// (at most maxHover are kept, evenly spaced).
func render(p *plot.Plot, w, h vg.Length, name, title, caption string, xu, yu string, pts []hoverPoint) (*Plot, error) {
	c := vgsvg.NewWith(vgsvg.UseWH(w, h))
	dc := draw.New(c)
	var perr error
	func() {
		// gonum/plot panics on some degenerate inputs (a log axis over
		// values <= 0): report it as an error of this plot.
		defer func() {
			if r := recover(); r != nil {
				perr = fmt.Errorf("report: drawing the plot %s: %v", name, r)
			}
		}()
		p.Draw(dc)
	}()
	if perr != nil {
		return nil, perr
	}
	da := p.DataCanvas(dc)
	tx, ty := p.Transforms(&da)
	H := h.Points()
	hd := hoverData{XU: xu, YU: yu, P: [][3]any{}}
	hd.F = [10]float64{da.Min.X.Points(), H - da.Max.Y.Points(), da.Max.X.Points(), H - da.Min.Y.Points(),
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max}
	if _, ok := p.X.Scale.(plot.LogScale); ok {
		hd.F[8] = 1
	}
	if _, ok := p.Y.Scale.(plot.LogScale); ok {
		hd.F[9] = 1
	}
	step := 1
	if len(pts) > maxHover {
		step = (len(pts) + maxHover - 1) / maxHover
	}
	for i := 0; i < len(pts); i += step {
		q := pts[i]
		if q.X < p.X.Min || q.X > p.X.Max || q.Y < p.Y.Min || q.Y > p.Y.Max || math.IsNaN(q.X) || math.IsNaN(q.Y) {
			continue
		}
		hd.P = append(hd.P, [3]any{round2(tx(q.X).Points()), round2(H - ty(q.Y).Points()), q.Text})
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("report: writing the plot %s: %w", name, err)
	}
	svg := fontFallback.ReplaceAllString(buf.String(), "font-family:'$1',Arimo,Arial,Helvetica,sans-serif")
	return &Plot{Name: name, Title: title, Caption: caption, SVG: []byte(svg), hover: hd, width: w}, nil
}

var fontFallback = regexp.MustCompile(`font-family:(Liberation Sans)`)

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// Width is the class of the plot's width on a page: "small", "mid" or
// "wide".
func (p *Plot) Width() string {
	switch {
	case p.width <= smallW:
		return "small"
	case p.width <= smallW*1.5:
		return "mid"
	}
	return "wide"
}

// InlineSVG is p's SVG for embedding in HTML: without the XML prologue
// and comment, without the namespace declarations (HTML knows SVG), and
// with its size given by the page's style sheet.
func (p *Plot) InlineSVG() string {
	s := string(p.SVG)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	s = svgAttrs.ReplaceAllString(s, "")
	return strings.Replace(s, "<svg", `<svg class="plot" preserveAspectRatio="xMidYMid meet"`, 1)
}

var svgAttrs = regexp.MustCompile(`\s(width|height)="[0-9.]+pt"|\s+xmlns(:xlink)?="[^"]*"`)

// HoverJSON is the plot's hover data for the page's script.
func (p *Plot) HoverJSON() string {
	b, err := json.Marshal(p.hover)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// axisScale is how a plot shows figures of one metric unit: the factor
// that divides them and the axis label's unit ("µs"); durations get the
// unit of their largest magnitude.
type axisScale struct {
	div  float64
	unit string
}

// scaleFor returns the axis scale of figures of unit un up to max (abs).
func scaleFor(un string, max float64) axisScale {
	switch un {
	case result.UnitNs, result.UnitNsPerOp:
		suffix := ""
		if un == result.UnitNsPerOp {
			suffix = "/op"
		}
		m := math.Abs(max)
		switch {
		case m >= 1e9:
			return axisScale{1e9, "s" + suffix}
		case m >= 1e6:
			return axisScale{1e6, "ms" + suffix}
		case m >= 1e3:
			return axisScale{1e3, "µs" + suffix}
		}
		return axisScale{1, "ns" + suffix}
	case result.UnitBytes, result.UnitBytesPerOp:
		suffix := ""
		if un == result.UnitBytesPerOp {
			suffix = "/op"
		}
		m := math.Abs(max)
		switch {
		case m >= 1<<30:
			return axisScale{1 << 30, "GiB" + suffix}
		case m >= 1<<20:
			return axisScale{1 << 20, "MiB" + suffix}
		case m >= 1<<10:
			return axisScale{1 << 10, "KiB" + suffix}
		}
		return axisScale{1, "bytes" + suffix}
	case result.UnitOne, "":
		return axisScale{1, ""}
	}
	return axisScale{1, un}
}

// label is an axis label: what, with the unit in parentheses.
func (a axisScale) label(what string) string {
	if a.unit == "" {
		return what
	}
	return what + " (" + a.unit + ")"
}

// setLog makes ax logarithmic with labelled powers of ten.
func setLog(ax *plot.Axis) {
	ax.Scale = plot.LogScale{}
	ax.Tick.Marker = logTicks{}
}

// logTicks marks 1, 2, 5 times each power of ten (labelled when they are
// few), and the powers alone over wide ranges.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) {
		return nil
	}
	var ts []plot.Tick
	decades := math.Log10(hi / lo)
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		base := math.Pow(10, e)
		for _, m := range []float64{1, 2, 3, 4, 5, 6, 7, 8, 9} {
			v := base * m
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || (decades < 2.5 && (m == 2 || m == 5)) {
				t.Label = tickLabel(v)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// niceTicks marks a linear axis at multiples of 1, 2 or 5 times a power
// of ten, about five labelled ones, with as many decimals as the step
// needs (gonum's default rounds 12.55 and 12.70 both to "13").
type niceTicks struct{ integer bool }

func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return []plot.Tick{{Value: lo, Label: tickLabel(lo)}}
	}
	raw := (hi - lo) / 5
	e := math.Floor(math.Log10(raw))
	step := math.Pow(10, e)
	for _, m := range []float64{1, 2, 5, 10} {
		if m*math.Pow(10, e) >= raw {
			step = m * math.Pow(10, e)
			break
		}
	}
	if t.integer {
		step = math.Max(1, math.Round(step))
	}
	dec := max(0, int(-math.Floor(float64(math.Log10(step))+1e-9)))
	var ts []plot.Tick
	first := math.Ceil(lo / step)
	for i := 0.0; i <= 12; i++ {
		x := float64((first + i) * step)
		if x > hi+float64(step*1e-9) {
			break
		}
		label := strconv.FormatFloat(x, 'f', dec, 64)
		if a := math.Abs(x); a >= 1e6 || (a != 0 && a < 1e-4) {
			label = strconv.FormatFloat(x, 'g', 3, 64)
		}
		ts = append(ts, plot.Tick{Value: x, Label: label})
		// A minor tick half way.
		if m := x + float64(step/2); m < hi {
			ts = append(ts, plot.Tick{Value: m})
		}
	}
	return ts
}

// tickLabel formats a tick value compactly ("0.001", "20", "1e+06").
func tickLabel(v float64) string {
	a := math.Abs(v)
	if a != 0 && (a >= 1e6 || a < 1e-3) {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// ---- Distributions: bins and densities of many values, in bounded work.

// density is a kernel density estimate of sorted values: at the points
// X, the density Y (per unit of x), by a Gaussian kernel of bandwidth
// H (Silverman's rule of thumb). It is computed from the values binned
// on a fine grid (1024 bins), so its cost is one pass over the values
// plus a fixed amount; logX estimates it over log values (for positive
// values spread over decades) and converts back.
type density struct {
	X, Y []float64
	H    float64
}

// kde estimates the density of sorted (n >= 2, not all equal) at points
// evenly spaced over [lo, hi] (of log values when logX).
func kde(sorted []float64, lo, hi float64, points int, logX bool) (density, bool) {
	n := len(sorted)
	if n < 2 || sorted[0] == sorted[n-1] {
		return density{}, false
	}
	tr := func(v float64) float64 { return v }
	if logX {
		tr = math.Log
	}
	// Bandwidth from the transformed values' spread.
	q := func(p float64) float64 { return tr(sorted[int(p*float64(n-1))]) }
	mean, m2 := 0.0, 0.0
	for i, v := range sorted { // Welford, transformed
		x := tr(v)
		d := x - mean
		mean += d / float64(i+1)
		m2 += float64(d * (x - mean))
	}
	sd := math.Sqrt(m2 / float64(n-1))
	iqr := (q(0.75) - q(0.25)) / 1.34
	spread := sd
	if iqr > 0 && iqr < spread {
		spread = iqr
	}
	if !(spread > 0) {
		spread = (tr(sorted[n-1]) - tr(sorted[0])) / 4
	}
	h := float64(0.9 * spread * math.Pow(float64(n), -0.2))
	a, z := tr(lo), tr(hi)
	// Bin on a fine grid over the values' range widened by 3 bandwidths.
	const grid = 1024
	g0, g1 := tr(sorted[0])-float64(3*h), tr(sorted[n-1])+float64(3*h)
	gw := (g1 - g0) / grid
	counts := make([]float64, grid)
	for _, v := range sorted {
		i := int((tr(v) - g0) / gw)
		counts[max(0, min(grid-1, i))]++
	}
	d := density{H: h}
	for k := range points {
		x := a + float64((z-a)*float64(k)/float64(points-1))
		var s float64
		for i, c := range counts {
			if c == 0 {
				continue
			}
			u := (x - (g0 + float64((float64(i)+0.5)*gw))) / h
			if u > -6 && u < 6 {
				s += float64(c * math.Exp(-u*u/2))
			}
		}
		y := s / (float64(n) * h * math.Sqrt(2*math.Pi))
		if logX {
			y /= math.Exp(x) // density per unit of x, not of log x
			x = math.Exp(x)
		}
		d.X, d.Y = append(d.X, x), append(d.Y, y)
	}
	return d, true
}

// bins returns a histogram of sorted values over [lo, hi] in k bins of
// equal width (of log values when logX), as gonum histogram bins whose
// weights are densities (count / (n · width)).
func bins(sorted []float64, lo, hi float64, k int, logX bool) []plotter.HistogramBin {
	edges := make([]float64, k+1)
	for i := range edges {
		f := float64(i) / float64(k)
		if logX {
			edges[i] = lo * math.Pow(hi/lo, f)
		} else {
			edges[i] = lo + float64((hi-lo)*f)
		}
	}
	edges[k] = hi
	bs := make([]plotter.HistogramBin, k)
	j := 0
	for i := range bs {
		bs[i].Min, bs[i].Max = edges[i], edges[i+1]
		end := j
		for end < len(sorted) && (sorted[end] < edges[i+1] || i == k-1) {
			end++
		}
		bs[i].Weight = float64(end - j)
		j = end
	}
	n := float64(len(sorted))
	for i := range bs {
		if w := bs[i].Max - bs[i].Min; w > 0 {
			bs[i].Weight /= n * w
		}
	}
	return bs
}

// binCount is the number of histogram bins for n values spread over
// [lo, hi] with interquartile range iqr: Freedman and Diaconis's width,
// bounded to 5..100 bins (a plot cannot show more).
func binCount(n int, lo, hi, iqr float64) int {
	if n < 2 || hi <= lo {
		return 1
	}
	k := 10
	if iqr > 0 {
		w := 2 * iqr / math.Cbrt(float64(n))
		k = int(math.Ceil((hi - lo) / w))
	}
	return max(5, min(100, k, n))
}

// ---- Custom plotters, drawn with gonum's canvas and the plot's axes.

// violin draws the density of each of several series side by side
// (horizontal: values on the x axis, one row per series at y = row), a
// box from the first to the third quartile, a white mark at the median
// and whiskers to the 1st and 99th percentiles.
type violin struct {
	rows []violinRow
}

type violinRow struct {
	dens                              density
	q01, q25, q50, q75, q99, min, max float64
	color                             color.RGBA
}

func (v *violin) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for i, r := range v.rows {
		top := 0.0
		for _, y := range r.dens.Y {
			top = math.Max(top, y)
		}
		y0 := ty(float64(i))
		half := (ty(float64(i)+0.42) - y0)
		if top > 0 {
			var pts []vg.Point
			for k, x := range r.dens.X {
				pts = append(pts, vg.Point{X: tx(x), Y: y0 + vg.Length(half*vg.Length(r.dens.Y[k]/top))})
			}
			for k := len(r.dens.X) - 1; k >= 0; k-- {
				pts = append(pts, vg.Point{X: tx(r.dens.X[k]), Y: y0 - vg.Length(half*vg.Length(r.dens.Y[k]/top))})
			}
			c.FillPolygon(faded(r.color, 110), c.ClipPolygonXY(pts))
		}
		dark := draw.LineStyle{Color: color.Gray{Y: 40}, Width: vg.Points(1)}
		c.StrokeLines(dark, c.ClipLinesXY([]vg.Point{{X: tx(r.q01), Y: y0}, {X: tx(r.q99), Y: y0}})...)
		bh := vg.Length(half * 0.18)
		box := []vg.Point{{X: tx(r.q25), Y: y0 - bh}, {X: tx(r.q75), Y: y0 - bh}, {X: tx(r.q75), Y: y0 + bh}, {X: tx(r.q25), Y: y0 + bh}}
		c.FillPolygon(color.Gray{Y: 40}, c.ClipPolygonXY(box))
		c.DrawGlyph(draw.GlyphStyle{Color: color.White, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}, vg.Point{X: tx(r.q50), Y: y0})
	}
}

func (v *violin) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for _, r := range v.rows {
		xmin, xmax = math.Min(xmin, r.min), math.Max(xmax, r.max)
		if len(r.dens.X) > 0 {
			xmin, xmax = math.Min(xmin, r.dens.X[0]), math.Max(xmax, r.dens.X[len(r.dens.X)-1])
		}
	}
	return xmin, xmax, -0.5, float64(len(v.rows)) - 0.5
}

// band fills the area between two lines of the same x (a min-max
// envelope of down-sampled samples).
type band struct {
	x, lo, hi []float64
	color     color.Color
}

func (b *band) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	var pts []vg.Point
	for i, x := range b.x {
		pts = append(pts, vg.Point{X: tx(x), Y: ty(b.hi[i])})
	}
	for i := len(b.x) - 1; i >= 0; i-- {
		pts = append(pts, vg.Point{X: tx(b.x[i]), Y: ty(b.lo[i])})
	}
	c.FillPolygon(b.color, c.ClipPolygonXY(pts))
}

func (b *band) DataRange() (xmin, xmax, ymin, ymax float64) {
	return slices.Min(b.x), slices.Max(b.x), slices.Min(b.lo), slices.Max(b.hi)
}

// vlines draws vertical lines at X (block boundaries, reference values)
// over the whole height of the data area.
type vlines struct {
	x     []float64
	style draw.LineStyle
}

func (v *vlines) Plot(c draw.Canvas, p *plot.Plot) {
	tx, _ := p.Transforms(&c)
	for _, x := range v.x {
		if x < p.X.Min || x > p.X.Max {
			continue
		}
		c.StrokeLine2(v.style, tx(x), c.Min.Y, tx(x), c.Max.Y)
	}
}

// nominalY labels the rows 0..n-1 of the y axis with names.
func nominalY(p *plot.Plot, names []string) {
	ts := make([]plot.Tick, len(names))
	for i, n := range names {
		ts[i] = plot.Tick{Value: float64(i), Label: shorten(n, 28)}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ts)
	p.Y.Min, p.Y.Max = -0.5, float64(len(names))-0.5
}

// shorten cuts s to at most n runes with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// slug is s as a file-name part: lower-case letters, digits and dashes.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimRight(b.String(), "-")
	if len(out) > 40 {
		out = strings.TrimRight(out[:40], "-")
	}
	if out == "" {
		out = "x"
	}
	return out
}

// autoUnit lets Figure choose the unit of each duration.
var autoUnit unit.Unit
