package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/unit"
)

// FuzzRender renders every document result.Unmarshal accepts in every
// format with several option sets, and compares it with itself.
// Properties: no panic; a format that fails says why (an error, not a
// half-written output it claims to be good); the text formats are valid
// UTF-8; the JSON format reads back. Seeds: the committed documents of
// the module (result/testdata/documents holds one of every kind in both
// schema versions) and the other committed JSON files.
func FuzzRender(f *testing.F) {
	n := 0
	for _, pattern := range []string{"../docs/examples/*.json", "../*/testdata/*.json", "../*/testdata/*/*.json", "../*/*/testdata/*.json"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
			n++
		}
	}
	if n < 20 {
		f.Fatalf("found %d seed documents: run the test from the package directory", n)
	}
	options := []Options{
		{},
		{All: true, Percentiles: []float64{0, 50, 99.9, 100}, Unit: unit.Microsecond, Sort: "fastest", Style: "basic"},
		{Reference: "no such measurement", Percentiles: []float64{}},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := result.Unmarshal(data)
		if err != nil {
			return
		}
		if len(d.Measurements) > 0 {
			options[2].Reference = d.Measurements[len(d.Measurements)-1].Name
		}
		for _, name := range FormatNames() {
			format := Format(name)
			for _, o := range options {
				var b bytes.Buffer
				err := Render(&b, Subject{Docs: []*result.Document{d}}, format, o)
				if err != nil {
					if len(err.Error()) == 0 {
						t.Fatalf("%s: empty error", format)
					}
					continue
				}
				if !utf8.Valid(b.Bytes()) {
					t.Fatalf("%s output is not valid UTF-8:\n%q", format, b.Bytes())
				}
				if format == JSON {
					if _, err := result.Unmarshal(b.Bytes()); err != nil {
						t.Fatalf("JSON output does not read back: %v", err)
					}
				}
			}
			var b bytes.Buffer
			_ = Render(&b, Subject{Diff: compare.Documents(d, d, false)}, format, Options{})
		}
	})
}

// figureMetrics are the metric names the views look up, with a unit each.
var figureMetrics = []struct{ name, unit string }{
	{"wall", result.UnitNs}, {"user", result.UnitNs}, {"sys", result.UnitNs}, {"max_rss", result.UnitBytes},
	{"cpu", result.UnitCPU}, {"cpu_end", result.UnitCPU}, {"cpu_time", result.UnitNsPerOp},
	{"iterations", result.UnitCount}, {"ipc", result.UnitOne}, {"worker0", result.UnitNsPerOp},
	{"latency", result.UnitNs}, {"gap", result.UnitNs}, {"allocs", result.UnitCountPerOp}, {"cycles", result.UnitHz},
}

// FuzzRenderFigures renders documents built from fuzzed figures rather
// than fuzzed JSON, so that the fuzzer spends its time on the numbers the
// views compute with (extremes, ties, subnormals, zero and negative
// values, bins of any width, blocks and CPUs that do not add up, metrics
// binned where a view expects samples), and renders them in every format
// but JSON, with the default options or (bins bit 15) all options set.
// Every document is written and
// read back first (result.Encode, result.Unmarshal), so it is one that
// `chrono report` could be given. Properties as FuzzRender.
func FuzzRenderFigures(f *testing.F) {
	kinds := []string{result.KindCommand, result.KindCounters, result.KindFunction, result.KindSleep,
		result.KindLatency, result.KindClocks, result.KindNumbers, result.KindEnv, "trace"}
	f.Add(uint8(2), uint16(0x0fff), uint16(0), []byte("\x00\x00\x00\x00\x00\x00\xf0\x3f\x00\x00\x00\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00\x00\x08\x40"))
	f.Add(uint8(0), uint16(0x0001), uint16(0x0400), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17})
	f.Add(uint8(6), uint16(0xffff), uint16(0xffff), []byte("\xff\xff\xff\xff\xff\xff\xef\x7f\xff\xff\xff\xff\xff\xff\xef\xff\x01\x00\x00\x00\x00\x00\x00\x00"))
	f.Add(uint8(4), uint16(0x4400), uint16(0x0001), []byte("\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80"))
	f.Fuzz(func(t *testing.T, kind uint8, mask, bins uint16, data []byte) {
		if len(data) > 4096 {
			return // keep each execution short; sizes are not what this target explores
		}
		d := figureDocument(kinds[int(kind)%len(kinds)], mask, bins, data)
		var b bytes.Buffer
		if err := result.Encode(&b, d); err != nil {
			return
		}
		d, err := result.Unmarshal(b.Bytes())
		if err != nil {
			return
		}
		// Not JSON: that is result.Encode, which FuzzUnmarshal covers.
		for _, format := range []Format{Text, Markdown, CSV, Benchfmt} {
			o := Options{}
			if bins&0x8000 != 0 {
				o = Options{All: true, Percentiles: []float64{0, 0.1, 50, 100}, Sort: "fastest", Style: "basic"}
			}
			var out bytes.Buffer
			if err := Render(&out, Subject{Docs: []*result.Document{d}}, format, o); err == nil && !utf8.Valid(out.Bytes()) {
				t.Fatalf("%s output is not valid UTF-8", format)
			}
		}
		var out bytes.Buffer
		_ = Render(&out, Subject{Diff: compare.Documents(d, d, false)}, Text, Options{})
	})
}

