package run

import (
	"strings"
	"testing"

	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/warn"
)

// warnText joins warnings as they print, one per line.
func warnText(ws []warn.Warning) string {
	var lines []string
	for _, w := range ws {
		lines = append(lines, w.String())
	}
	return strings.Join(lines, "\n")
}

// docOf is the document of rep, without environment.
func docOf(rep *Benchmark) *result.Document {
	return rep.Document(result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
}

// render renders d in format f, as chrono run and chrono report do.
func render(t *testing.T, d *result.Document, f report.Format) string {
	t.Helper()
	var b strings.Builder
	if err := report.Render(&b, report.Subject{Docs: []*result.Document{d}}, f, report.Options{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// text is the text summary of rep.
func text(t *testing.T, rep *Benchmark) string {
	t.Helper()
	return render(t, docOf(rep), report.Text)
}
