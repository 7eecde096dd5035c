package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// HTMLOptions control an HTML report.
type HTMLOptions struct {
	// Options lay out each document's tables (as its text does).
	Options
	// Title heads the page ("" = "chrono report").
	Title string
	// Version is the version of the program writing the report and
	// CommandLine its command line, shown under the title ("" = not
	// shown).
	Version, CommandLine string
	// Timelines are trace dumps to draw as timelines (TimelineHTML), each
	// in its own section after the documents.
	Timelines []Timeline
	// Compare adds, for every document after the first, its comparison
	// with the first (DiffView) and a plot of the ratios.
	Compare bool
}

// htmlCompare is the comparison of a document with the first.
type htmlCompare struct {
	ID, Title string
	Plot      *Plot
	Blocks    []htmlBlock
	Warnings  []string
}

// htmlDoc is one document's section of the page.
type htmlDoc struct {
	ID, Title, Args, Writer string
	Plots                   []*Plot
	// PlotsAfter follow the tables: the plots after the one shown beside
	// the first table (sleep).
	PlotsAfter  []*Plot
	Blocks      []htmlBlock
	Warnings    []string
	Env         []htmlBlock
	EnvWarnings []string
}

type htmlBlock struct {
	Heading string
	Lines   []string
	Table   *Table
	Notes   []string
	Beside  *Plot
}

// WriteHTML writes docs as one self-contained HTML page: per document
// its plots (inline SVG drawn by gonum/plot; see Plots), its tables (the
// same View as its text, Layout), its warnings and its environment with
// the environment's warnings, the command line that wrote it and the
// program's version; then the timelines. The page loads nothing: no
// network, no external font, style sheet or script; one small script
// shows a plot's figures on hover and zooms a plot after a click (wheel:
// zoom, drag: pan, double-click or Escape: reset). A document whose
// plots cannot be drawn fails the whole page, with the reason.
func WriteHTML(w io.Writer, docs []*result.Document, o HTMLOptions) error {
	page := struct {
		Title, Version, CommandLine string
		Docs                        []htmlDoc
		Compares                    []htmlCompare
		Timelines                   []template.HTML
		Nav                         [][2]string
	}{Title: o.Title, Version: o.Version, CommandLine: o.CommandLine}
	if page.Title == "" {
		page.Title = "chrono report"
	}
	for i, d := range docs {
		hd, err := htmlDocument(d, i+1, o.Options)
		if err != nil {
			return err
		}
		page.Docs = append(page.Docs, hd)
		page.Nav = append(page.Nav, [2]string{hd.ID, hd.Title})
	}
	if o.Compare {
		for i := 1; i < len(docs); i++ {
			hc, err := htmlComparison(docs[0], docs[i], i+1, o.Options)
			if err != nil {
				return err
			}
			page.Compares = append(page.Compares, hc)
			page.Nav = append(page.Nav, [2]string{hc.ID, hc.Title})
		}
	}
	for i, tl := range o.Timelines {
		var b bytes.Buffer
		if err := TimelineHTML(&b, tl); err != nil {
			return err
		}
		// The timeline page runs in a frame of its own (srcdoc: still
		// no request), so that its script and styles stay its own.
		id := "timeline-" + strconv.Itoa(i+1)
		page.Timelines = append(page.Timelines, template.HTML(`<section id="`+id+`"><h2>timeline: `+template.HTMLEscapeString(tl.Title)+
			`</h2><iframe class="timeline" title="timeline" sandbox="allow-scripts" srcdoc="`+template.HTMLEscapeString(b.String())+`"></iframe></section>`))
		page.Nav = append(page.Nav, [2]string{id, "timeline: " + tl.Title})
	}
	return htmlPage().Execute(w, page)
}

