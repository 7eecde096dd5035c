package main

import (
	"fmt"
	"strings"

	"github.com/chronograph/chronograph/bench"
)

// perCPU returns " cpu=N:median,... differ" for the result's per-CPU
// medians, or "" when it has none.
func perCPU(r *bench.Benchmark) string {
	if len(r.Placement.PerCPU) == 0 {
		return ""
	}
	var parts []string
	for _, c := range r.Placement.PerCPU {
		parts = append(parts, fmt.Sprintf("%d:%.1f", c.CPU, c.Median))
	}
	s := " cpu=" + strings.Join(parts, ",")
	if r.Placement.CPUsDiffer {
		s += " differ"
	}
	return s
}
