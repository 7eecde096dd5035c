package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// chrono subcommands read result documents back: chrono report renders
// what chrono stats --json wrote, and compares it with a baseline.
func TestReportReadsDocuments(t *testing.T) {
	dir := t.TempDir()
	write := func(name, numbers string) string {
		out, errs, code := runChrono(t, numbers, "stats", "--json")
		if code != exitOK {
			t.Fatalf("stats --json: exit %d: %s", code, errs)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	old := write("old.json", "10ms 11ms 10ms 12ms 10ms 11ms 10ms 11ms\n")
	slower := write("new.json", "20ms 21ms 20ms 22ms 20ms 21ms 20ms 21ms\n")

	out, errs, code := runChrono(t, "", "report", old)
	if code != exitOK || !strings.Contains(out, "stdin        value   8  10.5 ms") {
		t.Errorf("report: exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
	doc, _ := os.ReadFile(old)
	if out2, _, code := runChrono(t, string(doc), "report", "-"); code != exitOK || out2 != out {
		t.Errorf("report from stdin differs (exit %d):\n%s", code, out2)
	}
	out, _, code = runChrono(t, "", "report", "--format", "csv", old)
	if code != exitOK || !strings.HasPrefix(out, "measurement,metric,unit,n,median") || !strings.Contains(out, "stdin,value,ns,8,10500000,") {
		t.Errorf("csv: exit %d:\n%s", code, out)
	}
	out, _, code = runChrono(t, "", "report", "--baseline", old, slower)
	if code != exitOK || !strings.Contains(out, "x slower (higher) than the baseline") {
		t.Errorf("baseline: exit %d:\n%s", code, out)
	}
}

func TestReportErrors(t *testing.T) {
	dir := t.TempDir()
	newer := filepath.Join(dir, "newer.json")
	os.WriteFile(newer, []byte(`{"schema":"chronograph.result","version":99}`), 0o644)
	notDoc := filepath.Join(dir, "not.json")
	os.WriteFile(notDoc, []byte(`{"hello":1}`), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"newer schema", []string{"report", newer}, exitFailure, "newer than this chrono understands (2); upgrade chrono"},
		{"not a document", []string{"report", notDoc}, exitFailure, "not a chronograph result document"},
		{"missing file", []string{"report", filepath.Join(dir, "none.json")}, exitFailure, "no such file"},
		{"bad format", []string{"report", "--format", "xml", notDoc}, exitUsage, `unknown format "xml"`},
		{"baseline with json", []string{"report", "--format", "json", "--baseline", notDoc, notDoc}, exitUsage, "--baseline writes text, markdown or csv"},
		{"bad percentiles", []string{"report", "-p", "200", notDoc}, exitUsage, "200"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, code := runChrono(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errs, tt.code, tt.want)
			}
		})
	}
}