// htmlDocument lays out document d, the n-th of the page.
func htmlDocument(d *result.Document, n int, o Options) (htmlDoc, error) {
	v, err := Layout(d, o)
	if err != nil {
		return htmlDoc{}, err
	}
	hd := htmlDoc{ID: "doc-" + strconv.Itoa(n), Title: v.Title}
	if hd.Title == "" {
		hd.Title = Header(d)
	}
	if len(d.Args) > 0 {
		args := d.Args
		if args[0] != d.Tool.Name {
			args = append([]string{d.Tool.Name}, args...)
		}
		hd.Args = shellJoin(args)
	}
	hd.Writer = strings.TrimSpace(d.Tool.Name + " " + d.Tool.Version)
	if d.Tool.GoVersion != "" {
		hd.Writer += " (" + d.Tool.GoVersion + ")"
	}
	plots, err := Plots(d, n, o)
	if err != nil {
		return htmlDoc{}, err
	}
	hd.Plots = plots
	beside := d.Kind == result.KindSleep && len(plots) > 0
	for _, b := range v.Blocks {
		if !b.shownIn(InMarkdown) { // the terminal's blocks (charts) have plots here
			continue
		}
		hb := htmlBlock{Heading: b.Heading, Lines: b.Lines, Table: b.Table, Notes: b.Notes}
		if beside && b.Table != nil {
			hb.Beside, hd.Plots, hd.PlotsAfter, beside = plots[0], nil, plots[1:], false
		}
		hd.Blocks = append(hd.Blocks, hb)
	}
	envWarn := map[string]bool{}
	if d.Environment != nil {
		for _, b := range EnvironmentBlocks(d.Environment) {
			hd.Env = append(hd.Env, htmlBlock{Heading: b.Heading, Lines: b.Lines, Table: b.Table})
		}
		for _, x := range d.Environment.Warnings {
			hd.EnvWarnings = append(hd.EnvWarnings, warningLine(x))
			envWarn[x.String()] = true
		}
	}
	for _, x := range v.Warnings {
		if !envWarn[x.String()] { // shown with the environment
			hd.Warnings = append(hd.Warnings, warningLine(x))
		}
	}
	return hd, nil
}

// htmlComparison lays out newer (the n-th document) against baseline:
// the ratios of the medians with their intervals as a plot, and the
// comparison's table (DiffView).
func htmlComparison(baseline, newer *result.Document, n int, o Options) (htmlCompare, error) {
	v := DiffView(baseline, newer, o)
	hc := htmlCompare{ID: "compare-" + strconv.Itoa(n), Title: fmt.Sprintf("document %d against document 1 (the baseline)", n)}
	changes, _, _ := Diff(baseline, newer, o)
	var rows []ratioRow
	for _, c := range changes {
		if c.Err != nil {
			continue
		}
		name := c.Measurement
		if o.All {
			name += " (" + c.Metric + ")"
		}
		rows = append(rows, ratioRow{name: name, ratio: c.Ratio, lo: c.CI.Lo, hi: c.CI.Hi, significant: c.Significant,
			verdict: c.Measurement + " " + c.Metric + ": " + c.Conclusion()})
	}
	if len(rows) > 0 {
		p, err := ratioPlot(rows, "compare-"+strconv.Itoa(n)+"-ratios", "new / baseline",
			"ratio of medians (document "+strconv.Itoa(n)+" / document 1) with its "+Percent(stats.Confidence)+" bootstrap interval, recomputed from the samples; red: significantly higher (slower), green: significantly lower (faster); Mann-Whitney U, p ≤ "+tickLabel(stats.Alpha), "new / baseline")
		if err != nil {
			return hc, err
		}
		hc.Plot = p
	}
	for _, b := range v.Blocks {
		if b.shownIn(InMarkdown) {
			hc.Blocks = append(hc.Blocks, htmlBlock{Heading: b.Heading, Lines: b.Lines, Table: b.Table, Notes: b.Notes})
		}
	}
	for _, x := range v.Warnings {
		hc.Warnings = append(hc.Warnings, warningLine(x))
	}
	return hc, nil
}

