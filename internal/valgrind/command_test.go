package valgrind

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/internal/valgrind/valgrindtest"
)

// loopC is a program whose instruction count is known: a loop of two
// instructions (decrement, branch) run N times, plus the C runtime's
// start-up, which is the same for every N of the same number of digits.
const loopC = `
int main(int argc, char **argv) {
	long n = 0;
	for (char *p = argv[1]; *p; p++) n = n * 10 + (*p - '0');
#if defined(__x86_64__)
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
#elif defined(__aarch64__)
	__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#else
#error "unsupported architecture"
#endif
	return (int)n;
}
`

// buildLoop compiles loopC, failing in CI (where .ci/run installs gcc)
// and skipping elsewhere when there is no gcc.
func buildLoop(t *testing.T) string {
	t.Helper()
	cc, err := exec.LookPath("gcc")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("gcc is not installed (%v): in CI the command counts must be tested", err)
		}
		t.Skipf("gcc is not installed (%v): cannot build the test program", err)
	}
	dir := crosstest.TempDir(t)
	src, bin := filepath.Join(dir, "loop.c"), filepath.Join(dir, "loop")
	if err := os.WriteFile(src, []byte(loopC), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O1", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	return bin
}

// TestCommand counts a C loop run directly and through a shell: the
// shell's child is counted (two processes), the difference between two
// loop counts is exactly two instructions per trip either way, and a
// run's count is the same every time.
func TestCommand(t *testing.T) {
	valgrindtest.Need(t)
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skipf("the test program's loop is written for amd64 and arm64, not %s", runtime.GOARCH)
	}
	loop := buildLoop(t)
	run := func(argv ...string) CommandCount {
		t.Helper()
		c, err := NewCommand(argv)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if out, err := exec.Command(c.Argv[0], c.Argv[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v under valgrind: %v\n%s", argv, err, out)
		}
		r, err := c.Read(0)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	instr := func(r CommandCount) uint64 {
		c, ok := r.Get("instructions")
		if !ok || !c.IsCounted() {
			t.Fatalf("no instructions in %+v", r)
		}
		return c.Raw
	}
	const n1, n2 = 5_000_000, 9_000_000 // same number of digits: same parsing cost
	for _, tt := range []struct {
		name      string
		argv      func(n int) []string
		processes int
	}{
		{"direct", func(n int) []string { return []string{loop, strconv.Itoa(n)} }, 1},
		// "; true" keeps the shell from replacing itself with the loop.
		{"shell", func(n int) []string { return []string{"sh", "-c", loop + " " + strconv.Itoa(n) + "; true"} }, 2},
	} {
		a, b := run(tt.argv(n1)...), run(tt.argv(n2)...)
		t.Logf("%s: %d instructions in %d processes for %d trips, %d for %d", tt.name, instr(a), a.Processes, n1, instr(b), n2)
		if a.Processes != tt.processes || b.Processes != tt.processes {
			t.Errorf("%s: %d and %d processes counted, want %d", tt.name, a.Processes, b.Processes, tt.processes)
		}
		if d := instr(b) - instr(a); d != 2*(n2-n1) {
			t.Errorf("%s: difference %d instructions, want exactly %d (2 per trip)", tt.name, d, 2*(n2-n1))
		}
		if again := run(tt.argv(n1)...); instr(again) != instr(a) {
			t.Errorf("%s: %d instructions, then %d", tt.name, instr(a), instr(again))
		}
		if got := strings.Join(eventNames(a), " "); got != "instructions I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw" {
			t.Errorf("%s: events %s", tt.name, got)
		}
	}
	// Nothing ran: nothing to read, and the error says so.
	c, err := NewCommand([]string{"true"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Read(0); err == nil || !strings.Contains(err.Error(), "valgrind wrote no cachegrind output") {
		t.Errorf("Read before a run: %v", err)
	}
	if _, err := NewCommand([]string{"/nonexistent/chrono-test"}); err == nil || !strings.HasPrefix(err.Error(), "valgrind: ") {
		t.Errorf("a missing program: %v", err)
	}
}

func eventNames(r CommandCount) []string {
	var names []string
	for _, c := range r.Counts {
		names = append(names, c.Event.Name)
	}
	return names
}
