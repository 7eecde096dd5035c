package report

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chronograph/chronograph/capture"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/result/input"
	"github.com/chronograph/chronograph/stats"
	"github.com/chronograph/chronograph/tracer"
)

// The example documents every renderer is tested on, by kind: real runs
// on the development host, redacted (docs/examples, see its README
// section), and constructed ones where the kind's output is not on main
// yet (latency histograms) or where the test needs known figures.
var exampleFiles = map[string][]string{
	"command":   {"gzip-levels.json"},
	"function":  {"sortsearch.json"},
	"sleep":     {"sleep-study.json"},
	"clocks":    {"clocks.json"},
	"numbers":   {"numbers.json"},
	"env":       {"env.json"},
	"hyperfine": {"hyperfine.json"},
}

// exampleKinds lists the kinds of exampleDocs in a fixed order.
var exampleKinds = []string{"command", "function", "sleep", "latency", "clocks", "numbers", "trace", "env", "hyperfine", "gobench", "pulses"}

// exampleDocs returns the example documents of a kind.
func exampleDocs(t testing.TB, kind string) []*result.Document {
	t.Helper()
	switch kind {
	case "latency":
		return []*result.Document{latencyExample()}
	case "trace":
		return []*result.Document{traceDocument()}
	case "pulses":
		return []*result.Document{pulsesExample(t)}
	case "gobench":
		var ds []*result.Document
		for _, f := range []string{"gobench-old.txt", "gobench-new.txt"} {
			fh, err := os.Open(filepath.Join("testdata", f))
			if err != nil {
				t.Fatal(err)
			}
			d, err := input.ReadGoBench(fh, f)
			fh.Close()
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, d)
		}
		return ds
	}
	var ds []*result.Document
	for _, f := range exampleFiles[kind] {
		data, err := os.ReadFile(filepath.Join("..", "docs", "examples", f))
		if err != nil {
			t.Fatal(err)
		}
		d, err := input.Read(data, f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		ds = append(ds, d)
	}
	return ds
}

// exampleTrace is the trace of docs/examples/pipeline-trace.json.
func exampleTrace(t testing.TB) *tracer.Trace {
	tr, err := tracer.ReadChromeFile(filepath.Join("..", "docs", "examples", "pipeline-trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// pulsesExample is the pulses document of the hand-written capture
// capture/testdata/pulses.vcd (known widths: see capture/pulse_test.go),
// as chrono pulses --channels clk,irq,task,noisy --between irq:rise
// task:rise --min-width 20ns writes it: widths, periods, duty cycles,
// frequencies, a latency, glitches of both levels, and its window.
func pulsesExample(t testing.TB) *result.Document {
	t.Helper()
	const path = "../capture/testdata/pulses.vcd"
	r, err := capture.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	in := r.Info()
	spec := capture.Spec{Channels: []string{"clk", "irq", "task", "noisy"}, MinWidth: 2, Keep: 100000, Window: 400,
		Between: []capture.Between{{From: capture.EdgeRef{Channel: "irq", Edge: capture.Rise}, To: capture.EdgeRef{Channel: "task", Edge: capture.Rise}}}}
	a, err := capture.Analyze(r, spec)
	if err != nil {
		t.Fatal(err)
	}
	d := result.PulsesDocument(result.PulsesInput{Source: "pulses.vcd", Info: in, Spec: spec, Elapsed: 250 * time.Microsecond, Analysis: a},
		result.Meta{Tool: result.Tool{Name: "chrono", Version: "example"},
			Args: []string{"pulses", "pulses.vcd", "--channels", "clk,irq,task,noisy", "--between", "irq:rise", "task:rise", "--min-width", "20ns"}})
	d.End = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	d.Start = d.End.Add(-250 * time.Microsecond)
	return d
}

// latencyExample is a constructed latency document as the latency kind
// writes it in schema version 2: per thread (and all threads merged) the
// metric "latency" in ns, binned by an HDR histogram of 3 significant
// digits with the exact min, max, mean and standard deviation. The
// latencies are deterministic: a body around 60 µs (thread 1: 75 µs)
// with a long tail and a few outliers.
func latencyExample() *result.Document {
	d := &result.Document{Schema: result.Schema, Version: result.Version, Kind: result.KindLatency,
		Tool: result.Tool{Name: "chrono", Version: "example"}, Args: []string{"latency", "-t", "2", "-l", "20000", "-i", "200"},
		Start: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	d.End = d.Start.Add(4 * time.Second)
	all, _ := stats.NewHistogram(1, 10_000_000_000, 3)
	var hs []*stats.Histogram
	for th := range 2 {
		h, _ := stats.NewHistogram(1, 10_000_000_000, 3)
		r := rand.New(rand.NewPCG(uint64(th)+1, 7))
		base := 60_000.0 + 15_000*float64(th)
		for i := range 20_000 {
			v := base * math.Exp(0.08*r.NormFloat64())
			if r.Float64() < 0.02 {
				v += 40_000 * r.ExpFloat64()
			}
			if i%4999 == 4998 {
				v = 900_000 + 100_000*float64(th)
			}
			h.Record(int64(v))
			all.Record(int64(v))
		}
		hs = append(hs, h)
	}
	metric := func(h *stats.Histogram) result.Metric {
		b, c := h.Bins()
		sd := h.StdDev()
		return result.Metric{Name: "latency", Unit: result.UnitNs, Resolution: 1,
			Histogram: &result.Histogram{Bounds: b, Counts: c, Min: float64(h.Min()), Max: float64(h.Max()), Mean: h.Mean(), StdDev: &sd}}
	}
	for i, h := range hs {
		d.Measurements = append(d.Measurements, result.Measurement{Name: "thread " + strconv.Itoa(i), Primary: "latency", Metrics: []result.Metric{metric(h)}})
	}
	d.Measurements = append(d.Measurements, result.Measurement{Name: "all threads", Primary: "latency", Metrics: []result.Metric{metric(all)}})
	d.Environment = &env.Host{CPU: env.CPU{Model: "Example CPU", LogicalCPUs: 2}, System: env.System{KernelRelease: "6.1.0-example"},
		Go: env.Go{Version: "go1.26.0", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 2}}
	return d
}

// TestExamplesGolden renders every kind's example documents in every
// format that has them (text, Markdown, CSV; a kind without a CSV table
// says so) against golden files, so that a change of any renderer shows.
func TestExamplesGolden(t *testing.T) {
	for _, kind := range exampleKinds {
		for _, f := range []struct {
			ext    string
			format Format
		}{{"txt", Text}, {"md", Markdown}, {"csv", CSV}} {
			t.Run(kind+"."+f.ext, func(t *testing.T) {
				var b bytes.Buffer
				for i, d := range exampleDocs(t, kind) {
					if i > 0 {
						b.WriteString("\n")
					}
					if err := Render(&b, Subject{Docs: []*result.Document{d}}, f.format, Options{}); err != nil {
						b.WriteString("error: " + err.Error() + "\n")
					}
				}
				golden(t, "examples/"+kind+"."+f.ext, b.Bytes())
			})
		}
	}
}
