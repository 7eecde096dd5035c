package clock

import (
	"strings"
	"testing"
)

func TestClassifyByCount(t *testing.T) {
	tests := []struct {
		counted, baseline int64
		want              string
	}{
		{0, 0, PathVDSO},
		{4, 1, PathVDSO},      // a few from signals
		{99, 1, PathVDSO},     // < 1 in 10
		{101, 1, PathSyscall}, // 1 in 10
		{1001, 1, PathSyscall},
		{0, 3, PathVDSO}, // a baseline above the count is no negative count
	}
	for _, tt := range tests {
		path, basis := classifyByCount(1000, tt.counted, tt.baseline, "kvm-clock")
		if path != tt.want || !strings.Contains(basis, "measured") || !strings.Contains(basis, "kvm-clock") {
			t.Errorf("%d counted, baseline %d: %s (%s), want %s", tt.counted, tt.baseline, path, basis, tt.want)
		}
	}
}

func TestClassifyByCost(t *testing.T) {
	tests := []struct {
		vdso, sys float64
		want      string
		basis     string
	}{
		{25, 400, PathVDSO, "inferred from cost"},
		{6, 400, PathVDSO, "inferred from cost"},
		{420, 400, PathSyscall, "falls back"},
		{250, 400, PathSyscall, "falls back"}, // 0.625 of the system call
		{25, 0, PathVDSO, "not verified"},
	}
	for _, tt := range tests {
		path, basis := classifyByCost(tt.vdso, tt.sys, "no tracefs", "hpet")
		if path != tt.want || !strings.Contains(basis, tt.basis) || !strings.Contains(basis, "no tracefs") {
			t.Errorf("vdso %v ns, syscall %v ns: %s (%s), want %s containing %q", tt.vdso, tt.sys, path, basis, tt.want, tt.basis)
		}
	}
}
