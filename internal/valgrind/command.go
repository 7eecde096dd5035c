package valgrind

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/chronograph/chronograph/counters"
	"github.com/chronograph/chronograph/internal/plural"
)

// Command counts the instructions of whole runs of a command under
// valgrind's cachegrind, as chrono stat --valgrind does with
// counters.Cachegrind, but following the processes the command starts
// (--trace-children=yes, one output file per process): a command run
// through a shell (sh -c 'prog args', as chrono run does by default) is
// otherwise counted as the shell alone, while prog runs natively,
// uncounted. Like counters.Cachegrind it does not start processes: run
// Argv (with package run's Spawner), then Read that run's counts. Close
// removes the files.
//
// A process that replaces itself (execve, as `exec prog` in a shell) is
// counted from the new program's start: the instructions before the exec
// are lost. The counts of a C program are the same run after run with
// the same environment (the C start-up reads it: the count of the same
// run moved by 10 instructions between two shells here); a Go
// program's whole-process count is not (its runtime's background threads
// are counted too, and their work depends on time: about 0.5 % apart over
// three runs of a test binary here), which is what Session's regions are
// for.
type Command struct {
	// Argv is the command line to run: valgrind, its options, then the
	// command.
	Argv []string
	dir  string
}

// NewCommand prepares runs of argv under cachegrind, with the cache
// simulation on (the simulated caches fixed as Session's are). It fails
// when valgrind or argv[0] cannot be found or no temporary directory can
// be made.
func NewCommand(argv []string) (*Command, error) {
	vg, dir, err := prepare(argv, "chrono-cachegrind-")
	if err != nil {
		return nil, err
	}
	c := &Command{dir: dir}
	c.Argv = append([]string{vg, "--tool=cachegrind", "--trace-children=yes", "--cache-sim=yes"}, cacheGeometry...)
	c.Argv = append(c.Argv,
		"--cachegrind-out-file="+filepath.Join(dir, "cachegrind.out.%p"),
		"--log-file="+filepath.Join(dir, "valgrind.log.%p"))
	c.Argv = append(c.Argv, argv...)
	return c, nil
}

// CommandCount is the count of one run of a command.
type CommandCount struct {
	// Reading is the sum of the counts of every process of the run, named
	// and labelled as counters.ParseCachegrind names them
	// (counters.SourceCachegrind; "instructions" for Ir).
	counters.Reading
	// Processes is the number of processes counted.
	Processes int
}

// Read returns the counts of the run of Argv just made, which exited with
// exitCode (for the error message when valgrind wrote nothing), and
// removes the run's files so that the next run starts afresh.
func (c *Command) Read(exitCode int) (CommandCount, error) {
	outs, _ := filepath.Glob(filepath.Join(c.dir, "cachegrind.out.*"))
	logs, _ := filepath.Glob(filepath.Join(c.dir, "valgrind.log.*"))
	defer func() {
		for _, f := range append(outs, logs...) {
			os.Remove(f)
		}
	}()
	if len(outs) == 0 {
		sort.Strings(logs)
		tail := "no valgrind log"
		if len(logs) > 0 {
			tail = logTail(logs[0])
		}
		return CommandCount{}, fmt.Errorf("valgrind: valgrind wrote no cachegrind output (exit code %d): %s", exitCode, tail)
	}
	var sum CommandCount
	for _, f := range outs {
		r, err := readCachegrind(f)
		if err != nil {
			return CommandCount{}, err
		}
		if err := add(&sum.Reading, r); err != nil {
			return CommandCount{}, fmt.Errorf("valgrind: %s: %w", filepath.Base(f), err)
		}
		sum.Processes++
	}
	return sum, nil
}

func readCachegrind(path string) (counters.Reading, error) {
	f, err := os.Open(path)
	if err != nil {
		return counters.Reading{}, fmt.Errorf("valgrind: %w", err)
	}
	defer f.Close()
	return counters.ParseCachegrind(f)
}

// add adds r's counts to sum's, event by event; the first reading sets
// the events.
func add(sum *counters.Reading, r counters.Reading) error {
	if sum.Counts == nil {
		sum.Source = r.Source
		sum.Counts = append([]counters.Count(nil), r.Counts...)
		return nil
	}
	if len(r.Counts) != len(sum.Counts) {
		return fmt.Errorf("%s where the first process had %s", plural.Count(len(r.Counts), "event"), plural.Count(len(sum.Counts), "event"))
	}
	for i, c := range r.Counts {
		s := &sum.Counts[i]
		if c.Event.Name != s.Event.Name {
			return fmt.Errorf("event %d is %s where the first process had %s", i, c.Event.Name, s.Event.Name)
		}
		s.Raw += c.Raw
		s.Value = float64(s.Raw)
	}
	return nil
}

// Close removes the command's files.
func (c *Command) Close() error {
	if err := os.RemoveAll(c.dir); err != nil {
		return fmt.Errorf("valgrind: %w", err)
	}
	return nil
}

// Version returns what `valgrind --version` prints ("valgrind-3.19.0"),
// or "" when valgrind cannot be run.
var Version = sync.OnceValue(func() string {
	out, err := exec.Command("valgrind", "--version").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})
