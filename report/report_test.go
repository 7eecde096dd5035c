package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/report/internal/plot"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/tracer"
)

// TestRefusals: a format that cannot show a subject says so, with the
// formats that can, before anything is written.
func TestRefusals(t *testing.T) {
	one := []*result.Document{doc(1)}
	diff := compare.Documents(doc(1), doc(1.5), false)
	gate, err := compare.GateDocuments(doc(1), doc(1.5), compare.GateOptions{Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	tr := &tracer.Trace{Lanes: []tracer.LaneInfo{{ID: 1, Name: "main"}}}
	for _, tt := range []struct {
		name string
		s    Subject
		f    Format
		want string
	}{
		{"gate as json", Subject{Gate: gate}, JSON, "report: a regression gate is written as text, markdown or csv, not json"},
		{"gate as html", Subject{Gate: gate}, HTML, "report: a regression gate is written as text, markdown or csv, not html"},
		{"diff as json", Subject{Diff: diff}, JSON, "report: a comparison with a baseline is written as text, markdown, csv or html, not json"},
		{"diff without documents", Subject{Diff: &compare.Diff{}}, Text, "lacks its baseline or new document"},
		{"trace as text", Subject{Traces: []*tracer.Trace{tr}}, Text, "report: a trace dump is written as html, not text"},
		{"traces beside documents as svg", Subject{Docs: one, Traces: []*tracer.Trace{tr}}, SVG, "report: a trace dump is written as html, not svg"},
		{"two documents as text", Subject{Docs: []*result.Document{doc(1), doc(2)}}, Text, "report: more than one document is written as html or svg, not text"},
		{"a custom document in benchfmt", Subject{Docs: one}, Benchfmt, "benchfmt) holds benchmarks of Go functions"},
		{"a custom document as hyperfine's", Subject{Docs: one}, Hyperfine, `the hyperfine JSON export is of command benchmarks, not of a "custom" document`},
		{"a diff beside documents", Subject{Docs: one, Diff: diff}, Text, "not several of them"},
		{"a trace beside a gate", Subject{Gate: gate, Traces: []*tracer.Trace{tr}}, Markdown, "not several of them"},
		{"nothing", Subject{}, Text, "nothing to render"},
		{"a nil document", Subject{Docs: []*result.Document{nil}}, Text, "document 1 of the subject is nil"},
		{"an unknown format", Subject{Docs: one}, "pdf", `unknown format "pdf"`},
		{"svg without a plot", Subject{Docs: one}, SVG, "name it in Options.Plot"},
	} {
		var b bytes.Buffer
		err := Render(&b, tt.s, tt.f, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
		if b.Len() > 0 {
			t.Errorf("%s: wrote %q before refusing", tt.name, b.String())
		}
	}
}

// TestSVG: PlotNames lists the plots of every document, numbered in
// order; each renders alone as the plot the HTML page shows, and a name
// of no plot is refused.
func TestSVG(t *testing.T) {
	s := Subject{Docs: exampleDocs(t, "gobench")}
	names, err := PlotNames(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := Render(&page, s, HTML, Options{}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, name := range names {
		seen[strings.SplitN(name, "-", 2)[0]] = true
		var b bytes.Buffer
		if err := Render(&b, s, SVG, Options{Plot: name}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.HasPrefix(b.String(), "<?xml") || !strings.Contains(b.String(), "<svg") {
			t.Errorf("%s: not an SVG document: %.80q", name, b.String())
		}
		if !strings.Contains(page.String(), `id="plot-`+name+`"`) {
			t.Errorf("%s: not a plot of the HTML page", name)
		}
	}
	if !seen["1"] || !seen["2"] {
		t.Errorf("plots %v: want both documents'", names)
	}
	if err := Render(&bytes.Buffer{}, s, SVG, Options{Plot: "1-function-nothing"}); err == nil || !strings.Contains(err.Error(), `no plot "1-function-nothing"`) {
		t.Errorf("an unknown plot: %v", err)
	}
}

// TestSVGOnePlot: the SVG of each plot, drawn alone, is the plot drawn
// with all the others (as chrono report --svg wrote its files before it
// drew one plot per file), for a document of every kind of plot.
func TestSVGOnePlot(t *testing.T) {
	var docs []*result.Document
	for _, f := range []string{"gzip-levels.json", "sortsearch.json", "sleep-study.json", "clocks.json", "numbers.json"} {
		d, err := result.ReadFile(filepath.Join("..", "docs", "examples", f))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	docs = append(docs, latencyExample(), stepHistory())
	s := Subject{Docs: docs}
	for i, d := range docs {
		all, err := plot.Plots(d, i+1, Options{}.view(), "")
		if err != nil || len(all) == 0 {
			t.Fatalf("%s: %d plots, %v", d.Kind, len(all), err)
		}
		for _, p := range all {
			var b bytes.Buffer
			if err := Render(&b, s, SVG, Options{Plot: p.Name}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), p.SVG) {
				t.Errorf("%s: drawn alone, the plot differs", p.Name)
			}
		}
	}
	names, err := PlotNames(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, d := range docs {
		ns, _ := plot.Names(d, i+1, Options{}.view())
		n += len(ns)
	}
	if len(names) != n {
		t.Errorf("PlotNames lists %d plots, the documents have %d", len(names), n)
	}
}

func TestTerminalStyle(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"LANG": "en_US.UTF-8"}, ""},
		{map[string]string{"LANG": "C.utf8"}, ""},
		{map[string]string{"LC_ALL": "C", "LANG": "en_US.UTF-8"}, "basic"},
		{map[string]string{"LC_CTYPE": "de_DE.UTF-8", "LANG": "C"}, ""},
		{map[string]string{}, "basic"},
	} {
		if got := TerminalStyle(func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.env, got, tt.want)
		}
	}
}
