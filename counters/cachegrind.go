package counters

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// SourceCachegrind labels counts simulated by valgrind's cachegrind.
const SourceCachegrind = "simulated (valgrind cachegrind)"

// CachegrindEvents are the totals cachegrind reports with --cache-sim=yes.
var CachegrindEvents = []string{"Ir", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw"}

var cachegrindDesc = map[string]string{
	"Ir":   "instructions executed (simulated)",
	"I1mr": "L1 instruction cache read misses (simulated)",
	"ILmr": "last-level cache instruction read misses (simulated)",
	"Dr":   "memory reads (simulated)",
	"D1mr": "L1 data cache read misses (simulated)",
	"DLmr": "last-level cache data read misses (simulated)",
	"Dw":   "memory writes (simulated)",
	"D1mw": "L1 data cache write misses (simulated)",
	"DLmw": "last-level cache data write misses (simulated)",
}

// ParseCachegrind reads a cachegrind output file (--cachegrind-out-file)
// and returns its totals (the "summary:" line, named by the "events:"
// line) as a reading of Simulated events with Source SourceCachegrind.
func ParseCachegrind(r io.Reader) (Reading, error) {
	var events, totals []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "events:"):
			events = strings.Fields(strings.TrimPrefix(line, "events:"))
		case strings.HasPrefix(line, "summary:"):
			totals = strings.Fields(strings.TrimPrefix(line, "summary:"))
		case strings.HasPrefix(line, "totals:"):
			totals = strings.Fields(strings.TrimPrefix(line, "totals:"))
		}
	}
	if err := sc.Err(); err != nil {
		return Reading{}, fmt.Errorf("counters: reading cachegrind output: %w", err)
	}
	if events == nil {
		return Reading{}, errors.New(`counters: cachegrind output has no "events:" line (not a cachegrind output file?)`)
	}
	if totals == nil {
		return Reading{}, errors.New(`counters: cachegrind output has no "summary:" line (did valgrind finish?)`)
	}
	if len(totals) > len(events) {
		return Reading{}, fmt.Errorf("counters: cachegrind summary has %d totals for %d events", len(totals), len(events))
	}
	rd := Reading{Source: SourceCachegrind}
	for i, name := range events {
		c := Count{Event: Event{Name: name, Kind: Simulated, Unit: "count"}}
		if i >= len(totals) {
			// Cachegrind omits trailing zero totals.
			c.State = Counted
			rd.Counts = append(rd.Counts, c)
			continue
		}
		v, err := strconv.ParseUint(strings.ReplaceAll(totals[i], ",", ""), 10, 64)
		if err != nil {
			return Reading{}, fmt.Errorf("counters: cachegrind total %q for %s is not a count: %w", totals[i], name, err)
		}
		c.State, c.Raw, c.Value = Counted, v, float64(v)
		rd.Counts = append(rd.Counts, c)
	}
	return rd, nil
}

// RunCachegrind runs argv once under valgrind's cachegrind
// (valgrind --tool=cachegrind --cache-sim=yes), with valgrind's own
// messages in a log file rather than the command's stderr, and returns the
// simulated totals. The counts are deterministic for a deterministic
// program but describe a simulated CPU, and only the top process (not its
// children). Wall, User and Sys are those of the simulation.
func RunCachegrind(ctx context.Context, argv []string, stdio Stdio) (CommandRun, error) {
	if len(argv) == 0 {
		return CommandRun{}, errors.New("counters: no command to run")
	}
	vg, err := exec.LookPath("valgrind")
	if err != nil {
		return CommandRun{}, fmt.Errorf("counters: valgrind is needed for simulated counts: %w (install it, e.g. apt-get install valgrind)", err)
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return CommandRun{}, fmt.Errorf("counters: cannot run %s under valgrind: %w", argv[0], err)
	}
	dir, err := os.MkdirTemp("", "chrono-cachegrind-")
	if err != nil {
		return CommandRun{}, fmt.Errorf("counters: %w", err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "cachegrind.out")
	logf := filepath.Join(dir, "valgrind.log")
	args := append([]string{"--tool=cachegrind", "--cache-sim=yes", "--cachegrind-out-file=" + out, "--log-file=" + logf}, argv...)
	cmd := exec.CommandContext(ctx, vg, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdio.Stdin, stdio.Stdout, stdio.Stderr
	run, err := waitRun(cmd)
	if err != nil {
		return run, err
	}
	f, err := os.Open(out)
	if err != nil {
		return run, fmt.Errorf("counters: valgrind wrote no cachegrind output (exit code %d): %s", run.ExitCode, logTail(logf))
	}
	defer f.Close()
	run.Reading, err = ParseCachegrind(f)
	return run, err
}

// logTail returns the last lines of valgrind's log, for an error message.
func logTail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "no valgrind log"
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	for i, l := range lines {
		// Valgrind prefixes its lines with ==pid==.
		if j := strings.Index(l, "== "); strings.HasPrefix(l, "==") && j > 0 {
			lines[i] = l[j+3:]
		}
	}
	return strings.Join(lines, "; ")
}
