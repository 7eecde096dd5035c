package report

import (
	"io"
	"strings"

	"github.com/chronograph/chronograph/report/internal/view"
)

// markdownRenderer writes the View of a document, a diff or a gate as
// GitHub-flavoured Markdown: headings, paragraphs, pipe tables (numeric
// columns right-aligned) and the warnings as a list.
type markdownRenderer struct{}

func (markdownRenderer) Render(w io.Writer, s Subject, o Options) error {
	v, _, err := s.layout(o)
	if err != nil {
		return err
	}
	return writeMarkdown(w, v)
}

func writeMarkdown(w io.Writer, v *view.View) error {
	var b strings.Builder
	sep := func() {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
	}
	if v.Title != "" {
		b.WriteString("## " + mdEscape(v.Title) + "\n")
	}
	for _, blk := range v.Blocks {
		if !blk.ShownIn(view.InMarkdown) {
			continue
		}
		sep()
		if blk.Heading != "" {
			b.WriteString("### " + mdEscape(blk.Heading) + "\n\n")
		}
		for _, l := range blk.Lines {
			b.WriteString(mdEscape(l) + "  \n")
		}
		if blk.Table != nil {
			if len(blk.Lines) > 0 {
				b.WriteByte('\n')
			}
			writeMarkdownTable(&b, blk.Table)
		}
		if len(blk.Notes) > 0 {
			b.WriteByte('\n')
			for _, n := range blk.Notes {
				b.WriteString(mdEscape(n) + "  \n")
			}
		}
	}
	if len(v.Warnings) > 0 {
		sep()
		b.WriteString("**Warnings**\n\n")
		for _, x := range v.Warnings {
			b.WriteString("- " + mdEscape(view.WarningLine(x)) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeMarkdownTable(b *strings.Builder, t *view.Table) {
	b.WriteString("|")
	for _, c := range t.Columns {
		b.WriteString(" " + mdCell(c.Name) + " |")
	}
	b.WriteString("\n|")
	for _, c := range t.Columns {
		if c.Numeric {
			b.WriteString("---:|")
		} else {
			b.WriteString(":---|")
		}
	}
	b.WriteByte('\n')
	for _, r := range t.Rows {
		b.WriteString("|")
		for i := range t.Columns {
			s := ""
			if i < len(r) {
				s = r[i].Text
			}
			b.WriteString(" " + mdCell(s) + " |")
		}
		b.WriteByte('\n')
	}
}

// mdCell escapes a table cell: pipes would end it, newlines the row.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// mdEscape escapes the characters that would start Markdown markup in
// prose taken from documents (command lines, names).
var mdEscape = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;", "|", `\|`).Replace
