package result

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/stats"
)

func sampleDoc() *Document {
	d := New("numbers", Meta{Tool: Tool{Name: "chrono", Version: "test"}})
	s := stats.Summarize([]float64{1, 2, 3})
	d.Measurements = []Measurement{{
		Name:    "x",
		Primary: "wall",
		Metrics: []Metric{
			{Name: "wall", Unit: "ns", Values: []float64{1, 2, 3}, Summary: &s},
			{Name: "user", Unit: "ns", Values: []float64{1, 1, 1}},
		},
	}}
	return d
}

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(crosstest.TempDir(t), "r.json")
	d := sampleDoc()
	if err := WriteFile(path, d); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != "numbers" || len(got.Measurements) != 1 || got.Measurements[0].Metric("wall").Summary.Median != 2 {
		t.Errorf("round trip lost data: %+v", got)
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the document", len(entries))
	}
}

func TestUnmarshalErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not json", "nope", `the input is not a JSON object (it starts with "nope"), so not a result document`},
		{"array", `[{"schema":"chronograph.result","version":2}]`, "the input is a JSON array, not a result document"},
		{"empty", " \n", "the input is empty"},
		{"bad json", `{"schema": `, "not a JSON result document: unexpected end of JSON input"},
		{"wrong type", `{"schema":"chronograph.result","version":2,"measurements":{}}`, `field "measurements" holds a JSON object where the schema wants an array`},
		{"no schema", `{"version":1}`, "not a chronograph result document"},
		{"wrong schema", `{"schema":"other","version":1}`, "not a chronograph result document"},
		{"no version", `{"schema":"chronograph.result"}`, "no valid \"version\""},
		{"fractional version", `{"schema":"chronograph.result","version":1.5}`, `field "version" holds a JSON number 1.5 where the schema wants an integer`},
		{"fractional count", `{"schema":"chronograph.result","version":2,"kind":"trace","run":{"trace":{"lanes":2.5}}}`, `field "run.trace.lanes" holds a JSON number 2.5 where the schema wants an integer`},
		{"fractional histogram count", `{"schema":"chronograph.result","version":2,"kind":"latency","measurements":[{"name":"a","metrics":[{"name":"latency","unit":"ns","values":null,"histogram":{"bounds":[0,1],"counts":[1.5]}}]}]}`, `where the schema wants an integer`},
		{"negative seed", `{"schema":"chronograph.result","version":2,"kind":"command","run":{"command":{"seed":-1}}}`, `field "run.command.seed" holds a JSON number -1 where the schema wants an integer of 0 or more`},
		{"string for a number", `{"schema":"chronograph.result","version":2,"kind":"numbers","measurements":[{"name":"a","metrics":[{"name":"value","unit":"1","values":["x"]}]}]}`, `holds a JSON string where the schema wants a number`},
		{"newer", `{"schema":"chronograph.result","version":99}`, "schema version 99, newer than this chrono understands (2); upgrade chrono"},
		{"ragged", `{"schema":"chronograph.result","version":1,"kind":"numbers","measurements":[{"name":"a","metrics":[{"name":"w","values":[1,2]},{"name":"u","values":[1]}]}]}`, "every metric holds one value per sample"},
		{"primary missing", `{"schema":"chronograph.result","version":1,"kind":"numbers","measurements":[{"name":"a","primary":"wall","metrics":[]}]}`, `primary metric "wall" is missing`},
		{"unnamed", `{"schema":"chronograph.result","version":1,"kind":"numbers","measurements":[{"metrics":[]}]}`, "has no name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Unmarshal([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "Go ") {
				t.Errorf("err = %v names Go types", err)
			}
		})
	}
}

// A byte order mark before the document is skipped.
func TestUnmarshalBOM(t *testing.T) {
	if _, err := Unmarshal([]byte("\uFEFF" + `{"schema":"chronograph.result","version":2,"kind":"env","measurements":[]}`)); err != nil {
		t.Error(err)
	}
}

func TestWriteFileBadDir(t *testing.T) {
	err := WriteFile(filepath.Join(crosstest.TempDir(t), "missing", "r.json"), sampleDoc())
	if err == nil || !strings.Contains(err.Error(), "check that the directory exists") {
		t.Errorf("err = %v", err)
	}
}

func TestWriteFileReplacesAtomically(t *testing.T) {
	path := filepath.Join(crosstest.TempDir(t), "r.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, sampleDoc()); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err != nil {
		t.Fatal(err)
	}
}

