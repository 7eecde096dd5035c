package main

import (
	"database/sql"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"github.com/chronograph/chronograph/compare"
	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/history"
	"github.com/chronograph/chronograph/internal/crosstest"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
)

// writeSeriesDocs writes n command documents of measurement name into
// dir, the i-th with a median of level(i), measured on CPU model cpu.
func writeSeriesDocs(t *testing.T, dir, name, cpu string, n int, level func(i int) float64) []string {
	t.Helper()
	var paths []string
	for i := range n {
		d := result.New("command", result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
		d.Start = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)
		d.End = d.Start
		d.Environment = &env.Host{CPU: env.CPU{Model: cpu}, Go: env.Go{Version: "go1.26", GOMAXPROCS: 2}}
		v := level(i)
		vals := []float64{v * 0.99, v, v * 1.01, v * (1 + 0.002*float64(i%3)), v * 0.995}
		d.Measurements = []result.Measurement{{Name: name, Primary: "wall", Metrics: []result.Metric{{Name: "wall", Unit: "ns", Values: vals}}}}
		p := filepath.Join(dir, fmt.Sprintf("%s-%s-%02d.json", strings.ReplaceAll(name, " ", "_"), cpu, i))
		if err := result.WriteFile(p, d); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

func TestHistoryCLI(t *testing.T) {
	dir := crosstest.TempDir(t)
	t.Chdir(dir)
	step := func(i int) float64 {
		v := 1e6 * (1 + 0.003*float64(i%4))
		if i >= 20 {
			v *= 1.2
		}
		return v
	}
	docs := writeSeriesDocs(t, dir, "sleep 0.001", "CPU-A", 30, step)
	_, errOut, code := runChrono(t, "", append([]string{"history", "add", "--tag", "ci=test"}, docs...)...)
	if code != 0 || strings.Count(errOut, "history: added") != 30 {
		t.Fatalf("add: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, ".chrono", "history.db")); err != nil {
		t.Fatalf("default store: %v", err)
	}
	// Another machine's runs, flat: compared only among themselves.
	other := writeSeriesDocs(t, dir, "sleep 0.001", "CPU-B", 12, func(int) float64 { return 2e6 })
	if _, errOut, code := runChrono(t, "", append([]string{"history", "add"}, other...)...); code != 0 {
		t.Fatalf("add B: %s", errOut)
	}

	out, _, code := runChrono(t, "", "history", "list")
	if code != 0 || !strings.Contains(out, "sleep 0.001") || !strings.Contains(out, "42") {
		t.Fatalf("list: %d\n%s", code, out)
	}
	out, errOut, code = runChrono(t, "", "history", "trend", "sleep 0.001", "--html", "trend.html")
	if code != 0 || !strings.Contains(out, "30 runs") || !strings.Contains(out, "CPU-A") || !strings.Contains(out, "▶") || !strings.Contains(out, "change: 1.2") {
		t.Fatalf("trend (the newest run's machine, A): %d %s\n%s", code, errOut, out)
	}
	html, err := os.ReadFile("trend.html")
	if err != nil || !strings.Contains(string(html), "<svg") {
		t.Fatalf("trend --html: %v", err)
	}
	hashA := history.Fingerprint(&env.Host{CPU: env.CPU{Model: "CPU-A"}, Go: env.Go{Version: "go1.26", GOMAXPROCS: 2}}).Hash
	hashB := history.Fingerprint(&env.Host{CPU: env.CPU{Model: "CPU-B"}, Go: env.Go{Version: "go1.26", GOMAXPROCS: 2}}).Hash
	out, _, code = runChrono(t, "", "history", "trend", "sleep 0.001", "--machine", hashB[:8])
	if code != 0 || !strings.Contains(out, "12 runs") || strings.Contains(out, "▶") {
		t.Fatalf("trend B: %d\n%s", code, out)
	}
	out, _, _ = runChrono(t, "", "history", "show", "sleep 0.001")
	if !strings.Contains(out, hashA) || !strings.Contains(out, hashB) || !strings.Contains(out, "ci=test") {
		t.Fatalf("show:\n%s", out)
	}
	out, _, code = runChrono(t, "", "history", "trend", "sleep 0.001", "--any-machine")
	if code != 0 || !strings.Contains(out, "42 runs on every machine") {
		t.Fatalf("trend --any-machine: %d\n%s", code, out)
	}

	out, _, code = runChrono(t, "", "history", "check")
	if code != 0 || !strings.Contains(out, "regression") || !strings.Contains(out, "2 series checked, 1 with changes, 1 whose newest change is a regression") {
		t.Fatalf("check: %d\n%s", code, out)
	}
	out, _, code = runChrono(t, "", "history", "check", "--any-machine")
	if code != 0 || !strings.Contains(out, "1 series checked") {
		t.Fatalf("check --any-machine: %d\n%s", code, out)
	}
	_, errOut, code = runChrono(t, "", "history", "check", "--fail-on", "regression")
	if code != 1 || !strings.Contains(errOut, "regression: sleep 0.001 wall") {
		t.Fatalf("check --fail-on: %d %s", code, errOut)
	}
	if _, _, code = runChrono(t, "", "history", "check", "--fail-on", "regression", "--threshold", "25%"); code != 0 {
		t.Fatalf("check --threshold 25%%: exit %d", code)
	}
	if _, errOut, code = runChrono(t, "", "history", "check", "--threshold", "x"); code != 2 {
		t.Fatalf("bad threshold: %d %s", code, errOut)
	}

	out, errOut, code = runChrono(t, "", "history", "export", "sleep 0.001", "--machine", hashA, "--export-csv", "s.csv", "--export-json", "s.json")
	if code != 0 || !strings.Contains(out, "sleep 0.001, wall (ns): 30 runs on machine "+hashA) {
		t.Fatalf("export: exit %d, %s\n%s", code, errOut, out)
	}
	f, _ := os.Open("s.csv")
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) != 31 || recs[0][0] != "measurement" {
		t.Fatalf("csv: %d records, %v", len(recs), err)
	}
	d, err := result.ReadFile("s.json")
	if err != nil || d.Kind != result.KindHistory || len(d.Measurements) != 1 || len(d.Measurements[0].Metrics[0].Values) != 30 {
		t.Fatalf("json: %v %+v", err, d)
	}
	// The old spelling --csv FILE writes the same CSV, with a note.
	if _, errOut, code = runChrono(t, "", "history", "export", "sleep 0.001", "--machine", hashA, "--csv", "old.csv"); code != 0 || errOut != csvNote+"\n" {
		t.Fatalf("export --csv: exit %d, stderr %q", code, errOut)
	}
	if a, b := readFile(t, "s.csv"), readFile(t, "old.csv"); a != b {
		t.Errorf("--csv wrote\n%s\n--export-csv\n%s", b, a)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--json", "s2.json"}, `history export: --json prints the document on standard output and takes no FILE ("s2.json" was read as a second NAME): write it to a file with --export-json FILE`},
		{[]string{"--csv", "a.csv", "--export-csv", "b.csv"}, "--csv is the old name of --export-csv: give one of them"},
		{[]string{"--json", "--export-csv", "-"}, "--json and --export-csv - both write to standard output"},
	} {
		if _, errOut, code = runChrono(t, "", append([]string{"history", "export", "sleep 0.001"}, tt.args...)...); code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("export %v: exit %d, %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
	// --json prints the document and nothing else.
	out, errOut, code = runChrono(t, "", "history", "export", "sleep 0.001", "--json")
	if d := decodeStrict(t, []byte(out)); code != 0 || errOut != "" || d.Kind != result.KindHistory || d.Run.History.View != result.HistoryViewExport {
		t.Fatalf("export --json: exit %d, %s", code, errOut)
	}
	if _, errOut, code = runChrono(t, "", "history", "trend", "nothing"); code != 1 || !strings.Contains(errOut, "chrono history list") {
		t.Fatalf("unknown name: %d %s", code, errOut)
	}
}

// readFile returns the content of a file the test wrote.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHistoryFlagAndBadStore(t *testing.T) {
	dir := crosstest.TempDir(t)
	t.Chdir(dir)
	db := filepath.Join(dir, "h.db")
	if _, errOut, code := runChrono(t, "1\n2\n3\n4\n", "numbers", "--history="+db); code != 0 || !strings.Contains(errOut, "history: added the numbers document") {
		t.Fatalf("stats --history: %d %s", code, errOut)
	}
	if out, _, code := runChrono(t, "", "history", "list", "--db", db); code != 0 || !strings.Contains(out, "stdin") {
		t.Fatalf("list: %s", out)
	}
	os.WriteFile("notes.txt", []byte("not a database"), 0o644)
	_, errOut, code := runChrono(t, "1\n2\n", "numbers", "--history=notes.txt")
	if code == 0 || !strings.Contains(errOut, "not a SQLite database") {
		t.Fatalf("bad store: %d %s", code, errOut)
	}
	if b, _ := os.ReadFile("notes.txt"); string(b) != "not a database" {
		t.Fatal("the file changed")
	}
	_, errOut, code = runChrono(t, "", "history", "list", "--db", "postgres://u:pw@127.0.0.1:1/x?connect_timeout=1")
	if code != 1 || !strings.Contains(errOut, "cannot reach PostgreSQL") {
		t.Fatalf("unreachable: %d %s", code, errOut)
	}
	if _, errOut, code = runChrono(t, "", "history", "add", "--tag", "novalue", "x"); code != 2 {
		t.Fatalf("bad tag: %d %s", code, errOut)
	}
}

// TestHistoryBadAddress: an address of a database chrono does not support,
// or a directory, is bad usage, said as such.
func TestHistoryBadAddress(t *testing.T) {
	dir := crosstest.TempDir(t)
	doc := writeSeriesDocs(t, crosstest.TempDir(t), "x", "cpu", 1, func(int) float64 { return 100 })[0]
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"mysql", []string{"history", "list", "--db", "mysql://u:secret@x/db"}, `unsupported store address "mysql://u:xxxxx@x/db": chrono keeps its history in SQLite (a FILE, or sqlite:FILE) or PostgreSQL`},
		{"mysql on add", []string{"history", "add", "--db", "mysql://x", doc}, "unsupported store address"},
		{"directory", []string{"history", "list", "--db", dir}, dir + " is a directory, not a SQLite file: give a file in it, e.g. --db " + filepath.Join(dir, "history.db")},
		{"sqlite: directory", []string{"history", "check", "--db", "sqlite:" + dir}, "is a directory, not a SQLite file"},
		{"--history directory", []string{"numbers", "--history=" + dir}, "--history: history: " + dir + " is a directory"},
		{"--history mysql", []string{"numbers", "--history=mysql://x"}, "--history: history: unsupported store address"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runChrono(t, "1\n2\n", tt.args...)
			if code != exitUsage || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "secret") || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, %q; want exit 2 and %q", code, errOut, tt.want)
			}
		})
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"2026-11-01T00:00:00Z": time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		"72h":                  now.Add(-72 * time.Hour),
		"30d":                  now.Add(-30 * 24 * time.Hour),
	} {
		if got, err := parseSince(in, now); err != nil || !got.Equal(want) {
			t.Errorf("%s: %v %v", in, got, err)
		}
	}
	if got, err := parseSince("2026-11-01", now); err != nil || got.Day() != 1 {
		t.Errorf("date: %v %v", got, err)
	}
	for _, bad := range []string{"yesterday", "-3d", "-1h"} {
		if _, err := parseSince(bad, now); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestHistoryUnknownMachine: documents without an environment (hyperfine
// exports, Go benchmark text) form their own series, not a mix of all.
func TestHistoryUnknownMachine(t *testing.T) {
	dir := crosstest.TempDir(t)
	t.Chdir(dir)
	known := writeSeriesDocs(t, dir, "cmd", "CPU-A", 3, func(int) float64 { return 1e6 })
	var unknown []string
	for i := range 2 {
		d := result.New("command", result.Meta{Tool: result.Tool{Name: "hyperfine"}})
		d.Start = time.Date(2026, 12, 1, i, 0, 0, 0, time.UTC)
		d.Measurements = []result.Measurement{{Name: "cmd", Primary: "wall", Metrics: []result.Metric{{Name: "wall", Unit: "ns", Values: []float64{2e6, 2e6}}}}}
		p := filepath.Join(dir, fmt.Sprintf("u%d.json", i))
		if err := result.WriteFile(p, d); err != nil {
			t.Fatal(err)
		}
		unknown = append(unknown, p)
	}
	if _, errOut, code := runChrono(t, "", append(append([]string{"history", "add"}, known...), unknown...)...); code != 0 {
		t.Fatal(errOut)
	}
	out, _, code := runChrono(t, "", "history", "trend", "cmd")
	if code != 0 || !strings.Contains(out, "2 runs on an unknown machine") {
		t.Fatalf("trend: %d\n%s", code, out)
	}
	out, _, code = runChrono(t, "", "history", "check")
	if code != 0 || !strings.Contains(out, "2 series checked") {
		t.Fatalf("check: %d\n%s", code, out)
	}
}

// TestHistoryCLIPostgres runs add, check and export against the PostgreSQL
// server in CHRONO_TEST_POSTGRES (a fresh schema), when it is set.
func TestHistoryCLIPostgres(t *testing.T) {
	base := os.Getenv("CHRONO_TEST_POSTGRES")
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CHRONO_TEST_POSTGRES is not set in CI: .ci/run must start PostgreSQL and export its address")
		}
		t.Skip("set CHRONO_TEST_POSTGRES=postgres://USER:PASSWORD@localhost:5432/DB to run the PostgreSQL tests")
	}
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	schema := fmt.Sprintf("cli_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := db.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	defer db.Exec("DROP SCHEMA " + schema + " CASCADE")
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	dsn := base + sep + "search_path=" + schema
	dir := crosstest.TempDir(t)
	t.Chdir(dir)
	docs := writeSeriesDocs(t, dir, "q", "CPU-P", 20, func(i int) float64 {
		if i >= 12 {
			return 1.5e6
		}
		return 1e6 * (1 + 0.004*float64(i%3))
	})
	t.Setenv("CHRONO_HISTORY_DB", dsn)
	if _, errOut, code := runChrono(t, "", append([]string{"history", "add", "--tag", "pg=yes"}, docs...)...); code != 0 {
		t.Fatal(errOut)
	}
	if _, err := os.Stat(".chrono"); err == nil {
		t.Error("a SQLite store was created although CHRONO_HISTORY_DB names PostgreSQL")
	}
	_, errOut, code := runChrono(t, "", "history", "check", "--fail-on", "regression")
	if code != 1 || !strings.Contains(errOut, "regression: q wall") {
		t.Fatalf("check: %d %s", code, errOut)
	}
	out, _, code := runChrono(t, "", "history", "export", "q", "--export-csv", "-")
	if code != 0 || strings.Count(out, "\n") != 21 {
		t.Fatalf("export: %d\n%s", code, out)
	}
	checkAddTwice(t, "", "q", docs[0], 20)
}

// TestHistoryAddMany: history add of many files adds them in one
// transaction: when one cannot be stored, the error names it and none is
// added; a file given twice is added once.
func TestHistoryAddMany(t *testing.T) {
	dir := crosstest.TempDir(t)
	t.Chdir(dir)
	docs := writeSeriesDocs(t, dir, "m", "CPU-M", 3, func(i int) float64 { return 1e6 + float64(i) })
	d := result.New("command", result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	d.Measurements = []result.Measurement{{Name: "m", Primary: "wall", Metrics: []result.Metric{{Name: "wall", Unit: "ns", Histogram: &result.Histogram{Bounds: []float64{0, 10}, Counts: []int64{0}}}}}}
	empty := filepath.Join(dir, "empty.json")
	if err := result.WriteFile(empty, d); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "h.db")
	_, errOut, code := runChrono(t, "", "history", "add", "--db", db, docs[0], docs[1], empty, docs[2])
	if code != 1 || !strings.Contains(errOut, "chrono: history: "+empty+": the command document has no metric with samples to store") ||
		!strings.Contains(errOut, "nothing was added") || strings.Contains(errOut, "history: added") {
		t.Fatalf("with a document that cannot be stored: exit %d, %s", code, errOut)
	}
	if out, errOut, code := runChrono(t, "", "history", "list", "--db", db); code != 0 || strings.Contains(out, "CPU-M") || strings.Contains(out, " m ") {
		t.Fatalf("the store holds runs after a failed add: %d %s%s", code, out, errOut)
	}
	_, errOut, code = runChrono(t, "", "history", "add", "--db", db, docs[0], docs[1], docs[2], docs[0])
	if code != 0 || strings.Count(errOut, "history: added") != 3 || !strings.Contains(errOut, "history: not added: "+docs[0]+" is already in "+db+" as run 1 ") {
		t.Fatalf("add: exit %d, %s", code, errOut)
	}
	for i, doc := range docs {
		if want := fmt.Sprintf("history: added %s to %s as run %d: 1 metric series, commit unknown: ", doc, db, i+1); !strings.Contains(errOut, want) {
			t.Fatalf("want %q in\n%s", want, errOut)
		}
	}
}

// TestHistoryAddTwice: history add of a document already stored skips it
// with a note (it stored the same document once per add), unless
// --allow-duplicate.
func TestHistoryAddTwice(t *testing.T) {
	dir := crosstest.TempDir(t)
	doc := writeSeriesDocs(t, dir, "d", "CPU-D", 1, func(int) float64 { return 1e6 })[0]
	db := filepath.Join(dir, "h.db")
	if _, errOut, code := runChrono(t, "", "history", "add", "--db", db, doc); code != 0 || !strings.Contains(errOut, "as run 1:") {
		t.Fatalf("first add: %d %s", code, errOut)
	}
	checkAddTwice(t, db, "d", doc, 1)
}

// checkAddTwice adds doc, of measurement name, which the store at db ("":
// $CHRONO_HISTORY_DB) already holds among its runs runs, 8 more times,
// then once with --allow-duplicate, and counts the runs in history show.
func checkAddTwice(t *testing.T, db, name, doc string, runs int) {
	t.Helper()
	var dbArgs []string
	if db != "" {
		dbArgs = []string{"--db", db}
	}
	chrono := func(args ...string) (string, string, int) {
		return runChrono(t, "", append(append(args[:2:2], dbArgs...), args[2:]...)...)
	}
	for range 8 {
		_, errOut, code := chrono("history", "add", doc)
		if code != 0 || !strings.Contains(errOut, "history: not added: "+doc+" is already in ") || !strings.Contains(errOut, "(the same content, added ") ||
			!strings.Contains(errOut, "pass --allow-duplicate to store it again") || strings.Contains(errOut, "history: added") {
			t.Fatalf("add again: exit %d, %s", code, errOut)
		}
	}
	want := fmt.Sprintf("%s, wall (ns): %s\n", name, plural.Count(runs, "run"))
	if out, errOut, code := chrono("history", "show", name); code != 0 || !strings.Contains(out, want) {
		t.Fatalf("show after 8 adds of a stored document: want %q\n%s%s", want, out, errOut)
	}
	if _, errOut, code := chrono("history", "add", "--allow-duplicate", doc); code != 0 || !strings.Contains(errOut, "history: added") {
		t.Fatalf("--allow-duplicate: %d %s", code, errOut)
	}
	want = fmt.Sprintf("%s, wall (ns): %s\n", name, plural.Count(runs+1, "run"))
	if out, errOut, code := chrono("history", "show", name); code != 0 || !strings.Contains(out, want) {
		t.Fatalf("show after --allow-duplicate: want %q\n%s%s", want, out, errOut)
	}
}

// TestHistoryDetectorFlags: --permutations and --min-segment that cannot
// work are refused before the store is read (0 permutations was taken as
// the default 199 and printed p = 0.0050; 9 can never reach p ≤ 0.05, so
// no change was ever found; --min-segment 0 was taken as 5 while 1 failed
// with exit 1); the smallest count that can reach the level, 19, finds the
// example's change.
func TestHistoryDetectorFlags(t *testing.T) {
	db := "../../docs/examples/history.db"
	perm := "--permutations %d can never find a change: the permutation test's p-value is (k + 1)/(n + 1) for k of n permutations, at least 1/(n + 1), so reaching p ≤ 0.05 takes n ≥ 1/0.05 − 1 = 19: give --permutations 19 or more"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--permutations", "0"}, fmt.Sprintf(perm, 0)},
		{[]string{"check", "--permutations", "-5"}, fmt.Sprintf(perm, -5)},
		{[]string{"check", "--permutations", "9"}, fmt.Sprintf(perm, 9)},
		{[]string{"check", "--permutations", "18"}, fmt.Sprintf(perm, 18)},
		{[]string{"trend", "gzip README.md", "--permutations", "0"}, fmt.Sprintf(perm, 0)},
		{[]string{"check", "--min-segment", "0"}, "--min-segment 0 is below 2: a segment needs two runs or more to have a spread; give at least 2"},
		{[]string{"check", "--min-segment", "1"}, "--min-segment 1 is below 2"},
		{[]string{"trend", "gzip README.md", "--min-segment", "1"}, "--min-segment 1 is below 2"},
		{[]string{"check", "--db", "/nonexistent/h.db", "--permutations", "9"}, fmt.Sprintf(perm, 9)}, // before the store is opened
	} {
		args := append([]string{"history", "--db", db}, tt.args...)
		out, errOut, code := runChrono(t, "", args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("%v: exit %d, %q, stdout %q; want exit 2 and %q", tt.args, code, errOut, out, tt.want)
		}
	}
	out, errOut, code := runChrono(t, "", "history", "check", "--db", db, "--permutations", "19")
	if code != 0 || !strings.Contains(out, "1 change\n") || !strings.Contains(out, "0.050  regression") || !strings.Contains(out, "19 permutations") {
		t.Errorf("19 permutations: exit %d, %s%s", code, out, errOut)
	}
}

