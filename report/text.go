package report

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/chronograph/chronograph/report/internal/view"
)

// textRenderer writes the View of a document, a diff or a gate as plain
// text: aligned tables, prose lines, notes and the warnings at the end
// (ASCII only with Options.Style "basic").
type textRenderer struct{}

func (textRenderer) Render(w io.Writer, s Subject, o Options) error {
	v, _, err := s.layout(o)
	if err != nil {
		return err
	}
	return writeText(w, v, o)
}

func writeText(w io.Writer, v *view.View, o Options) error {
	var b strings.Builder
	sep := func() {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
	}
	if v.Title != "" {
		b.WriteString(v.Title + "\n")
	}
	for _, blk := range v.Blocks {
		if !blk.ShownIn(view.InText) {
			continue
		}
		sep()
		if blk.Heading != "" {
			b.WriteString(blk.Heading + "\n")
		}
		for _, l := range blk.Lines {
			b.WriteString(l + "\n")
		}
		if blk.Table != nil {
			indent := ""
			if blk.Heading != "" {
				indent = "  " // a table under a heading is indented, as its lines are not
			}
			writeTextTable(&b, blk.Table, indent)
		}
		for _, n := range blk.Notes {
			b.WriteString(n + "\n")
		}
	}
	if len(v.Warnings) > 0 {
		sep()
		b.WriteString("Warnings\n")
		for _, x := range v.Warnings {
			b.WriteString("  " + view.WarningLine(x) + "\n")
		}
	}
	s := b.String()
	if o.Style == "basic" {
		s = view.ASCII(s)
	}
	_, err := io.WriteString(w, s)
	return err
}

// writeTextTable aligns a table in columns two spaces apart: text columns
// left, numeric ones right; trailing spaces are trimmed.
func writeTextTable(b *strings.Builder, t *view.Table, indent string) {
	width := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		if !t.Headless {
			width[i] = utf8.RuneCountInString(c.Name)
		}
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if i < len(width) {
				width[i] = max(width[i], utf8.RuneCountInString(c.Text))
			}
		}
	}
	line := func(cells []string) {
		var l strings.Builder
		for i, s := range cells {
			if i >= len(width) {
				break
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(s))
			if i > 0 {
				l.WriteString("  ")
			}
			if t.Columns[i].Numeric {
				l.WriteString(pad + s)
			} else {
				l.WriteString(s + pad)
			}
		}
		b.WriteString(indent + strings.TrimRight(l.String(), " ") + "\n")
	}
	if !t.Headless {
		head := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			head[i] = c.Name
		}
		line(head)
	}
	for _, r := range t.Rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = c.Text
		}
		line(cells)
	}
}
