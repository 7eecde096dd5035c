package result

import (
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/stats"
)

// Meta is what every document records besides what was measured: the
// program that wrote it, its command line and the environment.
type Meta struct {
	// Tool is the program that writes the document (ToolFromBuild).
	Tool Tool
	// Args is the command line, program name first; nil: not recorded.
	Args []string
	// Environment is the host's environment (env.Capture); nil: not
	// recorded.
	Environment *env.Host
}

// New returns a document of the given kind with m's tool, arguments and
// environment, stamped with the current wall time as its Start. Every
// kind's Document method starts with it.
func New(kind string, m Meta) *Document {
	return &Document{Schema: Schema, Version: Version, Tool: m.Tool, Kind: kind, Args: m.Args,
		Environment: m.Environment, Start: time.Now()}
}

// ToolFromBuild describes the running program as a document's Tool: the
// given name, the main module's version from the build information
// (empty when the binary has none; "(devel)" for a build in the module's
// own checkout), the Go version it was built with and its VCS revision.
func ToolFromBuild(name string) Tool {
	t := Tool{Name: name, GoVersion: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		t.Version = bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				t.Revision = s.Value
			}
		}
	}
	return t
}

// SampleMetric returns the metric of the raw samples xs, in the order
// they were taken (an empty series when xs is nil), with their summary
// and, for each of percentiles (in [0, 100]), that percentile by the
// linear definition (none when xs is empty). resolution is the step of
// one sample in unit (0: unknown).
func SampleMetric(name, unit string, resolution float64, xs []float64, percentiles ...float64) Metric {
	if xs == nil {
		xs = []float64{}
	}
	s := stats.Summarize(xs)
	m := Metric{Name: name, Unit: unit, Values: xs, Resolution: resolution, Summary: &s}
	if len(percentiles) > 0 && len(xs) > 0 {
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		m.Percentiles = make(map[string]float64, len(percentiles))
		for _, p := range percentiles {
			m.Percentiles[stats.PercentileLabel(p)] = stats.Quantile(sorted, p/100, stats.Linear)
		}
		m.PercentileMethod = string(stats.Linear)
	}
	return m
}