// shellJoin quotes args for a shell where needed.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@%+", r))
		}) < 0 {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

// Plots returns the plots of document d, the n-th of a report (its
// number starts every plot's Name): per kind, what its readers look at
// (see samplePlots, sleepPlots, latencyPlots, clocksPlots). Environment
// documents have none. What a plot cannot show is binned or down-sampled
// for drawing and its caption says so; the statistics are computed from
// every sample.
func Plots(d *result.Document, n int, o Options) ([]*Plot, error) {
	prefix := strconv.Itoa(n) + "-" + slug(d.Kind)
	switch d.Kind {
	case result.KindEnv:
		return nil, nil
	case result.KindSleep:
		return sleepPlots(d, prefix, o)
	case result.KindLatency:
		return latencyPlots(d, prefix, o)
	case result.KindClocks:
		return clocksPlots(d, prefix, o)
	}
	return samplePlots(d, o, prefix)
}

// WriteSVGs writes every plot of docs as its own SVG file in dir (made if
// missing), named after the plot (Plot.Name + ".svg"), and returns the
// paths written.
func WriteSVGs(dir string, docs []*result.Document, o Options) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("report: --svg %s: %w", dir, err)
	}
	var paths []string
	for i, d := range docs {
		plots, err := Plots(d, i+1, o)
		if err != nil {
			return paths, err
		}
		for _, p := range plots {
			path := filepath.Join(dir, p.Name+".svg")
			if err := WriteFile(path, nil, func(w io.Writer) error { _, err := w.Write(p.SVG); return err }); err != nil {
				return paths, err
			}
			paths = append(paths, path)
		}
	}
	return paths, nil
}

var htmlFuncs = template.FuncMap{
	"svg":       func(p *Plot) template.HTML { return template.HTML(p.inlineSVG()) },
	"hover":     func(p *Plot) string { return p.hoverJSON() },
	"hasPrefix": strings.HasPrefix,
	"count":     plural.Count,
	"width": func(p *Plot) string {
		switch {
		case p.width <= smallW:
			return "small"
		case p.width <= smallW*1.5:
			return "mid"
		}
		return "wide"
	},
	"align": func(c Column) string {
		if c.Numeric {
			return "num"
		}
		return ""
	},
}

// htmlPage is parsed on first use, not when the program starts (it took
// 0.3 ms of every chrono's start-up).
var htmlPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(htmlFuncs).Parse(htmlTemplate))
})

const htmlTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{{.Title}}</title>
<style>
body { margin: 0 auto; max-width: 1280px; padding: 12px 20px 40px; color: #222; background: #fff; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
h1 { font-size: 22px; margin: 8px 0 2px; }
h2 { font-size: 18px; margin: 28px 0 6px; padding-top: 10px; border-top: 2px solid #ddd; }
h3 { font-size: 15px; margin: 16px 0 4px; }
.meta { color: #555; font-size: 13px; }
code, .mono, td, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
nav ul { margin: 4px 0; padding-left: 18px; }
.plots { display: flex; flex-wrap: wrap; gap: 14px; margin: 10px 0; }
figure.plot { margin: 0; border: 1px solid #ddd; border-radius: 4px; padding: 6px; background: #fff; position: relative; }
figure.plot.active { outline: 2px solid #4e79a7; }
figure.plot figcaption { font-size: 12px; color: #555; max-width: 640px; }
figure.plot figcaption b { color: #222; font-size: 13px; }
svg.plot { display: block; width: 100%; height: auto; cursor: crosshair; overflow: visible; }
.w-small { width: 420px; } .w-wide { width: 640px; } .w-mid { width: 560px; }
.row { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { padding: 2px 10px 2px 4px; border-bottom: 1px solid #eee; text-align: left; white-space: nowrap; }
th { font-weight: 600; border-bottom: 1px solid #bbb; font-size: 12.5px; }
td.num, th.num { text-align: right; }
.scroll { overflow-x: auto; max-width: 100%; }
p.line { margin: 1px 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; white-space: pre-wrap; }
p.note { margin: 2px 0; color: #555; font-size: 12.5px; }
ul.warnings { padding-left: 18px; } ul.warnings li { margin: 3px 0; }
ul.warnings li.warning { color: #8a4b00; } ul.warnings li.note { color: #555; }
details { margin: 10px 0; } summary { cursor: pointer; font-weight: 600; }
iframe.timeline { width: 100%; height: 520px; border: 1px solid #ccc; }
#tip { position: fixed; pointer-events: none; background: rgba(255,255,255,0.97); border: 1px solid #888; padding: 3px 6px; font: 12px ui-monospace, monospace; white-space: pre; display: none; z-index: 5; box-shadow: 1px 1px 4px rgba(0,0,0,0.2); }
</style>
</head>
<body>
<header>
<h1>{{.Title}}</h1>
{{if .Version}}<div class="meta">written by chrono {{.Version}}{{if .CommandLine}} · <code>{{.CommandLine}}</code>{{end}}</div>{{end}}
<div class="meta">plots: hover for figures; click a plot, then wheel: zoom, drag: pan, double-click or Esc: reset</div>
{{if gt (len .Nav) 1}}<nav><ul>{{range .Nav}}<li><a href="#{{index . 0}}">{{index . 1}}</a></li>{{end}}</ul></nav>{{end}}
</header>
{{range .Docs}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
<div class="meta">written by {{.Writer}}{{if .Args}} · <code>{{.Args}}</code>{{end}}</div>
{{if .Plots}}<div class="plots">{{range .Plots}}{{template "plot" .}}{{end}}</div>{{end}}
{{range .Blocks}}{{template "block" .}}{{end}}
{{if .PlotsAfter}}<div class="plots">{{range .PlotsAfter}}{{template "plot" .}}{{end}}</div>{{end}}
{{if .Warnings}}<h3>Warnings</h3><ul class="warnings">{{range .Warnings}}<li class="{{if hasPrefix . "note"}}note{{else}}warning{{end}}">{{.}}</li>{{end}}</ul>{{end}}
{{if .Env}}<details{{if .EnvWarnings}} open{{end}}><summary>environment{{with .EnvWarnings}} ({{count (len .) "warning"}}){{end}}</summary>
{{if .EnvWarnings}}<ul class="warnings">{{range .EnvWarnings}}<li class="warning">{{.}}</li>{{end}}</ul>{{end}}
{{range .Env}}{{template "block" .}}{{end}}
</details>{{end}}
</section>
{{end}}
{{range .Compares}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
{{with .Plot}}<div class="plots">{{template "plot" .}}</div>{{end}}
{{range .Blocks}}{{template "block" .}}{{end}}
{{if .Warnings}}<h3>Warnings</h3><ul class="warnings">{{range .Warnings}}<li class="warning">{{.}}</li>{{end}}</ul>{{end}}
</section>
{{end}}
{{range .Timelines}}{{.}}{{end}}
<div id="tip"></div>
<script>
"use strict";
(function () {
  const tip = document.getElementById("tip");
  function fmt(v, u) {
    if (!isFinite(v)) return String(v);
    const a = Math.abs(v);
    const s = a !== 0 && (a >= 1e6 || a < 1e-3) ? v.toExponential(3) : String(+v.toPrecision(4));
    return u ? s + " " + u : s;
  }
  function show(ev, text) {
    tip.textContent = text; tip.style.display = "block";
    const w = tip.offsetWidth;
    tip.style.left = Math.min(ev.clientX + 14, window.innerWidth - w - 8) + "px";
    tip.style.top = (ev.clientY + 16) + "px";
  }
  function hide() { tip.style.display = "none"; }
  let active = null;
  document.querySelectorAll("figure.plot").forEach(function (fig) {
    const svg = fig.querySelector("svg");
    const H = JSON.parse(fig.getAttribute("data-hover"));
    const b = svg.viewBox.baseVal, orig = [b.x, b.y, b.width, b.height];
    let vb = orig.slice(), drag = null;
    function setVB() { svg.setAttribute("viewBox", vb.join(" ")); }
    function at(ev) {
      const m = svg.getScreenCTM();
      if (!m) return null;
      const p = svg.createSVGPoint(); p.x = ev.clientX; p.y = ev.clientY;
      return p.matrixTransform(m.inverse());
    }
    function data(p) {
      const F = H.f, fx = (p.x - F[0]) / (F[2] - F[0]), fy = (F[3] - p.y) / (F[3] - F[1]);
      const x = F[8] ? F[4] * Math.pow(F[5] / F[4], fx) : F[4] + fx * (F[5] - F[4]);
      const y = F[9] ? F[6] * Math.pow(F[7] / F[6], fy) : F[6] + fy * (F[7] - F[6]);
      return [x, y, fx >= 0 && fx <= 1 && fy >= 0 && fy <= 1];
    }
    svg.addEventListener("mousemove", function (ev) {
      const p = at(ev);
      if (!p) return;
      if (drag) {
        const s = vb[2] / svg.clientWidth;
        vb[0] = drag[0] - (ev.clientX - drag[2]) * s; vb[1] = drag[1] - (ev.clientY - drag[3]) * s;
        setVB(); return;
      }
      const r = 9 * vb[2] / Math.max(1, svg.clientWidth);
      let best = null, bd = r * r;
      for (const q of H.p) {
        const d = (q[0] - p.x) * (q[0] - p.x) + (q[1] - p.y) * (q[1] - p.y);
        if (d < bd) { bd = d; best = q; }
      }
      if (best) { show(ev, best[2]); return; }
      const xy = data(p);
      if (xy[2]) show(ev, "x " + fmt(xy[0], H.xu) + (H.yu !== "" ? "   y " + fmt(xy[1], H.yu) : ""));
      else hide();
    });
    svg.addEventListener("mouseleave", function () { hide(); drag = null; });
    fig.addEventListener("click", function () {
      if (active && active !== fig) active.classList.remove("active");
      active = fig; fig.classList.add("active");
    });
    svg.addEventListener("wheel", function (ev) {
      if (active !== fig) return;
      ev.preventDefault();
      const p = at(ev);
      if (!p) return;
      const k = ev.deltaY < 0 ? 0.8 : 1.25;
      vb = [p.x - (p.x - vb[0]) * k, p.y - (p.y - vb[1]) * k, vb[2] * k, vb[3] * k];
      if (vb[2] >= orig[2]) vb = orig.slice();
      setVB();
    }, { passive: false });
    svg.addEventListener("mousedown", function (ev) {
      if (active !== fig || vb[2] >= orig[2]) return;
      ev.preventDefault(); drag = [vb[0], vb[1], ev.clientX, ev.clientY];
    });
    window.addEventListener("mouseup", function () { drag = null; });
    svg.addEventListener("dblclick", function () { vb = orig.slice(); setVB(); });
    fig.reset = function () { vb = orig.slice(); setVB(); fig.classList.remove("active"); if (active === fig) active = null; };
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape" && active) active.reset(); });
  document.addEventListener("click", function (ev) {
    if (active && !active.contains(ev.target)) { active.classList.remove("active"); active = null; }
  });
})();
</script>
</body>
</html>
{{define "plot"}}<figure class="plot w-{{width .}}" id="plot-{{.Name}}" data-hover="{{hover .}}">{{svg .}}<figcaption><b>{{.Title}}</b><br>{{.Caption}}</figcaption></figure>{{end}}
{{define "block"}}{{if .Heading}}<h3>{{.Heading}}</h3>{{end}}{{if .Beside}}<div class="row">{{template "plot" .Beside}}<div>{{end}}
{{range .Lines}}<p class="line">{{.}}</p>{{end}}
{{with .Table}}<div class="scroll"><table>{{if not .Headless}}<thead><tr>{{range .Columns}}<th class="{{align .}}">{{.Name}}</th>{{end}}</tr></thead>{{end}}<tbody>{{$cols := .Columns}}{{range .Rows}}<tr>{{range $i, $c := .}}<td class="{{if lt $i (len $cols)}}{{align (index $cols $i)}}{{end}}">{{$c.Text}}</td>{{end}}</tr>{{end}}</tbody></table></div>{{end}}
{{range .Notes}}<p class="note">{{.}}</p>{{end}}{{if .Beside}}</div></div>{{end}}{{end}}
`
