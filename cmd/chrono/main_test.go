package main

import (
	"bytes"
	golden_ "github.com/chronograph/chronograph/internal/golden"
	"path/filepath"
	"testing"
)

// golden compares got with testdata/name, or rewrites it with -update
// (see internal/golden).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden_.Check(t, filepath.Join("testdata", name), got)
}

// runChrono executes chrono with args and stdin, returning stdout, stderr and
// the exit code.
func runChrono(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = executeWithInput(args, bytes.NewBufferString(stdin), &out, &errb)
	return out.String(), errb.String(), code
}
