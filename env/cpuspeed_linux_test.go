package env

import (
	"strconv"
	"testing"
)

// TestMeasureCPUSpeed runs the real probe and checks only its structure:
// every allowed CPU is measured or listed as unmeasured with a reason. Its
// figures and whether the CPUs differ depend on the host (no timing
// bound is asserted).
func TestMeasureCPUSpeed(t *testing.T) {
	cpus, err := affinity()
	if err != nil {
		t.Skip(err)
	}
	s := measureCPUSpeed(cpus)
	seen := map[int]bool{}
	for _, c := range s.CPUs {
		if c.LoopNs <= 0 || c.Trials < 1 || c.Relative <= 0 || c.Relative > 1 {
			t.Errorf("CPU %+v", c)
		}
		seen[c.CPU] = true
	}
	for k, why := range s.Unmeasured {
		if why == "" {
			t.Errorf("CPU %s unmeasured without a reason", k)
		}
		if c, err := strconv.Atoi(k); err == nil {
			seen[c] = true
		}
	}
	for _, c := range cpus {
		if !seen[c] {
			t.Errorf("CPU %d neither measured nor listed as unmeasured", c)
		}
	}
}
