package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/internal/valgrind/valgrindtest"
	"github.com/chronograph/chronograph/report"
	"github.com/chronograph/chronograph/result"
)

// needGo skips a test that builds Go programs where there is no go
// command to build them with (under Wine, the Windows side has none).
func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to build the example with")
	}
	if runtime.GOOS == "windows" {
		crosstest.SkipUnderWine(t, "builds Go programs with the host's go command")
	}
	// Under qemu-user (CI's arm64 suite) the program built for the test's
	// platform cannot be started from it without binfmt_misc.
	if out, err := exec.Command("go", "env", "GOHOSTARCH").Output(); err == nil && strings.TrimSpace(string(out)) != runtime.GOARCH {
		t.Skipf("the %s program it builds would run only under an emulator here (host %s)", runtime.GOARCH, strings.TrimSpace(string(out)))
	}
}

// buildExample builds the example package dir (from the module root)
// into bin with the build tags given.
func buildExample(t *testing.T, pkg, bin string, tags ...string) {
	t.Helper()
	args := []string{"build", "-o", bin}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	c := exec.Command("go", append(args, pkg)...)
	c.Dir = "../.."
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// firstTraceRow returns the function of the first row of the table
// under the first heading "where the time went: NAME..." in a text
// rendering (NAME, or NAME and more: history's "regress, wall (a..b)").
func firstTraceRow(text, name string) string {
	_, after, ok := strings.Cut(text, "where the time went: "+name)
	if !ok {
		return ""
	}
	lines := strings.Split(after, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "function ") && i+1 < len(lines) {
			return strings.Fields(lines[i+1])[0]
		}
	}
	return ""
}

// TestPlantedRegression is the traced regression end to end: two builds
// of examples/regress, the second with checksum made four times slower
// (-tags slow), each measured by chrono run --instructions with
// --profile; the gate between their documents fails with the
// regression, and the differential profile of the regressed measurement
// names main.checksum first, in the text and in the HTML report. The
// gate is on instructions, which the load does not move: every run of
// the slow build counts 2.4 times those of the fast one, so the U test
// of 6 runs against 6 (the fewest with an interval, which the diff of
// the HTML report needs) gives its smallest p (0.002) on any machine,
// where wall and CPU time under load could leave it undecided (it failed
// so once). (Profiles hold CPU time: the function that took more of it
// is named whatever the load.)
//
// Its history subtest adds 5 documents of each build (wall time, chrono
// run --profile, the documents' directories deleted after each add) to
// a history, in which chrono history check must find the regression and
// trace it to main.checksum from the stored profiles alone.
func TestPlantedRegression(t *testing.T) {
	needGo(t)
	dir := crosstest.TempDir(t)
	fast, slow := filepath.Join(dir, "fast"), filepath.Join(dir, "slow")
	buildExample(t, "./examples/regress", fast)
	buildExample(t, "./examples/regress", slow, "slow")
	t.Run("history", func(t *testing.T) { plantedHistory(t, dir, fast, slow) })
	valgrindtest.Need(t)
	var docs []string
	for _, side := range []struct{ name, bin string }{{"base", fast}, {"new", slow}} {
		pdir := filepath.Join(dir, side.name)
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			t.Fatal(err)
		}
		doc := filepath.Join(pdir, side.name+".json")
		_, stderr, code := runChrono(t, "", "run", "-N", "--instructions", "--runs", "6", "--style", "none", "-n", "regress",
			"--profile", pdir, "--profile-runs", "5", "--export-json", doc, crosstest.Argv(side.bin)[0])
		if code != 0 {
			t.Fatalf("chrono run %s: exit %d: %s", side.name, code, stderr)
		}
		docs = append(docs, doc)
	}
	out, stderr, code := runChrono(t, "", "report", "--baseline", docs[0], docs[1], "--fail-on", "regression")
	if code != 1 || !strings.Contains(out, "Regressed") || !regexp.MustCompile(`\n  regress +instructions `).MatchString(out) {
		t.Fatalf("the gate: exit %d, want 1 with one regression:\n%s%s", code, out, stderr)
	}
	if got := firstTraceRow(out, "regress"); got != "main.checksum" {
		t.Errorf("the differential profile names %q first, want main.checksum:\n%s", got, out)
	}
	html := filepath.Join(dir, "diff.html")
	if _, stderr, code := runChrono(t, "", "report", "--baseline", docs[0], docs[1], "--html", html); code != 0 {
		t.Fatalf("report --html: exit %d: %s", code, stderr)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	i, j := strings.Index(string(page), "where the time went: regress"), strings.Index(string(page), "main.checksum")
	if i < 0 || j < i {
		t.Errorf("the HTML report has no differential table naming main.checksum after its heading")
	}
}

