package result

import (
	"bytes"
	"os"
	"testing"
)

// TestClocksRoundTrip: a clocks document reads and writes back byte for
// byte (the documentation's example, written by chrono clocks on a real
// host, and the seed document of every field), so the Go types hold all
// of the kind's JSON, in its order.
func TestClocksRoundTrip(t *testing.T) {
	for _, path := range []string{"../docs/examples/clocks.json", "testdata/documents/clocks-v2.json"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if d.Kind != KindClocks || d.Run.Clocks == nil || len(d.Measurements) == 0 {
			t.Fatalf("%s: kind %q, run %v, %d measurements: not a clocks document", path, d.Kind, d.Run.Clocks, len(d.Measurements))
		}
		var again bytes.Buffer
		if err := Encode(&again, d); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Bytes(), data) {
			t.Errorf("%s does not round-trip:\n--- written again\n%.3000s\n--- read\n%.3000s", path, again.Bytes(), data)
		}
	}
}
