package report

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/warn"
)

// textRenderer writes a View as plain text: aligned tables, prose lines,
// notes and the warnings at the end.
type textRenderer struct{}

func (textRenderer) Render(w io.Writer, d *result.Document, o Options) error {
	v, err := Layout(d, o)
	if err != nil {
		return err
	}
	return writeText(w, v, o)
}

func writeText(w io.Writer, v *View, o Options) error {
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
		if !blk.shownIn(InText) {
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
			b.WriteString("  " + warningLine(x) + "\n")
		}
	}
	s := b.String()
	if o.Style == "basic" {
		s = ASCII(s)
	}
	_, err := io.WriteString(w, s)
	return err
}

// warningLine is one warning for people: its severity, message and next
// step.
func warningLine(x warn.Warning) string {
	sev := string(x.Severity)
	if sev == "" {
		sev = string(warn.Warn)
	}
	return sev + ": " + x.String()
}

// writeTextTable aligns a table in columns two spaces apart: text columns
// left, numeric ones right; trailing spaces are trimmed.
func writeTextTable(b *strings.Builder, t *Table, indent string) {
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

// asciiReplacer maps the typographic characters chrono prints to ASCII.
// The first pairs keep the labels of the command blocks aligned (the
// replacer prefers the earlier of two pairs matching at one place).
var asciiReplacer = strings.NewReplacer("mean ± σ:      ", "mean +/- sd:   ", "min … max:     ", "min ... max:   ", "µ", "u", "μ", "u", "±", "+/-", "…", "...", "–", "-", "—", "-", "σ", "sd",
	"×", "x", "≤", "<=", "≥", ">=", "→", "->", "·", "*", "√", "sqrt")

// ASCII replaces the non-ASCII characters chrono uses in text output by
// ASCII spellings (--style basic, or a terminal that cannot show them).
func ASCII(s string) string { return asciiReplacer.Replace(s) }
