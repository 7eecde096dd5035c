// Package valgrindtest holds what the tests that count instructions under
// valgrind share.
package valgrindtest

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// Need skips the test when valgrind cannot count Go programs here, and
// fails it in CI (CI=true), where .ci/run installs valgrind.
func Need(t testing.TB) {
	t.Helper()
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skipf("callgrind counts Go programs on linux/amd64 and linux/arm64, not %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("valgrind is not installed (%v): in CI the instruction counts must be tested (.ci/run installs valgrind)", err)
		}
		t.Skipf("valgrind is not installed (%v); install it (apt-get install valgrind) to test instruction counting", err)
	}
}
