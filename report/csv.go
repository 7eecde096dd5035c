package report

import (
	"encoding/csv"
	"fmt"
	"io"

	"github.com/chronograph/chronograph/result"
)

// csvRenderer writes the View's CSV table (the block marked InCSV): a
// header of plain identifiers and one record per row with exact numbers.
type csvRenderer struct{}

func (csvRenderer) Render(w io.Writer, d *result.Document, o Options) error {
	v, err := Layout(d, o)
	if err != nil {
		return err
	}
	return writeCSV(w, v, d.Kind)
}

func writeCSV(w io.Writer, v *View, kind string) error {
	var t *Table
	for _, blk := range v.Blocks {
		if blk.In&InCSV != 0 && blk.Table != nil {
			t = blk.Table
			break
		}
	}
	if t == nil {
		return fmt.Errorf("report: a %s document has no table to write as CSV: use --format text, markdown or json", kind)
	}
	cw := csv.NewWriter(w)
	head := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i] = c.CSVName
		if head[i] == "" {
			head[i] = c.Name
		}
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, r := range t.Rows {
		rec := make([]string, len(t.Columns))
		for i := range rec {
			if i < len(r) {
				rec[i] = r[i].Raw
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