func TestEncodeRejectsNaN(t *testing.T) {
	d := sampleDoc()
	d.Measurements[0].Metrics[1].Values[0] = nan()
	var b bytes.Buffer
	if err := Encode(&b, d); err == nil {
		t.Error("Encode accepted NaN, want an error (JSON has no NaN)")
	}
}

func nan() float64 { var z float64; return z / z }

// A version 1 numbers document's details land in the typed fields.
func TestUpgradeNumbers(t *testing.T) {
	d, err := Unmarshal([]byte(`{"schema":"chronograph.result","version":1,"kind":"numbers","measurements":[{"name":"stdin","primary":"value",
		"metrics":[{"name":"value","unit":"ns","values":[1,2,3],"percentiles":{"p99":3,"p50":2},"percentile_method":"hazen"}],
		"details":{"input_quantum":1000,"lines":3,"median_ci":{"lo":1,"hi":3,"confidence":0.9,"method":"order-statistic"},"modified_z_outliers":[2],"modified_z_threshold":3.5}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	run, nd, met := d.Run.Numbers, d.Measurements[0].Detail.Numbers, d.Measurements[0].Metric("value")
	if run == nil || run.Lines != 3 || run.PercentileMethod != "hazen" || len(run.Percentiles) != 2 || run.Percentiles[0] != 50 || run.Confidence != 0.9 {
		t.Errorf("run %+v", run)
	}
	if nd == nil || nd.MedianCI == nil || nd.MedianCI.Hi != 3 || len(nd.ModifiedZ.Outliers) != 1 || met.Resolution != 1000 {
		t.Errorf("detail %+v, resolution %v", nd, met.Resolution)
	}
}

// A version 1 document of a kind without a typed upgrade keeps its
// details readable, as a note, and no untyped field.
func TestV1DetailsKeptAsNote(t *testing.T) {
	doc := `{"schema":"chronograph.result","version":1,"tool":{"name":"chrono","version":"old"},"kind":"latency",
	"start":"2026-01-01T00:00:00Z","end":"2026-01-01T00:00:01Z",
	"measurements":[{"name":"thread 0","primary":"","metrics":[],"details":{"max_ns":3202309,"percentiles_ns":{"p99":744959}}}],
	"warnings":["an old warning: do this"]}`
	d, err := Unmarshal([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if d.Version != Version || len(d.Warnings) != 1 || d.Warnings[0].Message != "an old warning: do this" {
		t.Errorf("document %+v", d)
	}
	ws := d.Measurements[0].Warnings
	if len(ws) != 1 || ws[0].Code != "v1-details" || !strings.Contains(ws[0].Message, "max_ns 3202309") || !strings.Contains(ws[0].Message, "percentiles_ns.p99 744959") {
		t.Errorf("measurement warnings %+v", ws)
	}
}

// badDocuments are documents that every reader must refuse on reading
// (Unmarshal, so chrono report, history add and the baseline of a gate),
// with the piece of the error that names the problem. They are also
// FuzzUnmarshal's seeds (testdata/fuzz/FuzzUnmarshal).
var badDocuments = []struct {
	name, in, want string
}{
	{"unit seconds", docWith(`"kind":"command"`, `{"name":"a","primary":"wall","metrics":[{"name":"wall","unit":"s","values":[0.00234,0.00235,0.00233]}]}`),
		`metric "wall" has unit "s", but the schema puts a command document's "wall" in ns: write its values in ns`},
	{"unit missing", docWith(`"kind":"command"`, `{"name":"a","primary":"wall","metrics":[{"name":"wall","values":[1]}]}`),
		`metric "wall" has unit "", but the schema puts a command document's "wall" in ns`},
	{"unit of another dimension", docWith(`"kind":"command"`, `{"name":"a","primary":"wall","metrics":[{"name":"wall","unit":"ns","values":[1]},{"name":"max_rss","unit":"ns","values":[1]}]}`),
		`metric "max_rss" has unit "ns", but the schema puts a command document's "max_rss" in bytes`},
	{"function wall per op", docWith(`"kind":"function"`, `{"name":"a","primary":"wall","metrics":[{"name":"wall","unit":"ns","values":[1]}]}`),
		`the schema puts a function document's "wall" in ns/op`},
	{"numbers value", docWith(`"kind":"numbers"`, `{"name":"a","primary":"value","metrics":[{"name":"value","unit":"ms","values":[1]}]}`),
		`the schema puts a numbers document's "value" in ns or 1`},
	{"counter fraction", docWith(`"kind":"counters"`, `{"name":"a","primary":"cycles","metrics":[{"name":"cycles","unit":"count","values":[1]},{"name":"cycles_running","unit":"count","values":[1]}]}`),
		`metric "cycles_running" has unit "count", but the schema puts a counters document's "cycles_running" in 1`},
	{"version 1 unit", `{"schema":"chronograph.result","version":1,"kind":"sleep","measurements":[{"name":"a","metrics":[{"name":"achieved","unit":"us","values":[1]}]}]}`,
		`the schema puts a sleep document's "achieved" in ns`},
	{"bogus kind", docWith(`"kind":"bogus"`, `{"name":"a","primary":"wall","metrics":[{"name":"wall","unit":"ns","values":[1]}]}`),
		`unknown document kind "bogus" (this chrono reads command, counters, function, sleep, latency, clocks, numbers, env, trace, scope, history, pulses)`},
	{"no kind", docWith(`"tool":{"name":"x"}`, `{"name":"a","metrics":[]}`), `the document has no "kind"`},
	{"version 1 bogus kind", `{"schema":"chronograph.result","version":1,"kind":"bogus","measurements":[{"name":"a","metrics":[]}]}`, `unknown document kind "bogus"`},
	{"measurements null", `{"schema":"chronograph.result","version":2,"kind":"command","measurements":null}`,
		`the command document holds no measurements ("measurements" is empty or missing)`},
	{"measurements missing", `{"schema":"chronograph.result","version":2,"kind":"sleep"}`, `the sleep document holds no measurements`},
	{"measurements empty", `{"schema":"chronograph.result","version":2,"kind":"numbers","measurements":[]}`, `the numbers document holds no measurements`},
	{"wall truncated", docWith(`"kind":"command"`, `{"name":"a","primary":"wall","metrics":[`+
		`{"name":"wall","unit":"ns","values":[1,2,3]},{"name":"user","unit":"ns","values":[`+ones(20)+`]},`+
		`{"name":"sys","unit":"ns","values":[`+ones(20)+`]},{"name":"max_rss","unit":"bytes","values":[`+ones(20)+`]}]}`),
		`metric "wall" has 3 values, the other 3 metrics 20 (every metric holds one value per sample)`},
	{"last truncated", docWith(`"kind":"command"`, `{"name":"a","primary":"wall","metrics":[`+
		`{"name":"wall","unit":"ns","values":[1,2,3]},{"name":"user","unit":"ns","values":[1,2,3]},{"name":"sys","unit":"ns","values":[1]}]}`),
		`metric "sys" has 1 value, the other 2 metrics 3`},
	{"two metrics two lengths", docWith(`"kind":"command"`, `{"name":"a","primary":"wall","metrics":[`+
		`{"name":"wall","unit":"ns","values":[1,2,3]},{"name":"user","unit":"ns","values":[1,2]}]}`),
		`metric "user" has 2 values, the other metric 3`},
	{"three lengths", docWith(`"kind":"command"`, `{"name":"a","primary":"wall","metrics":[`+
		`{"name":"wall","unit":"ns","values":[1,2,3]},{"name":"user","unit":"ns","values":[1,2,3]},{"name":"sys","unit":"ns","values":[1,2]},{"name":"vol_cs","unit":"count","values":[1]}]}`),
		`metric "sys" has 2 values, 2 of the other 3 metrics 3`},
	{"pulses without detail", docWith(`"kind":"pulses","run":{"pulses":{"source":"a.vcd"}}`, `{"name":"D0 high","primary":"high","metrics":[{"name":"high","unit":"ns","values":[1]}]}`),
		`pulses measurement "D0 high" has no "detail.pulses"`},
	{"pulses bogus figure", docWith(`"kind":"pulses","run":{"pulses":{"source":"a.vcd"}}`, `{"name":"D0 x","primary":"x","detail":{"pulses":{"channel":"D0","figure":"x"}},"metrics":[{"name":"x","unit":"ns","values":[1]}]}`),
		`pulses measurement "D0 x": figure "x" is not one of high, low`},
	{"pulses duty in ns", docWith(`"kind":"pulses","run":{"pulses":{"source":"a.vcd"}}`, `{"name":"D0 duty","primary":"duty","detail":{"pulses":{"channel":"D0","figure":"duty"}},"metrics":[{"name":"duty","unit":"ns","values":[1]}]}`),
		`the schema puts a pulses document's "duty" in 1`},
	{"pulses latency without edges", docWith(`"kind":"pulses","run":{"pulses":{"source":"a.vcd"}}`, `{"name":"a->b","primary":"latency","detail":{"pulses":{"figure":"latency"}},"metrics":[{"name":"latency","unit":"ns","values":[1]}]}`),
		`a latency names its edges`},
	{"pulses without run", docWith(`"kind":"pulses"`, `{"name":"D0 high","primary":"high","detail":{"pulses":{"channel":"D0","figure":"high"}},"metrics":[{"name":"high","unit":"ns","values":[1]}]}`),
		`the pulses document has no "run.pulses"`},
}

// docWith returns a version 2 document with the top-level fields head and
// one measurement.
func docWith(head, measurement string) string {
	return `{"schema":"chronograph.result","version":2,` + head + `,"measurements":[` + measurement + `]}`
}

// ones returns n comma-separated ones.
func ones(n int) string { return strings.TrimSuffix(strings.Repeat("1,", n), ",") }

// TestUnmarshalRefusesBadDocuments: a unit the schema does not give a
// metric, an unknown kind, no measurements, metrics of different lengths
// (naming the one that differs) are refused in one line.
func TestUnmarshalRefusesBadDocuments(t *testing.T) {
	for _, tt := range badDocuments {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Unmarshal([]byte(tt.in))
			if err == nil {
				t.Fatalf("accepted")
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) || !strings.HasPrefix(msg, "result: ") || strings.Contains(msg, "\n") {
				t.Errorf("err = %v, want one line starting with \"result: \" holding %q", err, tt.want)
			}
		})
	}
}

