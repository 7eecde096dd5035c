package bench

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
)

// benchMeta is what bench's documents record: bench and the
// environment, captured now.
func benchMeta() result.Meta {
	return result.Meta{Tool: result.ToolFromBuild("chronograph/bench"), Environment: env.Capture()}
}

// renderText renders d as `chrono report` prints it by default.
func renderText(w io.Writer, d *result.Document) error {
	return report.Render(w, report.Subject{Docs: []*result.Document{d}}, report.Text, report.Options{})
}

// textOf is the text of the results' document (with the environment),
// as `chrono report` prints it.
func textOf(t *testing.T, results ...*Benchmark) string {
	t.Helper()
	var b strings.Builder
	if err := renderText(&b, Document(benchMeta(), results...)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// realDocument measures a small function with every mode (latency, cold,
// parallel, software counters where they work) on the real clocks and
// returns its document. Nothing here depends on the figures' values.
var realDocument = sync.OnceValues(func() (*result.Document, error) {
	opts := &Options{Target: time.Millisecond, Samples: 6, WarmupSamples: 1, Latency: true, Cold: 2, Parallel: 2}
	if counters.Available().Software {
		evs, err := counters.ParseEvents("task-clock,page-faults,instructions")
		if err != nil {
			return nil, err
		}
		opts.Counters = evs
	}
	r, err := Run("sum/n=2000", countedSum, opts)
	if err != nil {
		return nil, err
	}
	return Document(benchMeta(), r), nil
})

// fakeCompareDocument is the document of a comparison on the fake clock:
// "new" costs half of "old" on CPU 0 and the same on CPU 1.
func fakeCompareDocument(t *testing.T) *result.Document {
	t.Helper()
	fc := &fakeClock{tick: 1, read: 20}
	c, err := Compare([]Case{
		{Name: "old", F: costOn(fc, map[int]uint64{0: 100, 1: 150})},
		{Name: "new", F: costOn(fc, map[int]uint64{0: 50, 1: 75})},
	}, fc.opts(Options{Target: 200 * time.Microsecond, Samples: 8}))
	if err != nil {
		t.Fatal(err)
	}
	return c.Document(benchMeta())
}

// TestDocumentStrict: a function document decodes into result.Document
// with unknown fields rejected (every field it holds is in the schema's
// types), and encodes back to the same bytes.
func TestDocumentStrict(t *testing.T) {
	rd, err := realDocument()
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range map[string]*result.Document{"run": rd, "compare": fakeCompareDocument(t)} {
		t.Run(name, func(t *testing.T) {
			var enc bytes.Buffer
			if err := result.Encode(&enc, d); err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(enc.Bytes()))
			dec.DisallowUnknownFields()
			var back result.Document
			if err := dec.Decode(&back); err != nil {
				t.Fatalf("strict decoding: %v", err)
			}
			var again bytes.Buffer
			if err := result.Encode(&again, &back); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(enc.Bytes(), again.Bytes()) {
				t.Errorf("the document changes on a round trip:\n%s\n---\n%s", enc.String(), again.String())
			}
			if _, err := result.Unmarshal(enc.Bytes()); err != nil {
				t.Errorf("result.Unmarshal: %v", err)
			}
			for _, m := range back.Measurements {
				if m.Detail.Function == nil {
					t.Errorf("%s: no function detail", m.Name)
				}
				for _, met := range m.Metrics {
					if !result.ValidUnit(met.Unit) {
						t.Errorf("%s: metric %s has unit %q, not one of the schema's", m.Name, met.Name, met.Unit)
					}
				}
			}
		})
	}
	// Every mode is a measurement of its own.
	var names []string
	for _, m := range rd.Measurements {
		names = append(names, m.Name+":"+m.Detail.Function.Mode)
	}
	if got := strings.Join(names, " "); got != "sum/n=2000:batch sum/n=2000/latency:latency sum/n=2000/cold:cold sum/n=2000/parallel:parallel" {
		t.Errorf("measurements %s", got)
	}
	if lat := rd.Measurements[1].Metric("latency"); lat == nil || lat.Histogram == nil || lat.Histogram.Total() == 0 || lat.Unit != "ns" {
		t.Errorf("latency metric %+v, want the binned durations in ns", lat)
	}
}

// TestDocumentUnmeasured: what could not be measured is absent from the
// document, never a 0: without a CPU clock, no CPU time metric and no
// CPU read cost.
func TestDocumentUnmeasured(t *testing.T) {
	fc := &fakeClock{tick: 1, read: 20, noCPUTime: true}
	r, err := Run("x", func(b *B) {
		for b.Loop() {
			fc.advance(100)
		}
	}, fc.opts(Options{Target: 100 * time.Microsecond, Samples: 4, WarmupSamples: 1}))
	if err != nil {
		t.Fatal(err)
	}
	m := Document(result.Meta{}, r).Measurements[0]
	for _, name := range []string{"cpu_time", "cpu_read_subtracted"} {
		if m.Metric(name) != nil {
			t.Errorf("metric %s present without a CPU clock", name)
		}
	}
	if ov := m.Detail.Function.Overhead; ov.CPUReadNs != nil || ov.CPUReadMADNs != nil {
		t.Errorf("overhead %+v: a CPU read cost without a CPU clock", ov)
	}
	if m.Metric("wall") == nil || m.Metric("cpu") == nil {
		t.Error("the measured figures are missing")
	}
}

// chronoBinary builds cmd/chrono for the tests that compare with what it
// prints.
func chronoBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(crosstest.TempDir(t), "chrono")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/chrono")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building chrono: %v\n%s", err, out)
	}
	return bin
}

// TestTextIsChronoReport: what report.Render prints for a document is what
// `chrono report FILE` prints for the document saved to FILE, byte for
// byte (the text is rendered from the document, and nothing is lost on
// the way through the file).
func TestTextIsChronoReport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds chrono")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to build chrono with")
	}
	bin := chronoBinary(t)
	rd, err := realDocument()
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range map[string]*result.Document{"run": rd, "compare": fakeCompareDocument(t)} {
		t.Run(name, func(t *testing.T) {
			var live bytes.Buffer
			if err := renderText(&live, d); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(crosstest.TempDir(t), name+".json")
			if err := result.WriteFile(path, d); err != nil {
				t.Fatal(err)
			}
			out, err := crosstest.Command(bin, "report", path).Output()
			if err != nil {
				t.Fatalf("chrono report: %v", err)
			}
			if !bytes.Equal(live.Bytes(), out) {
				t.Errorf("live text and chrono report differ:\n--- live\n%s\n--- chrono report\n%s", live.String(), out)
			}
		})
	}
}

// TestNoTestingImport: package bench does not link package testing (the
// testing.B adapter is bench/benchtest), so programs that measure with
// bench do not carry testing's code and flags.
func TestNoTestingImport(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "testing" || strings.HasPrefix(p, "testing/") {
			t.Errorf("bench depends on %s: move what needs it to bench/benchtest", p)
		}
	}
}
