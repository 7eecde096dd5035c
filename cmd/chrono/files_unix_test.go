//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/result"
)

// TestOutputsToOnePath: two outputs that name one file (also spelled
// differently, or through a link) are refused before anything is
// measured, as two writers of standard output are; so is an output that
// names the input. Two exports to one character device are allowed.
func TestOutputsToOnePath(t *testing.T) {
	trace, err := os.ReadFile(filepath.Join("testdata", "trace-known.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := crosstest.TempDir(t)
	t.Chdir(dir)
	marker := filepath.Join(dir, "ran")
	touch := "touch " + marker
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile("real.json", []byte("kept"), 0o644))
	must(os.Symlink("real.json", "latest.json"))
	must(os.Mkdir("sub", 0o755))
	must(unix.Mkfifo("pipe", 0o600))
	must(os.WriteFile("t.json", trace, 0o644))
	const same = "write the same file, the second replacing the first: give each its own FILE"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--export-json", "a.json", "--export-csv", "a.json", touch}, "--export-json a.json and --export-csv a.json " + same},
		{[]string{"run", "--export-json", "a.json", "--export-csv", "./a.json", touch}, "--export-json a.json and --export-csv ./a.json " + same},
		{[]string{"run", "--export-json", "sub/../a.json", "--export-markdown", filepath.Join(dir, "a.json"), touch}, same},
		{[]string{"run", "--export-json", "latest.json", "--export-markdown", "real.json", touch}, "--export-json latest.json and --export-markdown real.json " + same},
		{[]string{"run", "--export-json", "pipe", "--export-csv", "./pipe", touch}, same},
		{[]string{"run", "--export-json", "a.json", "--export-hyperfine-json", "./a.json", touch}, "--export-json a.json and --export-hyperfine-json ./a.json " + same},
		{[]string{"run", "--export-csv", "a.csv", "--output", "./a.csv", touch}, "--export-csv a.csv and --output ./a.csv " + same},
		{[]string{"stat", "--export-json", "a.json", "--export-markdown", "./a.json", "--", "touch", marker}, same},
		{[]string{"trace", "t.json", "--html", "a.html", "--export-markdown", "./a.html"}, "--export-markdown ./a.html and --html a.html " + same},
		{[]string{"trace", "t.json", "--html", "./t.json"}, "--html ./t.json would replace the input t.json: give another FILE"},
		{[]string{"report", "real.json", "--export-markdown", "latest.json"}, "--export-markdown latest.json would replace the input real.json"},
		{[]string{"report", "t.json", "--html", "t.json"}, "would replace the input"},
		{[]string{"history", "export", "x", "--db", "none.db", "--export-csv", "s.csv", "--export-json", "./s.csv"}, "--export-json ./s.csv and --export-csv s.csv " + same},
		{[]string{"history", "trend", "x", "--db", "none.db", "--html", "a.html", "--export-markdown", "./a.html"}, "--export-markdown ./a.html and --html a.html " + same},
	} {
		_, errs, code := runChrono(t, "", c.args...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("chrono %q: exit %d, stderr %q; want exit 2 and %q", c.args, code, errs, c.want)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Errorf("chrono %q ran the command before refusing", c.args)
			os.Remove(marker)
		}
		for _, p := range []string{"a.json", "a.csv", "a.html", "s.csv", "none.db"} {
			if _, err := os.Lstat(p); err == nil {
				t.Errorf("chrono %q wrote %s before refusing", c.args, p)
				os.Remove(p)
			}
		}
	}
	if b, _ := os.ReadFile("real.json"); string(b) != "kept" {
		t.Errorf("real.json holds %q", b)
	}
	if b, _ := os.ReadFile("t.json"); !bytes.Equal(b, trace) {
		t.Errorf("t.json was changed")
	}
	// One character device takes both exports: nothing is replaced.
	if _, errs, code := runChrono(t, "", "run", "-N", "--runs", "2", "--style", "none", "--export-json", "/dev/null", "--export-csv", "/dev/null", "true"); code != exitOK {
		t.Errorf("two exports to /dev/null: exit %d, stderr %q", code, errs)
	}
}

// oneDocument decodes b as exactly one command document.
func oneDocument(t *testing.T, what string, b []byte) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	var d result.Document
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("%s: %d bytes, not a document: %v", what, len(b), err)
	}
	if d.Kind != result.KindCommand || len(d.Measurements) != 2 || d.Incomplete {
		t.Errorf("%s: kind %q, %d measurements, incomplete %v; want the final document of both commands", what, d.Kind, len(d.Measurements), d.Incomplete)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		t.Errorf("%s: more after the document (%v): want one document, written once", what, err)
	}
}

// TestExportInPlace: an export to a FIFO, to /dev/fd/N (a shell's
// >(cmd)), through a link, or to a character device is written in place
// and once, with the final document, though run exports a file after
// every command; the FIFO stays a FIFO, the link a link, the device a
// device.
func TestExportInPlace(t *testing.T) {
	dir := crosstest.TempDir(t)
	runArgs := func(export string) []string {
		return []string{"run", "-N", "--runs", "2", "--style", "none", "--export-json", export, "true", "true"}
	}

	t.Run("FIFO", func(t *testing.T) {
		fifo := filepath.Join(dir, "fifo")
		if err := unix.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		got := make(chan []byte, 1)
		go func() {
			f, err := os.Open(fifo)
			if err != nil {
				got <- nil
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			got <- b
		}()
		_, errs, code := runChrono(t, "", runArgs(fifo)...)
		fi, err := os.Lstat(fifo)
		if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
			t.Fatalf("exit %d, stderr %q: the FIFO is now %v (%v)", code, errs, fi.Mode(), err)
		}
		// Should chrono never have opened it, a writer of ours ends the
		// reader's wait (a reader gone already makes this fail: fine).
		if w, err := os.OpenFile(fifo, os.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		b := <-got
		if code != exitOK {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		oneDocument(t, "the FIFO's reader", b)
	})

	t.Run("descriptor", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		got := make(chan []byte, 1)
		go func() { b, _ := io.ReadAll(r); got <- b }()
		_, errs, code := runChrono(t, "", runArgs(fmt.Sprintf("/dev/fd/%d", w.Fd()))...)
		w.Close()
		b := <-got
		if code != exitOK {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		oneDocument(t, "the pipe's reader", b)
	})

	t.Run("link", func(t *testing.T) {
		real, link := filepath.Join(dir, "real.json"), filepath.Join(dir, "latest.json")
		if err := os.WriteFile(real, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("real.json", link); err != nil {
			t.Fatal(err)
		}
		if _, errs, code := runChrono(t, "", runArgs(link)...); code != exitOK {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		if got, err := os.Readlink(link); err != nil || got != "real.json" {
			t.Errorf("latest.json: %q, %v; want still a link to real.json", got, err)
		}
		b, err := os.ReadFile(real)
		if err != nil {
			t.Fatal(err)
		}
		oneDocument(t, "real.json", b)
		if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
			t.Errorf("real.json mode %v, want its old -rw-------", fi.Mode())
		}
	})

	t.Run("character device", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to make a null device node of the test's own")
		}
		node := filepath.Join(dir, "null")
		if err := unix.Mknod(node, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
			t.Skipf("cannot make a null device node in %s: %v", dir, err)
		}
		if _, errs, code := runChrono(t, "", runArgs(node)...); code != exitOK {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		if fi, err := os.Lstat(node); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Errorf("the null device is now %v (%v)", fi.Mode(), err)
		}
	})
}
