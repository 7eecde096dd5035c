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

func TestWriteHistoryHTML(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHistoryHTML(&b, stepHistory()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<svg", "parse, wall on 0123456789abcdef", "1 change point ", "median (ms)", "commit cu"} {
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
	if err := WriteHistoryHTML(&b, empty); err == nil || !strings.Contains(err.Error(), "has no runs to plot") {
		t.Errorf("an empty series: %v", err)
	}
	list := stepHistory()
	list.Run.History.View = result.HistoryViewList
	if err := WriteHistoryHTML(&b, list); err == nil {
		t.Error("a list document drew")
	}
}
