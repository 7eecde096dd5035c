package result

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/warn"
)

// documentV1 is a document of schema version 1: warnings were plain
// strings and kind-specific figures an untyped "details" object.
type documentV1 struct {
	Schema       string          `json:"schema"`
	Version      int             `json:"version"`
	Tool         Tool            `json:"tool"`
	Kind         string          `json:"kind"`
	Args         []string        `json:"args,omitempty"`
	Start        time.Time       `json:"start"`
	End          time.Time       `json:"end"`
	Incomplete   bool            `json:"incomplete,omitempty"`
	Environment  *env.Host       `json:"environment,omitempty"`
	Measurements []measurementV1 `json:"measurements"`
	Comparisons  []Comparison    `json:"comparisons,omitempty"`
	Warnings     []string        `json:"warnings,omitempty"`
}

type measurementV1 struct {
	Name       string            `json:"name"`
	Parameters map[string]string `json:"parameters,omitempty"`
	Primary    string            `json:"primary"`
	Metrics    []metricV1        `json:"metrics"`
	Details    map[string]any    `json:"details,omitempty"`
	Warnings   []string          `json:"warnings,omitempty"`
	Incomplete bool              `json:"incomplete,omitempty"`
}

type metricV1 struct {
	Name             string             `json:"name"`
	Unit             string             `json:"unit"`
	Values           []float64          `json:"values"`
	Summary          *stats.Summary     `json:"summary,omitempty"`
	Percentiles      map[string]float64 `json:"percentiles,omitempty"`
	PercentileMethod string             `json:"percentile_method,omitempty"`
}

// v1Warnings turns version 1's warning texts into warnings with the code
// "v1" (their codes were not recorded).
func v1Warnings(ws []string) []warn.Warning {
	var out []warn.Warning
	for _, w := range ws {
		out = append(out, warn.Warning{Code: "v1", Severity: warn.Warn, Message: w})
	}
	return out
}

// v1Units maps version 1's units to today's.
var v1Units = map[string]string{"allocs/op": UnitCountPerOp, "B/op": UnitBytesPerOp}

// upgrade converts a version 1 document: the metrics and comparisons keep
// their meaning; the untyped details of the kinds that have an upgrade
// (command, counters, numbers) are mapped onto their typed details, and
// those of other kinds are kept readable as a note on their measurement.
func (o *documentV1) upgrade() *Document {
	d := &Document{Schema: o.Schema, Version: Version, Tool: o.Tool, Kind: o.Kind, Args: o.Args,
		Start: o.Start, End: o.End, Incomplete: o.Incomplete, Environment: o.Environment,
		Comparisons: o.Comparisons, Warnings: v1Warnings(o.Warnings)}
	for _, m := range o.Measurements {
		nm := Measurement{Name: m.Name, Parameters: m.Parameters, Primary: m.Primary,
			Warnings: v1Warnings(m.Warnings), Incomplete: m.Incomplete}
		for _, met := range m.Metrics {
			u := met.Unit
			if x, ok := v1Units[u]; ok {
				u = x
			}
			nm.Metrics = append(nm.Metrics, Metric{Name: met.Name, Unit: u, Values: met.Values, Summary: met.Summary,
				Percentiles: met.Percentiles, PercentileMethod: met.PercentileMethod})
		}
		d.Measurements = append(d.Measurements, nm)
	}
	switch d.Kind {
	case KindCommand:
		upgradeCommandV1(o, d)
	case KindCounters:
		upgradeCountersV1(o, d)
	case KindNumbers:
		upgradeNumbers(o, d)
	default:
		for i, om := range o.Measurements {
			if len(om.Details) > 0 {
				d.Measurements[i].Warnings = append(d.Measurements[i].Warnings, warn.NewNote("v1-details",
					"version 1 details, as written: "+plainDetails(om.Details),
					"measure again with this chrono for typed details"))
			}
		}
	}
	return d
}

// upgradeNumbers maps what version 1 numbers documents (chrono stats) kept
// in details into the typed NumbersRun and NumbersDetail, and the input's
// quantum into the metric's resolution.
func upgradeNumbers(o *documentV1, d *Document) {
	if len(d.Measurements) != 1 || len(o.Measurements) != 1 {
		return
	}
	m := &d.Measurements[0]
	details := o.Measurements[0].Details
	met := m.Metric(m.Primary)
	if met == nil {
		return
	}
	num := func(k string) float64 { f, _ := details[k].(float64); return f }
	met.Resolution = num("input_quantum")
	run := &NumbersRun{Source: m.Name, Lines: int(num("lines")), SkippedTokens: int(num("skipped_tokens")),
		PercentileMethod: met.PercentileMethod, Confidence: stats.Confidence}
	for k := range met.Percentiles {
		if p, err := strconv.ParseFloat(strings.TrimPrefix(k, "p"), 64); err == nil {
			run.Percentiles = append(run.Percentiles, p)
		}
	}
	slices.Sort(run.Percentiles)
	nd := &NumbersDetail{ModifiedZ: ModifiedZOutliers{Threshold: num("modified_z_threshold"), Outliers: []int{}}}
	if ci, ok := details["median_ci"].(map[string]any); ok {
		iv := stats.Interval{Method: stats.MethodOrderStatistic}
		iv.Lo, _ = ci["lo"].(float64)
		iv.Hi, _ = ci["hi"].(float64)
		iv.Confidence, _ = ci["confidence"].(float64)
		iv.Coverage, _ = ci["coverage"].(float64)
		if iv.Confidence > 0 {
			run.Confidence = iv.Confidence
		}
		nd.MedianCI = &iv
	}
	if zs, ok := details["modified_z_outliers"].([]any); ok {
		for _, z := range zs {
			if i, ok := z.(float64); ok {
				nd.ModifiedZ.Outliers = append(nd.ModifiedZ.Outliers, int(i))
			}
		}
	}
	d.Run.Numbers = run
	m.Detail.Numbers = nd
}

// plainDetails lists the numbers and strings of an untyped details map
// (one level of nested maps flattened as key.sub), sorted by key, exactly
// as written.
func plainDetails(m map[string]any) string {
	var parts []string
	var add func(prefix string, m map[string]any, depth int)
	add = func(prefix string, m map[string]any, depth int) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			switch x := m[k].(type) {
			case float64:
				parts = append(parts, prefix+k+" "+strconv.FormatFloat(x, 'f', -1, 64))
			case string:
				parts = append(parts, prefix+k+" "+x)
			case bool:
				parts = append(parts, prefix+k+" "+strconv.FormatBool(x))
			case map[string]any:
				if depth == 0 {
					add(prefix+k+".", x, 1)
				}
			}
		}
	}
	add("", m, 0)
	return strings.Join(parts, ", ")
}
