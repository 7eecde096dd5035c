package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/result"
)

// stepHistory is a trend document of one series of 30 runs whose median
// steps from 1 ms to 1.2 ms at run 20.
func stepHistory() *result.Document {
	d := result.New(result.KindHistory, result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	d.Run.History = &result.HistoryRun{View: result.HistoryViewTrend, Store: "h.db",
		Detector: &result.HistoryDetector{Method: "e-divisive", Permutations: 199, Significance: 0.05, MinSegment: 5, Seed: 1, Confidence: 0.95}}
	det := &result.HistoryDetail{Metric: "wall", Unit: "ns", Machine: &result.HistoryMachine{Hash: "0123456789abcdef", CPU: "CPU-A"}}
	met := result.Metric{Name: "wall", Unit: "ns"}
	for i := range 30 {
		v := 1e6
		if i >= 20 {
			v = 1.2e6
		}
		v += float64(i%3) * 1e3
		met.Values = append(met.Values, v)
		det.Runs = append(det.Runs, result.HistoryPoint{Run: int64(i + 1), Time: time.Unix(int64(i)*3600, 0).UTC(), Commit: "c" + string(rune('a'+i%26)),
			N: 3, Values: []float64{v * 0.99, v, v * 1.01}})
	}
	det.Changes = []result.HistoryChange{{Index: 20, BeforeCommit: "ct", AfterCommit: "cu", MedianBefore: 1.001e6, MedianAfter: 1.201e6,
		RunsBefore: 20, RunsAfter: 10, Ratio: 1.2, Lo: 1.19, Hi: 1.21, P: 0.005, Q: 2, Verdict: "regression"}}
	d.Measurements = []result.Measurement{{Name: "parse", Primary: "wall", Metrics: []result.Metric{met}, Detail: result.KindDetail{History: det}}}
	return d
}

// TestHistoryHTML: the HTML of a history document of series is its plot
// page (chrono history trend --html, chrono report --html), one plot per
// series; a list of what a store holds has no series to plot.
func TestHistoryHTML(t *testing.T) {
	html := func(d *result.Document) (string, error) {
		var b bytes.Buffer
		err := Render(&b, Subject{Docs: []*result.Document{d}}, HTML, Options{})
		return b.String(), err
	}
	page, err := html(stepHistory())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<title>chrono history</title>", "<svg", `id="plot-history-1-parse-wall-on-0123456789abcdef"`, "parse, wall on 0123456789abcdef", "1 change point ", "median (ms)", "commit cu"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "http://") && strings.Contains(page, "<script src") {
		t.Error("the page loads something")
	}
	empty := stepHistory()
	det := empty.Measurements[0].Detail.History
	det.Runs, det.Changes, empty.Measurements[0].Metrics[0].Values = nil, nil, nil
	if _, err := html(empty); err == nil || !strings.Contains(err.Error(), "has no runs to plot") {
		t.Errorf("an empty series: %v", err)
	}
	list := stepHistory()
	list.Run.History.View = result.HistoryViewList
	if page, err := html(list); err != nil || strings.Contains(page, "plot-history") || !strings.Contains(page, "<title>chrono report</title>") {
		t.Errorf("a list document: %v, a series plot or not the report's page", err)
	}
}

// TestHistoryHTMLBeside: beside other documents, a history document's
// section of the report page has its series' plots.
func TestHistoryHTMLBeside(t *testing.T) {
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{doc(1), stepHistory()}}, HTML, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `id="plot-2-history-1-parse-wall-on-0123456789abcdef"`) {
		t.Error("the history document's section has no plot of its series")
	}
}