// TestHistoryCheckVerdicts: check's change points carry package compare's
// verdicts, as chrono report's gate does: the example's change (2.4×) is
// a regression beyond 5 %, which --fail-on regression fails on, and "no
// change" beyond 200 % (it said "within threshold"), which passes;
// --fail-on takes only the verdict the gate fails on.
func TestHistoryCheckVerdicts(t *testing.T) {
	db := "../../docs/examples/history.db"
	row := "  dfc731cd97..6ae97a5471  2.2 ms (10 runs)  5.4 ms (6 runs)  2.4    [2.2, 3.6]  0.0050  "
	for _, tt := range []struct {
		threshold string
		verdict   compare.Verdict
		summary   string
		code      int
		stderr    string
	}{
		{"5%", compare.Regression, "1 series checked, 1 with changes, 1 whose newest change is a regression beyond 5%", exitFailure,
			"chrono: history check: regression: gzip README.md wall (dfc731cd97..6ae97a5471, 2.4×)\n"},
		{"200%", compare.NoChange, "1 series checked, 1 with changes, 0 whose newest change is a regression beyond 200%", exitOK, ""},
	} {
		out, errOut, code := runChrono(t, "", "history", "check", "--db", db, "--threshold", tt.threshold, "--fail-on", string(compare.Regression))
		if code != tt.code || errOut != tt.stderr || !strings.Contains(out, row+string(tt.verdict)+"\n") || !strings.Contains(out, tt.summary+" (") {
			t.Errorf("--threshold %s: exit %d, stderr %q, want exit %d, %q and the verdict %q:\n%s", tt.threshold, code, errOut, tt.code, tt.stderr, tt.verdict, out)
		}
		js, _, _ := runChrono(t, "", "history", "check", "--db", db, "--threshold", tt.threshold, "--json")
		d, err := result.Unmarshal([]byte(js))
		if err != nil || len(d.Measurements) != 1 || d.Measurements[0].Detail.History.Newest().Verdict != string(tt.verdict) {
			t.Errorf("--threshold %s --json: %v\n%s", tt.threshold, err, js)
		}
	}
	for _, v := range []compare.Verdict{compare.Improvement, compare.NoChange, compare.Undecided} {
		_, errOut, code := runChrono(t, "", "history", "check", "--db", db, "--fail-on", string(v))
		if want := fmt.Sprintf("--fail-on %q: the only value is regression", v); code != exitUsage || !strings.Contains(errOut, want) {
			t.Errorf("--fail-on %s: exit %d, %q; want exit 2 and %q", v, code, errOut, want)
		}
	}
}

