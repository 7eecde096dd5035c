package profiles

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
)

// prog is a program with a function kept out of line, one inlined
// everywhere, a method, a closure and a generic function.
const prog = `package main

import "os"

//go:noinline
func outOfLine(n int) int { return n * 3 }

func inlined(n int) int { return n + 1 }

type T struct{ n int }

//go:noinline
func (t *T) Method() int { return t.n }

//go:noinline
func sum[E int | float64](xs []E) E {
	var s E
	for _, x := range xs {
		s += x
	}
	return s
}

func main() {
	f := func() int { return len(os.Args) }
	t := &T{n: f()}
	os.Exit(outOfLine(inlined(t.Method())) + sum([]int{1, 2}) + int(sum([]float64{1})))
}
`

// buildProg builds prog for goos/goarch with the given linker flags and
// returns the binary's path.
func buildProg(t *testing.T, goos, goarch, ldflags string) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := crosstest.TempDir(t)
	for name, text := range map[string]string{"go.mod": "module prog\n\ngo 1.22\n", "main.go": prog} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "prog.bin")
	cmd := exec.Command("go", "build", "-ldflags="+ldflags, "-o", out, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0", "GOFLAGS=")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return out
}

func TestBinaryNames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries")
	}
	tests := []struct {
		goos, goarch, ldflags string
		inlined               bool   // functions inlined everywhere are found (DWARF)
		tables                string // Names.Source's tables
	}{
		{"linux", "amd64", "", true, "(symbols, dwarf)"},
		{"windows", "amd64", "", true, "(symbols, dwarf)"},
		{"darwin", "arm64", "", true, "(symbols, dwarf)"},
		{"linux", "amd64", "-w", false, "(symbols)"},
		{"linux", "amd64", "-s -w", false, "(pclntab)"},
	}
	for _, tt := range tests {
		t.Run(tt.goos+"-"+tt.goarch+" "+tt.ldflags, func(t *testing.T) {
			n, err := BinaryNames(buildProg(t, tt.goos, tt.goarch, tt.ldflags))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"main.main", "main.outOfLine", "main.(*T).Method", "main.sum[...]", "runtime.mallocgc"} {
				if !n.Has(f) {
					t.Errorf("%s not among the %d names", f, n.Len())
				}
			}
			// Inlined everywhere: only DWARF names them.
			for _, f := range []string{"main.inlined", "main.main.func1"} {
				if n.Has(f) != tt.inlined {
					t.Errorf("%s found %v, want %v", f, n.Has(f), tt.inlined)
				}
			}
			if n.Inlined != tt.inlined {
				t.Errorf("Inlined %v, want %v", n.Inlined, tt.inlined)
			}
			if n.Has("main.nothere") {
				t.Error("a function that does not exist is found")
			}
			if !strings.HasSuffix(n.Source, tt.tables) {
				t.Errorf("source %q, want the tables %s", n.Source, tt.tables)
			}
		})
	}
}

func TestBinaryNamesErrors(t *testing.T) {
	dir := crosstest.TempDir(t)
	text := filepath.Join(dir, "text")
	if err := os.WriteFile(text, []byte("#!/bin/sh\necho hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := BinaryNames(text); err == nil || !strings.Contains(err.Error(), "is not an ELF, PE or Mach-O executable") {
		t.Errorf("a script: %v", err)
	}
	if _, err := BinaryNames(filepath.Join(dir, "missing")); err == nil || !strings.HasPrefix(err.Error(), "profiles: ") {
		t.Errorf("a missing file: %v", err)
	}
}
