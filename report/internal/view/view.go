// Package view lays result documents out for people, before any format:
// the View model (blocks of prose and tables of cells), the layout of
// each kind of document, of a diff and of a regression gate, the digits
// rule applied to a metric's statistics (Series) and the terminal charts.
// The renderers of package report write a View as text, Markdown, CSV or
// HTML; view writes nothing itself.
package view

import (
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// Options are the layout's part of package report's Options (which
// documents them): report's HTML and SVG renderers read the rest.
type Options struct {
	All         bool
	Percentiles []float64
	Unit        unit.Unit
	Reference   string
	Sort        string
	Style       string
	// Cache, when set, shares each metric's Series within one rendering
	// (Options.Series).
	Cache *SeriesCache
}

func (o Options) percentiles() []float64 {
	if len(o.Percentiles) == 0 {
		return []float64{50, 99}
	}
	return o.Percentiles
}

// A View is a result document laid out for people, before any format: the
// one place that decides which figures of a kind are shown, in which
// order and with how many digits. Every format (text, Markdown, CSV)
// renders the same View, so that `chrono <subcommand>` and `chrono report`
// of its saved document print the same thing by construction, and the
// Markdown and CSV exports show the same figures as the text.
type View struct {
	// Title is the document's one-line heading ("" = none).
	Title string
	// Blocks are rendered in order.
	Blocks []Block
	// Warnings close the view (the document's, its measurements' and its
	// environment's), each once.
	Warnings []warn.Warning
}

// Formats is a set of formats a Block is shown in.
type Formats uint8

const (
	// InText shows a block in the text rendering.
	InText Formats = 1 << iota
	// InMarkdown shows a block in the Markdown rendering.
	InMarkdown
	// InCSV makes a block's Table the CSV rendering (one per view).
	InCSV
	// InHTML shows a block on the HTML page.
	InHTML

	// AllFormats shows a block everywhere it fits (its table in CSV only
	// when InCSV is set explicitly).
	AllFormats = InText | InMarkdown | InHTML
)

// Block is a part of a View: an optional heading, lines of prose, and an
// optional table.
type Block struct {
	// Heading titles the block ("" = none).
	Heading string
	// Lines are free text, one line each, printed before the table.
	Lines []string
	// Table is nil for blocks of prose.
	Table *Table
	// Notes are printed after the table (e.g. what a column means).
	Notes []string
	// In says where the block is shown; 0 means AllFormats.
	In Formats
}

// ShownIn reports whether b is shown in format f.
func (b Block) ShownIn(f Formats) bool {
	in := b.In
	if in == 0 {
		in = AllFormats
	}
	return in&f != 0
}

// Table is a grid of cells with named columns.
type Table struct {
	Columns []Column
	Rows    [][]Cell
	// Headless tables (label/value lists) print no header line in text;
	// Markdown, which needs one, shows the column names.
	Headless bool
}

// Column is a table column: its heading for people, its heading in CSV
// (plain identifier with the unit, e.g. "median_ns"), and whether it is
// numeric (right-aligned).
type Column struct {
	Name    string
	CSVName string
	Numeric bool
}

// Cell is one table cell: Text for people (digits bounded by the
// figure's precision) and Raw for machines (the exact number in the
// column's unit, or the same text), empty when the figure does not exist.
type Cell struct {
	Text string
	Raw  string
}

// TextCell is a cell whose text is also its raw value.
func TextCell(s string) Cell { return Cell{Text: s, Raw: s} }

// Missing is the cell of a figure that does not exist (not measured,
// undefined): "–" for people, empty for machines.
var Missing = Cell{Text: "–"}

// A viewer lays a document of one kind out as a View.
type viewer func(d *result.Document, o Options) (*View, error)

// viewers maps a document kind to its viewer; kinds without one get the
// generic view of their metrics.
var viewers = map[string]viewer{}

// register adds the viewer of a kind (called from the kind's file).
func register(kind string, v viewer) { viewers[kind] = v }

// Layout returns the View of d: its kind's own layout, or the generic
// table of every measurement's metrics.
func Layout(d *result.Document, o Options) (*View, error) {
	if v, ok := viewers[d.Kind]; ok {
		return v(d, o)
	}
	return genericView(d, o)
}

// documentWarnings gathers the warnings of d for the end of a view: the
// document's, each measurement's (its name before the message) and the
// environment's, each once. The environment's are left out for kinds
// whose figures were measured elsewhere (numbers read from a file, a trace
// dump summarized): the conditions of the machine that only summarized
// them do not weaken them.
func documentWarnings(d *result.Document) []warn.Warning {
	ws := append([]warn.Warning(nil), d.Warnings...)
	for _, m := range d.Measurements {
		for _, w := range m.Warnings {
			w.Message = m.Name + ": " + w.Message
			ws = append(ws, w)
		}
	}
	if d.Environment != nil && measuredHere(d.Kind) {
		ws = append(ws, d.Environment.Warnings...)
	}
	return warn.Dedup(ws)
}

// measuredHere reports whether documents of a kind hold figures measured
// by the process that wrote them (so that its environment is theirs).
func measuredHere(kind string) bool {
	return kind != result.KindNumbers && kind != result.KindTrace
}

// WarningLine is one warning for people: its severity, message and next
// step.
func WarningLine(x warn.Warning) string {
	sev := string(x.Severity)
	if sev == "" {
		sev = string(warn.Warn)
	}
	return sev + ": " + x.String()
}
