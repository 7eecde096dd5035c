package clock

import (
	"runtime"
	"testing"
)

func TestCPUInAffinity(t *testing.T) {
	if runtime.GOOS != "linux" {
		if got := CPU(); got != -1 {
			t.Fatalf("CPU() = %d on %s, want -1 (unknown)", got, runtime.GOOS)
		}
		return
	}
	allowed := allowedCPUs()
	got := CPU()
	for _, c := range allowed {
		if c == got {
			return
		}
	}
	t.Fatalf("CPU() = %d, not among the allowed CPUs %v", got, allowed)
}
