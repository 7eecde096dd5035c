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
	"reflect"
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
	N  int         `json:"n,omitempty"` // 1: the y axis holds names, 2: the x axis's ticks are names
	L  [2]string   `json:"l"`           // the axes' labels
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

// chart is a gonum plot with the keys of its legend, which render draws
// in a strip above the plot, never over the data; nominal says that the y
// axis holds names (rows), not figures.
type chart struct {
	*plot.Plot
	keys    []key
	nominal bool // the y axis holds names (nominalY)
	// namedX: the x axis's tick labels are names (commits), not numbers.
	namedX bool
	drawn  []plot.Plotter // what Add added, in order (see tracked)
}

// Add adds plotters to c's plot, each tracked: the SVG marks it draws
// carry its number (data-p), and the legend entries it stands for say
// so (data-for), so that a test in a browser can tell which series a
// mark belongs to.
func (c *chart) Add(ps ...plot.Plotter) {
	for _, p := range ps {
		c.drawn = append(c.drawn, p)
		c.Plot.Add(tracked{Plotter: p, n: len(c.drawn) - 1})
	}
}

// tracked is a plotter of a chart that tells the tagger, while it
// draws, that the marks are its own (number n).
type tracked struct {
	plot.Plotter
	n int
}

func (t tracked) Plot(c draw.Canvas, p *plot.Plot) {
	tg, ok := taggerOf(c)
	if !ok {
		t.Plotter.Plot(c, p)
		return
	}
	was := tg.plotter
	tg.plotter = t.n
	t.Plotter.Plot(c, p)
	tg.plotter = was
}

// DataRange is the tracked plotter's, or nothing (which widens no axis)
// when it has none.
func (t tracked) DataRange() (xmin, xmax, ymin, ymax float64) {
	if r, ok := t.Plotter.(plot.DataRanger); ok {
		return r.DataRange()
	}
	return math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
}

// GlyphBoxes are the tracked plotter's (the room its glyphs need).
func (t tracked) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	if g, ok := t.Plotter.(plot.GlyphBoxer); ok {
		return g.GlyphBoxes(p)
	}
	return nil
}

// drawnAs lists the numbers of the plotters of c that th is (a legend
// entry's thumbnail is the plotter it stands for).
func (c *chart) drawnAs(th plot.Thumbnailer) []int {
	var out []int
	if !reflect.TypeOf(th).Comparable() {
		return nil
	}
	for i, p := range c.drawn {
		if reflect.TypeOf(p) == reflect.TypeOf(th) && any(p) == any(th) {
			out = append(out, i)
		}
	}
	return out
}

// key is one entry of a chart's legend: a name and the thumbnails of the
// plotters it stands for.
type key struct {
	name   string
	thumbs []plot.Thumbnailer
}

// key adds an entry to c's legend.
func (c *chart) key(name string, thumbs ...plot.Thumbnailer) {
	c.keys = append(c.keys, key{name, thumbs})
}

// newPlot returns a gonum plot with chrono's style: sans-serif text, a
// light grid, no title (the page heads the figure).
func newPlot(xlabel, ylabel string) *chart {
	p := plot.New()
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(plotFont, 11)
		ax.Tick.Label.Font = font.From(plotFont, 9)
	}
	p.X.Label.Text, p.Y.Label.Text = xlabel, ylabel
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 225}
	g.Horizontal.Color = color.Gray{Y: 225}
	p.Add(phase("grid"), g, phase("data"))
	return &chart{Plot: p}
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

