package result

import (
	"os"
	"strings"
	"testing"
)

// TestReadHyperfineExport reads an export written by hyperfine 1.15 (the
// one installed here: -N --runs 3 -L n 1,2 'sleep 0.00{n}') as a command
// document: the times in ns, the exit codes, the parameters, a note that
// says where it comes from and that only CPU-time means were recorded.
func TestReadHyperfineExport(t *testing.T) {
	d, err := ReadFile("testdata/hyperfine-1.15.json")
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != KindCommand || d.Tool.Name != "hyperfine" || len(d.Measurements) != 2 {
		t.Fatalf("document %+v", d)
	}
	m := d.Measurements[0]
	w := m.Metric("wall")
	if m.Name != "sleep 0.001" || m.Parameters["n"] != "1" || w == nil || len(w.Values) != 3 || w.Values[1] < 1e6 || w.Summary == nil || m.Metric("exit_code") == nil {
		t.Errorf("measurement %+v", m)
	}
	if m.Metric("user") != nil || !strings.Contains(m.Warnings[0].Message, "only the means of the CPU times") {
		t.Errorf("CPU times: %+v", m.Warnings)
	}
	// The export was made with -N: nothing was subtracted, and the export
	// does not say whether a shell was used, so the note claims neither.
	if msg := d.Warnings[0].Message; !strings.Contains(msg, "hyperfine JSON export") || !strings.Contains(msg, "nothing subtracted with -N (the export does not record which)") ||
		strings.Contains(msg, "start-up subtracted by hyperfine") {
		t.Errorf("warnings %+v", d.Warnings)
	}
	for _, bad := range []string{`{"results": []}`, `{"results": [{"command": "x", "times": []}]}`, `{"results": [{"command": 3}]}`} {
		if _, err := Unmarshal([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	// Two results named alike (a parameter their command line does not
	// use) get the values in their names, as hyperfine's text shows them.
	data, _ := os.ReadFile("testdata/hyperfine-1.15.json")
	same := strings.ReplaceAll(string(data), `"sleep 0.002"`, `"sleep 0.001"`)
	if d, err := Unmarshal([]byte(same)); err != nil || d.Measurements[1].Name != "sleep 0.001 (n = 2)" {
		t.Errorf("alike names: %v %v", d, err)
	}
}