// plantedHistory is TestPlantedRegression's history: 5 runs of chrono
// run of the fast build and 5 of the slow one, each added to a history
// as it is made and its files deleted, then chrono history check.
// (-n 1000 rounds, half the default work: some 5 profiler samples per
// profiled run of the fast build, 45 per side; wall time, which 2.4
// times the work moves far beyond the load's noise.)
func plantedHistory(t *testing.T, dir, fast, slow string) {
	db := filepath.Join(dir, "history.db")
	for i := range 10 {
		bin := fast
		if i >= 5 {
			bin = slow
		}
		pdir := filepath.Join(dir, fmt.Sprintf("h%d", i))
		doc := filepath.Join(pdir, "regress.json")
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runChrono(t, "", "run", "-N", "--runs", "3", "--warmup", "0", "--style", "none", "-n", "regress",
			"--profile", pdir, "--profile-runs", "3", "--export-json", doc, crosstest.Argv(bin)[0]+" -n 1000")
		if code != 0 {
			t.Fatalf("chrono run %d: exit %d: %s", i, code, stderr)
		}
		if _, stderr, code := runChrono(t, "", "history", "add", "--db", db, doc); code != 0 || !strings.Contains(stderr, ", 1 profile, commit") {
			t.Fatalf("history add %d: exit %d, want its profile kept: %s", i, code, stderr)
		}
		if err := crosstest.RemoveAll(pdir); err != nil {
			t.Fatal(err)
		}
	}
	out, stderr, code := runChrono(t, "", "history", "check", "--db", db, "--fail-on", "regression")
	if code != exitFailure || !strings.Contains(out, "  regression\n") {
		t.Fatalf("history check: exit %d, want 1 with the regression:\n%s%s", code, out, stderr)
	}
	if got := firstTraceRow(out, "regress, wall"); got != "main.checksum" {
		t.Errorf("the trace names %q first, want main.checksum:\n%s", got, out)
	}
	t.Logf("chrono history check:\n%s", out)
}

// TestPGOEndToEnd: chrono pgo on examples/interp with a small workload
// builds both ways, reports the gain's figures, warns that the profile
// is short, keeps its files in --keep and writes no default.pgo into the
// package without --write. (A build with a profile rebuilds the standard
// library with it, tens of seconds on a loaded machine: one such build
// per test.)
func TestPGOEndToEnd(t *testing.T) {
	needGo(t)
	dir := crosstest.TempDir(t)
	keep := filepath.Join(dir, "keep")
	args := []string{"pgo", "../../examples/interp", "--workload", "{bin} -r 10", "--runs", "3", "--warmup", "0", "--profile-runs", "1", "--keep", keep}
	out, stderr, code := runChrono(t, "", args...)
	if code != 0 {
		t.Fatalf("chrono pgo: exit %d:\n%s\n%s", code, out, stderr)
	}
	for _, want := range []string{"profile-guided build against the plain build", "\n  wall ", "\n  user ", "binary size  plain ", "instructions"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(stderr, "fewer than the 3000 that rank its hot call edges") {
		t.Errorf("no warning that a profile of one short run is too short to guide:\n%s", stderr)
	}
	for _, f := range []string{"plain", "pgo", "default.pgo", "profiles/0.0.pprof"} {
		if _, err := os.Stat(filepath.Join(keep, f+map[bool]string{true: exeSuffix()}[f == "plain" || f == "pgo"])); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat("../../examples/interp/default.pgo"); err == nil {
		t.Error("chrono pgo wrote examples/interp/default.pgo without --write")
	}
}

// TestParseMerge: --merge's entries, in order, with their weights.
func TestParseMerge(t *testing.T) {
	got, err := parseMerge("workload=2, prod.pprof=0.5,b=1e3")
	want := []weightedFile{{"workload", 2}, {"prod.pprof", 0.5}, {"b", 1000}}
	if err != nil || len(got) != len(want) {
		t.Fatalf("parseMerge: %v, %v", got, err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestPGOUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"pgo"}, "name one Go main package"},
		{[]string{"pgo", "./x"}, "--workload"},
		{[]string{"pgo", "./x", "--workload", "{bin}", "--runs", "1"}, "--runs 1"},
		{[]string{"pgo", "./x", "--workload", "{bin}", "--profile-runs", "0"}, "--profile-runs 0"},
		{[]string{"pgo", "./x", "--workload", "{bin}", "--merge", "a.pprof"}, "FILE=WEIGHT"},
		{[]string{"pgo", "./x", "--workload", "{bin}", "--merge", "workload=-1"}, "positive weights"},
		{[]string{"pgo", "./x", "--workload", "{bin}", "--merge", "workload=1,missing.pprof=2"}, "missing.pprof"},
	} {
		_, stderr, code := runChrono(t, "", tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("chrono %s: exit %d, %q; want exit %d naming %q", strings.Join(tt.args, " "), code, stderr, exitUsage, tt.want)
		}
	}
}

// TestPGOInterrupted: a signal while chrono pgo builds (go build
// killed) ends it as an interruption (128 + the signal), not as a
// failed build.
func TestPGOInterrupted(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		injectInterrupt(t, tc.sig)
		_, stderr, code := runChrono(t, "", "pgo", "../../examples/interp", "--workload", "{bin}")
		if code != tc.code || !strings.Contains(stderr, "pgo: interrupted") || strings.Contains(stderr, "go build -pgo=off ../../examples/interp:") {
			t.Errorf("%v during go build: exit %d, %q; want exit %d, interrupted", tc.sig, code, stderr, tc.code)
		}
	}
}

