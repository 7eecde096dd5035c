package plot

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/chronograph/chronograph/report/internal/view"
	"github.com/chronograph/chronograph/result"
)

// TestRenderTagsMarks: render classes every path and text of a plot's
// SVG by what it draws, and ties data marks to their plotter and legend
// entries to the plotters they stand for (the layout test in a browser
// reads them; a data mark classed as axes would pass every rule about
// data unseen).
func TestRenderTagsMarks(t *testing.T) {
	p := newPlot("x", "y")
	a, _ := plotter.NewScatter(plotter.XYs{{X: 1, Y: 1}, {X: 2, Y: 2}})
	b, _ := plotter.NewScatter(plotter.XYs{{X: 3, Y: 1}})
	p.Add(a, b, &vlines{x: []float64{2}, style: refLine})
	p.key("a", a)
	p.key("b", b)
	pl, err := render(p, smallW, smallH, "n", "t", "c", "", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(pl.SVG)
	count := func(re string) int { return len(regexp.MustCompile(re).FindAllString(svg, -1)) }
	if n := count(`<path class="p-data" data-p="0" `); n != 2 {
		t.Errorf("%d marks of the first scatter tagged data-p=0, want 2", n)
	}
	if n := count(`<path class="p-data" data-p="1" `); n != 1 {
		t.Errorf("%d marks of the second scatter tagged data-p=1, want 1", n)
	}
	if count(`class="p-grid"`) == 0 {
		t.Error("no grid line classed p-grid")
	}
	if n := count(`<path class="p-ref"`); n != 1 {
		t.Errorf("%d reference lines classed p-ref, want 1", n)
	}
	if count(`class="p-legend" data-key="0" data-for="0"`) == 0 || count(`class="p-legend" data-key="1" data-for="1"`) == 0 {
		t.Error("the legend entries do not name their plotters (data-for)")
	}
	if strings.Count(svg, `<path class="p-axes"`) == 0 {
		t.Error("no axes")
	}
}

// TestDotPlotOfConstants: a metric of one value in each measurement but
// different between them (a Go benchmark's B/op) is drawn as a labelled
// dot per measurement, on an axis in the unit that fits (KiB), never as
// violins without width.
func TestDotPlotOfConstants(t *testing.T) {
	var rows []sampleSet
	for i, v := range []float64{0, 8216} {
		m := &result.Measurement{Name: fmt.Sprintf("m%d", i), Metrics: []result.Metric{{Name: "bytes", Unit: result.UnitBytesPerOp, Values: []float64{v, v, v}}}}
		rows = append(rows, sampleSet{name: m.Name, m: m, metric: &m.Metrics[0], s: view.Options{}.Series(&m.Metrics[0]), color: i})
	}
	if !constant(rows) || integral(rows) {
		t.Fatalf("constant %v, integral %v: want a constant metric of sizes", constant(rows), integral(rows))
	}
	pl, err := dotPlot(rows, "n", "bytes", smallW, view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svg := string(pl.SVG)
	for _, want := range []string{`>0 B/op</text>`, `>8.02 KiB/op</text>`, `>bytes (KiB/op)</text>`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the dot plot lacks %s", want)
		}
	}
	if n := strings.Count(svg, `<path class="p-data"`); n < 4 {
		t.Errorf("%d data marks, want a dot and a ring per measurement", n)
	}
	rows[1].s = view.Options{}.Series(&result.Metric{Name: "bytes", Unit: result.UnitBytesPerOp, Values: []float64{8216, 8224}})
	if constant(rows) {
		t.Error("a measurement of two values called constant")
	}
}