// figureDocument builds a document of the given kind from fuzzed bytes:
// mask selects the metrics present (bit i: figureMetrics[i]) and, in its
// top bits, whether the values are raw float64s or small integers (ties),
// the number of measurements and the details; bins selects the metrics
// that are binned (bit i: figureMetrics[i]); data gives the values.
func figureDocument(kind string, mask, bins uint16, data []byte) *result.Document {
	ints := mask&0x8000 != 0
	var xs []float64
	if ints {
		for _, c := range data {
			xs = append(xs, float64(c%8))
		}
	} else {
		for i := 0; i+8 <= len(data); i += 8 {
			var u uint64
			for j := 7; j >= 0; j-- {
				u = u<<8 | uint64(data[i+j])
			}
			xs = append(xs, math.Float64frombits(u))
		}
	}
	at := func(i int) float64 {
		if len(xs) == 0 {
			return 0
		}
		return xs[i%len(xs)]
	}
	d := &result.Document{Schema: result.Schema, Version: result.Version, Kind: kind, Tool: result.Tool{Name: "chrono", Version: "fuzz"}}
	nm := 1 + int(mask>>12&3)%3
	per := len(xs) / nm
	for k := range nm {
		vals := xs[k*per : (k+1)*per]
		m := result.Measurement{Name: "m" + strconv.Itoa(k), Primary: "wall", Parameters: map[string]string{"n": strconv.Itoa(k)}}
		for i, fm := range figureMetrics {
			if mask&(1<<i) == 0 && fm.name != "wall" {
				continue
			}
			met := result.Metric{Name: fm.name, Unit: fm.unit, Values: vals, Resolution: math.Abs(at(i))}
			if bins&(1<<i) != 0 && len(vals) > 0 {
				sorted := slices.Clone(vals)
				slices.Sort(sorted)
				sorted = slices.Compact(sorted)
				counts := make([]int64, max(len(sorted)-1, 0))
				for j := range counts {
					counts[j] = int64(data[j%len(data)])
				}
				if len(sorted) < 2 {
					sorted, counts = []float64{sorted[0], sorted[0] + 1}, []int64{int64(len(vals))}
				}
				met.Values, met.Resolution = nil, 0
				met.Histogram = &result.Histogram{Bounds: sorted, Counts: counts, Underflow: int64(data[0] % 3),
					Min: sorted[0], Max: sorted[len(sorted)-1], Mean: at(3)}
			} else if len(vals) > 0 {
				s := stats.Summarize(vals)
				met.Summary = &s
				met.Percentiles = map[string]float64{"p50": stats.Percentile(vals, 50, stats.Linear), "p99": at(5)}
				met.PercentileMethod = "linear"
			}
			m.Metrics = append(m.Metrics, met)
		}
		if kind == result.KindFunction {
			fd := &result.FunctionDetail{Mode: []string{result.FunctionBatch, result.FunctionLatency, result.FunctionCold, result.FunctionParallel}[int(mask>>10)%4],
				Benchmark: "B", Clock: result.FunctionClock{Name: "tsc", TickNs: math.Abs(at(1)), ReadNs: math.Abs(at(2))}}
			if k == 0 {
				fd.Mode = result.FunctionBatch
			}
			if mask&0x0200 != 0 {
				var sizes, cpus []int
				for j := 0; j < len(data) && j < 4; j++ {
					sizes, cpus = append(sizes, int(data[j]%5)), append(cpus, int(data[j]%3))
				}
				fd.Placement = &result.FunctionPlacement{Allowed: 2, BlockSizes: sizes, BlockCPUs: cpus}
			}
			if mask&0x0100 != 0 {
				fd.Overhead = &result.FunctionOverhead{LoopNsPerOp: at(4), LoopNsPerOpHigh: at(5)}
				fd.Latency = &result.FunctionLatencyMode{Ops: int64(len(vals)), SignificantDigits: int(mask % 7)}
				fd.Parallel = &result.FunctionParallelMode{Workers: int(mask % 4), Iterations: uint64(len(vals))}
			}
			m.Detail.Function = fd
		}
		d.Measurements = append(d.Measurements, m)
	}
	if kind == result.KindFunction && nm > 1 {
		d.Run.Function = &result.FunctionRun{Compare: &result.FunctionCompare{Cases: []string{"m0", "m1"}, Iterations: 1000, Order: [][]int{{0, 1}}}}
	}
	if nm > 1 {
		d.Comparisons = []result.Comparison{{A: "m0", B: "m1", Metric: "wall", Statistic: "median",
			Ratio: at(6), Lo: at(7), Hi: at(8), Confidence: 0.95, Test: "mann-whitney-u", P: math.Abs(at(9)), Verdict: "?"}}
	}
	return d
}

// TestRenderDamagedFunctionDocument: block sizes that do not add up to the
// samples are an error before anything is allocated for them (a document
// claiming a block of 2^40 samples used to make `chrono report` expand
// it), and a binned "cpu" metric is not read as per-sample values (it
// used to panic: index out of range). Found by FuzzRenderFigures.
func TestRenderDamagedFunctionDocument(t *testing.T) {
	d := figureDocument(result.KindFunction, 0x0031, 0x0010, []byte("\x00\x00\x00\x00\x00\x00\xf0\x3f\x00\x00\x00\x00\x00\x00\x00\x40"))
	var b bytes.Buffer
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{}); err != nil {
		t.Errorf("binned cpu metric: %v", err)
	}
	d.Measurements[0].Detail.Function.Placement = &result.FunctionPlacement{BlockSizes: []int{1 << 40, -(1 << 40) + 2}}
	b.Reset()
	if err := Render(&b, Subject{Docs: []*result.Document{d}}, Text, Options{}); err == nil || !strings.Contains(err.Error(), "block sizes do not add up to the 2 samples") {
		t.Errorf("huge block size: error %v, want one saying the sizes do not add up", err)
	}
}
