package tracer

import (
	"fmt"
	"github.com/chronograph/chronograph/env"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

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
	if err := WriteDocumentFile(base+".result.json", tr); err != nil {
		return base + ".json", "", err
	}
	return base + ".json", base + ".result.json", nil
}

// WriteDocumentFile summarizes tr (default SummaryOptions) and writes the
// result document to path atomically.
func WriteDocumentFile(path string, tr *Trace) error {
	s, err := Summarize(tr, SummaryOptions{})
	if err != nil {
		return err
	}
	d := Document(s, toolOfBinary())
	d.Args = append([]string(nil), os.Args...)
	d.Environment = env.Capture()
	if err := result.WriteFile(path, d); err != nil {
		return fmt.Errorf("tracer: %w", err)
	}
	return nil
}

// toolOfBinary names the program that records, from its build info.
func toolOfBinary() result.Tool {
	t := result.Tool{Name: filepath.Base(os.Args[0]), Version: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		t.GoVersion = bi.GoVersion
		if bi.Main.Version != "" {
			t.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				t.Revision = s.Value
			}
		}
	}
	t.Name = strings.TrimSuffix(t.Name, ".exe") + " (chronograph tracer)"
	return t
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
