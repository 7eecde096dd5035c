package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/unit"
	"github.com/chronograph/chronograph/warn"
)

// hyperfineExport is hyperfine's JSON export (--export-json), as 1.15
// to 1.20 write it: times in seconds.
type hyperfineExport struct {
	Results []struct {
		Command    string            `json:"command"`
		Mean       *float64          `json:"mean"`
		User       *float64          `json:"user"`
		System     *float64          `json:"system"`
		Times      []float64         `json:"times"`
		ExitCodes  []*int            `json:"exit_codes"`
		Memory     []float64         `json:"memory_usage_byte"`
		Parameters map[string]string `json:"parameters"`
	} `json:"results"`
}

// ReadHyperfine reads a hyperfine JSON export (--export-json) named name
// into a command document: one measurement per result, named after its
// command (with its parameters when two commands read the same), whose
// metrics are "wall" (ns, primary) from "times", "exit_code" (1) from
// "exit_codes" (a run ended by a signal, null there, is -1) and
// "max_rss" (bytes) from "memory_usage_byte" when present. hyperfine
// exports the user and system times as means only, not per run, so they
// are no metric: a note on the measurement gives them. The document has
// no environment (hyperfine records none) and its tool is hyperfine.
func ReadHyperfine(data []byte, name string) (*result.Document, error) {
	var x hyperfineExport
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte("\uFEFF"))))
	if err := dec.Decode(&x); err != nil {
		return nil, fmt.Errorf("report: %s is not a hyperfine JSON export: %w", name, err)
	}
	if len(x.Results) == 0 {
		return nil, fmt.Errorf(`report: %s has no "results": pass a file written by hyperfine --export-json`, name)
	}
	d := &result.Document{Schema: result.Schema, Version: result.Version, Kind: result.KindCommand, Tool: result.Tool{Name: "hyperfine"}}
	seen := map[string]int{}
	for _, r := range x.Results {
		seen[r.Command]++
	}
	for i, r := range x.Results {
		if len(r.Times) == 0 {
			return nil, fmt.Errorf(`report: %s: result %d (%q) has no "times": hyperfine writes them with --export-json; an older export cannot be read`, name, i+1, r.Command)
		}
		mname := r.Command
		if seen[r.Command] > 1 && len(r.Parameters) > 0 {
			var ps []string
			for _, k := range slices.Sorted(maps.Keys(r.Parameters)) {
				ps = append(ps, k+"="+r.Parameters[k])
			}
			mname += " (" + strings.Join(ps, ", ") + ")"
		}
		if mname == "" {
			mname = fmt.Sprintf("command %d", i+1)
		}
		wall := result.Metric{Name: "wall", Unit: result.UnitNs, Resolution: 1}
		for _, t := range r.Times {
			wall.Values = append(wall.Values, math.Round(t*1e9))
		}
		m := result.Measurement{Name: mname, Primary: "wall", Parameters: r.Parameters, Metrics: []result.Metric{wall}}
		if len(r.ExitCodes) == len(r.Times) {
			ec := result.Metric{Name: "exit_code", Unit: result.UnitOne, Resolution: 1}
			for _, c := range r.ExitCodes {
				v := -1.0
				if c != nil {
					v = float64(*c)
				}
				ec.Values = append(ec.Values, v)
			}
			m.Metrics = append(m.Metrics, ec)
		}
		if len(r.Memory) == len(r.Times) {
			m.Metrics = append(m.Metrics, result.Metric{Name: "max_rss", Unit: result.UnitBytes, Resolution: 1, Values: r.Memory})
		}
		if r.User != nil && r.System != nil {
			p := unit.Precision{Resolution: 1000}
			m.Warnings = append(m.Warnings, warn.NewNote("hyperfine-cpu-means",
				fmt.Sprintf("hyperfine exported the CPU time as means only: user %s, system %s per run", unit.Duration(*r.User*1e9, p), unit.Duration(*r.System*1e9, p)),
				"measure with chrono run for per-run user and system times"))
		}
		d.Measurements = append(d.Measurements, m)
	}
	return d, nil
}

// InputKind says what a file given to chrono report holds.
type InputKind int

// The inputs chrono report reads.
const (
	InputUnknown     InputKind = iota
	InputDocument              // a chronograph result document
	InputHyperfine             // a hyperfine JSON export
	InputTraceEvents           // a trace-event JSON file (a tracer dump)
	InputGoBench               // Go benchmark output
)

// DetectInput tells what data holds by its shape: a JSON object with
// "schema" (a result document), "results" (a hyperfine export) or
// "traceEvents" (a trace dump), or text with Go benchmark lines.
func DetectInput(data []byte) InputKind {
	t := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\uFEFF")), " \t\r\n")
	if len(t) > 0 && t[0] == '{' {
		var head map[string]json.RawMessage
		if json.Unmarshal(t, &head) != nil {
			return InputDocument // let the document reader say what is wrong
		}
		switch {
		case head["schema"] != nil:
			return InputDocument
		case head["traceEvents"] != nil:
			return InputTraceEvents
		case head["results"] != nil:
			return InputHyperfine
		}
		return InputDocument
	}
	if LooksLikeGoBench(data) {
		return InputGoBench
	}
	return InputUnknown
}

// ReadInput reads a result document, a hyperfine JSON export or Go
// benchmark output from data (of file name) as a document. Trace-event
// files are not documents: it refuses them (the caller draws them).
func ReadInput(data []byte, name string) (*result.Document, error) {
	switch DetectInput(data) {
	case InputHyperfine:
		return ReadHyperfine(data, name)
	case InputGoBench:
		return ReadGoBench(bytes.NewReader(data), name)
	case InputTraceEvents:
		return nil, fmt.Errorf("report: %s is a trace dump, not a result document: chrono trace summarizes it, and chrono report --html draws its timeline", name)
	case InputUnknown:
		d, err := result.Unmarshal(data)
		if err != nil && !bytes.HasPrefix(bytes.TrimSpace(data), []byte("[")) && len(bytes.TrimSpace(data)) > 0 {
			return nil, fmt.Errorf("%w; chrono report reads result documents, hyperfine JSON exports (--export-json) and Go benchmark output (go test -bench)", err)
		}
		return d, err
	}
	return result.Unmarshal(data)
}
