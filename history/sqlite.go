package history

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteHeader starts every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// busyTimeoutMS is how long a SQLite append waits for another process's
// transaction before it fails, in milliseconds.
const busyTimeoutMS = 30000

// openSQLite opens the SQLite file at path. An existing file that does not
// start with SQLite's header is refused before SQLite touches it.
func openSQLite(ctx context.Context, path string) (*Store, error) {
	if f, err := os.Open(path); err == nil {
		head := make([]byte, len(sqliteHeader))
		n, rerr := io.ReadFull(f, head)
		f.Close()
		switch {
		case n == 0 && (rerr == io.EOF || rerr == nil):
			// An empty file: SQLite makes it a database.
		case !bytes.Equal(head[:n], []byte(sqliteHeader)):
			return nil, fmt.Errorf("history: %s is not a SQLite database (it does not start with SQLite's header): give the path of a chrono history with --db, or move the file away (it is left unchanged)", path)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("history: cannot read %s: %w", path, err)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	q.Set("_txlock", "immediate")
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("history: the store's path %q holds a '?', which the SQLite driver reads as the start of its options: choose a path without one", path)
	}
	// A plain path (not a file: URI, whose escaping differs between
	// systems); the driver cuts its options at the '?'.
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("history: cannot open %s: %w", path, err)
	}
	// One connection: the pragmas hold per connection, and one process's
	// appends queue here rather than on SQLite's lock.
	db.SetMaxOpenConns(1)
	s := &Store{db: db, dialect: sqliteDialect{}, where: path}
	if err := pingSQLite(ctx, db); err != nil {
		db.Close()
		return nil, s.sqliteError(err)
	}
	return s, nil
}

// pingSQLite opens the first connection, which applies the pragmas. When
// several processes open a new store at once, switching it to WAL can
// fail with SQLITE_BUSY at once, without SQLite's busy handler: retry
// then, up to the busy timeout, as the handler would have waited.
func pingSQLite(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(busyTimeoutMS * time.Millisecond)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		err := db.PingContext(ctx)
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().Add(wait).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait + time.Duration(rand.Int64N(int64(wait)))):
		}
	}
}

// sqliteError explains a corrupt file.
func (s *Store) sqliteError(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
			return fmt.Errorf("history: %s is not a usable SQLite database (corrupt): restore it from a backup or move it away and start a new history (it is left unchanged): %w", s.where, err)
		}
	}
	return fmt.Errorf("history: cannot open %s: %w", s.where, err)
}

type sqliteDialect struct{}

func (sqliteDialect) name() string { return "sqlite" }

func (sqliteDialect) begin(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
	return db.BeginTx(ctx, nil) // BEGIN IMMEDIATE through _txlock
}

func (sqliteDialect) rebind(q string) string { return q }

func (sqliteDialect) lockMigrations(context.Context, *sql.Tx) error { return nil } // BEGIN IMMEDIATE locks

func (sqliteDialect) lockContent(context.Context, *sql.Tx, string) error { return nil } // BEGIN IMMEDIATE locks

func (sqliteDialect) foreignTables(ctx context.Context, tx *sql.Tx) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").Scan(&n)
	return n, err
}

func (sqliteDialect) migrations() [][]string {
	return [][]string{{
		`CREATE TABLE runs (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			added_ns INTEGER NOT NULL,
			time_ns INTEGER NOT NULL,
			kind TEXT NOT NULL,
			source TEXT NOT NULL,
			git_commit TEXT,
			git_branch TEXT,
			git_dirty INTEGER,
			git_note TEXT NOT NULL,
			machine TEXT NOT NULL,
			machine_parts TEXT NOT NULL,
			tags TEXT NOT NULL,
			document TEXT NOT NULL)`,
		`CREATE TABLE measurements (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			run_id INTEGER NOT NULL REFERENCES runs(id),
			name TEXT NOT NULL,
			metric TEXT NOT NULL,
			unit TEXT NOT NULL,
			n INTEGER NOT NULL,
			median REAL NOT NULL,
			samples TEXT NOT NULL)`,
		`CREATE INDEX measurements_name ON measurements(name, metric)`,
		`CREATE INDEX measurements_run ON measurements(run_id)`,
		`CREATE INDEX runs_time ON runs(time_ns)`,
	}, {
		// 2: the content hash of each run's document (then filled in by
		// fillContentHashes), to recognize a document added again.
		`ALTER TABLE runs ADD COLUMN content_sha256 TEXT`,
		`CREATE INDEX runs_content ON runs(content_sha256)`,
	}, {
		// 3: the CPU profiles the runs' documents refer to, kept as
		// their bytes (see Profile).
		`CREATE TABLE profiles (
			run_id INTEGER NOT NULL REFERENCES runs(id),
			measurement TEXT NOT NULL,
			iterations REAL NOT NULL,
			per TEXT NOT NULL,
			source TEXT NOT NULL,
			bytes INTEGER NOT NULL,
			data BLOB NOT NULL,
			PRIMARY KEY (run_id, measurement))`,
		`CREATE INDEX profiles_measurement ON profiles(measurement)`,
	}}
}
