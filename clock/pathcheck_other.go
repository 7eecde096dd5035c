//go:build !linux

package clock

// checkPath: no vDSO outside Linux, nothing to check.
func checkPath(src Source, _ float64, _ string, _ func() float64) (path, basis string) {
	p := src.Props()
	return p.Path, p.PathBasis
}

func syscallCost(Source, ProbeOptions) float64 { return 0 }