// TestUnmarshalAcceptsGoodDocuments: what the checks must let through.
func TestUnmarshalAcceptsGoodDocuments(t *testing.T) {
	for _, tt := range []struct{ name, in string }{
		{"env without measurements", `{"schema":"chronograph.result","version":2,"kind":"env","measurements":[]}`},
		{"trace without spans", `{"schema":"chronograph.result","version":2,"kind":"trace","measurements":null}`},
		{"scope without timers", `{"schema":"chronograph.result","version":2,"kind":"scope"}`},
		{"incomplete before the first run", `{"schema":"chronograph.result","version":2,"kind":"sleep","incomplete":true,"measurements":[]}`},
		{"pulses", docWith(`"kind":"pulses","run":{"pulses":{"source":"a.vcd"}}`, `{"name":"a->b","primary":"latency","detail":{"pulses":{"figure":"latency","from":"a:rise","to":"b:rise"}},"metrics":[{"name":"latency","unit":"ns","values":[1]}]}`)},
		{"numbers plain", docWith(`"kind":"numbers"`, `{"name":"a","primary":"value","metrics":[{"name":"value","unit":"1","values":[1]}]}`)},
		{"go benchmark units", docWith(`"kind":"function"`, `{"name":"a","primary":"wall","metrics":[{"name":"wall","unit":"ns/op","values":[1,2]},{"name":"B/s","unit":"B/s","values":[3,4]}]}`)},
		{"counter events", docWith(`"kind":"counters"`, `{"name":"a","primary":"cycles:u","metrics":[{"name":"cycles:u","unit":"count","values":[1]},{"name":"task-clock","unit":"ns","values":[1]},{"name":"cycles:u_running","unit":"1","values":[0.5]}]}`)},
		{"binned beside raw", docWith(`"kind":"function"`, `{"name":"a","primary":"wall","metrics":[{"name":"wall","unit":"ns/op","values":[1,2]},{"name":"latency","unit":"ns","values":null,"histogram":{"bounds":[0,1],"counts":[5],"min":0,"max":0.5,"mean":0.2}}]}`)},
	} {
		if _, err := Unmarshal([]byte(tt.in)); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestBadDocumentsInFuzzCorpus: every bad document is in FuzzUnmarshal's
// corpus (testdata/fuzz/FuzzUnmarshal/bad-NAME, NAME with '-' for ' '),
// so the fuzzer starts from them.
func TestBadDocumentsInFuzzCorpus(t *testing.T) {
	for _, b := range badDocuments {
		path := "testdata/fuzz/FuzzUnmarshal/bad-" + strings.ReplaceAll(b.name, " ", "-")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", b.name, err)
			continue
		}
		want := "go test fuzz v1\n[]byte(" + strconv.Quote(b.in) + ")\n"
		if string(data) != want {
			t.Errorf("%s is not the document of %q: write %q", path, b.name, want)
		}
	}
}
