package main

import (
	"bytes"
	"errors"
	golden_ "github.com/chronograph/chronograph/internal/golden"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// golden compares got with testdata/name, or rewrites it with -update
// (see internal/golden).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden_.Check(t, filepath.Join("testdata", name), got)
}

// noop is a command line for -N that runs a program doing nothing: true;
// on windows, which has no true program, cmd's rem.
var noop = func() string {
	if runtime.GOOS == "windows" {
		return "cmd /c rem"
	}
	return "true"
}()

// notFound is what this platform says of a file that does not exist when
// opening path ("no such file or directory"; windows words it otherwise),
// for the tests of the errors that quote it.
func notFound(t *testing.T, path string) string {
	t.Helper()
	_, err := os.Open(path)
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		t.Fatalf("opening %s: %v, want a *fs.PathError", path, err)
	}
	return pe.Err.Error()
}

// runChrono executes chrono with args and stdin, returning stdout, stderr and
// the exit code.
func runChrono(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = executeWithInput(args, bytes.NewBufferString(stdin), &out, &errb)
	return out.String(), errb.String(), code
}
