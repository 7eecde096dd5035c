package run

import (
	"bytes"
	"context"
	"syscall"
	"testing"
	"time"
)

// TestToolCommandKillsGroup: ending ToolCommand's context kills what
// the program started too (a background sleep holding the output that
// Wait reads, as go test's test binary holds go's), not only the
// program: Wait returns and no process of its group is left.
func TestToolCommandKillsGroup(t *testing.T) {
	shOrSkip(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	c := ToolCommand(ctx, "sh", "-c", "sleep 60 & wait")
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := c.Process.Pid
	// Wait (not a bound: the test fails only if they never start) until
	// sh and its sleep are both there.
	for deadline := time.Now().Add(30 * time.Second); len(LiveGroupMembers(pgid)) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(-pgid, syscall.SIGKILL)
			t.Fatalf("sh and its sleep did not start in 30 s: group %d has %v", pgid, LiveGroupMembers(pgid))
		}
	}
	cancel()
	if err := c.Wait(); err == nil {
		t.Error("Wait of a killed program succeeded")
	}
	// The group was killed at the cancel; its members leave /proc's
	// live list as soon as the kernel has ended them.
	for deadline := time.Now().Add(5 * time.Second); len(LiveGroupMembers(pgid)) > 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if m := LiveGroupMembers(pgid); len(m) > 0 {
		syscall.Kill(-pgid, syscall.SIGKILL)
		t.Errorf("processes %v of the program's group survive the cancel", m)
	}
}
