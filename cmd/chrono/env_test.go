package main

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/result"
)

func TestEnvJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if code := execute([]string{"env", "--json"}, &out, &errb); code != exitOK {
		t.Fatalf("chrono env --json: exit %d, stderr %q", code, errb.String())
	}
	d, err := result.Unmarshal(out.Bytes())
	if err != nil {
		t.Fatalf("output is not a result document: %v\n%s", err, out.String())
	}
	if d.Kind != "env" || d.Tool.Name != "chrono" || d.Tool.GoVersion != runtime.Version() {
		t.Errorf("kind %q, tool %+v; want kind env, tool chrono %s", d.Kind, d.Tool, runtime.Version())
	}
	if len(d.Measurements) != 0 {
		t.Errorf("env wrote %d measurements, want none", len(d.Measurements))
	}
	if d.End.Before(d.Start) {
		t.Errorf("end %v before start %v", d.End, d.Start)
	}
	h := d.Environment
	if h == nil {
		t.Fatal("no environment in the document")
	}
	if h.Go.Version != runtime.Version() || h.Go.GOMAXPROCS != runtime.GOMAXPROCS(0) {
		t.Errorf("environment Go = %+v, want this runtime", h.Go)
	}
	if runtime.GOOS == "linux" && h.CPU.LogicalCPUs == 0 && h.Reason("cpu.logical_cpus") == "" {
		t.Error("logical CPUs neither read nor explained")
	}
}

func TestEnvText(t *testing.T) {
	var out, errb bytes.Buffer
	if code := execute([]string{"env"}, &out, &errb); code != exitOK {
		t.Fatalf("chrono env: exit %d, stderr %q", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{"CPU\n", "Frequency\n", "Kernel and OS\n", "Scheduler and timers\n", "Go and build\n", "Process\n", runtime.Version()} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "Warnings\n") && !strings.Contains(text, "No warnings") {
		t.Errorf("output has no warnings section:\n%s", text)
	}
}

func TestEnvUsage(t *testing.T) {
	tests := [][]string{{"env", "extra"}, {"env", "--bogus"}}
	for _, args := range tests {
		var out, errb bytes.Buffer
		if code := execute(args, &out, &errb); code != exitUsage {
			t.Errorf("chrono %s: exit %d, want %d (stderr %q)", strings.Join(args, " "), code, exitUsage, errb.String())
		}
	}
}
