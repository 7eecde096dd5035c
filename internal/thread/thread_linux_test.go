package thread

import "testing"

func TestPinAndAllowed(t *testing.T) {
	cpus, err := Allowed()
	if err != nil || len(cpus) == 0 {
		t.Fatalf("Allowed() = %v, %v", cpus, err)
	}
	var got []int
	var perr error
	Run(func() {
		if perr = Pin(cpus[len(cpus)-1]); perr == nil {
			got, perr = Allowed() // the process's affinity is the thread's
		}
	})
	if perr != nil || len(got) != 1 || got[0] != cpus[len(cpus)-1] {
		t.Errorf("pinned thread's affinity %v, %v; want [%d]", got, perr, cpus[len(cpus)-1])
	}
	// The pin died with its thread: this one still has every CPU.
	after, _ := Allowed()
	if len(after) != len(cpus) {
		t.Errorf("affinity after the pinned thread ended: %v, want %v", after, cpus)
	}
	for _, bad := range [][]int{{}, {-1}, {MaxCPU + 1}} {
		if err := Pin(bad...); err == nil {
			t.Errorf("Pin(%v) succeeded", bad)
		}
	}
	if err := SetFIFO(0); err == nil {
		t.Error("SetFIFO(0) accepted")
	}
	if err := SetTimerSlack(-1); err == nil {
		t.Error("negative slack accepted")
	}
	var slack int64
	Run(func() {
		if SetTimerSlack(1) == nil {
			slack, _ = TimerSlack()
		}
	})
	if slack != 1 {
		t.Errorf("timer slack on the thread: %d, want 1", slack)
	}
}
