package result

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// HyperfineExport is the JSON export of hyperfine 1.x (hyperfine
// --export-json, and chrono run --export-hyperfine-json): one result per
// command, times in seconds. The fields are hyperfine 1.20's, in its
// order.
type HyperfineExport struct {
	Results []HyperfineResult `json:"results"`
}

// HyperfineResult is one command of a hyperfine export.
type HyperfineResult struct {
	// Command is the command's name: its -n name, else its command line
	// after parameter substitution.
	Command string `json:"command"`
	// Mean, Stddev (sample standard deviation, n-1; null with one run),
	// Median, Min and Max summarize Times, in seconds; User and System
	// are the means of the runs' user and system CPU times in seconds.
	Mean   Float  `json:"mean"`
	Stddev *Float `json:"stddev"`
	Median Float  `json:"median"`
	User   Float  `json:"user"`
	System Float  `json:"system"`
	Min    Float  `json:"min"`
	Max    Float  `json:"max"`
	// Times holds every run's wall time in seconds, in the order taken
	// (the shell's mean start-up subtracted when run through a shell, not
	// with -N; the export does not say which).
	Times []Float `json:"times"`
	// MemoryUsageByte holds every run's peak RSS in bytes (hyperfine
	// 1.17 and later); absent when not measured.
	MemoryUsageByte []uint64 `json:"memory_usage_byte,omitempty"`
	// ExitCodes holds every run's exit code; a run killed by signal N has
	// 128+N; null when unknown.
	ExitCodes []*int `json:"exit_codes"`
	// Parameters holds the parameter values of the command (-P, -L).
	Parameters map[string]string `json:"parameters,omitempty"`
}

// Float is a number of hyperfine's export: JSON writes it as hyperfine
// (serde) does, with a decimal point even when whole ("2.0", not "2"), so
// that readers that tell integers from floats see hyperfine's types.
type Float float64

// MarshalJSON writes f as encoding/json writes a float64, with ".0"
// added to a whole number.
func (f Float) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(float64(f))
	if err == nil && !bytes.ContainsAny(b, ".eE") {
		b = append(b, ".0"...)
	}
	return b, err
}

// isHyperfine reports whether data looks like a hyperfine export: an
// object with a "results" array and no "schema".
func isHyperfine(data []byte) bool {
	var head struct {
		Results json.RawMessage `json:"results"`
	}
	if json.Unmarshal(data, &head) != nil {
		return false
	}
	return bytes.HasPrefix(bytes.TrimLeft(head.Results, " \t\r\n"), []byte("["))
}

// fromHyperfine converts a hyperfine JSON export into a command document,
// so that chrono report reads it and compares it with chrono's: one
// measurement per result with its wall times ("wall", ns, as hyperfine
// measured them), exit codes and peak RSS. hyperfine keeps only the means
// of the user and system times, not each run's: a note gives them, and
// the document has no "user"/"sys" metrics. The document has no
// environment, which hyperfine does not record.
func fromHyperfine(data []byte) (*Document, error) {
	var h HyperfineExport
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("result: malformed hyperfine export: %w", jsonError(err))
	}
	if len(h.Results) == 0 {
		return nil, errors.New("result: the hyperfine export has no results: pass a file written by hyperfine --export-json after a benchmark")
	}
	d := &Document{Schema: Schema, Version: Version, Tool: Tool{Name: "hyperfine"}, Kind: KindCommand}
	d.Run.Command = &CommandRun{Order: "sequential"}
	d.Warnings = append(d.Warnings, warn.NewNote("hyperfine-export", "read from a hyperfine JSON export: its wall times are hyperfine's, with the shell's mean start-up subtracted when hyperfine ran the commands through a shell and nothing subtracted with -N (the export does not record which), with no environment and no per-run CPU times",
		"compare it with a chrono run of the same commands, chrono's figures measured on this machine"))
	seen := map[string]int{}
	for _, r := range h.Results {
		seen[r.Command]++
	}
	for i, r := range h.Results {
		if r.Command == "" {
			return nil, fmt.Errorf("result: hyperfine result %d has no command", i+1)
		}
		if len(r.Times) == 0 {
			return nil, fmt.Errorf("result: hyperfine result %q has no times (export written by a hyperfine older than 1.0?)", r.Command)
		}
		name := r.Command
		if seen[name] > 1 && len(r.Parameters) > 0 {
			// hyperfine names two commands alike when a parameter is not
			// in their command line; its text adds the values, as here.
			var parts []string
			for _, k := range slices.Sorted(maps.Keys(r.Parameters)) {
				parts = append(parts, k+" = "+r.Parameters[k])
			}
			name += " (" + strings.Join(parts, ", ") + ")"
		}
		m := Measurement{Name: name, Parameters: r.Parameters, Primary: "wall"}
		times := make([]float64, len(r.Times))
		for j, v := range r.Times {
			times[j] = float64(v)
		}
		m.Metrics = append(m.Metrics, hfMetric("wall", UnitNs, 1, times, 1e9))
		if len(r.MemoryUsageByte) == len(r.Times) {
			xs := make([]float64, len(r.MemoryUsageByte))
			for j, b := range r.MemoryUsageByte {
				xs[j] = float64(b)
			}
			m.Metrics = append(m.Metrics, hfMetric("max_rss", UnitBytes, 0, xs, 1))
		}
		if len(r.ExitCodes) == len(r.Times) && !slices.Contains(r.ExitCodes, nil) {
			xs := make([]float64, len(r.ExitCodes))
			for j, c := range r.ExitCodes {
				xs[j] = float64(*c)
			}
			ec := hfMetric("exit_code", UnitOne, 1, xs, 1)
			ec.Summary = nil // codes, not a quantity
			m.Metrics = append(m.Metrics, ec)
		}
		m.Detail.Command = &CommandDetail{CommandLine: r.Command, Complete: true}
		m.Warnings = append(m.Warnings, warn.NewNote("hyperfine-cpu-means", fmt.Sprintf("hyperfine recorded only the means of the CPU times: user %s, system %s",
			unit.Duration(float64(r.User)*1e9, unit.Precision{}), unit.Duration(float64(r.System)*1e9, unit.Precision{})), "time with chrono run for each run's CPU times"))
		d.Measurements = append(d.Measurements, m)
	}
	return d, nil
}

// hfMetric is a metric of hyperfine's values, scaled by scale (seconds to
// ns), with its summary.
func hfMetric(name, u string, resolution float64, vs []float64, scale float64) Metric {
	xs := make([]float64, len(vs))
	for i, v := range vs {
		xs[i] = v * scale
	}
	s := stats.Summarize(xs)
	return Metric{Name: name, Unit: u, Values: xs, Resolution: resolution, Summary: &s}
}
