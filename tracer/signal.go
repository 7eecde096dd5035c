package tracer

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"
)

// Dump writes a Snapshot of t to dir as trace-event JSON, named
// trace-<wall time>.json, and returns the path. It allocates the
// snapshot; recording goes on meanwhile.
func (t *Tracer) Dump(dir string) (string, error) {
	tr, err := t.Snapshot()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "trace-"+time.Now().Format("20060102-150405.000000000")+".json")
	if err := WriteChromeFile(path, tr); err != nil {
		return "", err
	}
	return path, nil
}

// DumpOnSignal calls Dump(dir) each time the process receives one of sigs
// (for example syscall.SIGUSR1 on Unix) and reports each path or error to
// report (which may be nil). It returns a function that stops listening.
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
				path, err := t.Dump(dir)
				if report != nil {
					report(path, err)
				}
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }, nil
}
