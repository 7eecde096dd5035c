package main

import (
	"io"
	"testing"
)

// BenchmarkRunScanDebug1000 is a whole `chrono run --debug-mode --runs 2
// -P x 1 1000 'sleep 0.001'`: a scan of 1,000 values that runs nothing,
// so that what it measures is chrono's own bookkeeping, analysis,
// comparisons and rendering (issue 20: it was quadratic in the values).
func BenchmarkRunScanDebug1000(b *testing.B) {
	args := []string{"run", "--debug-mode", "--runs", "2", "-P", "x", "1", "1000", "sleep 0.001"}
	for b.Loop() {
		if code := execute(args, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
