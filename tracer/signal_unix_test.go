//go:build unix

package tracer

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/chronograph/chronograph/internal/crosstest"
)

func TestDumpOnSignal(t *testing.T) {
	tr := fakeTracer(t, 8, 1e9, 0)
	tr.Lane("a").r.put(kindInstant, nSend, 5, 1, 0)
	dir := crosstest.TempDir(t)
	got := make(chan string, 1)
	stop, err := tr.DumpOnSignal(dir, func(path string, err error) {
		if err != nil {
			t.Error(err)
		}
		got <- path
	}, syscall.SIGUSR1)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	select {
	case path := <-got:
		back, err := ReadChromeFile(path)
		if err != nil || len(back.Events) != 1 {
			t.Errorf("dump %s: %v %+v", path, err, back)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no dump after SIGUSR1 (this waits for delivery only; no timing is asserted)")
	}
}
