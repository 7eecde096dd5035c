package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
)

// smallDoc is a command document of two commands with n runs each, the
// second 1.75 times as slow as the first, the runs not overlapping.
func smallDoc(n int) *result.Document {
	d := result.New(result.KindCommand, result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	d.Start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	d.Run.Command = &result.CommandRun{Order: "interleaved", Seed: 7}
	mk := func(name string, base float64) result.Measurement {
		var w []float64
		for i := range n {
			w = append(w, base*(1+0.01*float64(i%3)))
		}
		return result.Measurement{Name: name, Primary: "wall", Metrics: []result.Metric{{Name: "wall", Unit: result.UnitNs, Values: w, Resolution: 1}},
			Detail: result.KindDetail{Command: &result.CommandDetail{CommandLine: name, Complete: true}}}
	}
	d.Measurements = []result.Measurement{mk("a", 10e6), mk("b", 17.5e6)}
	return d
}

// stored are the comparisons run.Benchmark.Document stores in a command
// document (compare.CommandDocument's, with the reference and seed the
// document records).
func stored(d *result.Document) []result.Comparison {
	c, err := compare.CommandDocument(d, "")
	if err != nil {
		return nil
	}
	return c.Stored()
}

func renderAll(t *testing.T, d *result.Document) map[Format]string {
	t.Helper()
	out := map[Format]string{}
	for _, f := range []Format{Text, Markdown, CSV} {
		var b bytes.Buffer
		if err := Render(&b, Subject{Docs: []*result.Document{d}}, f, Options{}); err != nil {
			t.Fatal(err)
		}
		out[f] = b.String()
	}
	return out
}

// TestCommandSmallSampleRule: with fewer than 6 runs neither a median nor
// a ratio of medians has an interval, and no difference is called
// significant, though the test alone would reach p <= 0.05 with 4 and 4
// runs: the same in text, Markdown, CSV, the stored comparisons and the
// comparison with a baseline.
func TestCommandSmallSampleRule(t *testing.T) {
	d := smallDoc(4)
	out := renderAll(t, d)
	for _, want := range []string{
		"wall median:   10.05 ms   no CI: fewer than 6 runs",
		`"b"  1.75x  [no CI: fewer than 6 runs]  p = 0.029  not significant: too few runs to tell "b" and "a" apart (no CI: fewer than 6 runs)`,
	} {
		if !strings.Contains(out[Text], want) {
			t.Errorf("text lacks %q:\n%s", want, out[Text])
		}
	}
	if !strings.Contains(out[Markdown], "| 1.75 (no CI: fewer than 6 runs) |") || !strings.Contains(out[Markdown], "with fewer than 6 runs a ratio has none") {
		t.Errorf("markdown:\n%s", out[Markdown])
	}
	// median_ci_lo and median_ci_hi are empty.
	if !strings.Contains(out[CSV], "\na,0.010075,") || !strings.Contains(out[CSV], ",0.01,0.0102,,,0.010185,") {
		t.Errorf("csv:\n%s", out[CSV])
	}
	cs := stored(d)
	if len(cs) != 1 || cs[0].Lo != 0 || cs[0].Hi != 0 || cs[0].Confidence != 0 || !strings.HasPrefix(cs[0].Verdict, "not significant") {
		t.Errorf("stored comparisons %+v, want one without an interval, not significant", cs)
	}
	// A baseline of 4 runs: no interval, no verdict either.
	newer := smallDoc(4)
	for i, v := range newer.Measurements[0].Metrics[0].Values {
		newer.Measurements[0].Metrics[0].Values[i] = 2 * v
	}
	var b bytes.Buffer
	if err := Render(&b, Subject{Diff: compare.Documents(d, newer, false)}, Text, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "[no CI: fewer than 6 runs]") || strings.Contains(b.String(), "slower (higher)") || !strings.Contains(b.String(), "cannot tell: too few samples") {
		t.Errorf("diff:\n%s", b.String())
	}

	// With 6 runs each: intervals everywhere, and a significant ratio.
	out = renderAll(t, smallDoc(6))
	if strings.Contains(out[Text]+out[Markdown], "no CI") || !strings.Contains(out[Text], `"b" is 1.75x as slow as "a"`) || !strings.Contains(out[Markdown], "| 1.75 [1.") {
		t.Errorf("6 runs:\n%s\n%s", out[Text], out[Markdown])
	}
}

// TestCommandViewRecomputes: the view compares the samples, whatever
// comparisons the document stores (an edited document once showed a
// stored ratio next to figures that contradicted it).
func TestCommandViewRecomputes(t *testing.T) {
	d := smallDoc(8)
	d.Comparisons = []result.Comparison{{A: "b", B: "a", Metric: "wall", Ratio: 0.5, Lo: 0.4, Hi: 0.6, Confidence: 0.95, Verdict: "stale"}}
	out := renderAll(t, d)
	if strings.Contains(out[Text]+out[Markdown], "stale") || strings.Contains(out[Text]+out[Markdown], "0.5") || !strings.Contains(out[Text], "1.75x as slow") {
		t.Errorf("the view shows a stored comparison:\n%s\n%s", out[Text], out[Markdown])
	}
}

// TestCommandMarkdownColumns: hyperfine's columns first, in hyperfine's
// order, then chrono's; times in the unit the document records.
func TestCommandMarkdownColumns(t *testing.T) {
	d := smallDoc(8)
	d.Run.Command.TimeUnit = "us"
	out := renderAll(t, d)
	if !strings.HasPrefix(out[Markdown], "| Command | Mean [µs] | Min [µs] | Max [µs] | Relative | Median [µs] |\n") {
		t.Errorf("markdown:\n%s", out[Markdown])
	}
	if !strings.HasPrefix(out[CSV], "command,mean,stddev,median,user,system,min,max,median_ci_lo,median_ci_hi,p95,p99,max_rss_bytes,runs,failures,timeouts\n") {
		t.Errorf("csv:\n%s", out[CSV])
	}
	// 10.10 ms known to 10 µs, in the µs asked for: exponent form, as
	// "10100 µs" would claim a last zero that is not known.
	if !strings.Contains(out[Text], "wall median:   1.010e+04 µs") {
		t.Errorf("text not in µs:\n%s", out[Text])
	}
}

// TestCommandComparisonWithoutCIStored: a comparison without an interval
// is stored without one (no lo, hi or confidence written as 0).
func TestCommandComparisonWithoutCIStored(t *testing.T) {
	d := smallDoc(3)
	d.Comparisons = stored(d)
	var b bytes.Buffer
	if err := result.Encode(&b, d); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !strings.Contains(s, `"ratio": 1.75`) || strings.Contains(s, `"lo"`) || strings.Contains(s, `"confidence"`) {
		t.Errorf("comparisons:\n%s", s[strings.Index(s, `"comparisons"`):])
	}
}

// TestCommandPercentilesOption: chrono report --percentiles replaces the
// p95 and p99 of the text and the CSV.
func TestCommandPercentilesOption(t *testing.T) {
	var txt, csv bytes.Buffer
	o := Options{Percentiles: []float64{50, 90}}
	if err := Render(&txt, Subject{Docs: []*result.Document{smallDoc(8)}}, Text, o); err != nil {
		t.Fatal(err)
	}
	if err := Render(&csv, Subject{Docs: []*result.Document{smallDoc(8)}}, CSV, o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "   p50 ") || strings.Contains(txt.String(), "p95") || !strings.Contains(csv.String(), ",p50,p90,") {
		t.Errorf("text:\n%s\ncsv:\n%s", txt.String(), csv.String())
	}
}

// TestStoredComparisonsAreTheView: the comparisons chrono run stores in
// a command document (compare.CommandDocument's, as run.Benchmark.Document
// stores them) are the ones the command view shows, figure for
// figure, for the example document; and, but for the interval, they are
// the ones the document was written with (an earlier chrono wrote it: its
// bootstrap interval came out a little different).
func TestStoredComparisonsAreTheView(t *testing.T) {
	d := exampleDocs(t, "command")[0]
	cs := stored(d)
	if len(cs) == 0 || len(cs) != len(d.Comparisons) {
		t.Fatalf("stored %+v, the document holds %+v", cs, d.Comparisons)
	}
	for i, c := range cs {
		w := d.Comparisons[i]
		w.Lo, w.Hi = c.Lo, c.Hi
		if c != w {
			t.Errorf("stored now %+v\nthe document holds %+v", c, d.Comparisons[i])
		}
	}
	out := renderAll(t, d)
	for _, c := range cs {
		ratio, ci := unit.Ratio(c.Ratio, c.Lo, c.Hi), "["+unit.Ratio(c.Lo, c.Lo, c.Hi)+", "+unit.Ratio(c.Hi, c.Lo, c.Hi)+"]"
		line := fmt.Sprintf("  %q  %sx  %s  p = %s  %s\n", c.A, ratio, ci, unit.PValue(c.P), c.Verdict)
		if c.Metric != "wall" || !strings.Contains(out[Text], line) {
			t.Errorf("the text lacks the stored comparison %+v as\n%s\n%s", c, line, out[Text])
		}
		if row := "| `" + c.A + "` |"; !strings.Contains(out[Markdown], ratio+" "+ci+" |") || !strings.Contains(out[Markdown], row) {
			t.Errorf("the Markdown lacks %s %s for %s:\n%s", ratio, ci, row, out[Markdown])
		}
	}
}
