package counters

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/chronograph/chronograph/internal/crosstest"
)

func TestParseCachegrind(t *testing.T) {
	f, err := os.Open("testdata/cachegrind.out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ParseCachegrind(f)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"instructions": 20145310, "I1mr": 1012, "ILmr": 987, "Dr": 41023, "D1mr": 1580, "DLmr": 1221, "Dw": 17876, "D1mw": 780, "DLmw": 651}
	if len(r.Counts) != len(CachegrindEvents) || r.Source != SourceCachegrind {
		t.Fatalf("got %d counts from %q", len(r.Counts), r.Source)
	}
	for i, c := range r.Counts {
		if c.Event.Name != CachegrindEvents[i] || c.Value != want[c.Event.Name] || !c.IsCounted() || c.Event.Kind != Simulated {
			t.Errorf("count %d = %+v, want %s = %v", i, c, CachegrindEvents[i], want[CachegrindEvents[i]])
		}
	}
	d := r.derived(0)
	found := false
	for _, x := range d {
		if x.Name == "i1_miss_rate" {
			found = true
			if x.Value != 1012.0/20145310 {
				t.Errorf("i1_miss_rate = %v", x.Value)
			}
		}
	}
	if !found {
		t.Errorf("no simulated miss rates in %+v", d)
	}
	bad := []struct{ in, want string }{
		{"summary: 1 2\n", `no "events:" line`},
		{"events: Ir\n", `no "summary:" line`},
		{"events: Ir\nsummary: 1 2\n", "2 totals for 1 event"},
		{"events: Ir\nsummary: x\n", "is not a count"},
	}
	for _, tt := range bad {
		_, err := ParseCachegrind(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseCachegrind(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
	// Trailing zero totals may be omitted.
	r, err = ParseCachegrind(strings.NewReader("events: Ir I1mr\nsummary: 7\n"))
	if err != nil || len(r.Counts) != 2 || r.Counts[1].Value != 0 || !r.Counts[1].IsCounted() {
		t.Errorf("omitted trailing total: %+v %v", r, err)
	}
}

// loopC is a program whose instruction count is known: a loop of two
// instructions (decrement, branch) run N times, plus the C runtime's
// start-up, which is the same for every N.
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

// TestCachegrindKnownCount runs a tiny C program under cachegrind for two
// loop counts: the difference of the instruction counts is exactly the
// two loop instructions per iteration, and the total is within a few
// percent of it.
func TestCachegrindKnownCount(t *testing.T) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skipf("the test program's loop is written for amd64 and arm64, not %s", runtime.GOARCH)
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		t.Skipf("valgrind is not installed (%v); install it (apt-get install valgrind) to test the cachegrind mode", err)
	}
	cc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skipf("gcc is not installed (%v): cannot build the test program", err)
	}
	dir := crosstest.TempDir(t)
	src := filepath.Join(dir, "loop.c")
	bin := filepath.Join(dir, "loop")
	if err := os.WriteFile(src, []byte(loopC), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-O1", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	ir := func(n int) float64 {
		cg, err := NewCachegrind([]string{bin, strconv.Itoa(n)})
		if err != nil {
			t.Fatal(err)
		}
		defer cg.Close()
		if out, err := exec.Command(cg.Argv[0], cg.Argv[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("loop %d under valgrind: %v\n%s", n, err, out)
		}
		r, err := cg.Read(0)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := r.Value("instructions")
		if !ok || r.Source != SourceCachegrind {
			t.Fatalf("no instructions in %+v", r)
		}
		return v
	}
	const n1, n2 = 5_000_000, 9_000_000 // same number of digits: same parsing cost
	a, b := ir(n1), ir(n2)
	t.Logf("Ir(%d) = %.0f, Ir(%d) = %.0f", n1, a, n2, b)
	if d := b - a; d != 2*(n2-n1) {
		t.Errorf("Ir difference = %.0f, want exactly %d (2 instructions per iteration)", d, 2*(n2-n1))
	}
	if a < 2*n1 || a > 1.05*2*n1 {
		t.Errorf("Ir(%d) = %.0f, want within 5%% above %d", n1, a, 2*n1)
	}
	// A deterministic program gives the same count twice.
	if again := ir(n1); again != a {
		t.Errorf("Ir(%d) = %.0f then %.0f: cachegrind counts should be deterministic", n1, a, again)
	}
}

func TestCachegrindFailure(t *testing.T) {
	if _, err := exec.LookPath("valgrind"); err != nil {
		t.Skipf("valgrind is not installed: %v", err)
	}
	_, err := NewCachegrind([]string{"/nonexistent/chrono-test"})
	if err == nil || !strings.HasPrefix(err.Error(), "counters: ") {
		t.Errorf("err = %v, want a counters error", err)
	}
	cg, err := NewCachegrind([]string{"true"})
	if err != nil {
		t.Fatal(err)
	}
	defer cg.Close()
	// No run was made: there is no output to read, and the error says so.
	if _, err := cg.Read(0); err == nil || !strings.Contains(err.Error(), "valgrind wrote no cachegrind output") {
		t.Errorf("Read before a run: err = %v", err)
	}
}
