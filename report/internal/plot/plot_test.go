package plot

import (
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
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
