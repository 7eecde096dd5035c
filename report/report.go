package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/tracer"
	"github.com/chronograph/chronograph/unit"
)

// Format is an output format.
type Format string

// The formats. Each has its own file with its Renderer.
const (
	Text      Format = "text"
	Markdown  Format = "markdown"
	CSV       Format = "csv"
	JSON      Format = "json"
	Benchfmt  Format = "benchfmt"  // Go benchmark format: function documents only
	HTML      Format = "html"      // one self-contained page
	SVG       Format = "svg"       // one plot (Options.Plot)
	Hyperfine Format = "hyperfine" // hyperfine's JSON export: command documents only
)

// FormatNames lists the formats a document converts to (chrono report
// --format; ParseFormat reads them), for flags and completion.
func FormatNames() []string {
	return []string{string(Text), string(Markdown), string(CSV), string(JSON), string(Benchfmt)}
}

// ParseFormat parses a format name of FormatNames (as given to
// --format).
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(strings.TrimSpace(s))); f {
	case Text, Markdown, CSV, JSON, Benchfmt:
		return f, nil
	case "md":
		return Markdown, nil
	}
	return "", fmt.Errorf("report: unknown format %q: use one of %s", s, strings.Join(FormatNames(), ", "))
}

// Subject is what a renderer renders: documents, a comparison of two
// documents, a regression gate or trace dumps. Set one of Docs, Diff and
// Gate; Traces go alone or with Docs.
type Subject struct {
	// Docs are result documents: one in every format; several on one
	// HTML page (documents of one kind are compared there with the
	// first) or as SVG plots.
	Docs []*result.Document
	// Diff is a comparison of a newer document with a baseline
	// (compare.Documents): text, Markdown, CSV, or an HTML page of both
	// documents and their comparison.
	Diff *compare.Diff
	// Gate is a regression gate's outcome (compare.GateDocuments): text,
	// Markdown (a pull-request comment) or CSV.
	Gate *compare.Gate
	// Traces are trace dumps drawn as timelines (HTML). One alone is
	// its own timeline page; with others or with Docs each is a section
	// of the report's page.
	Traces []*tracer.Trace
	// TraceNames name the traces, in order (their files): the titles of
	// their timelines.
	TraceNames []string
}

// Options control how a subject is laid out. The zero value is the
// default of every subcommand.
type Options struct {
	// All renders every metric of a measurement, not only its primary one.
	All bool
	// Percentiles are the percentiles to show (nil: each kind's default).
	Percentiles []float64
	// Unit fixes the time unit of durations (the zero Unit picks one per
	// figure).
	Unit unit.Unit
	// Reference names the measurement others are compared with ("" = the
	// kind's default, e.g. the fastest).
	Reference string
	// Sort orders measurements: "" (as measured) or "fastest".
	Sort string
	// Style is "" (Unicode allowed) or "basic" (ASCII only).
	Style string
	// Title heads an HTML page ("" = "chrono report"; of a history
	// document "chrono history"; of a trace its name).
	Title string
	// Version is the version of the program writing an HTML page and
	// CommandLine its command line, shown under the title ("" = not
	// shown).
	Version, CommandLine string
	// Plot names the one plot an SVG rendering draws (PlotNames lists
	// them).
	Plot string
	// cache shares each metric's sorted samples within one rendering
	// (set by checked.Render, for every format).
	cache *view.SeriesCache
}

// view is o as package view reads it.
func (o Options) view() view.Options {
	return view.Options{All: o.All, Percentiles: o.Percentiles, Unit: o.Unit, Reference: o.Reference, Sort: o.Sort, Style: o.Style, Cache: o.cache}
}

// A Renderer writes a subject in one format.
type Renderer interface {
	Render(w io.Writer, s Subject, o Options) error
}

// For returns the Renderer of a format. It refuses a subject the format
// cannot show with an error that says which formats can.
func For(f Format) (Renderer, error) {
	var r Renderer
	switch f {
	case Text:
		r = textRenderer{}
	case Markdown:
		r = markdownRenderer{}
	case CSV:
		r = csvRenderer{}
	case JSON:
		r = jsonRenderer{}
	case Benchfmt:
		r = benchfmtRenderer{}
	case HTML:
		r = htmlRenderer{}
	case SVG:
		r = svgRenderer{}
	case Hyperfine:
		r = hyperfineRenderer{}
	default:
		return nil, fmt.Errorf("report: unknown format %q: use one of %s", f, strings.Join(FormatNames(), ", "))
	}
	return checked{f, r}, nil
}

