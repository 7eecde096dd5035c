package result

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/clock"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/internal/golden"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/warn"
)

// seedPatterns find the committed JSON files of the module: result
// documents of every kind and version (testdata/documents holds one of
// each, written by TestSeedDocuments), and other JSON that must be
// rejected cleanly. The report package's fuzz target uses them too.
var seedPatterns = []string{"../docs/examples/*.json", "../*/testdata/*.json", "../*/testdata/*/*.json", "../*/*/testdata/*.json"}

// seedDocuments returns the files of seedPatterns.
func seedDocuments(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, pattern := range seedPatterns {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			seeds = append(seeds, data)
		}
	}
	if len(seeds) < 2*len(kindDocuments(t)) {
		t.Fatalf("found %d seed documents: run the test from the package directory", len(seeds))
	}
	return seeds
}

// TestSeedDocuments keeps testdata/documents, one document of every kind
// in both versions, up to date (-update rewrites them).
func TestSeedDocuments(t *testing.T) {
	for _, d := range kindDocuments(t) {
		var b bytes.Buffer
		if err := Encode(&b, d); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "testdata/documents/"+d.Kind+"-v2.json", b.Bytes())
		if _, err := Unmarshal(b.Bytes()); err != nil {
			t.Errorf("%s: %v", d.Kind, err)
		}
		// The same document as version 1 wrote it: string warnings and
		// untyped details.
		b.Reset()
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		if err := enc.Encode(asV1(d)); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "testdata/documents/"+d.Kind+"-v1.json", b.Bytes())
		if _, err := Unmarshal(b.Bytes()); err != nil {
			t.Errorf("%s version 1: %v", d.Kind, err)
		}
	}
}

// kindDocuments builds one document of every kind with every part a
// document can have: an environment, sampled and binned metrics with
// summaries and percentiles, parameters, comparisons, warnings and the
// kind's typed details.
func kindDocuments(t testing.TB) []*Document {
	var host env.Host
	if data, err := os.ReadFile("../env/testdata/kvm.json"); err == nil {
		if err := json.Unmarshal(data, &host); err != nil {
			t.Fatalf("env/testdata/kvm.json: %v", err)
		}
	}
	start := time.Date(2025, 3, 4, 5, 6, 7, 891011121, time.FixedZone("CET", 3600))
	values := []float64{1e-9, 2.5, 3, 3, 4, 1e308, 5e-324}
	sum := stats.Summarize(values)
	sd := 1.5
	hist := &Histogram{Bounds: []float64{0, 1, 2.5, 1e9}, Counts: []int64{3, 0, 7}, Underflow: 1, Overflow: 2,
		Min: -1, Max: 2e9, Mean: 12.5, StdDev: &sd}
	var docs []*Document
	for _, kind := range []string{KindCommand, KindCounters, KindFunction, KindSleep, KindLatency, KindClocks, KindNumbers, KindEnv, KindTrace, KindScope} {
		wallUnit := UnitNs // the schema's unit of wall in every kind that has one but function
		if kind == KindFunction {
			wallUnit = UnitNsPerOp
		}
		d := New(kind, Meta{Tool: Tool{Name: "chrono", Version: "test", GoVersion: "go1.26", Revision: "abc"}})
		d.Start, d.End = start, start.Add(1500*time.Millisecond)
		d.Args = []string{"run", "-N", "sleep 0.01"}
		d.Environment = &host
		d.Warnings = []warn.Warning{warn.New("too-few", "only 3 runs", "take at least 10")}
		m := Measurement{
			Name: "sleep 0.01", Parameters: map[string]string{"n": "1"}, Primary: "wall",
			Metrics: []Metric{
				{Name: "wall", Unit: wallUnit, Values: values, Resolution: 1, Summary: &sum,
					Percentiles: map[string]float64{"p50": 3, "p99.9": 1e308}, PercentileMethod: "linear"},
				{Name: "user", Unit: UnitNs, Values: []float64{0, 0, 1, 1, 2, 2, 3}},
				{Name: "latency", Unit: UnitNs, Histogram: hist},
			},
			Warnings: []warn.Warning{warn.NewNote("outliers", "2 outliers", "look at the samples")},
		}
		m2 := m
		m2.Name, m2.Parameters, m2.Incomplete = "sleep 0.02", map[string]string{"n": "2"}, true
		d.Measurements = []Measurement{m, m2}
		d.Comparisons = []Comparison{{A: "sleep 0.02", B: "sleep 0.01", Metric: "wall", Statistic: "median",
			Ratio: 2.01, Lo: 1.9, Hi: 2.1, Confidence: 0.95, Test: "mann-whitney-u", P: 0.0002, Verdict: "faster"}}
		switch kind {
		case KindCommand:
			d.Run.Command = &CommandRun{}
			d.Measurements[0].Detail.Command = &CommandDetail{}
		case KindCounters:
			d.Run.Counters = &CountersRun{}
			d.Measurements[0].Detail.Counters = &CountersDetail{}
		case KindFunction:
			d.Run.Function = &FunctionRun{Compare: &FunctionCompare{Cases: []string{"sleep 0.01", "sleep 0.02"},
				Iterations: 1000, Order: [][]int{{0, 1}, {1, 0}}}}
			loop := 0.25
			d.Measurements[0].Detail.Function = &FunctionDetail{Mode: FunctionBatch, Benchmark: "Sleep",
				Clock:               FunctionClock{Name: "tsc", TickNs: 0.3, ReadNs: 9},
				Calibration:         &FunctionCalibration{TargetNs: 1e6, GoalNs: 1e6, Iterations: 1000, JitterMax: 0.1, Trials: []FunctionTrial{{1, 50}, {10, 400}}},
				Overhead:            &FunctionOverhead{LoopNsPerOp: 0.3, LoopNsPerOpHigh: 0.4, CPUReadNs: &loop},
				Placement:           &FunctionPlacement{Allowed: 2, BlockSizes: []int{4, 3}, BlockCPUs: []int{0, 1}, PerCPU: []stats.CPUMedian{{CPU: 0, Samples: 4, Blocks: 1, Median: 3}}},
				MedianCI:            &stats.Interval{Lo: 2.5, Hi: 4, Confidence: 0.95, Method: stats.MethodOrderStatistic, Coverage: 0.96},
				NetNsPerOp:          &loop,
				Counters:            []FunctionCounter{{Event: "cycles", Unit: "count", Samples: 7, PartialPerOp: []float64{1}, PartialSamples: []int{2}}},
				CountersUnavailable: []FunctionCounterUnavailable{{Event: "instructions", Reason: "no PMU"}},
				Latency:             &FunctionLatencyMode{Ops: 7, OpsPerSample: 7, SignificantDigits: 3},
				Parallel:            &FunctionParallelMode{Workers: 2, Iterations: 100}}
		case KindSleep:
			d.Run.Sleep = &SleepRun{ReadCostNs: 24.5}
			d.Measurements[0].Detail.Sleep = &SleepDetail{}
		case KindLatency:
			d.Run.Latency = &LatencyRun{}
			d.Measurements[0].Detail.Latency = &LatencyDetail{}
		case KindClocks:
			d.Run.Clocks = &clock.Host{}
			// A coarse clock whose tick was uncertain (too few changes).
			d.Measurements[0].Detail.Clock = &clock.Measured{Steps: &clock.Steps{Reads: 812345, Changes: 3, TickChanges: 1, TickBasis: clock.TickUncertain}}
		case KindNumbers:
			d.Run.Numbers = &NumbersRun{}
			d.Measurements[0].Detail.Numbers = &NumbersDetail{}
		case KindTrace:
			d.Run.Trace = &TraceRun{}
			d.Measurements[0].Detail.Trace = &TraceDetail{}
		case KindScope:
			d.Measurements[0].Detail.Scope = &ScopeDetail{}
		}
		docs = append(docs, d)
	}
	return docs
}

