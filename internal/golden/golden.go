// Package golden compares test output with golden files, for the tests of
// every chronograph package: `go test ./pkg -update` rewrites the files
// instead of comparing.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/chronograph/chronograph/internal/outfile"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ instead of comparing with them")

// Update reports whether the test run rewrites golden files (-update).
func Update() bool { return *update }

// Check compares got with the golden file at path (relative to the
// package directory, e.g. testdata/x.golden), or writes it with -update.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := outfile.WriteBytes(path, got); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run go test with -update if the change is intended):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
