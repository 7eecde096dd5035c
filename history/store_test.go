package history

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/chronograph/chronograph/internal/crosstest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/stdlib"

	"github.com/chronograph/chronograph/env"
	"github.com/chronograph/chronograph/result"
)

// The child processes of the concurrency and crash tests re-run this test
// binary with childEnv set.
const childEnv = "CHRONO_HISTORY_TEST_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(child(mode))
	}
	os.Exit(m.Run())
}

// child appends documents to the store named by CHRONO_HISTORY_TEST_DSN:
// "append N ID" appends N documents; "crash" dies inside the transaction.
func child(mode string) int {
	ctx := context.Background()
	s, err := Open(ctx, os.Getenv("CHRONO_HISTORY_TEST_DSN"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	f := strings.Fields(mode)
	switch f[0] {
	case "append": // "append N ID": N documents of measurement "child ID"
		n, _ := strconv.Atoi(f[1])
		for i := range n {
			if _, err := s.Add(ctx, testDoc("child "+f[2], []float64{float64(i), 2, 3}, time.Unix(int64(i), 0)), Meta{}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 4
			}
		}
		return 0
	case "batch": // "batch N ID ORDER": the same N documents in one AddAll, reversed when ORDER is "reverse"
		n, _ := strconv.Atoi(f[1])
		entries := make([]Entry, n)
		for i := range n {
			entries[i] = Entry{Doc: testDoc("child "+f[2], []float64{float64(i), 2, 3}, time.Unix(int64(i), 0))}
		}
		if f[3] == "reverse" {
			slices.Reverse(entries)
		}
		if _, err := s.AddAll(ctx, entries); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 4
		}
		return 0
	case "crash":
		s.beforeCommit = func() error {
			p, _ := os.FindProcess(os.Getpid())
			p.Kill()
			time.Sleep(time.Minute)
			return nil
		}
		s.Add(ctx, testDoc("crash", []float64{1, 2, 3}, time.Unix(100, 0)), Meta{})
		return 5
	}
	return 6
}

func testDoc(name string, vals []float64, start time.Time) *result.Document {
	d := result.New("command", result.Meta{Tool: result.Tool{Name: "chrono", Version: "test"}})
	d.Start = start
	d.Environment = &env.Host{CPU: env.CPU{Model: "Test CPU"}, Go: env.Go{Version: "go1.26", GOMAXPROCS: 2}}
	d.Measurements = []result.Measurement{{Name: name, Primary: "wall", Metrics: []result.Metric{
		{Name: "wall", Unit: "ns", Values: vals},
		{Name: "user", Unit: "ns", Values: vals},
	}}}
	return d
}

// backends returns the stores to test against: a SQLite file, and
// PostgreSQL (a fresh schema of the server in CHRONO_TEST_POSTGRES) when
// it is set. In CI (CI=true) a missing server fails the test.
func backends(t testing.TB) map[string]string {
	t.Helper()
	b := map[string]string{"sqlite": filepath.Join(crosstest.TempDir(t), "h.db")}
	if dsn := pgDSN(t); dsn != "" {
		b["postgres"] = dsn
	}
	return b
}

// eachStore runs test on a new store of each backend (see backends), s
// opened from dsn.
func eachStore(t *testing.T, test func(t *testing.T, s *Store, dsn string)) {
	t.Helper()
	for name, dsn := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, err := Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			test(t, s, dsn)
		})
	}
}

// schemaSeq numbers the schemas pgDSN makes.
var schemaSeq atomic.Int64