// asV1 is d as schema version 1 held it.
func asV1(d *Document) *documentV1 {
	o := &documentV1{Schema: d.Schema, Version: 1, Tool: d.Tool, Kind: d.Kind, Args: d.Args, Start: d.Start,
		End: d.End, Incomplete: d.Incomplete, Environment: d.Environment, Comparisons: d.Comparisons}
	for _, w := range d.Warnings {
		o.Warnings = append(o.Warnings, w.Message)
	}
	for _, m := range d.Measurements {
		om := measurementV1{Name: m.Name, Parameters: m.Parameters, Primary: m.Primary,
			Details: map[string]any{"iterations": 1000.0, "clock": "tsc", "cpus": []any{0.0, 1.0}}, Incomplete: m.Incomplete}
		for _, w := range m.Warnings {
			om.Warnings = append(om.Warnings, w.Message)
		}
		for _, met := range m.Metrics {
			if met.Histogram != nil {
				continue // version 1 had no binned metrics
			}
			u := met.Unit
			if u == UnitCountPerOp {
				u = "allocs/op"
			}
			om.Metrics = append(om.Metrics, metricV1{Name: met.Name, Unit: u, Values: met.Values, Summary: met.Summary,
				Percentiles: met.Percentiles, PercentileMethod: met.PercentileMethod})
		}
		o.Measurements = append(o.Measurements, om)
	}
	return o
}

// maxErrorLen bounds the text of any error of Unmarshal: fixed wording
// plus short excerpts of the input (excerpt.Quote, excerpt.Clip).
const maxErrorLen = 1000

