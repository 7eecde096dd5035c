package view

import "testing"

func TestCPUList(t *testing.T) {
	if got := cpuList([]int{6, 0, 1, 2, 3, 3}); got != "0-3,6" {
		t.Errorf("cpuList = %q", got)
	}
}
