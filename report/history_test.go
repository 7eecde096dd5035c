package report

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/history"
	goldenfile "github.com/chronograph/chronograph/internal/golden"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// exampleHistory returns the documents of every view of
// docs/examples/history.db (16 real runs of gzip README.md, a change at
// the 11th), as chrono history makes them with its default options.
func exampleHistory(t testing.TB) map[string]*result.Document {
	t.Helper()
	ctx := context.Background()
	s, err := history.OpenExisting(ctx, filepath.Join("..", "docs", "examples", "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tool := result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}}
	o := history.CheckOptions{Threshold: 0.05, Detector: stats.EDivisiveOptions{Permutations: 199, MinSegment: 5, Seed: 1, Significance: 0.05}}
	q := history.Query{Name: "gzip README.md"}
	docs := map[string]*result.Document{}
	add := func(view string) func(*result.Document, error) {
		return func(d *result.Document, err error) {
			if err != nil {
				t.Fatalf("%s: %v", view, err)
			}
			docs[view] = d
		}
	}
	add(result.HistoryViewList)(s.ListDocument(ctx, tool))
	add(result.HistoryViewShow)(s.ShowDocument(ctx, "gzip README.md", tool))
	add(result.HistoryViewTrend)(s.TrendDocument(ctx, q, o, false, tool))
	add(result.HistoryViewCheck)(s.CheckDocument(ctx, nil, history.Query{EachMachine: true}, o, tool))
	add(result.HistoryViewExport)(s.ExportDocument(ctx, q, tool))
	return docs
}

// exampleTracedTrend returns the trend document of
// docs/examples/traced-history.db (12 runs of the two builds of
// examples/regress with their CPU profiles), as chrono history trend
// makes it: its regression carries the differential profile.
func exampleTracedTrend(t testing.TB) *result.Document {
	t.Helper()
	ctx := context.Background()
	s, err := history.OpenExisting(ctx, filepath.Join("..", "docs", "examples", "traced-history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	o := history.CheckOptions{Threshold: 0.05, Detector: stats.EDivisiveOptions{Seed: 1}}
	d, err := s.TrendDocument(ctx, history.Query{Name: "regress"}, o, false, result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	traced := false
	for _, m := range d.Measurements {
		if h := m.Detail.History; h != nil {
			for _, c := range h.Changes {
				traced = traced || c.Trace != nil
			}
		}
	}
	if !traced {
		t.Fatal("traced-history.db's trend has no traced change")
	}
	return d
}

// TestHistoryGolden: every view of the example store in text, Markdown
// and CSV, and the same again from the document read back from its JSON
// (chrono report of a saved history document prints what chrono history
// printed).
func TestHistoryGolden(t *testing.T) {
	for view, d := range exampleHistory(t) {
		var js bytes.Buffer
		if err := result.Encode(&js, d); err != nil {
			t.Fatal(err)
		}
		back, err := result.Unmarshal(js.Bytes())
		if err != nil {
			t.Fatalf("%s: the document does not read back: %v", view, err)
		}
		for _, f := range []struct {
			ext    string
			format Format
		}{{"txt", Text}, {"md", Markdown}, {"csv", CSV}} {
			var b, again bytes.Buffer
			if err := Render(&b, Subject{Docs: []*result.Document{d}}, f.format, Options{}); err != nil {
				t.Fatalf("%s %s: %v", view, f.format, err)
			}
			goldenfile.Check(t, filepath.Join("testdata", "history", view+"."+f.ext), b.Bytes())
			if err := Render(&again, Subject{Docs: []*result.Document{back}}, f.format, Options{}); err != nil || again.String() != b.String() {
				t.Errorf("%s %s of the document read back (%v):\n%s\nwant:\n%s", view, f.format, err, again.String(), b.String())
			}
		}
	}
}

// TestHistoryView: the parts of the layout the example does not reach:
// a long series shortened around its change, an unknown machine, a
// series without runs, a binned run, an empty store, and the digits of
// each figure (a run's median by its samples, agreed samples as
// themselves).
func TestHistoryView(t *testing.T) {
	d := stepHistory()
	det := d.Measurements[0].Detail.History
	for i := 30; i < 60; i++ { // 60 runs: beyond trendRows
		det.Runs = append(det.Runs, result.HistoryPoint{Run: int64(i + 1), Time: time.Unix(int64(i)*3600, 0).UTC(), Commit: "later", N: 3,
			Values: []float64{1.2e6, 1.2e6, 1.2e6}})
		d.Measurements[0].Metrics[0].Values = append(d.Measurements[0].Metrics[0].Values, 1.2e6)
	}
	det.Changes[0].RunsAfter = 40
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{
		"parse, wall: 60 runs on machine 0123456789abcdef (CPU CPU-A)\n",
		"  ▶  1970-01-01 20:00:00Z  cu",
		"change: 1.20× (p = 0.0050)",
		"     …\n",
		"1.202 ms  3",  // 1.202 ms ± 12 µs (its samples' range): to the µs
		" 1.2 ms  3\n", // three samples of exactly 1.2 ms: as itself
	} {
		if !strings.Contains(text, want) {
			t.Errorf("trend lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "1970-01-"); n != 1+4+10 {
		t.Errorf("%d rows of runs, want the first, 4 around the change and the newest 10:\n%s", n, text)
	}
	d.Run.History.AllRuns = true
	b.Reset()
	Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{})
	if n := strings.Count(b.String(), "1970-01-"); n != 60 {
		t.Errorf("--all: %d rows, want 60", n)
	}

	det.Machine = &result.HistoryMachine{}
	det.Changes = nil
	b.Reset()
	Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{})
	if !strings.Contains(b.String(), "parse, wall: 60 runs on an unknown machine (no environment recorded)\n") ||
		!strings.Contains(b.String(), "  no change point (E-divisive means, permutation test at p ≤ 0.05)\n") {
		t.Errorf("unknown machine, no change:\n%s", b.String())
	}

	det.Runs, d.Measurements[0].Metrics[0].Values = nil, nil
	b.Reset()
	Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{})
	if b.String() != "parse, wall: 0 runs on an unknown machine (no environment recorded)\n  no runs (check --since and --machine)\n" {
		t.Errorf("no runs:\n%q", b.String())
	}

	binned := stepHistory()
	binned.Run.History.View = result.HistoryViewExport
	bd := binned.Measurements[0].Detail.History
	bd.Runs, bd.Changes = bd.Runs[:1], nil
	bd.Runs[0].Values, bd.Runs[0].N = nil, 5000
	binned.Measurements[0].Metrics[0].Values = []float64{123456.789}
	b.Reset()
	Render(&b, Subject{Docs: []*result.Document{binned}}, Text, Options{})
	if !strings.Contains(b.String(), "123.5 µs  5000") {
		t.Errorf("a binned run (no samples: at most 4 digits):\n%s", b.String())
	}

	empty := result.New(result.KindHistory, result.Meta{Tool: result.Tool{Name: "chrono"}})
	empty.Run.History = &result.HistoryRun{View: result.HistoryViewList, Store: "h.db"}
	b.Reset()
	Render(&b, Subject{Docs: []*result.Document{empty}}, Text, Options{})
	if b.String() != "h.db holds no results yet: add some with chrono history add FILE or --history\n" {
		t.Errorf("empty store: %q", b.String())
	}
}
