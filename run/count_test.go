package run

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/crosstest"
)

func countersOrSkip(t *testing.T) []counters.Event {
	t.Helper()
	shOrSkip(t)
	if a := counters.Available(); !a.Software {
		t.Skip("software counters unavailable: " + a.SoftwareReason)
	}
	evs, err := counters.ParseEvents("task-clock,page-faults")
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestCountBadOptions(t *testing.T) {
	for _, tt := range []struct {
		name string
		argv []string
		runs int
		want string
	}{
		{"no command", nil, 1, "needs a command"},
		{"no runs", []string{"true"}, 0, "at least 1 run, not 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := Count(context.Background(), tt.argv, CountOptions{Runs: tt.runs}); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err %v, want %q", err, tt.want)
			}
		})
	}
}

// TestCount: every run is made and counted whatever it exits with, its
// output goes where the options say, and the Stat holds what chrono
// stat's document needs.
func TestCount(t *testing.T) {
	evs := countersOrSkip(t)
	var out bytes.Buffer
	st, samples, err := Count(context.Background(), []string{"sh", "-c", "echo out; echo err >&2; read x; echo \"$x\"; exit 3"},
		CountOptions{Events: evs, Runs: 2, Stdin: strings.NewReader("in\n"), Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	if len(samples) != 2 || len(st.Runs) != 2 || st.Asked != 2 || st.Interrupted {
		t.Fatalf("%d samples, %d runs of %d, interrupted %v; want 2 runs", len(samples), len(st.Runs), st.Asked, st.Interrupted)
	}
	for i, s := range samples {
		if s.ExitCode != 3 || st.Runs[i].ExitCode != 3 || st.Runs[i].Wall != s.Wall {
			t.Errorf("run %d: sample %+v, counted %+v; want exit code 3 in both", i, s, st.Runs[i])
		}
		if c := st.Runs[i].Reading.Counts; len(c) != 2 || !c[0].IsCounted() || c[0].Event.Name != "task-clock" {
			t.Errorf("run %d: counts %+v, want task-clock and page-faults counted", i, c)
		}
	}
	// The first run read the input: the second gets none.
	if got := out.String(); strings.Count(got, "out\n") != 2 || strings.Count(got, "err\n") != 2 || strings.Count(got, "in\n") != 1 {
		t.Errorf("the command's output %q, want out and err twice and the input once", got)
	}
	if st.Source != counters.SourcePerf || strings.Join(st.Events, ",") != "task-clock,page-faults" || st.Start.IsZero() || st.End.Before(st.Start) ||
		st.CPUTimeResolution != cpuTimeResolution {
		t.Errorf("stat %+v", st)
	}
	if _, _, err := Count(context.Background(), []string{"/nonexistent/chrono-count-test"}, CountOptions{Events: evs, Runs: 1}); err == nil ||
		!strings.Contains(err.Error(), "cannot start") {
		t.Errorf("a missing command: err %v", err)
	}
}

// TestCountInterrupt: canceling the context kills the running command
// and its group, makes no further run and returns the finished runs,
// marked interrupted.
func TestCountInterrupt(t *testing.T) {
	evs := countersOrSkip(t)
	dir := crosstest.TempDir(t)
	mark, pid := filepath.Join(dir, "ran"), filepath.Join(dir, "pid")
	script := `if [ -e "$0" ]; then echo $$ > "$1"; exec sleep 60; else : > "$0"; fi`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Cancel once the second run is there (its pid file written).
		for ctx.Err() == nil {
			if b, err := os.ReadFile(pid); err == nil && strings.HasSuffix(string(b), "\n") {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	st, samples, err := Count(ctx, []string{"sh", "-c", script, mark, pid}, CountOptions{Events: evs, Runs: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Interrupted || len(st.Runs) != 1 || len(samples) != 1 || st.Asked != 5 {
		t.Errorf("interrupted %v, %d runs (%d samples) of %d; want the one finished run of 5", st.Interrupted, len(st.Runs), len(samples), st.Asked)
	}
}
