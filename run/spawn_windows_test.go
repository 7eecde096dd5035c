package run

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/internal/wine"
	"golang.org/x/sys/windows"
)

// TestJobKillsDescendants: a command that starts a long-lived process and
// exits with 3 gives exit code 3, and the process it started does not
// outlive the run (its job object was terminated).
func TestJobKillsDescendants(t *testing.T) {
	switch os.Getenv("CHRONO_RUN_TEST_JOB") {
	case "grandchild":
		time.Sleep(60 * time.Second)
		return
	case "child":
		// A process the child starts before chrono has put it in its job
		// escapes the job (os.StartProcess cannot start it suspended; see
		// attachGroup): the test's child waits until it is in one, so that
		// what is tested is the job's kill, not that race.
		waitInJob()
		gc := exec.Command(os.Args[0], "-test.run=^TestJobKillsDescendants$")
		gc.Env = append(os.Environ(), "CHRONO_RUN_TEST_JOB=grandchild")
		if err := gc.Start(); err != nil {
			os.Exit(10)
		}
		if err := os.WriteFile(os.Getenv("CHRONO_RUN_TEST_PIDFILE"), []byte(strconv.Itoa(gc.Process.Pid)), 0o644); err != nil {
			os.Exit(11)
		}
		os.Exit(3)
	}
	pidFile := filepath.Join(crosstest.TempDir(t), "pid")
	env := append(os.Environ(), "CHRONO_RUN_TEST_JOB=child", "CHRONO_RUN_TEST_PIDFILE="+pidFile)
	ps := newProcSpawner(context.Background())
	defer ps.Close()
	s, err := ps.Run(proc{Argv: crosstest.Argv(os.Args[0], "-test.run=^TestJobKillsDescendants$"), Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if s.ExitCode != 3 {
		t.Fatalf("exit code %d, want 3", s.ExitCode)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(b))
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return // no such process any more
	}
	defer windows.CloseHandle(h)
	// Termination is asynchronous; the bound is a liveness bound (the
	// grandchild would live 60 s), not a timing claim.
	if ev, err := windows.WaitForSingleObject(h, 20000); ev != windows.WAIT_OBJECT_0 {
		windows.TerminateProcess(h, 1)
		t.Errorf("the command's child (pid %d) outlived the run: wait %#x, %v", pid, ev, err)
	}
	if _, ok := groups.Load(s.Pid); ok {
		t.Error("the run's job is still held")
	}
}

// TestChildCPUUnavailable: under Wine a child's CPU times are marked
// unavailable with the reason, and the document holds no user or sys
// metric then; on Windows they are the job's.
func TestChildCPUUnavailable(t *testing.T) {
	reason := childCPUUnavailable()
	if _, ok := wine.Version(); ok != (reason != "") {
		t.Fatalf("childCPUUnavailable() = %q under Wine: %v", reason, ok)
	}
	rep := fixedReport()
	rep.CPUUnavailable = "test reason"
	d := docOf(rep)
	for _, m := range d.Measurements {
		for _, x := range m.Metrics {
			if x.Name == "user" || x.Name == "sys" || x.Name == "user_raw" || x.Name == "sys_raw" {
				t.Errorf("%s: metric %s with the CPU times unavailable", m.Name, x.Name)
			}
		}
	}
	n := 0
	for _, u := range d.Run.Command.Unavailable {
		if (u.Name == "user" || u.Name == "sys") && u.Reason == "test reason" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("user and sys not listed unavailable: %+v", d.Run.Command.Unavailable)
	}
}

// waitInJob returns once this process is in a job object (IsProcessInJob),
// or after about 10 s of asking.
func waitInJob() {
	isInJob := windows.NewLazySystemDLL("kernel32.dll").NewProc("IsProcessInJob")
	for range 10000 {
		var in int32
		if r, _, _ := isInJob.Call(uintptr(windows.CurrentProcess()), 0, uintptr(unsafe.Pointer(&in))); r != 0 && in != 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestAttachEndedProcess: a command that has ended before attachGroup
// puts it in its job (one that exits at once) is no error: the
// assignment's "Access denied" for an ended process stopped the whole
// benchmark ("the benchmark stopped on an error: run:
// AssignProcessToJobObject: Access denied").
func TestAttachEndedProcess(t *testing.T) {
	if os.Getenv("CHRONO_RUN_TEST_ENDED") == "1" {
		os.Exit(3)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAttachEndedProcess$")
	cmd.Env = append(os.Environ(), "CHRONO_RUN_TEST_ENDED=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	if ev, err := windows.WaitForSingleObject(h, 60000); err != nil || ev != windows.WAIT_OBJECT_0 {
		t.Fatalf("the child did not end: %v %v", ev, err)
	}
	windows.CloseHandle(h)
	if err := attachGroup(cmd.Process); err != nil {
		t.Errorf("attachGroup of an ended process: %v", err)
	}
	releaseGroup(cmd.Process)
	if err := cmd.Wait(); err == nil || cmd.ProcessState.ExitCode() != 3 {
		t.Errorf("wait: %v, exit code %d, want 3", err, cmd.ProcessState.ExitCode())
	}
}
