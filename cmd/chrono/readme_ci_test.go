package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/internal/valgrind/valgrindtest"
)

// TestREADMESharedCI runs the shell lines of the README's "Benchmarks on
// shared CI" section, as a pull-request job would, in a throwaway
// repository: a module whose benchmark sums 1024 elements on the base
// branch (origin's main) and, in the pull request, the same (the gate
// passes) or 1034 (one per cent more work: the gate fails on the exact
// instruction counts); the base's counts land in the history store.
func TestREADMESharedCI(t *testing.T) {
	valgrindtest.Need(t)
	if testing.Short() {
		t.Skip("runs go test -bench twice under valgrind per case (-short)")
	}
	for _, tool := range []string{"git", "go", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: %v", tool, err)
		}
	}
	lines := readmeShell(t, "## Benchmarks on shared CI")
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := crosstest.TempDir(t)
	bin := filepath.Join(tmp, "bin")
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "chrono"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	goSum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(dir string, env []string, name string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(dir string, name string, args ...string) {
		t.Helper()
		if out, err := run(dir, nil, name, args...); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum := func(n string) string {
		return "package sum\n\nvar n = " + n + "\n\n//go:noinline\nfunc sum(xs []uint64) uint64 {\n\tvar s uint64\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n"
	}
	const sumTest = `package sum

import (
	"testing"

	"github.com/chronograph/chronograph/bench"
	"github.com/chronograph/chronograph/bench/benchtest"
)

var sink uint64

func BenchmarkSum(b *testing.B) {
	xs := make([]uint64, n)
	benchtest.Run(b, func(b *bench.B) {
		for b.Loop() {
			sink += sum(xs)
		}
	}, nil)
}
`
	gitEnv := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
	for _, tc := range []struct {
		name, n  string
		fails    bool
		contains string
	}{
		{"unchanged", "1024", false, "0 regressions, 0 improvements, 1 unchanged"},
		{"one per cent more work", "1034", true, "1 regression, 0 improvements, 0 unchanged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := crosstest.TempDir(t)
			origin, work := filepath.Join(dir, "origin.git"), filepath.Join(dir, "work")
			must(dir, "git", "init", "--quiet", "--bare", "-b", "main", origin)
			must(dir, "git", "clone", "--quiet", origin, work)
			write(filepath.Join(work, "go.mod"), "module example.com/ci\n\ngo 1.26\n\nrequire github.com/chronograph/chronograph v0.0.0\n\nreplace github.com/chronograph/chronograph => "+repo+"\n")
			write(filepath.Join(work, "go.sum"), string(goSum))
			write(filepath.Join(work, "sum", "sum.go"), sum("1024"))
			write(filepath.Join(work, "sum", "sum_test.go"), sumTest)
			commit := func(msg string) {
				t.Helper()
				if out, err := run(work, gitEnv, "git", "add", "-A"); err != nil {
					t.Fatalf("git add: %v\n%s", err, out)
				}
				if out, err := run(work, gitEnv, "git", "commit", "--quiet", "--allow-empty", "-m", msg); err != nil {
					t.Fatalf("git commit: %v\n%s", err, out)
				}
			}
			commit("base")
			must(work, "git", "push", "--quiet", "origin", "HEAD:main")
			must(work, "git", "checkout", "--quiet", "-b", "pr")
			write(filepath.Join(work, "sum", "sum.go"), sum(tc.n))
			commit("pull request")

			temp, db := filepath.Join(dir, "runner"), filepath.Join(dir, "history.db")
			if err := os.Mkdir(temp, 0o755); err != nil {
				t.Fatal(err)
			}
			env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
				"GITHUB_BASE_REF=main", "RUNNER_TEMP=" + temp, "CHRONO_HISTORY_DB=" + db, "GOFLAGS=-mod=mod"}
			out, err := run(work, env, "sh", "-ec", strings.Join(lines, "\n"))
			var ee *exec.ExitError
			switch {
			case tc.fails && (!errors.As(err, &ee) || ee.ExitCode() != exitFailure):
				t.Fatalf("the gate did not fail with exit %d: %v\n%s", exitFailure, err, out)
			case !tc.fails && err != nil:
				t.Fatalf("the gate failed: %v\n%s", err, out)
			}
			md, err := os.ReadFile(filepath.Join(temp, "comment.md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{tc.contains, "instructions", "exact"} {
				if !strings.Contains(string(md), want) {
					t.Errorf("the comment lacks %q:\n%s", want, md)
				}
			}
			list, err := run(work, env, filepath.Join(bin, "chrono"), "history", "list")
			if err != nil || !strings.Contains(list, "BenchmarkSum") || !strings.Contains(list, "instructions") {
				t.Errorf("the base's counts are not in the history: %v\n%s", err, list)
			}
		})
	}
}

// readmeShell returns the lines of the first ```sh block after the
// heading in README.md.
func readmeShell(t *testing.T, heading string) []string {
	t.Helper()
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	seen, in := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !seen:
			seen = line == heading
		case strings.HasPrefix(line, "## "):
			t.Fatalf("README.md: no ```sh block under %q", heading)
		case !in && line == "```sh":
			in = true
		case in && line == "```":
			return lines
		case in:
			lines = append(lines, line)
		}
	}
	t.Fatalf("README.md: no ```sh block under %q", heading)
	return nil
}
