package report

import (
	"encoding/csv"
	"fmt"
	"io"

	"github.com/chronograph/chronograph/report/internal/view"
)

// csvRenderer writes the CSV table of the View of a document, a diff or a
// gate (its block marked InCSV): a header of plain identifiers and one
// record per row with exact numbers.
type csvRenderer struct{}

func (csvRenderer) Render(w io.Writer, s Subject, o Options) error {
	v, kind, err := s.layout(o)
	if err != nil {
		return err
	}
	var t *view.Table
	for _, blk := range v.Blocks {
		if blk.In&view.InCSV != 0 && blk.Table != nil {
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
