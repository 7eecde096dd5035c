package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
)

// TestEmptyPaths: a path flag given as "" (an unset variable) is
// refused before anything runs, rather than read as not given.
func TestEmptyPaths(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses POSIX programs")
	}
	dir := crosstest.TempDir(t)
	marker := filepath.Join(dir, "ran")
	touch := "touch " + marker
	doc := filepath.Join(dir, "doc.json")
	for _, c := range []struct {
		args []string
		flag string
		want string
	}{
		{[]string{"run", "--export-json", "", touch}, "--export-json", "give a FILE, or - for standard output"},
		{[]string{"run", "--export-csv=", touch}, "--export-csv", "give a FILE, or - for standard output"},
		{[]string{"run", "--export-markdown", "", touch}, "--export-markdown", "give a FILE, or - for standard output"},
		{[]string{"run", "--export-hyperfine-json", "", touch}, "--export-hyperfine-json", "give a FILE, or - for standard output"},
		{[]string{"run", "--output", "", touch}, "--output", "give null, pipe, inherit or a FILE (./NAME)"},
		{[]string{"run", "--output", "null", "--output", "", touch, touch}, "--output", "give null, pipe, inherit or a FILE"},
		{[]string{"run", "--input", "", touch}, "--input", "give a FILE, or leave --input out to read /dev/null"},
		{[]string{"stat", "--export-json", "", "--", "touch", marker}, "--export-json", "give a FILE"},
		{[]string{"sleep", "--export-markdown", ""}, "--export-markdown", "give a FILE"},
		{[]string{"latency", "--export-csv", "", "-l", "1"}, "--export-csv", "give a FILE"},
		{[]string{"clocks", "--export-json", ""}, "--export-json", "give a FILE"},
		{[]string{"env", "--export-json", ""}, "--export-json", "give a FILE"},
		{[]string{"numbers", "--export-csv", ""}, "--export-csv", "give a FILE"},
		{[]string{"report", "--html", "", doc}, "--html", "give a FILE, or - for standard output"},
		{[]string{"report", "--svg", "", doc}, "--svg", "give a directory"},
		{[]string{"report", "--baseline", "", doc}, "--baseline", "give the older result document's FILE"},
		{[]string{"trace", doc, "--html", ""}, "--html", "give a FILE"},
		{[]string{"history", "trend", "x", "--html", ""}, "--html", "give a FILE"},
		{[]string{"history", "export", "x", "--export-json", ""}, "--export-json", "give a FILE"},
		{[]string{"history", "export", "x", "--csv", ""}, "--csv", "give a FILE"},
		{[]string{"history", "check", "--export-markdown", ""}, "--export-markdown", "give a FILE"},
	} {
		_, errs, code := runChrono(t, "", c.args...)
		want := c.flag + " '': an empty path names no file (an unset variable?): " + c.want
		if code != exitUsage || !strings.Contains(errs, want) {
			t.Errorf("chrono %q: exit %d, stderr %q; want exit 2 and %q", c.args, code, errs, want)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Errorf("chrono %q ran the command before refusing", c.args)
			os.Remove(marker)
		}
	}
}
