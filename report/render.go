package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

// Format is an output format of a document.
type Format string

// The formats. Each has its own file with its Renderer.
const (
	Text     Format = "text"
	Markdown Format = "markdown"
	CSV      Format = "csv"
	JSON     Format = "json"
	Benchfmt Format = "benchfmt" // Go benchmark format: function documents only
)

// Formats lists the formats Render knows, for flags and completion.
func FormatNames() []string {
	return []string{string(Text), string(Markdown), string(CSV), string(JSON), string(Benchfmt)}
}

// ParseFormat parses a format name (as given to --format).
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(strings.TrimSpace(s))); f {
	case Text, Markdown, CSV, JSON, Benchfmt:
		return f, nil
	case "md":
		return Markdown, nil
	}
	return "", fmt.Errorf("report: unknown format %q: use one of %s", s, strings.Join(FormatNames(), ", "))
}

// Options control how documents are laid out. The zero value is the
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
}

// A Renderer writes a document in one format.
type Renderer interface {
	Render(w io.Writer, d *result.Document, o Options) error
}

// RendererFor returns the Renderer of a format.
func RendererFor(f Format) (Renderer, error) {
	switch f {
	case Text:
		return textRenderer{}, nil
	case Markdown:
		return markdownRenderer{}, nil
	case CSV:
		return csvRenderer{}, nil
	case JSON:
		return jsonRenderer{}, nil
	case Benchfmt:
		return benchfmtRenderer{}, nil
	}
	return nil, fmt.Errorf("report: unknown format %q: use one of %s", f, strings.Join(FormatNames(), ", "))
}

// Render writes d in format f.
func Render(w io.Writer, d *result.Document, f Format, o Options) error {
	r, err := RendererFor(f)
	if err != nil {
		return err
	}
	return r.Render(w, d, o)
}
