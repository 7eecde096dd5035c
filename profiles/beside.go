package profiles

import (
	"path/filepath"
	"strconv"
	"strings"
)

// BesidePath returns the file that the profile of measurement i of the
// result document at docPath is kept in: beside the document, named
// after it (run.json's first measurement: run.0.pprof). A document on
// standard output ("-" or "") has no place beside it: its profiles go
// to the current directory as chrono.I.pprof.
func BesidePath(docPath string, i int) string {
	if docPath == "" || docPath == "-" {
		docPath = "chrono"
	}
	base := strings.TrimSuffix(docPath, filepath.Ext(docPath))
	return base + "." + strconv.Itoa(i) + ".pprof"
}

// RefName returns the name by which the document at docPath refers to
// the profile file at path: relative to the document's directory when
// it lies below it, else absolute (result.ProfileRef.File).
func RefName(docPath, path string) string {
	dir := "."
	if docPath != "" && docPath != "-" {
		dir = filepath.Dir(docPath)
	}
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// Resolve returns the path of the profile file that the document at
// docPath names file (result.ProfileRef.File): relative names are taken
// from the document's directory.
func Resolve(docPath, file string) string {
	file = filepath.FromSlash(file)
	if filepath.IsAbs(file) || docPath == "" || docPath == "-" {
		return file
	}
	return filepath.Join(filepath.Dir(docPath), file)
}
