package outfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
)

// names lists the entries of dir, to show that no temporary file is left.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWriteRegular replaces an existing file atomically: midway through
// the write, the path still holds the whole old content; afterwards the
// new content, the old mode, and no temporary file.
func TestWriteRegular(t *testing.T) {
	for _, mode := range []fs.FileMode{0o600, 0o640, 0o444} {
		dir := crosstest.TempDir(t)
		path := filepath.Join(dir, "a.json")
		if err := os.WriteFile(path, []byte("old content\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		// The mode as the platform keeps it: windows keeps the read-only
		// bit alone (Go shows a writable file as 0666).
		before, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		var midway string
		err = Write(path, func(w io.Writer) error {
			io.WriteString(w, strings.Repeat("new half ", 1000))
			midway = read(t, path)
			_, err := io.WriteString(w, "and the rest\n")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if midway != "old content\n" {
			t.Errorf("mode %v: a reader midway saw %q, want the old content", mode, midway)
		}
		if got, want := read(t, path), strings.Repeat("new half ", 1000)+"and the rest\n"; got != want {
			t.Errorf("mode %v: file holds %d bytes, want %d", mode, len(got), len(want))
		}
		fi, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		if !fi.Mode().IsRegular() || fi.Mode().Perm() != before.Mode().Perm() {
			t.Errorf("mode after the write: %v, want a regular file of mode %v (set as %v)", fi.Mode(), before.Mode().Perm(), mode)
		}
		if got := names(t, dir); !slices.Equal(got, []string{"a.json"}) {
			t.Errorf("directory holds %q, want only a.json", got)
		}
	}
}

// TestWriteNew creates a file of mode 0644 (on windows, which keeps a
// read-only bit alone, a writable file: 0666).
func TestWriteNew(t *testing.T) {
	dir := crosstest.TempDir(t)
	path := filepath.Join(dir, "new.csv")
	if err := WriteBytes(path, []byte("a,b\n")); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); got != "a,b\n" {
		t.Errorf("file holds %q", got)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	want := fs.FileMode(0o644)
	if runtime.GOOS == "windows" {
		want = 0o666
	}
	if fi.Mode() != want {
		t.Errorf("mode %v, want %v", fi.Mode(), want)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"new.csv"}) {
		t.Errorf("directory holds %q, want only new.csv", got)
	}
}

// TestWriteFails keeps the old file and no temporary file when the
// writer fails, and returns its error.
func TestWriteFails(t *testing.T) {
	dir := crosstest.TempDir(t)
	path := filepath.Join(dir, "a.json")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("render failed")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "outfile: writing "+path) {
		t.Errorf("error %v, want the writer's error, naming the path", err)
	}
	if got := read(t, path); got != "old\n" {
		t.Errorf("file holds %q, want the old content", got)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"a.json"}) {
		t.Errorf("directory holds %q, want only a.json", got)
	}
}

// TestRefused: what cannot be written is refused with a message that
// names the problem, before anything is created.
func TestRefused(t *testing.T) {
	dir := crosstest.TempDir(t)
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, want string
	}{
		{"empty", "", "the path is empty"},
		{"directory", dir, "is a directory: give a file name"},
		{"missing directory", filepath.Join(dir, "missing", "a.json"), "directory " + filepath.Join(dir, "missing") + " does not exist: create it"},
		{"under a file", filepath.Join(file, "a.json"), "not a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Check(c.path)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Check(%q) = %v, want an error containing %q", c.path, err, c.want)
			}
			if err := WriteBytes(c.path, []byte("x")); err == nil {
				t.Errorf("Write(%q) succeeded", c.path)
			}
			if got := names(t, dir); !slices.Equal(got, []string{"file"}) {
				t.Errorf("directory holds %q after Check and Write, want only file", got)
			}
		})
	}
}

// TestRefuse classifies the modes that are never written.
func TestRefuse(t *testing.T) {
	for _, c := range []struct {
		mode fs.FileMode
		want string // "" = writable
	}{
		{0o644, ""},
		{fs.ModeCharDevice | fs.ModeDevice | 0o666, ""},
		{fs.ModeNamedPipe | 0o600, ""},
		{fs.ModeDir | 0o755, "is a directory"},
		{fs.ModeSocket | 0o755, "is a socket"},
		{fs.ModeDevice | 0o660, "is a block device"},
		{fs.ModeIrregular, "is not a regular file"},
	} {
		err := refuse(c.mode)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("refuse(%v) = %v, want %q", c.mode, err, c.want)
		}
	}
}

// TestCheckLeavesNothing: Check of a new path and of an existing file
// passes and creates nothing.
func TestCheckLeavesNothing(t *testing.T) {
	dir := crosstest.TempDir(t)
	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, []byte("kept"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "new.json"), old} {
		if err := Check(p); err != nil {
			t.Errorf("Check(%s): %v", p, err)
		}
	}
	if got := names(t, dir); !slices.Equal(got, []string{"old.json"}) {
		t.Errorf("directory holds %q, want only old.json", got)
	}
	if got := read(t, old); got != "kept" {
		t.Errorf("old.json holds %q", got)
	}
}
