package view

import (
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
)

func init() { register(result.KindEnv, envView) }

// envView lays out an environment document: every group of the capture
// with its values (or why they are unknown), then its warnings.
func envView(d *result.Document, _ Options) (*View, error) {
	v := &View{}
	if d.Environment == nil {
		v.Blocks = append(v.Blocks, Block{Lines: []string{"the document holds no environment"}})
		return v, nil
	}
	v.Blocks = EnvBlocks(d.Environment)
	if len(d.Environment.Warnings) == 0 {
		v.Blocks = append(v.Blocks, Block{Lines: []string{"No warnings: nothing known here spoils measurements."}})
	}
	v.Warnings = documentWarnings(d)
	return v, nil
}

// EnvBlocks lays out h as one block per group: a label/value table under
// the group's title.
func EnvBlocks(h *env.Host) []Block {
	var bs []Block
	for _, g := range h.Groups() {
		b := Block{Heading: g.Title}
		if g.Unknown != "" {
			b.Lines = []string{"  unknown: " + g.Unknown}
		}
		if len(g.Rows) > 0 {
			t := &Table{Headless: true, Columns: []Column{{Name: "field"}, {Name: "value"}}}
			for _, r := range g.Rows {
				t.Rows = append(t.Rows, []Cell{TextCell(r.Label), TextCell(r.Value)})
			}
			b.Table = t
		}
		bs = append(bs, b)
	}
	return bs
}
