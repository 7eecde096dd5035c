package result

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/golden"
)

// roundTripPatterns are the documents that must read and encode back to
// the same bytes: the example documents of docs/examples (every kind
// chrono writes there) and small documents of the other kinds as chrono
// wrote them (testdata/roundtrip, made with --redact: latency, counters,
// trace, scope, a command benchmark with counters) and the documents
// conversions made (testdata/converted).
var roundTripPatterns = []string{"../docs/examples/*.json", "testdata/roundtrip/*.json", "testdata/converted/*.json"}

// notDocuments are the example files that are not result documents: a
// Chrome trace and a hyperfine export (converted: see TestConversions).
var notDocuments = map[string]bool{"../docs/examples/pipeline-trace.json": true, "../docs/examples/hyperfine.json": true}

// TestDocumentsRoundTrip is the schema's guard: every document decodes
// (Unmarshal) and encodes (Encode) back to the bytes it was read from.
// If the Go types behind the JSON change and this still holds, the JSON
// did not change.
func TestDocumentsRoundTrip(t *testing.T) {
	kinds := map[string]bool{}
	for _, pattern := range roundTripPatterns {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if notDocuments[filepath.ToSlash(f)] { // (Glob gives \ on windows)
				continue
			}
			t.Run(f, func(t *testing.T) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				d, err := Unmarshal(data)
				if err != nil {
					t.Fatal(err)
				}
				kinds[d.Kind] = true
				var b bytes.Buffer
				if err := Encode(&b, d); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b.Bytes(), data) {
					t.Errorf("%s changes on a round trip: %s", f, firstDifference(data, b.Bytes()))
				}
			})
		}
	}
	for _, k := range []string{KindCommand, KindCounters, KindFunction, KindSleep, KindLatency, KindClocks, KindNumbers, KindEnv, KindTrace, KindScope} {
		if !kinds[k] {
			t.Errorf("no %s document among %v", k, roundTripPatterns)
		}
	}
}

// TestConversions: what Unmarshal makes of the documents it converts (a
// hyperfine export, version 1 documents of every kind) is the golden
// document of testdata/converted (-update rewrites them).
func TestConversions(t *testing.T) {
	inputs := []string{"../docs/examples/hyperfine.json", "testdata/hyperfine-1.15.json", "../cmd/chrono/testdata/v1-numbers.json"}
	v1, err := filepath.Glob("testdata/documents/*-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(v1) == 0 {
		t.Fatal("no version 1 documents in testdata/documents")
	}
	for _, in := range append(inputs, v1...) {
		name := strings.TrimSuffix(filepath.Base(in), ".json")
		switch {
		case strings.HasPrefix(in, "../cmd/"):
			name = "cmd-" + name
		case strings.HasPrefix(in, "../docs/"):
			name = "examples-" + name
		}
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			d, err := Unmarshal(data)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Encode(&b, d); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "testdata/converted/"+name+".json", b.Bytes())
		})
	}
}

// firstDifference describes where two encodings first differ: the line
// number and both lines.
func firstDifference(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ": read " + strings.TrimSpace(w) + ", written " + strings.TrimSpace(g)
		}
	}
	return "no line differs"
}
