package thread

import (
	"errors"
	"testing"

	"golang.org/x/sys/windows"
)

var procGetCurrentProcessorNumber = kernel32.NewProc("GetCurrentProcessorNumber")

// cpuNow is the CPU the calling thread runs on (GetCurrentProcessorNumber,
// which Wine implements with the host's sched_getcpu).
func cpuNow() int {
	r, _, _ := procGetCurrentProcessorNumber.Call()
	return int(r)
}

// TestPinWindows: a thread pinned to a CPU runs on it (each allowed CPU
// in turn), the pin dies with its thread, and bad CPU lists are refused
// before any call.
func TestPinWindows(t *testing.T) {
	cpus, err := Allowed()
	if err != nil || len(cpus) == 0 {
		t.Fatalf("Allowed() = %v, %v", cpus, err)
	}
	for _, c := range cpus {
		var ran []int
		var perr error
		Run(func() {
			if perr = Pin(c); perr != nil {
				return
			}
			for range 20 {
				ran = append(ran, cpuNow())
				windows.SleepEx(0, false) // give the scheduler a chance to move it
			}
		})
		if perr != nil {
			t.Fatalf("Pin(%d): %v", c, perr)
		}
		for _, r := range ran {
			if r != c {
				t.Fatalf("thread pinned to CPU %d ran on CPUs %v", c, ran)
			}
		}
	}
	if after, err := Allowed(); err != nil || len(after) != len(cpus) {
		t.Errorf("process affinity after the pinned threads ended: %v, %v; want %v", after, err, cpus)
	}
	for _, bad := range [][]int{{}, {-1}, {MaxCPU + 1}} {
		if err := Pin(bad...); err == nil {
			t.Errorf("Pin(%v) succeeded", bad)
		}
	}
	// A CPU beyond the process's affinity (but within the mask) is the
	// system's refusal, wrapped.
	if len(cpus) <= MaxCPU {
		var err error
		Run(func() { err = Pin(cpus[len(cpus)-1] + 1) })
		if !errors.Is(err, windows.ERROR_INVALID_PARAMETER) {
			t.Errorf("Pin beyond the process's CPUs: %v, want ERROR_INVALID_PARAMETER", err)
		}
	}
}

// TestTimeCritical: SetTimeCritical sets the thread's priority to 15,
// which GetThreadPriority reads back, on that thread only.
func TestTimeCritical(t *testing.T) {
	before, err := Priority()
	if err != nil {
		t.Fatal(err)
	}
	var got int
	Run(func() {
		if err = SetTimeCritical(); err == nil {
			got, err = Priority()
		}
	})
	if err != nil || got != ThreadPriorityTimeCritical {
		t.Errorf("priority after SetTimeCritical: %d, %v; want %d", got, err, ThreadPriorityTimeCritical)
	}
	if now, _ := Priority(); now != before {
		t.Errorf("this thread's priority changed from %d to %d", before, now)
	}
	if SetFIFO(1) == nil || SetTimerSlack(1) == nil {
		t.Error("SetFIFO or SetTimerSlack succeeded on windows")
	}
}
