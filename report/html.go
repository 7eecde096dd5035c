package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/report/internal/plot"
	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/tracer"
)

// htmlRenderer writes one self-contained HTML page: no network request,
// no external font, style sheet or script.
//
// Documents make the report's page: per document its plots (inline SVG
// drawn by gonum/plot; package plot), its tables (the same View as its
// text), its warnings and its environment with the environment's
// warnings, the command line that wrote it and the program's version;
// documents of one kind are each compared with the first (the ratios of
// the medians with their intervals as a plot, and the comparison's
// table); then a timeline of every trace, each in a frame of its own. One
// small script shows a plot's figures on hover and zooms a plot after a
// click (wheel: zoom, drag: pan, double-click or Escape: reset). A
// document whose plots cannot be drawn fails the whole page, with the
// reason. A comparison (Subject.Diff) is the page of its two documents.
//
// A history document of series alone (chrono history trend, show, check,
// export) is its plot page: one plot per series of its run medians, its
// change points and each segment's median. A trace alone is its timeline
// page (chrono trace --html): one lane per trace lane with spans nested by
// containment, instants as ticks and counters as step lines; the mouse
// wheel zooms around the pointer, dragging pans, hovering shows an
// event's details and links the events of its flow, and the keys +, -,
// arrows and 0 (reset) work too. A URL fragment #view=FROM,TO (ns from
// the first event) opens on that stretch.
type htmlRenderer struct{}

func (htmlRenderer) Render(w io.Writer, s Subject, o Options) error {
	switch {
	case s.Diff != nil:
		return writeReportPage(w, []*result.Document{s.Diff.Baseline, s.Diff.Newer}, []*compare.Diff{s.Diff}, s, o)
	case len(s.Docs) == 0 && len(s.Traces) == 1:
		title := o.Title
		if title == "" {
			title = s.traceName(0)
		}
		return writeTimelinePage(w, s.Traces[0], title)
	case len(s.Docs) == 1 && len(s.Traces) == 0 && isSeries(s.Docs[0]):
		return writeHistoryPage(w, s.Docs[0], o)
	}
	var diffs []*compare.Diff
	if len(s.Docs) > 1 && sameKind(s.Docs) {
		for _, d := range s.Docs[1:] {
			diffs = append(diffs, compare.DocumentsSorted(s.Docs[0], d, o.All, o.view().Sorted))
		}
	}
	return writeReportPage(w, s.Docs, diffs, s, o)
}

// traceName is the name of trace i (its file), "trace N" when not given.
func (s Subject) traceName(i int) string {
	if i < len(s.TraceNames) {
		return s.TraceNames[i]
	}
	return "trace " + strconv.Itoa(i+1)
}

// sameKind reports whether docs are all of one kind (so comparable).
func sameKind(docs []*result.Document) bool {
	for _, d := range docs[1:] {
		if d.Kind != docs[0].Kind {
			return false
		}
	}
	return true
}

// isSeries reports whether d is a history document of series (not the
// list of what a store holds).
func isSeries(d *result.Document) bool {
	return d.Kind == result.KindHistory && d.Run.History != nil && d.Run.History.View != result.HistoryViewList
}

// htmlPageData is what the page's template reads.
type htmlPageData struct {
	Title, Version, CommandLine string
	Docs                        []htmlDoc
	Compares                    []htmlCompare
	Timelines                   []template.HTML
	Nav                         [][2]string
}

// htmlCompare is the comparison of a document with the first.
type htmlCompare struct {
	ID, Title string
	Plot      *plot.Plot
	Blocks    []htmlBlock
	Warnings  []string
}

// htmlDoc is one document's section of the page.
type htmlDoc struct {
	ID, Title, Args, Writer string
	Plots                   []*plot.Plot
	Blocks                  []htmlBlock
	Warnings                []string
	Env                     []htmlBlock
	EnvWarnings             []string
}

type htmlBlock struct {
	Heading string
	Lines   []string
	Table   *view.Table
	Notes   []string
}

// writeReportPage writes the report's page of docs, the comparisons of
// the later ones with the first (diffs: of docs[1], docs[2], ...) and
// the timelines of s's traces.
func writeReportPage(w io.Writer, docs []*result.Document, diffs []*compare.Diff, s Subject, o Options) error {
	page := htmlPageData{Title: o.Title, Version: o.Version, CommandLine: o.CommandLine}
	if page.Title == "" {
		page.Title = "chrono report"
	}
	for i, d := range docs {
		hd, err := htmlDocument(d, i+1, o)
		if err != nil {
			return err
		}
		page.Docs = append(page.Docs, hd)
		page.Nav = append(page.Nav, [2]string{hd.ID, hd.Title})
	}
	for i, df := range diffs {
		hc, err := htmlComparison(df, i+2, o)
		if err != nil {
			return err
		}
		page.Compares = append(page.Compares, hc)
		page.Nav = append(page.Nav, [2]string{hc.ID, hc.Title})
	}
	for i, tr := range s.Traces {
		name := s.traceName(i)
		var b bytes.Buffer
		if err := writeTimelinePage(&b, tr, name); err != nil {
			return err
		}
		// The timeline page runs in a frame of its own (srcdoc: still
		// no request), so that its script and styles stay its own.
		id := "timeline-" + strconv.Itoa(i+1)
		page.Timelines = append(page.Timelines, template.HTML(`<section id="`+id+`"><h2>timeline: `+template.HTMLEscapeString(name)+
			`</h2><iframe class="timeline" title="timeline" sandbox="allow-scripts" srcdoc="`+template.HTMLEscapeString(b.String())+`"></iframe></section>`))
		page.Nav = append(page.Nav, [2]string{id, "timeline: " + name})
	}
	return htmlPage().Execute(w, page)
}

