package numbers

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/golden"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// TestDocumentGolden: the JSON of the documents of known inputs (plain
// numbers with an outlier and a skipped token; durations with a bare
// unit) is the golden one (testdata/*.json; go test -update rewrites
// them).
func TestDocumentGolden(t *testing.T) {
	ms := unit.Millisecond
	for _, tt := range []struct {
		name, in string
		opts     Options
		s        Summary
	}{
		{"plain", "1 2 2 3 x 3 3 4 4 5 40\n", Options{SkipInvalid: true},
			Summary{Source: "stdin", Method: stats.Linear, Percentiles: []float64{50, 90, 99}, Confidence: 0.95, Bins: 4}},
		{"durations", "1.5 2ms 2.5 3 3.5 4\n", Options{BareUnit: &ms},
			Summary{Source: "in.txt", Method: stats.Methods[0], Percentiles: []float64{0, 50, 100}, Confidence: 0.99, TimeUnit: &ms}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data, err := Read(strings.NewReader(tt.in), tt.s.Source, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			d := Document(data, tt.s, result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
			d.Start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			var b bytes.Buffer
			if err := result.Encode(&b, d); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "testdata/"+tt.name+".json", b.Bytes())
		})
	}
}
