package run

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/crosstest"
)

func shOrSkip(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("needs sh and process groups")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
}

// recordProbe records its calls.
type recordProbe struct{ starts, stops, stopPid int }

func (p *recordProbe) Start() error { p.starts++; return nil }
func (p *recordProbe) Stop(s *Sample) error {
	p.stops++
	p.stopPid = s.Pid
	return nil
}

// TestProcSpawnerStatus: exit codes and signals reach the Sample, and each run
// calls its own Probe once before and once after. Every command runs
// three times, so that both ways of waiting (parked, the first time, and
// blocking once it is known to be short) are used.
func TestProcSpawnerStatus(t *testing.T) {
	shOrSkip(t)
	sp := newProcSpawner(context.Background())
	defer sp.Close()
	for _, tc := range []struct {
		script string
		code   int
		signal int
	}{
		{"exit 0", 0, 0},
		{"exit 3", 3, 0},
		{"kill -TERM $$", -1, 15},
		{"kill -KILL $$", -1, 9},
	} {
		for i := 0; i < 3; i++ {
			var p recordProbe
			s, err := sp.Run(proc{Argv: []string{"sh", "-c", tc.script}, Probe: &p})
			if err != nil {
				t.Fatalf("%q: %v", tc.script, err)
			}
			if s.ExitCode != tc.code || s.SignalNumber != tc.signal || (tc.signal != 0) != (s.Signal != "") {
				t.Errorf("%q run %d: exit %d, signal %d %q; want %d, %d", tc.script, i, s.ExitCode, s.SignalNumber, s.Signal, tc.code, tc.signal)
			}
			if p.starts != 1 || p.stops != 1 || p.stopPid != s.Pid || s.Pid <= 0 {
				t.Errorf("%q: probe started %d, stopped %d times (pid %d, sample pid %d)", tc.script, p.starts, p.stops, p.stopPid, s.Pid)
			}
		}
	}
	if _, err := sp.Run(proc{Argv: []string{"/nonexistent/chrono-spawn-test"}}); err == nil || !strings.Contains(err.Error(), "cannot start") {
		t.Errorf("nonexistent command: err %v", err)
	}
	var p recordProbe
	if _, err := sp.Run(proc{Path: "/nonexistent/chrono-spawn-test", Argv: []string{"x"}, Probe: &p}); err == nil || p.starts != 1 || p.stops != 1 || p.stopPid != 0 {
		t.Errorf("unstartable command: err %v, probe %+v; want an error and a Stop with pid 0", err, p)
	}
}

// TestProcSpawnerTimeout: a run that outlives its timeout is killed with its
// process group, in both ways of waiting: the first run of a command
// parks; the second, after a short first run, waits in ppoll and parks
// after the deadline.
func TestProcSpawnerTimeout(t *testing.T) {
	shOrSkip(t)
	mark := filepath.Join(crosstest.TempDir(t), "long")
	script := `if [ -e "$MARK" ]; then sleep 30 & sleep 30; fi`
	env := append(os.Environ(), "MARK="+mark)
	sp := newProcSpawner(context.Background())
	defer sp.Close()
	for i, long := range []bool{true, false, true} {
		if long {
			if err := os.WriteFile(mark, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			os.Remove(mark)
		}
		proc := proc{Argv: []string{"sh", "-c", script}, Env: env}
		if long {
			proc.Timeout = 100 * time.Millisecond // the short run has none: a loaded host may be slow
		}
		s, err := sp.Run(proc)
		if err != nil {
			t.Fatal(err)
		}
		if s.TimedOut != long {
			t.Errorf("run %d (long %v): timed out %v", i, long, s.TimedOut)
		}
		if long && pgroupAlive(s.Pid) {
			t.Errorf("run %d: process group %d survives the timeout", i, s.Pid)
		}
	}
}

// TestProcSpawnerCancel: canceling the context kills the running command's
// process group (its background child included) and Run says so.
func TestProcSpawnerCancel(t *testing.T) {
	shOrSkip(t)
	pidFile := filepath.Join(crosstest.TempDir(t), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sp := newProcSpawner(ctx)
	defer sp.Close()
	go func() {
		for {
			if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	script := `trap "" INT TERM; sleep 30 & echo $$ > "$PIDFILE"; sleep 30`
	s, err := sp.Run(proc{Argv: []string{"sh", "-c", script}, Env: append(os.Environ(), "PIDFILE="+pidFile)})
	if !errors.Is(err, errInterrupted) {
		t.Fatalf("err %v, want errInterrupted", err)
	}
	b, _ := os.ReadFile(pidFile)
	if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid != s.Pid || pgroupAlive(s.Pid) {
		t.Errorf("process group %d (sh %d) survives the cancel", s.Pid, pid)
	}
	if _, err := sp.Run(proc{Argv: []string{"true"}}); !errors.Is(err, errInterrupted) {
		t.Errorf("a run after the cancel: err %v, want errInterrupted", err)
	}
}

// BenchmarkSpawnTrue is one timing run of `true` through the spawner, as
// chrono run -N makes it: its CPU profile (-cpuprofile) shows where
// chrono's own CPU per process goes (issue 20: 91 µs against hyperfine's
// 71 µs), the child's own included in the total.
func BenchmarkSpawnTrue(b *testing.B) {
	path, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true in PATH")
	}
	dn, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer dn.Close()
	sp := newSpawner()
	defer sp.close()
	spec := &execSpec{path: path, argv: []string{"true"}, env: os.Environ(), stdin: dn, stdout: dn}
	for b.Loop() {
		if _, _, err := sp.run(spec); err != nil {
			b.Fatal(err)
		}
	}
}