// tracedSeries writes n copies of the committed traced document of side
// ("base": the fast build of examples/regress, "new": the slow one),
// each with its profile beside it in a directory of its own under dir
// and started a minute after the one before from first, and returns
// their paths.
func tracedSeries(t *testing.T, dir, side string, n, first int) []string {
	t.Helper()
	src := filepath.Join("testdata", "traced", side)
	prof, err := os.ReadFile(filepath.Join(src, "0.pprof"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i := range n {
		d, err := result.ReadFile(filepath.Join(src, "regress.json"))
		if err != nil {
			t.Fatal(err)
		}
		d.Start = d.Start.Add(time.Duration(first+i) * time.Minute)
		sub := filepath.Join(dir, fmt.Sprintf("%s%d", side, i))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, d.Measurements[0].Profile.File), prof, 0o644); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(sub, "regress.json")
		if err := result.WriteFile(p, d); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestHistoryProfiles: history add keeps the profiles the documents refer
// to (their bytes: the files are deleted before the check), notes one it
// cannot read and adds its document all the same; check traces the
// regression between 6 runs of the fast build of examples/regress and 6
// of the slow one to main.checksum from the 3 runs nearest the change on
// each side, in the text, the JSON document and the trend's HTML page;
// with --no-profiles it says in one line that there are none.
func TestHistoryProfiles(t *testing.T) {
	dir := crosstest.TempDir(t)
	docs := append(tracedSeries(t, filepath.Join(dir, "docs"), "base", 6, 0), tracedSeries(t, filepath.Join(dir, "docs"), "new", 6, 6)...)
	missing := filepath.Join(filepath.Dir(docs[0]), "0.pprof")
	if err := os.Remove(missing); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "h.db")
	_, errOut, code := runChrono(t, "", append([]string{"history", "add", "--db", db}, docs...)...)
	if code != 0 || strings.Count(errOut, "1 profile, commit") != 11 || !strings.Contains(errOut, "history: not keeping the profile of regress ("+missing+"): ") {
		t.Fatalf("add: exit %d, want 12 documents, 11 profiles kept and a note about the missing one:\n%s", code, errOut)
	}
	if err := crosstest.RemoveAll(filepath.Join(dir, "docs")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runChrono(t, "", "history", "check", "--db", db, "--fail-on", "regression")
	if code != exitFailure || !strings.Contains(out, "  regression\n") {
		t.Fatalf("check: exit %d, want 1 with the regression:\n%s%s", code, out, errOut)
	}
	if got := firstTraceRow(out, "regress, wall"); got != "main.checksum" {
		t.Errorf("the trace names %q first, want main.checksum:\n%s", got, out)
	}
	if !strings.Contains(out, "CPU profiles of history runs 4, 5, 6 against 7, 8, 9, new − baseline per run (30 runs profiled before, 30 after)") {
		t.Errorf("the trace does not say which runs it merged:\n%s", out)
	}
	js, _, _ := runChrono(t, "", "history", "check", "--db", db, "--json")
	d, err := result.Unmarshal([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if tr := d.Measurements[0].Detail.History.Newest().Trace; tr == nil || len(tr.Funcs) == 0 || tr.Funcs[0].Name != "main.checksum" {
		t.Errorf("the check document's trace: %+v", tr)
	}
	// chrono report of the document prints the same text.
	if again, _, _ := runChrono(t, js, "report"); again != out {
		t.Errorf("chrono report of the check document differs from check's text:\n%s\n---\n%s", again, out)
	}
	page := filepath.Join(dir, "trend.html")
	if _, errOut, code := runChrono(t, "", "history", "trend", "--db", db, "regress", "--html", page); code != 0 {
		t.Fatalf("trend --html: exit %d: %s", code, errOut)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	i, j := strings.Index(string(html), "where the time went: regress, wall"), strings.Index(string(html), "main.checksum")
	if i < 0 || j < i {
		t.Errorf("the trend page has no differential table naming main.checksum after its heading")
	}
	bare := filepath.Join(dir, "bare.db")
	docs = append(tracedSeries(t, filepath.Join(dir, "docs"), "base", 6, 0), tracedSeries(t, filepath.Join(dir, "docs"), "new", 6, 6)...)
	if _, errOut, code := runChrono(t, "", append([]string{"history", "add", "--db", bare, "--no-profiles"}, docs...)...); code != 0 || strings.Contains(errOut, "profile") {
		t.Fatalf("add --no-profiles: exit %d: %s", code, errOut)
	}
	out, _, _ = runChrono(t, "", "history", "check", "--db", bare)
	if !strings.Contains(out, "\nwhere the time went: regress, wall (") || !strings.Contains(out, "): no profiles on either side: add documents made with --profile\n") {
		t.Errorf("check without profiles does not say so:\n%s", out)
	}
}
