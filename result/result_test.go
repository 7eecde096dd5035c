package result

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/stats"
)

func sampleDoc() *Document {
	d := New("numbers", Tool{Name: "chrono", Version: "test"})
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
	path := filepath.Join(t.TempDir(), "r.json")
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
		{"not json", "nope", "not a JSON result document"},
		{"no schema", `{"version":1}`, "not a chronograph result document"},
		{"wrong schema", `{"schema":"other","version":1}`, "not a chronograph result document"},
		{"no version", `{"schema":"chronograph.result"}`, "no valid \"version\""},
		{"newer", `{"schema":"chronograph.result","version":99}`, "schema version 99, newer than this chrono understands (2); upgrade chrono"},
		{"ragged", `{"schema":"chronograph.result","version":1,"measurements":[{"name":"a","metrics":[{"name":"w","values":[1,2]},{"name":"u","values":[1]}]}]}`, "every metric holds one value per sample"},
		{"primary missing", `{"schema":"chronograph.result","version":1,"measurements":[{"name":"a","primary":"wall","metrics":[]}]}`, `primary metric "wall" is missing`},
		{"unnamed", `{"schema":"chronograph.result","version":1,"measurements":[{"metrics":[]}]}`, "has no name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Unmarshal([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestWriteFileBadDir(t *testing.T) {
	err := WriteFile(filepath.Join(t.TempDir(), "missing", "r.json"), sampleDoc())
	if err == nil || !strings.Contains(err.Error(), "check that the directory exists") {
		t.Errorf("err = %v", err)
	}
}

func TestWriteFileReplacesAtomically(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
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
