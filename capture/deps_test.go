package capture_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLightDependencies: package capture links the standard library and
// chronograph's warn, nothing else (no cgo, no plotting, database,
// browser or PDF module): programs that read captures stay small.
func TestLightDependencies(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		switch p {
		case "github.com/chronograph/chronograph/capture", "github.com/chronograph/chronograph/warn":
		default:
			t.Errorf("capture depends on %s: it must import only the standard library and warn", p)
		}
	}
	out, err = exec.Command("go", "list", "-f", "{{.CgoFiles}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if s := strings.TrimSpace(string(out)); s != "[]" {
		t.Errorf("capture has cgo files: %s", s)
	}
}
