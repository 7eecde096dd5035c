package run

import (
	"strings"
	"testing"

	"github.com/chronograph/chronograph/stats"
)

func TestRatioCITooFewRuns(t *testing.T) {
	c := Comparison{CI: stats.Interval{Lo: 1.2, Hi: 1.28}, MannWhitney: stats.MannWhitneyResult{NA: 2, NB: 2}}
	if got := ratioCI(c); !strings.Contains(got, "no CI") {
		t.Errorf("2 runs each: %q, want no interval", got)
	}
	c.MannWhitney.NA, c.MannWhitney.NB = 20, 20
	if got := ratioCI(c); got != "[1.20, 1.28]" {
		t.Errorf("20 runs each: %q, want [1.20, 1.28]", got)
	}
}
