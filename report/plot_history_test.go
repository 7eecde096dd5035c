package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestWriteHistoryHTML(t *testing.T) {
	hp := HistoryPlot{Title: "parse, wall", Unit: "ns"}
	for i := range 30 {
		v := 1e6
		if i >= 20 {
			v = 1.2e6
		}
		hp.Times = append(hp.Times, time.Unix(int64(i)*3600, 0))
		hp.Medians = append(hp.Medians, v+float64(i%3)*1e3)
		hp.Labels = append(hp.Labels, "c"+string(rune('a'+i%26)))
	}
	hp.Changes = []int{20}
	var b bytes.Buffer
	if err := WriteHistoryHTML(&b, []HistoryPlot{hp}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<svg", "parse, wall", "1 change point ", "median (ms)"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "http://") && strings.Contains(page, "<script src") {
		t.Error("the page loads something")
	}
	if err := WriteHistoryHTML(&b, []HistoryPlot{{Title: "empty"}}); err == nil {
		t.Error("an empty series drew")
	}
}
