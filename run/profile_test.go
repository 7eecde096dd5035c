package run

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/profiles"
	"github.com/chronograph/chronograph/profiles/cpuprof"
)

// spinCPU burns CPU for iters steps, for profiles to sample.
func spinCPU(iters int) uint64 {
	x := uint64(1)
	for i := 0; i < iters; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

var spinOut uint64

// TestProfileGo: a Go program that honours $CHRONO_CPUPROFILE (this test
// binary again, told by the environment to spin under cpuprof) is
// profiled in runs of its own; the command's profile is the sum of the
// runs' files.
func TestProfileGo(t *testing.T) {
	if os.Getenv("CHRONO_RUN_TEST_SPIN") == "1" {
		defer cpuprof.Start()()
		spinOut = spinCPU(50_000_000)
		return
	}
	t.Setenv("CHRONO_RUN_TEST_SPIN", "1")
	cmds, err := Commands([]string{joinWords(crosstest.Argv(os.Args[0], "-test.run=^TestProfileGo$"))}, nil, nil, Options{NoShell: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := crosstest.TempDir(t)
	cps, err := Profile(context.Background(), cmds, Options{NoShell: true}, ProfileOptions{Dir: dir, Runs: 2, Profiler: ProfilerGo})
	if err != nil {
		t.Fatal(err)
	}
	if len(cps) != 1 || cps[0].Source != SourceCPUProf || cps[0].Runs != 2 || len(cps[0].Files) != 2 {
		t.Fatalf("profiles %+v, want one of 2 cpuprof runs", cps)
	}
	var sum int64
	for _, f := range cps[0].Files {
		p, err := profiles.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := profiles.Samples(p)
		sum += n
	}
	if n, _ := profiles.Samples(cps[0].Profile); n != sum || n == 0 {
		t.Errorf("the merged profile holds %d samples, the runs' files %d", n, sum)
	}
}

// perfWorks skips the test unless perf record -e cpu-clock works here.
func perfWorks(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("perf is Linux's")
	}
	shOrSkip(t)
	data := filepath.Join(crosstest.TempDir(t), "probe.data")
	if out, err := exec.Command("perf", "record", "-q", "-e", "cpu-clock", "-o", data, "--", "true").CombinedOutput(); err != nil {
		t.Skipf("perf record -e cpu-clock does not work here (%v: %s)", err, out)
	}
}

// TestProfileAutoPerf: a command that writes no profile of its own is
// profiled with perf under ProfilerAuto, and its profile names the
// shell's functions.
func TestProfileAutoPerf(t *testing.T) {
	perfWorks(t)
	cmds, err := Commands([]string{`i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done`}, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cps, err := Profile(context.Background(), cmds, Options{}, ProfileOptions{Dir: crosstest.TempDir(t), Runs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if cps[0].Source != SourcePerf {
		t.Fatalf("source %q, want %q", cps[0].Source, SourcePerf)
	}
	if n, _ := profiles.Samples(cps[0].Profile); n == 0 {
		t.Error("the perf profile holds no samples")
	}
	for _, f := range cps[0].Files {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
}

func TestProfileErrors(t *testing.T) {
	shOrSkip(t)
	dir := crosstest.TempDir(t)
	cmds, err := Commands([]string{"true"}, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		opts Options
		po   ProfileOptions
		want string
	}{
		{"no directory", Options{}, ProfileOptions{Dir: filepath.Join(dir, "missing")}, "does not exist"},
		{"negative runs", Options{}, ProfileOptions{Dir: dir, Runs: -1}, "profiled runs"},
		{"simulated", Options{Simulate: true}, ProfileOptions{Dir: dir}, "--debug-mode"},
		{"no go profile", Options{}, ProfileOptions{Dir: dir, Runs: 1, Profiler: ProfilerGo}, "profiles/cpuprof"},
		{"no perf", Options{}, ProfileOptions{Dir: dir, Runs: 1, Profiler: ProfilerAuto, Perf: "chrono-no-such-perf"}, "install linux-perf"},
	} {
		_, err := Profile(context.Background(), cmds, tt.opts, tt.po)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
}
