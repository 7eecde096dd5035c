package clock

import (
	"runtime"
	"testing"
)

func TestCPUInAffinity(t *testing.T) {
	if runtime.GOOS == "windows" && allowedCPUs() == nil {
		// GetCurrentProcessorNumber answers (under Wine too), but the
		// process's affinity cannot be read here to check it against.
		if got := CPU(); got < 0 {
			t.Fatalf("CPU() = %d on windows, want a processor number", got)
		}
		return
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "windows" {
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