// render draws p at w×h (and its legend in a strip above, which makes
// the SVG taller) into a Plot named name, with hover points pts (at most
// maxHover are kept, evenly spaced). Every path and text of the SVG is
// classed by what it draws (see tagger).
func render(p *chart, w, h vg.Length, name, title, caption string, xu, yu string, pts []hoverPoint) (*Plot, error) {
	keys, keysH := layoutKeys(p, w)
	t := newTagger(vgsvg.NewWith(vgsvg.UseWH(w, h+keysH)))
	dc := draw.New(t)
	pc := draw.Crop(dc, vg.Points(3), -vg.Points(10), vg.Points(2), -keysH) // room for the overhang of real glyphs
	var perr error
	func() {
		// gonum/plot panics on some degenerate inputs (a log axis over
		// values <= 0): report it as an error of this plot.
		defer func() {
			if r := recover(); r != nil {
				perr = fmt.Errorf("report: drawing the plot %s: %v", name, r)
			}
		}()
		t.phase = "axes"
		p.Draw(pc)
		t.phase = "legend"
		drawKeys(dc, t, keys)
	}()
	if perr != nil {
		return nil, perr
	}
	da := p.DataCanvas(pc)
	tx, ty := p.Transforms(&da)
	H := (h + keysH).Points()
	hd := hoverData{XU: xu, YU: yu, P: [][3]any{}, L: [2]string{p.X.Label.Text, p.Y.Label.Text}}
	hd.F = [10]float64{da.Min.X.Points(), H - da.Max.Y.Points(), da.Max.X.Points(), H - da.Min.Y.Points(),
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max}
	if _, ok := p.X.Scale.(plot.LogScale); ok {
		hd.F[8] = 1
	}
	if _, ok := p.Y.Scale.(plot.LogScale); ok {
		hd.F[9] = 1
	}
	if p.nominal {
		hd.N |= 1
	}
	if p.namedX {
		hd.N |= 2
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
	if _, err := t.Canvas.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("report: writing the plot %s: %w", name, err)
	}
	svg, err := t.classify(buf.String())
	if err != nil {
		return nil, fmt.Errorf("report: writing the plot %s: %w", name, err)
	}
	svg = fontFallback.ReplaceAllString(svg, "font-family:'$1',Arimo,Arial,Helvetica,sans-serif")
	return &Plot{Name: name, Title: title, Caption: caption, SVG: []byte(svg), hover: hd, width: w}, nil
}

// placedKey is a legend entry where drawKeys puts it: the thumbnail's
// rectangle and the text's baseline start, from the canvas's top.
type placedKey struct {
	key
	x, row vg.Length
	drawn  []int // the numbers of the plotters it stands for
}

// The legend's text, thumbnail width and spacing.
var (
	keyFont                      = font.From(plotFont, 9)
	keyThumb, keyGap, keySpacing = vg.Points(16), vg.Points(4), vg.Points(14)
	keyRowH                      = vg.Points(13)
)

// layoutKeys places p's legend entries in rows from the left, wrapping
// at width w, and returns them with the strip's height (0 without keys).
func layoutKeys(p *chart, w vg.Length) ([]placedKey, vg.Length) {
	if len(p.keys) == 0 {
		return nil, 0
	}
	sty := p.X.Tick.Label
	sty.Font = keyFont
	var out []placedKey
	x, row := vg.Points(8), vg.Length(0)
	for _, k := range p.keys {
		ew := keyThumb + keyGap + sty.Width(k.name)
		if x > vg.Points(8) && x+ew > w-vg.Points(4) {
			x, row = vg.Points(8), row+1
		}
		var drawn []int
		for _, th := range k.thumbs {
			drawn = append(drawn, p.drawnAs(th)...)
		}
		out = append(out, placedKey{key: k, x: x, row: row, drawn: drawn})
		x += ew + keySpacing
	}
	return out, vg.Length((row+1)*keyRowH) + vg.Points(4)
}

// drawKeys draws the placed legend entries in the strip at the top of c,
// tagging each entry's marks with its number.
func drawKeys(c draw.Canvas, t *tagger, keys []placedKey) {
	sty := draw.TextStyle{Color: color.Black, Font: keyFont, Handler: plot.DefaultTextHandler}
	for i, k := range keys {
		t.key, t.keyFor = i, k.drawn
		top := c.Max.Y - vg.Points(3) - vg.Length(k.row*keyRowH)
		tc := c
		tc.Rectangle = vg.Rectangle{Min: vg.Point{X: k.x, Y: top - keyRowH + vg.Points(3)}, Max: vg.Point{X: k.x + keyThumb, Y: top}}
		for _, th := range k.thumbs {
			th.Thumbnail(&tc)
		}
		c.FillText(sty, vg.Point{X: k.x + keyThumb + keyGap, Y: top - keyRowH + vg.Points(5)}, k.name)
	}
	t.key, t.keyFor = -1, nil
}

// phase is a plotter that draws nothing: it tells the tagger that what
// the plotters after it draw is of kind k ("grid", "data", "ref").
type phase string

func (k phase) Plot(c draw.Canvas, _ *plot.Plot) {
	if t, ok := taggerOf(c); ok {
		t.phase = string(k)
	}
}

// taggerOf returns the tagger that c draws on, through the canvases that
// gonum's cropping and padding wrap around it.
func taggerOf(c draw.Canvas) (*tagger, bool) {
	var vc vg.Canvas = c.Canvas
	for {
		switch x := vc.(type) {
		case *tagger:
			return x, true
		case draw.Canvas:
			vc = x.Canvas
		case *draw.Canvas:
			vc = x.Canvas
		default:
			return nil, false
		}
	}
}

// inPhase runs f with the tagger of c (if any) in phase k, then restores
// the phase before.
func inPhase(c draw.Canvas, k string, f func()) {
	t, ok := taggerOf(c)
	if !ok {
		f()
		return
	}
	was := t.phase
	t.phase = k
	f()
	t.phase = was
}