func TestWorkloadLine(t *testing.T) {
	for _, tt := range []struct{ workload, bin, want string }{
		{"{bin} -r 3", "/tmp/b", "'/tmp/b' -r 3"},
		{"-r 3", "/tmp/b", "'/tmp/b' -r 3"},
		{"sh -c '{bin} | wc'", "/tmp/b", "sh -c ''/tmp/b' | wc'"},
		{"{bin}", "/tmp/it's", `'/tmp/it'\''s'`},
	} {
		if got := workloadLine(tt.workload, tt.bin); got != tt.want {
			t.Errorf("workloadLine(%q, %q) = %q, want %q", tt.workload, tt.bin, got, tt.want)
		}
	}
}

// TestRunProfileUsage: chrono run's profiling flags are checked before
// anything runs.
func TestRunProfileUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--profiler", "go", "true"}, "apply to --profile DIR"},
		{[]string{"run", "--profile-runs", "5", "true"}, "apply to --profile DIR"},
		{[]string{"run", "--profile", "d", "--profiler", "bogus", "true"}, `--profiler "bogus"`},
		{[]string{"run", "--profile", "d", "--profile-runs", "0", "true"}, "--profile-runs 0"},
		{[]string{"run", "--profile", "d", "--debug-mode", "sleep 0.1"}, "--debug-mode"},
	} {
		_, stderr, code := runChrono(t, "", tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("chrono %s: exit %d, %q; want exit %d naming %q", strings.Join(tt.args, " "), code, stderr, exitUsage, tt.want)
		}
	}
}

// TestGainSeed: the gain block bootstraps its intervals with the
// document's seed, as the run report's comparison of the same builds
// does, so the two print the same interval of pgo/plain. The samples
// and seed 7 are ones where seed 1's interval differs in its last digit
// ([0.93, 0.97] against [0.93, 0.98]): with the gain on seed 1, the two
// printed intervals of one comparison disagreed.
func TestGainSeed(t *testing.T) {
	ms := func(vs ...float64) []float64 {
		for i := range vs {
			vs[i] *= 1e6
		}
		return vs
	}
	plain := ms(103, 100, 103, 102, 101, 106, 101, 102, 102, 105, 109, 103)
	pgo := ms(100, 98, 94, 95, 97, 101, 98, 95, 96, 99, 102, 96)
	d := result.New(result.KindCommand, result.Meta{})
	d.Run.Command = &result.CommandRun{Seed: 7, Reference: "plain", Order: "interleaved"}
	d.Measurements = []result.Measurement{
		{Name: "plain", Primary: "wall", Metrics: []result.Metric{{Name: "wall", Unit: "ns", Values: plain}}},
		{Name: "pgo", Primary: "wall", Metrics: []result.Metric{{Name: "wall", Unit: "ns", Values: pgo}}},
	}
	var rep, gain strings.Builder
	if err := report.Render(&rep, report.Subject{Docs: []*result.Document{d}}, report.Text, report.Options{}); err != nil {
		t.Fatal(err)
	}
	writeGain(&gain, d, nil, &profile.Profile{}, 1)
	ci := regexp.MustCompile(`\[[0-9.]+, [0-9.]+\]`)
	inRun := ci.FindString(regexp.MustCompile(`"pgo" +[0-9.]+x +\[[^]]*\]`).FindString(rep.String()))
	inGain := ci.FindString(regexp.MustCompile(`\n  wall +[0-9.]+x \[[^]]*\]`).FindString(gain.String()))
	if inRun == "" || inGain == "" || inRun != inGain {
		t.Errorf("the run report's interval of pgo/plain is %q, the gain's %q: want one interval\n%s\n%s", inRun, inGain, rep.String(), gain.String())
	}
	if inGain != "[0.93, 0.98]" {
		t.Errorf("the gain's interval is %q, want seed 7's [0.93, 0.98]", inGain)
	}
}
