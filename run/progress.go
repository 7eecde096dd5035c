package run

import (
	"fmt"

	"github.com/chronograph/chronograph/unit"
)

// String describes the progress in one line for a live display: the
// command, the run (or warm-up), the median so far with its confidence
// interval, and the estimated time left, with the digits the runs so far
// support.
func (p Progress) String() string {
	name := p.Command.Name
	if r := []rune(name); len(r) > 30 {
		name = string(r[:27]) + "..."
	}
	what := fmt.Sprintf("run %d/%d", p.Run, p.Target)
	if p.Warmup {
		what = "warm-up"
	}
	line := name + ": " + what
	if p.Median > 0 {
		prec := unit.Precision{Resolution: 1}
		if p.Hi > 0 {
			prec.Uncertainty = float64(max(p.Hi-p.Median, p.Median-p.Lo))
		}
		line += "  median " + unit.Duration(float64(p.Median), prec)
		if p.Hi > 0 {
			line += " [" + unit.Duration(float64(p.Lo), prec) + ", " + unit.Duration(float64(p.Hi), prec) + "]"
		}
	}
	if p.ETA > 0 {
		line += "  ETA " + unit.Duration(float64(p.ETA), unit.Precision{Resolution: 1e9})
	}
	return line
}
