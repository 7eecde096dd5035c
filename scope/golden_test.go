package scope

import (
	"bytes"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/golden"
	"github.com/chronograph/chronograph/result"
)

// TestDocumentGolden: the JSON of the document of known durations (a
// scope with calls, errors and panics, one without calls) is the golden
// one (testdata/document.json; go test -update rewrites it).
func TestDocumentGolden(t *testing.T) {
	var r Registry
	w := r.Get("work")
	for _, d := range []time.Duration{1200, 1500, 1500, 2100, 9800, 45000} {
		w.Record(d)
	}
	r.Get("idle")
	st := r.Snapshot()
	st[1].Errors, st[1].Panics, st[1].PanicTime = 2, 1, 700 // as MeasureErr would count them
	d := Document(result.Meta{Tool: result.Tool{Name: "test", Version: "1"}}, st)
	if !d.End.Equal(d.Start) {
		t.Errorf("start %v, end %v: a snapshot has one time", d.Start, d.End)
	}
	d.Start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	d.End = d.Start
	var b bytes.Buffer
	if err := result.Encode(&b, d); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/document.json", b.Bytes())
}