// htmlDocument lays out document d, the n-th of the page.
func htmlDocument(d *result.Document, n int, o Options) (htmlDoc, error) {
	v, err := view.Layout(d, o.view())
	if err != nil {
		return htmlDoc{}, err
	}
	hd := htmlDoc{ID: "doc-" + strconv.Itoa(n), Title: v.Title}
	if hd.Title == "" {
		hd.Title = view.Header(d)
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
	plots, err := plot.Plots(d, n, o.view(), "")
	if err != nil {
		return htmlDoc{}, err
	}
	hd.Plots = plots
	if lines := plot.Unvaried(d, o.view()); len(lines) > 0 {
		hd.Blocks = append(hd.Blocks, htmlBlock{Lines: lines})
	}
	for _, b := range v.Blocks {
		if !b.ShownIn(view.InHTML) { // the terminal's blocks (charts) have plots here
			continue
		}
		hd.Blocks = append(hd.Blocks, htmlBlock{Heading: b.Heading, Lines: b.Lines, Table: b.Table, Notes: b.Notes})
	}
	envWarn := map[string]bool{}
	if d.Environment != nil {
		for _, b := range view.EnvBlocks(d.Environment) {
			hd.Env = append(hd.Env, htmlBlock{Heading: b.Heading, Lines: b.Lines, Table: b.Table})
		}
		for _, x := range d.Environment.Warnings {
			hd.EnvWarnings = append(hd.EnvWarnings, view.WarningLine(x))
			envWarn[x.String()] = true
		}
	}
	for _, x := range v.Warnings {
		if !envWarn[x.String()] { // shown with the environment
			hd.Warnings = append(hd.Warnings, view.WarningLine(x))
		}
	}
	return hd, nil
}

// htmlComparison lays out diff d of the n-th document against the first:
// the ratios of the medians with their intervals as a plot, and the
// comparison's table.
func htmlComparison(d *compare.Diff, n int, o Options) (htmlCompare, error) {
	v := view.DiffView(d, o.view())
	hc := htmlCompare{ID: "compare-" + strconv.Itoa(n), Title: fmt.Sprintf("document %d against document 1 (the baseline)", n)}
	p, err := plot.Comparison(d, n, o.All)
	if err != nil {
		return hc, err
	}
	hc.Plot = p
	for _, b := range v.Blocks {
		if b.ShownIn(view.InHTML) {
			hc.Blocks = append(hc.Blocks, htmlBlock{Heading: b.Heading, Lines: b.Lines, Table: b.Table, Notes: b.Notes})
		}
	}
	for _, x := range v.Warnings {
		hc.Warnings = append(hc.Warnings, view.WarningLine(x))
	}
	return hc, nil
}

// writeHistoryPage writes the plot page of a history document of series:
// one section per series with its plot.
func writeHistoryPage(w io.Writer, d *result.Document, o Options) error {
	page := htmlPageData{Title: o.Title, Version: o.Version, CommandLine: o.CommandLine}
	if page.Title == "" {
		page.Title = "chrono history"
	}
	plots, err := plot.History(d, "history")
	if err != nil {
		return err
	}
	for i, p := range plots {
		id := "series-" + strconv.Itoa(i+1)
		hd := htmlDoc{ID: id, Title: p.Title, Writer: "chrono history (change points: E-divisive means)", Plots: []*plot.Plot{p}}
		s, err := view.NewHistorySeries(&d.Measurements[i])
		if err != nil {
			return err
		}
		for _, b := range s.PageBlocks(d.Run.History, o.view()) {
			hd.Blocks = append(hd.Blocks, htmlBlock{Heading: b.Heading, Lines: b.Lines, Table: b.Table, Notes: b.Notes})
		}
		page.Docs = append(page.Docs, hd)
		page.Nav = append(page.Nav, [2]string{id, p.Title})
	}
	return htmlPage().Execute(w, page)
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

// pageTemplate is the report's page (html/page.html).
//
//go:embed html/page.html
var pageTemplate string

var htmlFuncs = template.FuncMap{
	"svg":       func(p *plot.Plot) template.HTML { return template.HTML(p.InlineSVG()) },
	"hover":     func(p *plot.Plot) string { return p.HoverJSON() },
	"hasPrefix": strings.HasPrefix,
	"count":     plural.Count,
	"width":     func(p *plot.Plot) string { return p.Width() },
	// cell is a table cell's text; Markdown's code spans (`gzip -9`)
	// become code.
	"cell": func(s string) template.HTML {
		if len(s) > 2 && strings.HasPrefix(s, "`") && strings.HasSuffix(s, "`") && !strings.Contains(s[1:len(s)-1], "`") {
			return template.HTML("<code>" + template.HTMLEscapeString(s[1:len(s)-1]) + "</code>")
		}
		return template.HTML(template.HTMLEscapeString(s))
	},
	// prose is a line of text (a warning) whose Markdown code spans
	// ("e.g. `taskset -c 0`") become code, the rest escaped.
	"prose": func(s string) template.HTML {
		parts := strings.Split(s, "`")
		if len(parts)%2 == 0 { // an odd number of backticks: no spans
			return template.HTML(template.HTMLEscapeString(s))
		}
		var b strings.Builder
		for i, p := range parts {
			if i%2 == 1 && p != "" {
				b.WriteString("<code>" + template.HTMLEscapeString(p) + "</code>")
			} else {
				b.WriteString(template.HTMLEscapeString(p))
			}
		}
		return template.HTML(b.String())
	},
	"align": func(c view.Column) string {
		if c.Numeric {
			return "num"
		}
		return ""
	},
}

// htmlPage is parsed on first use, not when the program starts (it took
// 0.3 ms of every chrono's start-up).
var htmlPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(htmlFuncs).Parse(pageTemplate))
})

