package counters

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chronograph/chronograph/internal/excerpt"
	"github.com/chronograph/chronograph/internal/plural"
)

// SourceCachegrind labels counts simulated by valgrind's cachegrind.
const SourceCachegrind = "simulated (valgrind cachegrind)"

// CachegrindEvents are the totals cachegrind reports with --cache-sim=yes,
// by the names chronograph gives them: cachegrind's own, except "Ir"
// (instructions executed), which is "instructions" as perf calls it.
var CachegrindEvents = []string{"instructions", "I1mr", "ILmr", "Dr", "D1mr", "DLmr", "Dw", "D1mw", "DLmw"}

// cachegrindNames maps cachegrind's event names to chronograph's.
var cachegrindNames = map[string]string{"Ir": "instructions"}

var cachegrindDesc = map[string]string{
	"instructions": "instructions executed (simulated)",
	"I1mr":         "L1 instruction cache read misses (simulated)",
	"ILmr":         "last-level cache instruction read misses (simulated)",
	"Dr":           "memory reads (simulated)",
	"D1mr":         "L1 data cache read misses (simulated)",
	"DLmr":         "last-level cache data read misses (simulated)",
	"Dw":           "memory writes (simulated)",
	"D1mw":         "L1 data cache write misses (simulated)",
	"DLmw":         "last-level cache data write misses (simulated)",
}

// ParseCachegrind reads a cachegrind output file (--cachegrind-out-file)
// and returns its totals (the "summary:" line, named by the "events:"
// line) as a reading of Simulated events with Source SourceCachegrind.
// Cachegrind's "Ir" is named "instructions", as perf names it.
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
	if len(events) == 0 { // (an empty "events:" line named none: an empty reading said nothing)
		return Reading{}, errors.New(`counters: cachegrind output has no "events:" line naming events (not a cachegrind output file?)`)
	}
	if totals == nil {
		return Reading{}, errors.New(`counters: cachegrind output has no "summary:" line (did valgrind finish?)`)
	}
	if len(totals) > len(events) {
		return Reading{}, fmt.Errorf("counters: cachegrind summary has %s for %s", plural.Count(len(totals), "total"), plural.Count(len(events), "event"))
	}
	rd := Reading{Source: SourceCachegrind}
	for i, name := range events {
		if n, ok := cachegrindNames[name]; ok {
			name = n
		}
		c := Count{Event: Event{Name: name, Kind: Simulated, Unit: "count"}}
		if i >= len(totals) {
			// Cachegrind omits trailing zero totals.
			c.State = Counted
			rd.Counts = append(rd.Counts, c)
			continue
		}
		v, err := strconv.ParseUint(strings.ReplaceAll(totals[i], ",", ""), 10, 64)
		if err != nil {
			return Reading{}, fmt.Errorf("counters: cachegrind total %s for %s is not a count: %w", excerpt.Quote(totals[i]), excerpt.Quote(name), errors.Unwrap(err))
		}
		c.State, c.Raw, c.Value = Counted, v, float64(v)
		rd.Counts = append(rd.Counts, c)
	}
	return rd, nil
}

// Cachegrind runs a command under valgrind's cachegrind
// (valgrind --tool=cachegrind --cache-sim=yes), with valgrind's own
// messages in a log file rather than the command's stderr. It does not
// start processes itself: run Argv (as package run's Count does for
// chrono stat, or with os/exec), then Read the simulated totals of that run. The
// counts are deterministic for a deterministic program but describe a
// simulated CPU, and only the top process (not its children). Close
// removes the files.
type Cachegrind struct {
	// Argv is the command line to run: valgrind, its options, then the
	// command.
	Argv []string
	dir  string
	out  string
	log  string
}

// NewCachegrind prepares runs of argv under cachegrind. It fails when
// valgrind or argv[0] cannot be found, or no temporary directory can be
// made.
func NewCachegrind(argv []string) (*Cachegrind, error) {
	if len(argv) == 0 {
		return nil, errors.New("counters: no command to run")
	}
	vg, err := exec.LookPath("valgrind")
	if err != nil {
		return nil, fmt.Errorf("counters: valgrind is needed for simulated counts: %w (install it, e.g. apt-get install valgrind)", err)
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return nil, fmt.Errorf("counters: cannot run %s under valgrind: %w", argv[0], err)
	}
	dir, err := os.MkdirTemp("", "chrono-cachegrind-")
	if err != nil {
		return nil, fmt.Errorf("counters: %w", err)
	}
	c := &Cachegrind{dir: dir, out: filepath.Join(dir, "cachegrind.out"), log: filepath.Join(dir, "valgrind.log")}
	c.Argv = append([]string{vg, "--tool=cachegrind", "--cache-sim=yes", "--cachegrind-out-file=" + c.out, "--log-file=" + c.log}, argv...)
	return c, nil
}

// Read returns the simulated totals of the run of Argv just made, which
// exited with exitCode (for the error message when valgrind wrote
// nothing), and removes its output so that the next run starts afresh.
func (c *Cachegrind) Read(exitCode int) (Reading, error) {
	f, err := os.Open(c.out)
	if err != nil {
		return Reading{}, fmt.Errorf("counters: valgrind wrote no cachegrind output (exit code %d): %s", exitCode, logTail(c.log))
	}
	defer os.Remove(c.out)
	defer f.Close()
	return ParseCachegrind(f)
}

// Close removes the output and log files.
func (c *Cachegrind) Close() error {
	if err := os.RemoveAll(c.dir); err != nil {
		return fmt.Errorf("counters: %w", err)
	}
	return nil
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