// tagger is the SVG canvas that remembers, for every path and text it
// writes, what it draws: "axes" (axes, ticks, labels), "grid", "data"
// (data marks, with the number of the chart's plotter that drew them),
// "ref" (reference lines: medians, the ratio 1, change points) or
// "legend" (with its entry's number and the plotters it stands for).
// classify then classes each element of the SVG (class="p-data"
// data-p="2" ...), so that a test in a browser can tell a legend from
// the data it must not cover, and find each series' marks.
type tagger struct {
	*vgsvg.Canvas
	phase   string
	key     int
	keyFor  []int
	plotter int
	lw      []vg.Length
	tags    []string
}

func newTagger(c *vgsvg.Canvas) *tagger {
	return &tagger{Canvas: c, phase: "axes", key: -1, plotter: -1, lw: []vg.Length{1}}
}

func (t *tagger) tag() {
	s := `class="p-` + t.phase + `"`
	if t.phase == "data" && t.plotter >= 0 {
		s += ` data-p="` + strconv.Itoa(t.plotter) + `"`
	}
	if t.phase == "legend" && t.key >= 0 {
		s += ` data-key="` + strconv.Itoa(t.key) + `"`
		if len(t.keyFor) > 0 {
			ns := make([]string, len(t.keyFor))
			for i, n := range t.keyFor {
				ns[i] = strconv.Itoa(n)
			}
			s += ` data-for="` + strings.Join(ns, " ") + `"`
		}
	}
	t.tags = append(t.tags, s)
}

func (t *tagger) SetLineWidth(w vg.Length) { t.lw[len(t.lw)-1] = w; t.Canvas.SetLineWidth(w) }
func (t *tagger) Push()                    { t.lw = append(t.lw, t.lw[len(t.lw)-1]); t.Canvas.Push() }
func (t *tagger) Pop()                     { t.lw = t.lw[:len(t.lw)-1]; t.Canvas.Pop() }
func (t *tagger) Fill(p vg.Path)           { t.tag(); t.Canvas.Fill(p) }
func (t *tagger) Stroke(p vg.Path) {
	if t.lw[len(t.lw)-1].Points() > 0 { // vgsvg writes nothing otherwise
		t.tag()
	}
	t.Canvas.Stroke(p)
}
func (t *tagger) FillString(f font.Face, pt vg.Point, s string) {
	t.tag()
	t.Canvas.FillString(f, pt, s)
}

// classify adds each element's class to svg, the tagger's output: the
// n-th <path or <text gets the n-th tag.
func (t *tagger) classify(svg string) (string, error) {
	var b strings.Builder
	b.Grow(len(svg) + 20*len(t.tags))
	n := 0
	for {
		i := elemStart.FindStringIndex(svg)
		if i == nil {
			break
		}
		if n == len(t.tags) {
			return "", fmt.Errorf("more elements than drawn (%d)", n)
		}
		b.WriteString(svg[:i[1]])
		b.WriteString(t.tags[n] + " ")
		n++
		svg = svg[i[1]:]
	}
	if n != len(t.tags) {
		return "", fmt.Errorf("%d elements, %d drawn", n, len(t.tags))
	}
	b.WriteString(svg)
	return b.String(), nil
}

var elemStart = regexp.MustCompile(`<(path|text) `)

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

// setLog makes ax logarithmic with labelled powers of ten, and says so
// in its label ("wall (ns/op)" becomes "wall (ns/op, log scale)").
func setLog(ax *plot.Axis) {
	ax.Scale = plot.LogScale{}
	ax.Tick.Marker = logTicks{}
	ax.Label.Text = logLabel(ax.Label.Text)
}

// logLabel is an axis label that says its axis is logarithmic.
func logLabel(l string) string {
	switch {
	case strings.Contains(l, "log"):
		return l
	case strings.HasSuffix(l, ")"):
		return l[:len(l)-1] + ", log scale)"
	}
	return l + " (log scale)"
}

// setLogDurations makes ax, an axis of durations in the unit of sc,
// logarithmic with each labelled tick in the unit that fits it ("100 ns",
// "1 µs", "10 ms"): over decades no one unit fits every tick. The label
// loses its unit: "achieved − requested (ms)" becomes "achieved −
// requested (log scale)". Axes of other units get setLog.
func setLogDurations(ax *plot.Axis, sc axisScale) {
	if _, ok := durationUnits[strings.TrimSuffix(sc.unit, "/op")]; !ok {
		setLog(ax)
		return
	}
	op := strings.HasSuffix(sc.unit, "/op")
	ax.Scale = plot.LogScale{}
	ax.Tick.Marker = logTicks{format: func(v float64) string {
		l := durationLabel(v * sc.div) // axis values times div are ns
		if op {
			l += "/op"
		}
		return l
	}}
	ax.Label.Text = logLabel(strings.TrimSuffix(ax.Label.Text, " ("+sc.unit+")"))
}

