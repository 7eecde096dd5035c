package profiles_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLightDependencies: package profiles is imported by the measuring
// packages (bench records profiles), so it links the standard library,
// pprof's profile package (itself the standard library only) and
// chronograph's warn and internal helpers (the file writer brings
// golang.org/x/sys, as it does to every measuring package), nothing else: no cgo, no
// plotting, database, browser or PDF module. cpuprof, imported by the
// programs being measured, links the standard library alone.
func TestLightDependencies(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	allowed := map[string]map[string]bool{
		".": {
			"github.com/chronograph/chronograph/profiles":         true,
			"github.com/chronograph/chronograph/warn":             true,
			"github.com/chronograph/chronograph/internal/outfile": true,
			"github.com/chronograph/chronograph/internal/plural":  true,
			"github.com/google/pprof/profile":                     true,
			"golang.org/x/sys/unix":                               true, // outfile's
			"golang.org/x/sys/windows":                            true,
		},
		"./cpuprof": {"github.com/chronograph/chronograph/profiles/cpuprof": true},
	}
	for pkg, ok := range allowed {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}} {{.CgoFiles}}{{end}}", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			p, cgo, _ := strings.Cut(line, " ")
			if !ok[p] {
				t.Errorf("%s depends on %s", pkg, p)
			}
			if cgo != "[]" {
				t.Errorf("%s has cgo files: %s", p, cgo)
			}
		}
	}
}
