package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/compare"
	golden_ "github.com/chronograph/chronograph/internal/golden"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/warn"
)

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden_.Check(t, filepath.Join("testdata", name), got)
}

// doc builds a deterministic document: two measurements whose primary
// metric is wall time, one of which also has a count metric. Its kind has
// no viewer of its own: it shows the generic view.
func doc(scale float64) *result.Document {
	d := result.New("custom", result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	d.Start = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	d.End = d.Start.Add(time.Second)
	var fast, slow, faults []float64
	for i := range 20 {
		jitter := float64(i%5) * 1e4
		fast = append(fast, scale*(1e6+jitter))
		slow = append(slow, 2e6+jitter)
		faults = append(faults, float64(70+i%3))
	}
	d.Measurements = []result.Measurement{
		{Name: "fast", Primary: "wall", Metrics: []result.Metric{{Name: "wall", Unit: "ns", Values: fast}, {Name: "minor_faults", Unit: "count", Values: faults}}},
		{Name: "slow", Primary: "wall", Metrics: []result.Metric{{Name: "wall", Unit: "ns", Values: slow}, {Name: "minor_faults", Unit: "count", Values: faults}}, Warnings: []warn.Warning{warn.New("test", "a warning", "the next step")}},
		{Name: "probe", Metrics: []result.Metric{}},
	}
	d.Comparisons = []result.Comparison{{A: "slow", B: "fast", Metric: "wall", Statistic: "median", Ratio: 2, Lo: 1.9, Hi: 2.1, Confidence: 0.95, Test: "mann-whitney-u", P: 1e-8, Verdict: "slow is 2x as slow as fast"}}
	return d
}

func TestRenderGolden(t *testing.T) {
	tests := []struct {
		name   string
		render func(*bytes.Buffer) error
	}{
		{"doc.txt", func(b *bytes.Buffer) error {
			return Render(b, Subject{Docs: []*result.Document{doc(1)}}, Text, Options{})
		}},
		{"doc-all.md", func(b *bytes.Buffer) error {
			return Render(b, Subject{Docs: []*result.Document{doc(1)}}, Markdown, Options{All: true})
		}},
		{"doc.csv", func(b *bytes.Buffer) error {
			return Render(b, Subject{Docs: []*result.Document{doc(1)}}, CSV, Options{Percentiles: []float64{50, 90}})
		}},
		{"diff.txt", func(b *bytes.Buffer) error {
			return Render(b, Subject{Diff: compare.Documents(doc(1), doc(1.5), false)}, Text, Options{})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tt.render(&b); err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, b.Bytes())
		})
	}
}

// One sample has no sample standard deviation: it is never shown as 0
// (in the generic view: a kind without a view of its own).
func TestOneSampleStdDevUndefined(t *testing.T) {
	d := result.New("other", result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	d.Measurements = []result.Measurement{{Name: "x", Primary: "v", Metrics: []result.Metric{{Name: "v", Unit: "ns", Values: []float64{1500}}}}}
	var txt, csvb bytes.Buffer
	if err := Render(&txt, Subject{Docs: []*result.Document{d}}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "1.500 µs ± –") {
		t.Errorf("text:\n%s\nwant the stddev shown as undefined (–)", txt.String())
	}
	if err := Render(&csvb, Subject{Docs: []*result.Document{d}}, CSV, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(csvb.String(), "x,v,ns,1,1500,,,1500,,1500,1500") {
		t.Errorf("csv:\n%s\nwant an empty stddev field", csvb.String())
	}
}
