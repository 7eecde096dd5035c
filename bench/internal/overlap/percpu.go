package main

import "github.com/chronograph/chronograph/bench"

// perCPU returns " cpu=median,..." for the result's per-CPU medians, or "".
func perCPU(r *bench.Result) string { return "" }