// durationUnits are the duration units of an axis scale.
var durationUnits = map[string]bool{"ns": true, "µs": true, "ms": true, "s": true}

// durationLabel formats ns in the unit that fits it with up to three
// significant digits ("100 ns", "2 µs", "1.5 ms").
func durationLabel(ns float64) string {
	a := math.Abs(ns)
	div, u := 1.0, "ns"
	switch {
	case a >= 1e9*(1-1e-9):
		div, u = 1e9, "s"
	case a >= 1e6*(1-1e-9):
		div, u = 1e6, "ms"
	case a >= 1e3*(1-1e-9):
		div, u = 1e3, "µs"
	}
	return strconv.FormatFloat(float64(ns/div), 'g', 3, 64) + " " + u
}

// logTicks marks 1, 2, 5 times each power of ten (labelled when they are
// few), and the powers alone over wide ranges; format labels a tick
// (tickLabel when nil).
type logTicks struct{ format func(float64) string }

func (t logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) {
		return nil
	}
	format := t.format
	if format == nil {
		format = tickLabel
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
				t.Label = format(v)
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
	var ts []plot.Tick
	first := math.Ceil(lo / step)
	for i := 0.0; i <= 12; i++ {
		x := float64((first + i) * step)
		if x > hi+float64(step*1e-9) {
			break
		}
		ts = append(ts, plot.Tick{Value: x, Label: fixedLabel(x, step, math.Max(math.Abs(lo), math.Abs(hi)))})
		// A minor tick half way.
		if m := x + float64(step/2); m < hi {
			ts = append(ts, plot.Tick{Value: m})
		}
	}
	return ts
}

// tickLabel formats a tick value compactly, never in scientific notation
// ("0.001", "20", "10k", "1M").
func tickLabel(v float64) string {
	a := math.Abs(v)
	for _, s := range suffixes {
		if a >= s.at*(1-1e-9) {
			return strconv.FormatFloat(v/s.div, 'f', -1, 64) + s.suffix
		}
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// suffixes abbreviate large tick values (from at, dividing by div), the
// largest first.
var suffixes = []struct {
	at, div float64
	suffix  string
}{{1e12, 1e12, "T"}, {1e9, 1e9, "G"}, {1e6, 1e6, "M"}, {1e4, 1e3, "k"}}

// fixedLabel formats x, a tick of a linear axis of step step whose
// values reach top (abs), with the decimals the step needs; an axis that
// reaches a million abbreviates every tick alike ("1.5M").
func fixedLabel(x, step, top float64) string {
	div, suffix := 1.0, ""
	for _, s := range suffixes[:3] {
		if top >= s.at {
			div, suffix = s.div, s.suffix
			break
		}
	}
	dec := max(0, int(-math.Floor(float64(math.Log10(step/div))+1e-9)))
	return strconv.FormatFloat(x/div, 'f', dec, 64) + suffix
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
// box from the first to the third quartile, a ringed white dot at the
// median and whiskers to the 1st and 99th percentiles.
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
		y0 := ty(rowY(i, len(v.rows)))
		half := (ty(rowY(i, len(v.rows))+0.42) - y0)
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
		// The median, a white dot in a dark ring: seen on the box and
		// where the row has no width to show (every sample one value, or
		// nearly so on this axis).
		c.DrawGlyph(draw.GlyphStyle{Color: color.Gray{Y: 40}, Radius: vg.Points(3.3), Shape: draw.CircleGlyph{}}, vg.Point{X: tx(r.q50), Y: y0})
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
	inPhase(c, "ref", func() {
		for _, x := range v.x {
			if x < p.X.Min || x > p.X.Max {
				continue
			}
			c.StrokeLine2(v.style, tx(x), c.Min.Y, tx(x), c.Max.Y)
		}
	})
}

// nominalY labels the rows of the y axis with names, the first on top.
func nominalY(p *chart, names []string) {
	p.nominal = true
	ts := make([]plot.Tick, len(names))
	for i, n := range names {
		ts[i] = plot.Tick{Value: rowY(i, len(names)), Label: shorten(n, 28)}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ts)
	p.Y.Min, p.Y.Max = -0.5, float64(len(names))-0.5
}

// rowY is the y of row i of n on a nominal axis: the first on top, as in
// the tables.
func rowY(i, n int) float64 { return float64(n - 1 - i) }

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
