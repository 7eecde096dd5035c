package cpuprof

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/internal/crosstest"
)

func TestStart(t *testing.T) {
	dir := crosstest.TempDir(t)
	path := filepath.Join(dir, "cpu.pprof")
	var stderr bytes.Buffer
	stop := start(path, &stderr)
	x := 0
	for i := range 1_000_000 {
		x += i * i % 7
	}
	stop()
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatalf("the file is not a profile: %v", err)
	}
	if len(p.SampleType) != 2 || p.SampleType[0].Type != "samples" || p.SampleType[1].Type != "cpu" {
		t.Errorf("sample types %v: not a CPU profile", p.SampleType)
	}
	_ = x
}

func TestStartUnset(t *testing.T) {
	var stderr bytes.Buffer
	start("", &stderr)()
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
}

func TestStartErrors(t *testing.T) {
	dir := crosstest.TempDir(t)
	var stderr bytes.Buffer
	start(filepath.Join(dir, "no", "such", "dir", "p"), &stderr)()
	if !strings.HasPrefix(stderr.String(), "cpuprof: CHRONO_CPUPROFILE: ") {
		t.Errorf("an uncreatable file: stderr %q", stderr.String())
	}
	// A second profile while one runs: the second is refused, its file
	// removed, the first unharmed.
	first := filepath.Join(dir, "first")
	stop := start(first, &stderr)
	stderr.Reset()
	second := filepath.Join(dir, "second")
	start(second, &stderr)()
	stop()
	if !strings.Contains(stderr.String(), "cpuprof: CHRONO_CPUPROFILE: ") {
		t.Errorf("a second profile: stderr %q", stderr.String())
	}
	if _, err := os.Stat(second); !os.IsNotExist(err) {
		t.Errorf("the refused profile's file is left: %v", err)
	}
	// A refused profile to a path that was there before (a FIFO, a
	// device, a symlink: here a file) leaves the path in place.
	there := filepath.Join(dir, "there")
	if err := os.WriteFile(there, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop = start(first, &stderr)
	start(there, &stderr)()
	stop()
	if _, err := os.Stat(there); err != nil {
		t.Errorf("a refused profile removed the path that was there: %v", err)
	}
	if fi, err := os.Stat(first); err != nil || fi.Size() == 0 {
		t.Errorf("the first profile: %v", err)
	}
}
