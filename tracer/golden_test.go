package tracer

import (
	"bytes"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/golden"
	"github.com/chronograph/chronograph/result"
)

// TestDocumentGolden: the JSON of the document of a known trace's summary
// (chrono trace's test trace, with a between pairing that matches, one
// that does not, and the gaps) is the golden one (testdata/document.json;
// go test -update rewrites it).
func TestDocumentGolden(t *testing.T) {
	tr, err := ReadChromeFile("../cmd/chrono/testdata/trace-known.json")
	if err != nil {
		t.Fatal(err)
	}
	var between []Between
	for _, ab := range [][2]string{{"irq", "task"}, {"task", "irq"}, {"task:end", "nothing"}} {
		a, err := ParseEndpoint(tr, ab[0])
		if err != nil {
			t.Fatal(err)
		}
		b, err := ParseEndpoint(tr, ab[1])
		if err != nil {
			b = Endpoint{Name: ab[1]}
		}
		between = append(between, Between{A: a, B: b, PerFlow: ab[0] == "task"})
	}
	s, err := Summarize(tr, SummaryOptions{Gaps: 2, Between: between})
	if err != nil {
		t.Fatal(err)
	}
	s.Overwritten, s.RingEvents = 3, 1024 // as a dump whose rings wrapped
	s.Start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var b bytes.Buffer
	if err := result.Encode(&b, s.Document(result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/document.json", b.Bytes())
}
