package tracer

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

// Marker writes span markers to the kernel's ftrace buffer through
// tracefs's trace_marker file, the Linux analogue of toggling a pin for a
// logic analyzer: the markers land in the same buffer as the kernel's
// scheduler events, so `trace-cmd record -e sched` or `perf trace` show
// them in line. Lines use the atrace format that Perfetto understands:
// "B|pid|name" at a span's begin and "E|pid" at its end (instants and
// counters are not written). Each line is one write(2) system call (about 1-3 µs, and
// it serializes concurrent writers in the kernel), so use it for
// coarse spans.
type Marker struct {
	f   *os.File
	pid string
	mu  sync.Mutex
	buf []byte
}

// OpenMarker opens trace_marker in the first tracefs mount found
// (/sys/kernel/tracing, then /sys/kernel/debug/tracing). It fails with an
// error saying what to do when tracefs is not mounted, not permitted
// (root or the tracefs group is needed), or not on Linux.
func OpenMarker() (*Marker, error) { return openMarker(markerPaths) }

// OpenMarkerFile opens a given trace_marker path (an instance's
// trace_marker, for example).
func OpenMarkerFile(path string) (*Marker, error) { return openMarker([]string{path}) }

func openMarker(paths []string) (*Marker, error) {
	if len(paths) == 0 {
		return nil, errNoTracefs
	}
	var firstErr error
	for _, p := range paths {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err == nil {
			return &Marker{f: f, pid: strconv.Itoa(os.Getpid())}, nil
		}
		if firstErr == nil || !os.IsNotExist(err) {
			firstErr = explainMarker(p, err)
		}
	}
	return nil, firstErr
}

func explainMarker(path string, err error) error {
	switch {
	case os.IsNotExist(err):
		return fmt.Errorf("tracer: %s does not exist: tracefs is not mounted (mount it with `mount -t tracefs nodev /sys/kernel/tracing`): %w", path, err)
	case os.IsPermission(err):
		return fmt.Errorf("tracer: cannot open %s: not permitted (run as root, or give your user the tracefs group and write access): %w", path, err)
	}
	return fmt.Errorf("tracer: cannot open %s: %w", path, err)
}

// Close closes the marker file.
func (m *Marker) Close() error { return m.f.Close() }

func (m *Marker) write(kind byte, n Name, withName bool) {
	m.mu.Lock()
	b := append(m.buf[:0], kind, '|')
	b = append(b, m.pid...)
	if withName {
		b = append(b, '|')
		b = append(b, n.String()...)
	}
	b = append(b, '\n')
	m.buf = b
	m.f.Write(b) // best effort: a full ftrace buffer must not stop the program
	m.mu.Unlock()
}

func (m *Marker) begin(n Name) { m.write('B', n, true) }
func (m *Marker) end(n Name)   { m.write('E', n, false) }
