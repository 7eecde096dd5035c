// Package crosstest holds what chronograph's tests need to run on the
// platforms CI emulates: windows/amd64 under Wine (see package wine; a
// temporary directory Wine can remove, the one way to skip what only a
// real Windows host can show) and linux/arm64 under qemu-user (starting a
// binary of the test's own platform).
package crosstest

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/chronograph/chronograph/internal/wine"
)

// TempDir is t.TempDir, for every test of the module: under Wine 8.0,
// t.TempDir's own cleanup fails ("unlinkat ...: Invalid function": Go
// >= 1.25's os.RemoveAll deletes through FileDispositionInformationEx,
// which Wine 8.0 does not implement, and Go does not fall back on
// STATUS_NOT_IMPLEMENTED), so there the directory's contents are removed
// one by one first (os.Remove: DeleteFile, RemoveDirectory), leaving
// t.TempDir's cleanup an empty directory. Elsewhere it is t.TempDir.
func TempDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if _, ok := wine.Version(); ok {
		// Cleanups run last-registered first: this one before t.TempDir's.
		t.Cleanup(func() {
			if err := removeTree(dir); err != nil {
				t.Errorf("crosstest: removing %s: %v", dir, err)
			}
		})
	}
	return dir
}

// RemoveAll is os.RemoveAll for tests that delete a tree of their own
// before they end (what Wine 8.0's missing FileDispositionInformationEx
// makes os.RemoveAll fail on; see TempDir): dir and everything in it,
// deepest first, with os.Remove alone.
func RemoveAll(dir string) error { return removeTree(dir) }

// removeTree removes dir and everything in it, deepest first, with
// os.Remove alone.
func removeTree(dir string) error {
	var paths []string
	err := filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		paths = append(paths, path)
		return nil
	})
	if err != nil {
		return err
	}
	// WalkDir lists a directory before its contents: remove in reverse.
	for _, p := range slices.Backward(paths) {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	return nil
}

// SkipUnderWine skips the test when it runs under Wine, saying what only a
// real Windows host can show: why is the reason, e.g. "timeBeginPeriod
// has no effect under Wine".
func SkipUnderWine(t testing.TB, why string) {
	t.Helper()
	if v, ok := wine.Version(); ok {
		t.Skipf("under Wine %s: %s; only a real Windows host can show this", v, why)
	}
}

// Command is exec.Command for a program built for the test's own platform
// (the test binary again, or a chrono that go build made), with the
// argument list of Argv.
func Command(name string, args ...string) *exec.Cmd {
	argv := Argv(name, args...)
	return exec.Command(argv[0], argv[1:]...)
}

// Argv is the argument list that runs a program built for the test's own
// platform: name and args, preceded by the program go_GOOS_GOARCH_exec
// when one is on PATH, as go test and go run start the binaries of a
// foreign platform (scripts/qemu's go_linux_arm64_exec: qemu-user cannot
// start an arm64 child by itself where binfmt_misc has no entry for it).
// Host programs (sh, go) are not for Argv.
func Argv(name string, args ...string) []string {
	argv := append([]string{name}, args...)
	if wrapper, err := exec.LookPath("go_" + runtime.GOOS + "_" + runtime.GOARCH + "_exec"); err == nil {
		argv = append([]string{wrapper}, argv...)
	}
	return argv
}