// timelineData is the compact JSON the timeline page's script reads:
// names are indexes into Names; spans are [lane, name, start, dur, flow],
// instants [lane, name, at, payload, flow], counters [lane, name, at,
// value] (lane -1: none),
// times in ns from the trace's origin. Flow ids and payloads are strings
// (JavaScript numbers lose integers above 2^53).
type timelineData struct {
	Title    string   `json:"title"`
	Clock    string   `json:"clock"`
	Lanes    []string `json:"lanes"`
	Names    []string `json:"names"`
	Spans    [][5]any `json:"spans"`
	Instants [][5]any `json:"instants"`
	Counters [][4]any `json:"counters"`
}

// writeTimelinePage writes the timeline page of tr, titled title.
func writeTimelinePage(w io.Writer, tr *tracer.Trace, title string) error {
	d := timelineData{Title: title, Clock: tr.Clock, Lanes: []string{}, Spans: [][5]any{}, Instants: [][5]any{}, Counters: [][4]any{}}
	for _, l := range tr.Lanes {
		d.Lanes = append(d.Lanes, l.Name)
	}
	idx := map[string]int{}
	name := func(s string) int {
		if i, ok := idx[s]; ok {
			return i
		}
		idx[s] = len(d.Names)
		d.Names = append(d.Names, s)
		return idx[s]
	}
	flow := func(f uint64) string {
		if f == 0 {
			return ""
		}
		return fmt.Sprintf("%#x", f)
	}
	// Names are numbered in the order of the spans, then the instants,
	// then the counters.
	var spans, instants, counters []tracer.Event
	for _, e := range tr.Events {
		if e.Kind != tracer.KindCounter && (e.Lane < 0 || e.Lane >= len(d.Lanes)) {
			n := len(spans)
			if e.Kind == tracer.KindInstant {
				n = len(instants)
			}
			return fmt.Errorf("report: timeline %s %d (%q) has lane %d of %d", e.Kind, n, e.Name, e.Lane, len(d.Lanes))
		}
		switch e.Kind {
		case tracer.KindSpan:
			spans = append(spans, e)
		case tracer.KindInstant:
			instants = append(instants, e)
		case tracer.KindCounter:
			counters = append(counters, e)
		}
	}
	for _, e := range spans {
		d.Spans = append(d.Spans, [5]any{e.Lane, name(e.Name), e.TS, e.Dur, flow(e.Flow)})
	}
	for _, e := range instants {
		d.Instants = append(d.Instants, [5]any{e.Lane, name(e.Name), e.TS, fmt.Sprint(e.Payload), flow(e.Flow)})
	}
	for _, e := range counters {
		lane := e.Lane
		if lane < 0 || lane >= len(d.Lanes) {
			lane = -1
		}
		d.Counters = append(d.Counters, [4]any{lane, name(e.Name), e.TS, e.Value})
	}
	if d.Names == nil {
		d.Names = []string{}
	}
	data, err := json.Marshal(d) // escapes <, > and &: safe inside <script>
	if err != nil {
		return fmt.Errorf("report: encoding the timeline: %w", err)
	}
	return timelinePage().Execute(w, struct {
		Title string
		Data  template.JS
	}{title, template.JS(data)})
}

// timelineTemplate is the timeline page (html/timeline.html).
//
//go:embed html/timeline.html
var timelineTemplate string

// timelinePage is parsed on first use, not when the program starts.
var timelinePage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("timeline").Parse(timelineTemplate))
})