// pgDSN returns the address of a new, empty schema on the test server, ""
// when there is none.
func pgDSN(t testing.TB) string {
	t.Helper()
	base := os.Getenv("CHRONO_TEST_POSTGRES")
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CHRONO_TEST_POSTGRES is not set in CI: .ci/run must start PostgreSQL and export its address")
		}
		t.Log("PostgreSQL tests skipped: set CHRONO_TEST_POSTGRES=postgres://USER:PASSWORD@localhost:5432/DB to run them")
		return ""
	}
	// The sequence number keeps names apart where the wall clock is
	// coarse (Go's time.Now under Wine advances every few ms).
	schema := fmt.Sprintf("t_%d_%d_%d", os.Getpid(), time.Now().UnixNano(), schemaSeq.Add(1))
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("cannot create a test schema on %s: %v", base, err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", base)
		if err == nil {
			db.Exec("DROP SCHEMA " + schema + " CASCADE")
			db.Close()
		}
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}

var _ = stdlib.GetDefaultDriver // registers "pgx"

func TestAddSeriesList(t *testing.T) {
	ctx := context.Background()
	eachStore(t, func(t *testing.T, s *Store, _ string) {
		evil := "'; DROP TABLE measurements; --"
		dirty := true
		for i, v := range []float64{10, 11, 12} {
			_, err := s.Add(ctx, testDoc(evil, []float64{v, v + 1, v + 2}, time.Unix(int64(1000-i), 0)),
				Meta{Git: Git{Commit: fmt.Sprintf("c%d", i), Branch: "main", Dirty: &dirty}, Tags: map[string]string{"k": "v"}, Source: "x.json"})
			if err != nil {
				t.Fatal(err)
			}
		}
		pts, err := s.Series(ctx, evil, "wall", Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(pts) != 3 || pts[0].Median != 13 || pts[2].Median != 11 || pts[0].Commit != "c2" || pts[0].Branch != "main" || pts[0].Dirty == nil || !*pts[0].Dirty || pts[0].Tags["k"] != "v" {
			t.Fatalf("series: %+v", pts)
		}
		if len(pts[0].Values) != 3 || pts[0].Unit != "ns" {
			t.Fatalf("values: %+v", pts[0])
		}
		ls, err := s.List(ctx)
		if err != nil || len(ls) != 2 || ls[0].Name != evil || ls[1].Metric != "wall" || ls[1].Runs != 3 || ls[0].Machines != 1 {
			t.Fatalf("list: %+v %v", ls, err)
		}
		pts, err = s.Series(ctx, evil, "wall", Filter{Since: time.Unix(999, 0)})
		if err != nil || len(pts) != 2 {
			t.Fatalf("since: %d %v", len(pts), err)
		}
		m := Fingerprint(testDoc("", nil, time.Time{}).Environment)
		pts, err = s.Series(ctx, evil, "wall", Filter{Machine: m.Hash[:6]})
		if err != nil || len(pts) != 3 {
			t.Fatalf("machine: %d %v", len(pts), err)
		}
		pts, err = s.Series(ctx, evil, "wall", Filter{Machine: "ffff"})
		if err != nil || len(pts) != 0 {
			t.Fatalf("other machine: %d %v", len(pts), err)
		}
		ms, err := s.Machines(ctx, evil, "wall")
		if err != nil || len(ms) != 1 || ms[0].CPU != "Test CPU" || ms[0].Hash != m.Hash {
			t.Fatalf("machines: %+v %v", ms, err)
		}
	})
}

// TestAddAll: AddAll stores what Add stores, in the order of its entries,
// in one transaction: a document with the content of one before it is its
// duplicate, and an entry that cannot be stored, or a failure before the
// commit, leaves the store as it was.
func TestAddAll(t *testing.T) {
	ctx := context.Background()
	eachStore(t, func(t *testing.T, s *Store, _ string) {
		a := testDoc("all", []float64{1, 2, 3}, time.Unix(10, 0))
		b := testDoc("all", []float64{4, 5, 6}, time.Unix(11, 0))
		added, err := s.AddAll(ctx, []Entry{
			{Doc: a, Meta: Meta{Source: "a.json", Git: Git{Commit: "ca"}}},
			{Doc: b, Meta: Meta{Source: "b.json", Git: Git{Commit: "cb"}}},
			{Doc: a, Meta: Meta{Source: "a-again.json"}},
			{Doc: a, Meta: Meta{Source: "a-kept.json", AllowDuplicate: true}},
		})
		if err != nil || len(added) != 4 {
			t.Fatalf("%+v %v", added, err)
		}
		if added[0].Run == 0 || added[1].Run <= added[0].Run || added[0].Points != 2 || added[1].Points != 2 || added[0].Duplicate != nil || added[1].Duplicate != nil {
			t.Fatalf("new documents: %+v", added[:2])
		}
		if dup := added[2].Duplicate; dup == nil || dup.Run != added[0].Run || added[2].Run != 0 || added[2].Points != 0 {
			t.Fatalf("the duplicate within the batch: %+v", added[2])
		}
		if added[3].Duplicate != nil || added[3].Run <= added[1].Run || added[3].Points != 2 {
			t.Fatalf("the allowed duplicate: %+v", added[3])
		}
		pts, err := s.Series(ctx, "all", "wall", Filter{})
		if err != nil || len(pts) != 3 || pts[0].Median != 2 || pts[0].Commit != "ca" || pts[1].Median != 2 || pts[2].Median != 5 || pts[2].Commit != "cb" {
			t.Fatalf("series: %+v %v", pts, err)
		}
		if a, err := s.Add(ctx, b, Meta{}); err != nil || a.Duplicate == nil || a.Duplicate.Run != added[1].Run {
			t.Fatalf("Add after AddAll: %+v %v", a, err)
		}

		c := testDoc("all", []float64{7, 8, 9}, time.Unix(12, 0))
		empty := testDoc("empty", nil, time.Unix(13, 0))
		for _, tt := range []struct {
			entries []Entry
			want    string
		}{
			{[]Entry{{Doc: c, Meta: Meta{Source: "c.json"}}, {Doc: empty, Meta: Meta{Source: "empty.json"}}},
				"history: empty.json: the command document has no metric with samples to store (empty wall: no raw values and no histogram; empty user: no raw values and no histogram): nothing was added"},
			{[]Entry{{Doc: c}, {Doc: nil}}, "history: document 2 of 2: no document to add"},
		} {
			if _, err := s.AddAll(ctx, tt.entries); err == nil || err.Error() != tt.want {
				t.Fatalf("got %v\nwant %s", err, tt.want)
			}
		}
		s.beforeCommit = func() error { return errors.New("injected") }
		if _, err := s.AddAll(ctx, []Entry{{Doc: c}, {Doc: testDoc("all", []float64{9}, time.Unix(14, 0))}}); err == nil {
			t.Fatal("injected failure not returned")
		}
		s.beforeCommit = nil
		if runs, points, err := s.count(ctx); err != nil || runs != 3 || points != 6 {
			t.Fatalf("after the failed batches: %d runs, %d points (%v); want 3, 6", runs, points, err)
		}
		if added, err := s.AddAll(ctx, nil); err != nil || len(added) != 0 {
			t.Fatalf("no entries: %+v %v", added, err)
		}
	})
}

// TestAddManyRows: a document of more rows than one insert writes
// (rowsPerInsert) is stored whole, each row with its own figures.
func TestAddManyRows(t *testing.T) {
	ctx := context.Background()
	eachStore(t, func(t *testing.T, s *Store, _ string) {
		d := testDoc("m0", []float64{0}, time.Unix(20, 0))
		const n = rowsPerInsert + rowsPerInsert/2 + 15 // measurements × 2 metrics: 2 full inserts and a part
		for i := 1; i < n; i++ {
			v := float64(i)
			d.Measurements = append(d.Measurements, result.Measurement{Name: "m" + strconv.Itoa(i), Primary: "wall", Metrics: []result.Metric{
				{Name: "wall", Unit: "ns", Values: []float64{v, v + 1, v + 2}}, {Name: "user", Unit: "ns", Values: []float64{v}}}})
		}
		for _, docs := range [][]*result.Document{{d}, {d, testDoc("other", []float64{1}, time.Unix(21, 0))}} {
			var entries []Entry
			for _, doc := range docs {
				entries = append(entries, Entry{Doc: doc, Meta: Meta{AllowDuplicate: true}})
			}
			added, err := s.AddAll(ctx, entries)
			if err != nil || added[0].Points != 2*n {
				t.Fatalf("%+v %v", added, err)
			}
		}
		if runs, points, err := s.count(ctx); err != nil || runs != 3 || points != 4*n+2 {
			t.Fatalf("%d runs, %d points (%v); want 3, %d", runs, points, err, 4*n+2)
		}
		for _, i := range []int{0, 1, rowsPerInsert / 2, rowsPerInsert/2 + 1, n - 1} {
			for metric, want := range map[string]float64{"wall": float64(i) + 1, "user": float64(i)} {
				if i == 0 && metric == "wall" {
					want = 0
				}
				pts, err := s.Series(ctx, "m"+strconv.Itoa(i), metric, Filter{})
				if err != nil || len(pts) != 2 || pts[0].Median != want || pts[1].Median != want {
					t.Fatalf("m%d %s: %+v %v, want 2 runs of median %g", i, metric, pts, err, want)
				}
			}
		}
	})
}

// TestConcurrentBatches: processes adding the same documents in one
// transaction each, half of them in the reverse order, store each
// document once (on PostgreSQL, the content locks taken in another order
// would deadlock).
func TestConcurrentBatches(t *testing.T) {
	const procs, each = 4, 10
	for name, dsn := range backends(t) {
		t.Run(name, func(t *testing.T) {
			appendInChildren(t, dsn, procs, func(p int) string {
				return "batch " + strconv.Itoa(each) + " same " + []string{"forward", "reverse"}[p%2]
			})
			s, err := OpenExisting(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if runs, points, err := s.count(context.Background()); err != nil || runs != each || points != 2*each {
				t.Fatalf("got %d runs, %d points (%v); want %d, %d", runs, points, err, each, 2*each)
			}
		})
	}
}

func TestAddNothingToStore(t *testing.T) {
	s, err := Open(context.Background(), filepath.Join(crosstest.TempDir(t), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := testDoc("x", nil, time.Unix(1, 0))
	if _, err := s.Add(context.Background(), d, Meta{}); err == nil || !strings.Contains(err.Error(), "no metric with samples") {
		t.Fatalf("got %v", err)
	}
	// Binned metrics are stored with their median: the recorder's p50,
	// else interpolated in the bins.
	d.Measurements[0].Metrics[0].Histogram = &result.Histogram{Bounds: []float64{0, 10, 20, 30}, Counts: []int64{2, 4, 4}}
	d.Measurements[0].Metrics[1].Histogram = &result.Histogram{Bounds: []float64{0, 10}, Counts: []int64{3}}
	d.Measurements[0].Metrics[1].Percentiles = map[string]float64{"p50": 7}
	a, err := s.Add(context.Background(), d, Meta{})
	if err != nil || a.Points != 2 {
		t.Fatalf("binned: %+v %v", a, err)
	}
	for metric, want := range map[string]float64{"wall": 17.5, "user": 7} {
		pts, err := s.Series(context.Background(), "x", metric, Filter{})
		if err != nil || len(pts) != 1 || pts[0].Median != want || len(pts[0].Values) != 0 || pts[0].N == 0 {
			t.Fatalf("%s: %+v %v", metric, pts, err)
		}
	}
}

// appendInChildren runs procs child processes at once, child p in the
// mode mode(p) (see child), on the store dsn, and waits for them all.
func appendInChildren(t *testing.T, dsn string, procs int, mode func(p int) string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, procs)
	for p := range procs {
		wg.Go(func() {
			cmd := crosstest.Command(os.Args[0])
			cmd.Env = append(os.Environ(), childEnv+"="+mode(p), "CHRONO_HISTORY_TEST_DSN="+dsn)
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[p] = fmt.Errorf("child %d: %v: %s", p, err, out)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentAppends runs 10 processes appending at once and counts
// every row.
func TestConcurrentAppends(t *testing.T) {
	const procs, each = 10, 20
	for name, dsn := range backends(t) {
		t.Run(name, func(t *testing.T) {
			// Create the schema first in one process? No: let the children
			// race on the migration too.
			appendInChildren(t, dsn, procs, func(p int) string { return "append " + strconv.Itoa(each) + " " + strconv.Itoa(p) })
			s, err := Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			runs, points, err := s.count(context.Background())
			if err != nil || runs != procs*each || points != 2*procs*each {
				t.Fatalf("got %d runs, %d points (%v); want %d, %d", runs, points, err, procs*each, 2*procs*each)
			}
			for p := range procs {
				pts, err := s.Series(context.Background(), "child "+strconv.Itoa(p), "wall", Filter{})
				if err != nil || len(pts) != each {
					t.Fatalf("child %d: %d points, %v", p, len(pts), err)
				}
			}
		})
	}
}

// TestCrashMidAppend kills a child inside its append's transaction: the
// store holds what it held before.
func TestCrashMidAppend(t *testing.T) {
	ctx := context.Background()
	for name, dsn := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, err := Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.Add(ctx, testDoc("before", []float64{1}, time.Unix(1, 0)), Meta{}); err != nil {
				t.Fatal(err)
			}
			cmd := crosstest.Command(os.Args[0])
			cmd.Env = append(os.Environ(), childEnv+"=crash", "CHRONO_HISTORY_TEST_DSN="+dsn)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() == 5 {
				t.Fatalf("the child was not killed: %v %s", err, out)
			}
			runs, points, err := s.count(ctx)
			if err != nil || runs != 1 || points != 2 {
				t.Fatalf("after the crash: %d runs, %d points, %v; want 1, 2", runs, points, err)
			}
			// An injected failure rolls back too, and the store still works.
			s.beforeCommit = func() error { return errors.New("injected") }
			if _, err := s.Add(ctx, testDoc("failed", []float64{1}, time.Unix(2, 0)), Meta{}); err == nil {
				t.Fatal("injected failure not returned")
			}
			s.beforeCommit = nil
			if _, err := s.Add(ctx, testDoc("after", []float64{1}, time.Unix(3, 0)), Meta{}); err != nil {
				t.Fatal(err)
			}
			runs, points, err = s.count(ctx)
			if err != nil || runs != 2 || points != 4 {
				t.Fatalf("after the failure: %d runs, %d points, %v; want 2, 4", runs, points, err)
			}
		})
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	for name, dsn := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s, err := Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.db.Exec("INSERT INTO schema_version (version) VALUES (99)"); err != nil {
				t.Fatal(err)
			}
			s.Close()
			var before []byte
			if name == "sqlite" {
				before, _ = os.ReadFile(dsn)
			}
			_, err = Open(ctx, dsn)
			var ne *newerSchemaError
			if !errors.As(err, &ne) || ne.Found != 99 || !strings.Contains(err.Error(), "upgrade chrono") {
				t.Fatalf("got %v", err)
			}
			if name == "sqlite" {
				after, _ := os.ReadFile(dsn)
				if !bytes.Equal(before, after) {
					t.Error("the file changed")
				}
			}
		})
	}
}

func TestNotSQLiteRefused(t *testing.T) {
	dir := crosstest.TempDir(t)
	for _, c := range []struct{ name, content, want string }{
		{"text", "hello, this is not a database\n", "not a SQLite database"},
		{"corrupt", "SQLite format 3\x00" + strings.Repeat("\xff\x13garbage", 600), "SQLite"},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Open(context.Background(), path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "history: ") {
			t.Errorf("%s: got %v", c.name, err)
		}
		if got, _ := os.ReadFile(path); string(got) != c.content {
			t.Errorf("%s: the file changed", c.name)
		}
		t.Logf("%s: %v", c.name, err)
	}
}

// TestAddressRefused: an address with another database's scheme, or a
// directory, is an AddressError that says what is supported and keeps a
// password out; a file name with a colon is still a file.
func TestAddressRefused(t *testing.T) {
	dir := crosstest.TempDir(t)
	for _, tt := range []struct{ dsn, want string }{
		{"mysql://u:secret@host/db", `history: unsupported store address "mysql://u:xxxxx@host/db": chrono keeps its history in SQLite (a FILE, or sqlite:FILE) or PostgreSQL (postgres://USER:PASSWORD@HOST:5432/DATABASE), not in mysql`},
		{"MySQL://x", "not in mysql"},
		{"file:///tmp/h.db", "not in file"},
		{dir, "history: " + dir + " is a directory, not a SQLite file: give a file in it, e.g. --db " + filepath.Join(dir, "history.db")},
		{"sqlite:" + dir, "is a directory, not a SQLite file"},
	} {
		for _, open := range []func(context.Context, string) (*Store, error){Open, OpenExisting} {
			_, err := open(context.Background(), tt.dsn)
			var ae *AddressError
			if !errors.As(err, &ae) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "secret") {
				t.Errorf("%s: got %v, want an AddressError with %q", tt.dsn, err, tt.want)
			}
		}
	}
	t.Chdir(dir)
	s, err := Open(context.Background(), "notes:2026.db")
	if err != nil {
		t.Fatalf("a file name with a colon: %v", err)
	}
	s.Close()
	if _, err := os.Stat("notes:2026.db"); err != nil {
		t.Error(err)
	}
}

func TestURLScheme(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://x": "postgres", "postgresql://x": "postgresql", "sqlite:h.db": "sqlite", "SQLITE:h.db": "sqlite",
		"mysql://x": "mysql", "h.db": "", "/tmp/h.db": "", `C:\h.db`: "", "C:/h.db": "", "notes:1.db": "", ":x": "", "1a://x": "",
	} {
		if got := urlScheme(in); got != want {
			t.Errorf("urlScheme(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestForeignSQLiteRefused(t *testing.T) {
	path := filepath.Join(crosstest.TempDir(t), "other.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE notes (x TEXT)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(context.Background(), path); err == nil || !strings.Contains(err.Error(), "another program") {
		t.Fatalf("got %v", err)
	}
}

func TestPostgresBadAddress(t *testing.T) {
	ctx := context.Background()
	_, err := Open(ctx, "postgres://u:secret@127.0.0.1:1/db?connect_timeout=2")
	if err == nil || !strings.Contains(err.Error(), "cannot reach PostgreSQL") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("unreachable: %v", err)
	}
	_, err = Open(ctx, "postgres://u:secret@host:notaport/db")
	if err == nil || !strings.Contains(err.Error(), "cannot parse") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("bad address: %v", err)
	}
}

func TestParseTags(t *testing.T) {
	tags, err := ParseTags([]string{"a=b", "c=d=e", "e="})
	if err != nil || tags["a"] != "b" || tags["c"] != "d=e" || tags["e"] != "" {
		t.Fatalf("%v %v", tags, err)
	}
	if _, err := ParseTags([]string{"novalue"}); err == nil {
		t.Fatal("accepted")
	}
}

// TestAddDuplicate: a document whose content the store already holds is
// not stored again (history add of one file 8 times stored 8 runs), also
// when it comes back from the file it was exported to; AllowDuplicate
// stores it anyway; another document is stored.
func TestAddDuplicate(t *testing.T) {
	ctx := context.Background()
	eachStore(t, func(t *testing.T, s *Store, _ string) {
		d := testDoc("dup", []float64{1, 2, 3}, time.Unix(50, 0))
		first, err := s.Add(ctx, d, Meta{Source: "a.json"})
		if err != nil || first.Duplicate != nil || first.Run == 0 {
			t.Fatalf("first: %+v %v", first, err)
		}
		path := filepath.Join(crosstest.TempDir(t), "d.json")
		if err := result.WriteFile(path, d); err != nil {
			t.Fatal(err)
		}
		back, err := result.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range []*result.Document{d, back, back} {
			a, err := s.Add(ctx, doc, Meta{Source: "again.json", Tags: map[string]string{"try": strconv.Itoa(i)}})
			if err != nil || a.Duplicate == nil || a.Duplicate.Run != first.Run || a.Run != 0 || a.Points != 0 || a.Duplicate.Added.IsZero() {
				t.Fatalf("again %d: %+v %v", i, a, err)
			}
		}
		if runs, _, err := s.count(ctx); err != nil || runs != 1 {
			t.Fatalf("%d runs stored (%v), want 1", runs, err)
		}
		kept, err := s.Add(ctx, back, Meta{AllowDuplicate: true})
		if err != nil || kept.Duplicate != nil || kept.Run == first.Run || kept.Points != 2 {
			t.Fatalf("allowed duplicate: %+v %v", kept, err)
		}
		other, err := s.Add(ctx, testDoc("dup", []float64{1, 2, 4}, time.Unix(50, 0)), Meta{})
		if err != nil || other.Duplicate != nil {
			t.Fatalf("other content: %+v %v", other, err)
		}
		// The first run stands for the content, even beside the one
		// stored with AllowDuplicate.
		if a, err := s.Add(ctx, d, Meta{}); err != nil || a.Duplicate == nil || a.Duplicate.Run != first.Run {
			t.Fatalf("after the allowed duplicate: %+v %v", a, err)
		}
		if runs, _, err := s.count(ctx); err != nil || runs != 3 {
			t.Fatalf("%d runs stored (%v), want 3", runs, err)
		}
	})
}

// TestConcurrentDuplicates: processes adding the same documents at once
// store each once.
func TestConcurrentDuplicates(t *testing.T) {
	const procs, each = 4, 10
	for name, dsn := range backends(t) {
		t.Run(name, func(t *testing.T) {
			appendInChildren(t, dsn, procs, func(int) string { return "append " + strconv.Itoa(each) + " same" })
			s, err := OpenExisting(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if runs, points, err := s.count(context.Background()); err != nil || runs != each || points != 2*each {
				t.Fatalf("got %d runs, %d points (%v); want %d, %d", runs, points, err, each, 2*each)
			}
		})
	}
}

// v1Store makes dsn a store of schema version 1 (before content hashes)
// holding docs, as a chrono of that version wrote it.
func v1Store(t *testing.T, dsn string, docs ...*result.Document) {
	t.Helper()
	driver, d, source := "sqlite", dialect(sqliteDialect{}), dsn
	if strings.HasPrefix(dsn, "postgres") {
		driver, d = "pgx", postgresDialect{}
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if driver == "sqlite" {
		if _, err := db.Exec("PRAGMA journal_mode=WAL"); err != nil { // as chrono keeps its stores
			t.Fatal(err)
		}
	}
	stmts := append([]string{"CREATE TABLE schema_version (version INTEGER NOT NULL)", "INSERT INTO schema_version (version) VALUES (1)"}, d.migrations()[0]...)
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, doc := range docs {
		body, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(d.rebind(`INSERT INTO runs (added_ns, time_ns, kind, source, git_note, machine, machine_parts, tags, document)
			VALUES (?, ?, ?, 'old.json', '', '', '{}', '{}', ?)`), int64(7), doc.Start.UnixNano(), doc.Kind, string(body)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMigrateContentHashes: a store of schema version 1 is read as it is
// (a reader never migrates: the file is unchanged), and migrated by the
// first writer, which hashes the runs already stored: adding one of their
// documents again is a duplicate.
func TestMigrateContentHashes(t *testing.T) {
	ctx := context.Background()
	for name, dsn := range backends(t) {
		t.Run(name, func(t *testing.T) {
			old := testDoc("old", []float64{5, 6, 7}, time.Unix(70, 0))
			v1Store(t, dsn, old, testDoc("old", []float64{5, 6, 8}, time.Unix(71, 0)))
			var before []byte
			if name == "sqlite" {
				before, _ = os.ReadFile(dsn)
			}
			r, err := OpenExisting(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			if runs, _, err := r.count(ctx); err != nil || runs != 2 {
				t.Fatalf("reader: %d runs, %v", runs, err)
			}
			var v int
			if err := r.db.QueryRow("SELECT MAX(version) FROM schema_version").Scan(&v); err != nil || v != 1 {
				t.Fatalf("the reader migrated the store to version %d (%v)", v, err)
			}
			r.Close()
			if name == "sqlite" {
				if after, _ := os.ReadFile(dsn); !bytes.Equal(before, after) {
					t.Error("the reader changed the file")
				}
			}
			s, err := Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.db.QueryRow("SELECT MAX(version) FROM schema_version").Scan(&v); err != nil || v != len(s.dialect.migrations()) || v < 2 {
				t.Fatalf("schema version %d after Open (%v)", v, err)
			}
			var missing int
			if err := s.db.QueryRow("SELECT COUNT(*) FROM runs WHERE content_sha256 IS NULL").Scan(&missing); err != nil || missing != 0 {
				t.Fatalf("%d runs without a content hash (%v)", missing, err)
			}
			a, err := s.Add(ctx, old, Meta{})
			if err != nil || a.Duplicate == nil || a.Duplicate.Run != 1 || a.Duplicate.Added != time.Unix(0, 7) {
				t.Fatalf("old document again: %+v %v", a, err)
			}
			if a, err := s.Add(ctx, testDoc("old", []float64{5, 6, 9}, time.Unix(72, 0)), Meta{}); err != nil || a.Duplicate != nil {
				t.Fatalf("new document: %+v %v", a, err)
			}
		})
	}
}

// TestOpenCurrentTakesNoLock: opening a store whose schema is current
// neither writes nor takes the migration lock, so it succeeds while
// another process holds that lock (SQLite: a write transaction;
// PostgreSQL: the advisory lock of migrations); before, it waited.
func TestOpenCurrentTakesNoLock(t *testing.T) {
	// A guard against a hang, not a bound on the time.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	eachStore(t, func(t *testing.T, s *Store, dsn string) {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		lock, unlock := "BEGIN IMMEDIATE", "ROLLBACK"
		if s.dialect.name() == "postgres" {
			lock, unlock = fmt.Sprintf("SELECT pg_advisory_lock(%d)", migrationLock), fmt.Sprintf("SELECT pg_advisory_unlock(%d)", migrationLock)
		}
		if _, err := conn.ExecContext(ctx, lock); err != nil {
			t.Fatal(err)
		}
		defer conn.ExecContext(ctx, unlock)
		again, err := Open(ctx, dsn)
		if err != nil {
			t.Fatalf("open while the schema is locked: %v", err)
		}
		again.Close()
	})
}

// TestOpenExistingEmpty: a reader of a file or database without a chrono
// schema says there is no history yet, and creates nothing.
func TestOpenExistingEmpty(t *testing.T) {
	path := filepath.Join(crosstest.TempDir(t), "empty.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenExisting(context.Background(), path); !errors.Is(err, ErrNoStore) || !strings.Contains(err.Error(), "holds no chrono history yet") {
		t.Fatalf("got %v", err)
	}
}

// count returns the number of runs and of measurement rows in the store.
func (s *Store) count(ctx context.Context) (runs, points int, err error) {
	if err := s.db.QueryRowContext(ctx, "SELECT (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM measurements)").Scan(&runs, &points); err != nil {
		return 0, 0, s.wrap("cannot count the rows", err)
	}
	return runs, points, nil
}
