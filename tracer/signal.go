package tracer

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
)

// Dump writes a Snapshot of t into dir as two files named by the wall
// time, trace-<time>.json (Chrome/Perfetto trace-event JSON) and
// trace-<time>.result.json (its summary as a result document, see
// Document), and returns their paths. It allocates the snapshot;
// recording goes on meanwhile.
func (t *Tracer) Dump(dir string) (tracePath, docPath string, err error) {
	tr, err := t.Snapshot()
	if err != nil {
		return "", "", err
	}
	base := filepath.Join(dir, "trace-"+time.Now().Format("20060102-150405.000000000"))
	if err := WriteChromeFile(base+".json", tr); err != nil {
		return "", "", err
	}
	if len(tr.Events) == 0 {
		return base + ".json", "", nil // nothing to summarize yet
	}
	if err := writeDocumentFile(base+".result.json", tr); err != nil {
		return base + ".json", "", err
	}
	return base + ".json", base + ".result.json", nil
}

// writeDocumentFile summarizes tr (default SummaryOptions) and writes the
// result document to path atomically, as written by this program (its
// name and build, its arguments and the environment, captured now).
func writeDocumentFile(path string, tr *Trace) error {
	s, err := Summarize(tr, SummaryOptions{})
	if err != nil {
		return err
	}
	tool := result.ToolFromBuild(strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe") + " (chronograph tracer)")
	if tool.Version == "" {
		tool.Version = "unknown"
	}
	d := s.Document(result.Meta{Tool: tool, Args: append([]string(nil), os.Args...), Environment: env.Capture()})
	if err := result.WriteFile(path, d); err != nil {
		return fmt.Errorf("tracer: %w", err)
	}
	return nil
}

// DumpOnSignal calls Dump(dir) each time the process receives one of sigs
// (for example syscall.SIGUSR1 on Unix) and reports each trace file's
// path or the error to report (which may be nil). It returns a function
// that stops listening.
func (t *Tracer) DumpOnSignal(dir string, report func(path string, err error), sigs ...os.Signal) (stop func(), err error) {
	if t == nil {
		return nil, errNilTracer
	}
	if len(sigs) == 0 {
		return nil, fmt.Errorf("tracer: DumpOnSignal needs at least one signal (e.g. syscall.SIGUSR1)")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("tracer: dump directory %q is not a directory: create it first", dir)
	}
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, sigs...)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-ch:
				path, _, err := t.Dump(dir)
				if report != nil {
					report(path, err)
				}
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }, nil
}
