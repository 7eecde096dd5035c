package crosstest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/wine"
)

// TestTempDirRemoved: what TempDir returns is a directory the test may
// fill, and removeTree empties it with os.Remove alone (what TempDir's
// cleanup does under Wine), nested directories included.
func TestTempDirRemoved(t *testing.T) {
	dir := TempDir(t)
	tree := filepath.Join(dir, "tree")
	for _, p := range []string{"a/b/c.txt", "a/d.txt", "e.txt"} {
		p = filepath.Join(tree, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := removeTree(tree); err != nil {
		t.Fatalf("removeTree: %v", err)
	}
	if _, err := os.Stat(tree); !os.IsNotExist(err) {
		t.Errorf("%s still there after removeTree: %v", tree, err)
	}
	if err := removeTree(filepath.Join(dir, "missing")); err == nil {
		t.Errorf("removeTree of a missing directory gave no error")
	}
}

// TestNoBareTempDir: every test of the module takes its temporary
// directory from TempDir, since t.TempDir's own cleanup fails under Wine
// 8.0 (see TempDir), so the Windows suite would fail where the Linux one
// passes.
func TestNoBareTempDir(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	bare := regexp.MustCompile(`\b\w+\.` + `TempDir\(\)`)
	var found []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if bare.MatchString(line) {
				rel, _ := filepath.Rel(root, path)
				found = append(found, rel+":"+strconv.Itoa(i+1))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("t.TempDir called directly (use crosstest.TempDir(t), whose cleanup works under Wine): %s", strings.Join(found, ", "))
	}
}

// TestSkipUnderWine: it skips exactly under Wine, saying why.
func TestSkipUnderWine(t *testing.T) {
	_, under := wine.Version()
	ran := false
	t.Run("sub", func(t *testing.T) {
		SkipUnderWine(t, "timeBeginPeriod has no effect there")
		ran = true
	})
	if ran == under {
		t.Errorf("under Wine %v, the test after SkipUnderWine ran %v", under, ran)
	}
}

// TestArgv: a program of the test's platform runs through
// go_GOOS_GOARCH_exec when that is on PATH, by itself otherwise.
func TestArgv(t *testing.T) {
	name := "go_" + runtime.GOOS + "_" + runtime.GOARCH + "_exec"
	dir := TempDir(t)
	t.Setenv("PATH", dir)
	if got := Argv("prog", "-x"); !slices.Equal(got, []string{"prog", "-x"}) {
		t.Errorf("without %s on PATH: %q", name, got)
	}
	if runtime.GOOS == "windows" {
		return // a script on PATH is no program there
	}
	wrapper := filepath.Join(dir, name)
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Argv("prog", "-x"); !slices.Equal(got, []string{wrapper, "prog", "-x"}) {
		t.Errorf("with %s on PATH: %q", wrapper, got)
	}
}
