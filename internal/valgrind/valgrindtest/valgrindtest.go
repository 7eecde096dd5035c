// Package valgrindtest holds what the tests that count instructions under
// valgrind share.
package valgrindtest

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"testing"
)

// Need skips the test when valgrind cannot count Go programs here, and
// fails it in CI (CI=true), where .ci/run installs valgrind. Under an
// emulator (GOARCH=arm64 under qemu-user on an amd64 host, as CI runs the
// arm64 suite) the valgrind on PATH is the host's, which starts programs
// of its own architecture only: there the test is skipped with
// valgrind's words, and the suite of the host's own platform runs it.
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
	Starts(t, os.Args[0])
}

// Starts skips the test when valgrind cannot start bin, a test binary
// (this one, or a rebuild of it): under an emulator (GOARCH=arm64 under
// qemu-user on an amd64 host, as CI runs the arm64 suite) the valgrind on
// PATH is the host's, which starts programs of its own architecture only
// ("failed to start tool 'none' for platform 'arm64-linux'"); the suite
// of the host's own platform counts them. It asks valgrind once per
// binary and process (a run that tests nothing: about 1 s).
func Starts(t testing.TB, bin string) {
	t.Helper()
	once, _ := probes.LoadOrStore(bin, sync.OnceValue(func() string { return cannotStart(bin) }))
	if why := once.(func() string)(); why != "" {
		t.Skipf("valgrind cannot run this %s test binary here (an emulated platform?): %s", runtime.GOARCH, why)
	}
}

// probes holds Starts's answer for each binary.
var probes sync.Map

// cannotStart asks valgrind to start the test binary bin (with no test
// to run): what it said when it could not start a program of this
// architecture, else "".
func cannotStart(bin string) string {
	out, err := exec.Command("valgrind", "--tool=none", "-q", bin, "-test.run=^$").CombinedOutput()
	if err != nil && bytes.Contains(out, []byte("failed to start tool")) {
		return string(bytes.TrimSpace(out))
	}
	return "" // it starts (another failure is the tests' to report)
}
