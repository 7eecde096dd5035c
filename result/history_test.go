package result

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

// historyDoc is a trend document of one series of three runs with a
// change before the third.
func historyDoc() *Document {
	d := New(KindHistory, Meta{Tool: Tool{Name: "chrono", Version: "test"}})
	d.Start = time.Date(2026, 11, 30, 16, 0, 0, 0, time.UTC)
	d.End = d.Start
	yes := true
	d.Run.History = &HistoryRun{View: HistoryViewTrend, Store: "h.db", Metric: "wall",
		Detector: &HistoryDetector{Method: "e-divisive", Permutations: 199, Significance: 0.05, MinSegment: 2, Seed: 1, Confidence: 0.95}}
	d.Measurements = []Measurement{{Name: "gzip", Primary: "wall",
		Metrics: []Metric{{Name: "wall", Unit: UnitNs, Values: []float64{2e6, 2.1e6, 5e6}}},
		Detail: KindDetail{History: &HistoryDetail{Metric: "wall", Unit: UnitNs, Machine: &HistoryMachine{Hash: "2fdda9712b4c1a8a", CPU: "AMD EPYC", GOMAXPROCS: 2},
			Runs: []HistoryPoint{
				{Run: 1, Time: d.Start, Commit: "a", Branch: "main", N: 3, Values: []float64{2e6, 1.9e6, 2.2e6}},
				{Run: 2, Time: d.Start.Add(time.Hour), Commit: "b", Dirty: &yes, N: 1, Values: []float64{2.1e6}, Tags: map[string]string{"ci": "x"}},
				{Run: 3, Time: d.Start.Add(2 * time.Hour), Commit: "c", Machine: "2fdda9712b4c1a8a", N: 100},
			},
			Changes: []HistoryChange{{Index: 2, BeforeCommit: "b", AfterCommit: "c", MedianBefore: 2.05e6, MedianAfter: 5e6, RunsBefore: 2, RunsAfter: 1,
				Ratio: 2.44, Lo: 2.3, Hi: 2.6, P: 0.005, Q: 3.5, Verdict: "regression"}}}}}}
	return d
}

// TestHistoryDocument: a history document reads back as it was written,
// and readers refuse one whose series does not line up with its runs.
func TestHistoryDocument(t *testing.T) {
	d := historyDoc()
	var b bytes.Buffer
	if err := Encode(&b, d); err != nil {
		t.Fatal(err)
	}
	got, err := Unmarshal(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, d) {
		t.Errorf("read back:\n%+v\nwant:\n%+v", got, d)
	}
	if c := d.Measurements[0].Detail.History.Newest(); c == nil || c.Index != 2 {
		t.Errorf("newest change %+v", c)
	}
	if (&HistoryDetail{}).Newest() != nil {
		t.Error("a series without changes has a newest change")
	}
	empty := New(KindHistory, Meta{Tool: Tool{Name: "chrono"}})
	empty.Run.History = &HistoryRun{View: HistoryViewList, Store: "h.db"}
	b.Reset()
	Encode(&b, empty)
	if _, err := Unmarshal(b.Bytes()); err != nil {
		t.Errorf("the list of an empty store: %v", err)
	}
	for _, tt := range []struct {
		name  string
		spoil func(d *Document)
		want  string
	}{
		{"a run without its median", func(d *Document) { d.Measurements[0].Metrics[0].Values = d.Measurements[0].Metrics[0].Values[:2] },
			`metric "wall" has 2 values for 3 runs (one median per run)`},
		{"a change at the first run", func(d *Document) { d.Measurements[0].Detail.History.Changes[0].Index = 0 }, "a change point at run index 0, outside the series of 3 runs"},
		{"a change beyond the runs", func(d *Document) { d.Measurements[0].Detail.History.Changes[0].Index = 3 }, "a change point at run index 3"},
		{"no detail", func(d *Document) { d.Measurements[0].Detail.History = nil }, `measurement "gzip" of the history document has no "detail.history"`},
		{"no primary metric", func(d *Document) { d.Measurements[0].Primary = "" }, "has no primary metric"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := historyDoc()
			tt.spoil(d)
			var b bytes.Buffer
			Encode(&b, d)
			_, err := Unmarshal(b.Bytes())
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "result: ") {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestHistoryMachineString(t *testing.T) {
	for _, tt := range []struct {
		m    HistoryMachine
		want string
	}{
		{HistoryMachine{}, "unknown machine (no environment recorded)"},
		{HistoryMachine{Hash: "ab", CPU: "X", Go: "go1.26", GOMAXPROCS: 2}, "ab (CPU X, Go go1.26, GOMAXPROCS 2)"},
		{HistoryMachine{Hash: "ab", Kernel: "6.1", Speed: "fixed"}, "ab (kernel 6.1, speed fixed)"},
	} {
		if got := tt.m.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.m, got, tt.want)
		}
	}
}