// FuzzUnmarshal feeds Unmarshal and Decode with documents of every kind
// and version, truncated and mutated. Properties: no panic; Unmarshal and
// Decode agree; an error is one line, names the package and quotes at
// most a short piece of the input; an accepted document is valid
// (validate), encodes, and its encoding decodes to a document that
// encodes to the same bytes and decodes to the same value (the first
// decoding may drop what the encoder leaves out: empty lists, a null
// standard deviation of one sample); Redact keeps it readable.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range seedDocuments(f) {
		f.Add(s)
		f.Add(s[:len(s)/2]) // cut off, as by an interrupted copy
	}
	f.Add([]byte(`{"schema":"chronograph.result","version":2,"start":"` + strings.Repeat("9", 300) + `"}`))
	f.Add([]byte(`{"schema":"chronograph.result","version":1` + strings.Repeat("0", 300) + `}`))
	f.Add([]byte(`[{"schema":"chronograph.result","version":2}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Unmarshal(data)
		d2, err2 := Decode(bytes.NewReader(data))
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("Unmarshal and Decode disagree: %v / %v", err, err2)
		}
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "result: ") || strings.ContainsAny(msg, "\n\r") || len(msg) > maxErrorLen {
				t.Fatalf("error is not one short line starting with \"result: \" (%d bytes): %.2000s", len(msg), msg)
			}
			return
		}
		if !deepEqualNaN(reflect.ValueOf(d), reflect.ValueOf(d2)) {
			t.Fatalf("Unmarshal and Decode give different documents")
		}
		if d.Version != Version || d.Schema != Schema {
			t.Fatalf("decoded document has schema %q version %d, want %q %d", d.Schema, d.Version, Schema, Version)
		}
		if err := d.validate(); err != nil {
			t.Fatalf("accepted document does not validate: %v", err)
		}
		var b1 bytes.Buffer
		if err := Encode(&b1, d); err != nil {
			t.Fatalf("accepted document does not encode: %v", err)
		}
		e1, err := Unmarshal(b1.Bytes())
		if err != nil {
			t.Fatalf("encoded document is rejected: %v\n%s", err, b1.Bytes())
		}
		if e1.Kind != d.Kind || len(e1.Measurements) != len(d.Measurements) || len(e1.Comparisons) != len(d.Comparisons) {
			t.Fatalf("round trip changed the kind or the number of measurements or comparisons")
		}
		var b2 bytes.Buffer
		if err := Encode(&b2, e1); err != nil {
			t.Fatalf("re-decoded document does not encode: %v", err)
		}
		if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Fatalf("encoding is not stable:\n%s\n---\n%s", b1.Bytes(), b2.Bytes())
		}
		e2, err := Unmarshal(b2.Bytes())
		if err != nil || !deepEqualNaN(reflect.ValueOf(e1), reflect.ValueOf(e2)) {
			t.Fatalf("decoding the same bytes twice gives different documents (%v)", err)
		}
		Redact(e2)
		var b3 bytes.Buffer
		if err := Encode(&b3, e2); err != nil {
			t.Fatalf("redacted document does not encode: %v", err)
		}
		if _, err := Unmarshal(b3.Bytes()); err != nil {
			t.Fatalf("redacted document is rejected: %v", err)
		}
	})
}

// TestUnmarshalErrorsAreShort: inputs whose error used to quote a whole
// token (a 1 MB number, a 1 MB timestamp, a 1 MB measurement name) get
// one short line.
func TestUnmarshalErrorsAreShort(t *testing.T) {
	big := strings.Repeat("7", 1<<20)
	for name, in := range map[string]string{
		"version number": `{"schema":"chronograph.result","version":` + big + `}`,
		"start":          `{"schema":"chronograph.result","version":2,"start":"` + big + `"}`,
		"values":         `{"schema":"chronograph.result","version":2,"measurements":[{"name":"a","metrics":[{"name":"w","values":[` + big + `e9999]}]}]}`,
		"name":           `{"schema":"chronograph.result","version":2,"measurements":[{"name":"` + big + `","metrics":[{"values":[]}]}]}`,
		"primary":        `{"schema":"chronograph.result","version":2,"measurements":[{"name":"a","primary":"` + big + "\\n" + `","metrics":[]}]}`,
		"syntax":         `{"schema":"chronograph.result","version":2,"measurements":[` + big + `x]}`,
	} {
		_, err := Unmarshal([]byte(in))
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if msg := err.Error(); len(msg) > 300 || strings.Contains(msg, "\n") {
			t.Errorf("%s: error of %d bytes: %.400q", name, len(msg), msg)
		}
	}
}

// deepEqualNaN is reflect.DeepEqual with NaN equal to NaN: a summary
// figure written as null (beyond the float64 range) reads back as NaN.
func deepEqualNaN(a, b reflect.Value) bool {
	if a.IsValid() != b.IsValid() || a.IsValid() && a.Type() != b.Type() {
		return false
	}
	if !a.IsValid() {
		return true
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return x == y || x != x && y != y
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return deepEqualNaN(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if !deepEqualNaN(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !deepEqualNaN(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if v := b.MapIndex(k); !v.IsValid() || !deepEqualNaN(a.MapIndex(k), v) {
				return false
			}
		}
		return true
	default:
		if a.CanInterface() {
			return reflect.DeepEqual(a.Interface(), b.Interface())
		}
		return fmt.Sprint(a) == fmt.Sprint(b)
	}
}