// Render writes s in format f.
func Render(w io.Writer, s Subject, f Format, o Options) error {
	r, err := For(f)
	if err != nil {
		return err
	}
	return r.Render(w, s, o)
}

// checked is a format's Renderer behind the one check of what it can
// show.
type checked struct {
	f Format
	r Renderer
}

func (c checked) Render(w io.Writer, s Subject, o Options) error {
	if err := s.check(c.f); err != nil {
		return err
	}
	// The layouts, plots and comparisons of one rendering share one
	// sorted copy of each metric's samples.
	o.cache = view.NewSeriesCache()
	return c.r.Render(w, s, o)
}

// check returns nil when format f shows s, else the one error that says
// what s is and which formats show it.
func (s Subject) check(f Format) error {
	parts := 0
	for _, set := range []bool{len(s.Docs) > 0, s.Diff != nil, s.Gate != nil} {
		if set {
			parts++
		}
	}
	if parts > 1 || (len(s.Traces) > 0 && (s.Diff != nil || s.Gate != nil)) {
		return errors.New("report: a subject is documents, a comparison, a gate or traces (with documents on an HTML page), not several of them")
	}
	for i, d := range s.Docs {
		if d == nil {
			return fmt.Errorf("report: document %d of the subject is nil", i+1)
		}
	}
	for i, tr := range s.Traces {
		if tr == nil {
			return fmt.Errorf("report: trace %d of the subject is nil", i+1)
		}
	}
	var what string
	var formats []Format
	switch {
	case s.Gate != nil:
		what, formats = "a regression gate", []Format{Text, Markdown, CSV}
	case s.Diff != nil:
		if s.Diff.Baseline == nil || s.Diff.Newer == nil {
			return errors.New("report: the comparison lacks its baseline or new document (make it with compare.Documents)")
		}
		what, formats = "a comparison with a baseline", []Format{Text, Markdown, CSV, HTML}
	case len(s.Traces) > 0:
		what, formats = "a trace dump", []Format{HTML}
	case len(s.Docs) > 1:
		what, formats = "more than one document", []Format{HTML, SVG}
	case len(s.Docs) == 1:
		what, formats = "a "+s.Docs[0].Kind+" document", []Format{Text, Markdown, CSV, JSON, Benchfmt, HTML, SVG, Hyperfine}
	default:
		return errors.New("report: nothing to render: the subject holds no document, comparison, gate or trace")
	}
	if !slices.Contains(formats, f) {
		return fmt.Errorf("report: %s is written as %s, not %s", what, formatList(formats), f)
	}
	// Benchfmt and Hyperfine show one document (of their kind only).
	switch {
	case f == Benchfmt && s.Docs[0].Kind != result.KindFunction:
		return fmt.Errorf("report: the Go benchmark format (benchfmt) holds benchmarks of Go functions (kind function, written by package bench), and this is a %s document: use --format text, markdown, csv or json", s.Docs[0].Kind)
	case f == Hyperfine && s.Docs[0].Kind != result.KindCommand:
		return fmt.Errorf("report: the hyperfine JSON export is of command benchmarks, not of a %q document", s.Docs[0].Kind)
	}
	return nil
}

// formatList is "text, markdown or csv".
func formatList(fs []Format) string {
	if len(fs) == 1 {
		return string(fs[0])
	}
	names := make([]string, len(fs)-1)
	for i, f := range fs[:len(fs)-1] {
		names[i] = string(f)
	}
	return strings.Join(names, ", ") + " or " + string(fs[len(fs)-1])
}

// layout is the View of a subject of the formats that write one (text,
// Markdown, CSV): a gate's, a diff's or the one document's, and what it
// is for CSV's message.
func (s Subject) layout(o Options) (*view.View, string, error) {
	switch {
	case s.Gate != nil:
		return view.GateView(s.Gate, o.view()), "gate", nil
	case s.Diff != nil:
		return view.DiffView(s.Diff, o.view()), "comparison", nil
	}
	d := s.Docs[0]
	v, err := view.Layout(d, o.view())
	return v, d.Kind, err
}

// TerminalStyle returns the Style for text written to a terminal
// (Options.Style): "basic" when the locale (LC_ALL, else LC_CTYPE, else
// LANG, read with getenv) does not name UTF-8, so that chart blocks and
// typographic characters would not show; "" otherwise. Call it only when
// the output is a terminal: files and pipes get Unicode.
func TerminalStyle(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			v = strings.ToUpper(v)
			if strings.Contains(v, "UTF-8") || strings.Contains(v, "UTF8") {
				return ""
			}
			return "basic"
		}
	}
	return "basic" // the C locale
}
