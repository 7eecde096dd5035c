package history

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chronograph/chronograph/internal/excerpt"
	"github.com/chronograph/chronograph/internal/plural"
	"github.com/chronograph/chronograph/result"
	"github.com/chronograph/chronograph/stats"
)

// EnvDSN is the environment variable that names the store when --db is
// not given.
const EnvDSN = "CHRONO_HISTORY_DB"

// DefaultPath is the SQLite file used when no address is given, relative
// to the working directory.
const DefaultPath = ".chrono/history.db"

// Store is a history of result documents in SQLite or PostgreSQL. Its
// methods are safe for concurrent use, and several processes may append
// to one store at once.
type Store struct {
	db      *sql.DB
	dialect dialect
	where   string // the file, or host:port/database (no password)
	// version is the store's schema version once opened.
	version int

	// beforeCommit, when set (tests only), runs inside Add's transaction
	// after the rows are written and before the commit.
	beforeCommit func() error
}

// dialect holds what differs between the backends.
type dialect interface {
	name() string
	// begin starts a transaction that writes (SQLite: BEGIN IMMEDIATE
	// through the connection's _txlock).
	begin(ctx context.Context, db *sql.DB) (*sql.Tx, error)
	// rebind rewrites ? placeholders for the backend.
	rebind(q string) string
	// migrations returns the statements of each schema version, from 1.
	migrations() [][]string
	// lockMigrations serializes migrations among processes (inside tx).
	lockMigrations(ctx context.Context, tx *sql.Tx) error
	// foreignTables counts tables that are not ours (a database of some
	// other program).
	foreignTables(ctx context.Context, tx *sql.Tx) (int, error)
	// lockContent serializes, inside tx, the appends of documents of one
	// content hash among processes.
	lockContent(ctx context.Context, tx *sql.Tx, hash string) error
}

// Open opens (creating it when needed) the store at dsn: a postgres:// or
// postgresql:// address, or a SQLite file path (optionally "sqlite:PATH");
// "" means $CHRONO_HISTORY_DB, else DefaultPath (its directory is
// created). The schema is created or upgraded on first use; a store
// written by a newer chrono is refused, as is a file that is not a SQLite
// database (neither is ever changed).
func Open(ctx context.Context, dsn string) (*Store, error) {
	return open(ctx, dsn, true)
}

// OpenExisting is Open for readers: a SQLite file that does not exist is
// an error (ErrNoStore) rather than a new, empty store.
func OpenExisting(ctx context.Context, dsn string) (*Store, error) {
	return open(ctx, dsn, false)
}

// ErrNoStore is OpenExisting's error for a SQLite file that does not
// exist.
var ErrNoStore = errors.New("history: no store")

// AddressError is the error of Open for an address that cannot name a
// store: a scheme other than postgres://, postgresql:// and sqlite:, or
// a directory where a SQLite file is wanted.
type AddressError struct{ msg string }

func (e *AddressError) Error() string { return e.msg }

// urlScheme returns the lower-cased scheme of an address that starts with
// one ("mysql" of "mysql://x", "sqlite" of "sqlite:x"), or "" for a plain
// path. A Windows drive letter (C:\x, C:/x) is not a scheme.
func urlScheme(dsn string) string {
	i := strings.IndexByte(dsn, ':')
	if i < 1 {
		return ""
	}
	scheme := strings.ToLower(dsn[:i])
	for j, c := range scheme {
		if !(c >= 'a' && c <= 'z' || j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return ""
		}
	}
	if scheme == "sqlite" || strings.HasPrefix(dsn[i:], "://") {
		return scheme
	}
	return "" // "notes:2026.db" is a file name
}

// redactDSN keeps a password in a URL address out of messages.
func redactDSN(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			return u.String()
		}
	}
	return dsn
}

func open(ctx context.Context, dsn string, create bool) (*Store, error) {
	if dsn == "" {
		dsn = os.Getenv(EnvDSN)
	}
	var s *Store
	var err error
	switch scheme := urlScheme(dsn); {
	case scheme == "postgres", scheme == "postgresql":
		s, err = openPostgres(ctx, dsn)
	case scheme != "" && scheme != "sqlite":
		return nil, &AddressError{fmt.Sprintf("history: unsupported store address %s: chrono keeps its history in SQLite (a FILE, or sqlite:FILE) "+
			"or PostgreSQL (postgres://USER:PASSWORD@HOST:5432/DATABASE), not in %s; give one of those with --db or $%s", excerpt.Quote(redactDSN(dsn)), scheme, EnvDSN)}
	default:
		path := strings.TrimPrefix(dsn, "sqlite:")
		p := path
		if p == "" {
			p = DefaultPath
		}
		fi, serr := os.Stat(p)
		if serr == nil && fi.IsDir() {
			return nil, &AddressError{fmt.Sprintf("history: %s is a directory, not a SQLite file: give a file in it, e.g. --db %s", p, filepath.Join(p, "history.db"))}
		}
		if !create && errors.Is(serr, os.ErrNotExist) {
			return nil, fmt.Errorf("%w at %s: add results first (chrono history add FILE, or --history on a measuring subcommand), or name the store with --db or $%s", ErrNoStore, p, EnvDSN)
		}
		if path == "" {
			path = DefaultPath
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return nil, fmt.Errorf("history: cannot create the directory of the default store %s: %w; give another place with --db", path, err)
			}
		}
		s, err = openSQLite(ctx, path)
	}
	if err != nil {
		return nil, err
	}
	check := s.migrate
	if !create {
		check = s.checkReadable
	}
	if err := check(ctx); err != nil {
		s.db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// Where names the store: the SQLite file, or PostgreSQL's host, port and
// database (never a password).
func (s *Store) Where() string { return s.where }

// newerSchemaError is the error of Open and OpenExisting for a store whose
// schema is newer than this program knows.
type newerSchemaError struct {
	Where        string
	Found, Known int
}

func (e *newerSchemaError) Error() string {
	return fmt.Sprintf("history: %s has schema version %d, newer than the %d this chrono knows: it was written by a newer chrono; upgrade chrono (the store is left unchanged)", e.Where, e.Found, e.Known)
}

// readableSince is the oldest schema version that readers (List, Series,
// Machines) read: they use only the columns of version 1.
const readableSince = 1

// checkReadable checks, for OpenExisting, that the store holds a schema
// that this program can read, without changing it: a reader never
// migrates (a committed example store stays as it is).
func (s *Store) checkReadable(ctx context.Context) error {
	version, _, err := s.schemaVersion(ctx, s.db)
	if err != nil {
		return err
	}
	switch known := len(s.dialect.migrations()); {
	case version > known:
		return &newerSchemaError{Where: s.where, Found: version, Known: known}
	case version < readableSince:
		return fmt.Errorf("%w at %s: it holds no chrono history yet: add results first (chrono history add FILE, or --history on a measuring subcommand)", ErrNoStore, s.where)
	}
	s.version = version
	return nil
}

// querier is what *sql.DB and *sql.Tx share.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// schemaVersion reads the store's schema version through q: 0, and exists
// false, when it has no schema_version table.
func (s *Store) schemaVersion(ctx context.Context, q querier) (version int, exists bool, err error) {
	var n int
	if err := q.QueryRowContext(ctx, s.dialect.rebind(existsQuery(s.dialect))).Scan(&n); err != nil {
		return 0, false, s.wrap("cannot read the schema", err)
	}
	if n == 0 {
		return 0, false, nil
	}
	if err := q.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_version").Scan(&version); err != nil {
		return 0, true, s.wrap("cannot read the schema version", err)
	}
	return version, true, nil
}

// migrate creates the schema or upgrades it, in one transaction that
// other processes wait for. A store whose schema is current (the usual
// case) is seen to be so without that transaction and its lock.
func (s *Store) migrate(ctx context.Context) error {
	ms := s.dialect.migrations()
	if version, _, err := s.schemaVersion(ctx, s.db); err == nil && version == len(ms) {
		s.version = version
		return nil
	}
	tx, err := s.dialect.begin(ctx, s.db)
	if err != nil {
		return s.wrap("cannot start the schema check", err)
	}
	defer tx.Rollback()
	if err := s.dialect.lockMigrations(ctx, tx); err != nil {
		return s.wrap("cannot lock the schema for migration", err)
	}
	version, exists, err := s.schemaVersion(ctx, tx)
	if err != nil {
		return err
	}
	if !exists {
		n, err := s.dialect.foreignTables(ctx, tx)
		if err != nil {
			return s.wrap("cannot list the tables", err)
		}
		if n > 0 {
			return fmt.Errorf("history: %s holds %s of another program and no chrono schema: give chrono a store of its own with --db (it is left unchanged)", s.where, plural.Count(n, "table"))
		}
		if _, err := tx.ExecContext(ctx, "CREATE TABLE schema_version (version INTEGER NOT NULL)"); err != nil {
			return s.wrap("cannot create the schema", err)
		}
	}
	if version > len(ms) {
		return &newerSchemaError{Where: s.where, Found: version, Known: len(ms)}
	}
	if version == len(ms) {
		s.version = version
		return tx.Commit()
	}
	for v := version + 1; v <= len(ms); v++ {
		for _, q := range ms[v-1] {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return s.wrap(fmt.Sprintf("migration to schema version %d failed", v), err)
			}
		}
		if fill := dataMigrations[v]; fill != nil {
			if err := fill(ctx, s, tx); err != nil {
				return s.wrap(fmt.Sprintf("migration to schema version %d failed", v), err)
			}
		}
		if _, err := tx.ExecContext(ctx, s.dialect.rebind("INSERT INTO schema_version (version) VALUES (?)"), v); err != nil {
			return s.wrap("cannot record the schema version", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return s.wrap("cannot commit the schema", err)
	}
	s.version = len(ms)
	return nil
}

// dataMigrations are the steps of a schema version that SQL alone cannot
// do, run after its statements (in the same transaction).
var dataMigrations = map[int]func(ctx context.Context, s *Store, tx *sql.Tx) error{
	2: fillContentHashes,
}

// fillContentHashes stores the content hash of every run added before
// schema version 2, so that adding one of those documents again is seen
// to be a duplicate.
func fillContentHashes(ctx context.Context, s *Store, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, "SELECT id FROM runs WHERE content_sha256 IS NULL ORDER BY id")
	if err != nil {
		return err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range ids {
		var body string
		if err := tx.QueryRowContext(ctx, s.dialect.rebind("SELECT document FROM runs WHERE id = ?"), id).Scan(&body); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.dialect.rebind("UPDATE runs SET content_sha256 = ? WHERE id = ?"), storedContentHash([]byte(body)), id); err != nil {
			return err
		}
	}
	return nil
}

// storedContentHash is the hash by which Add recognizes a document
// already stored, from the document's JSON: the SHA-256, in hex, of the
// JSON as it reads back (decoded and encoded again, so that a document
// and the file it was exported to hash alike), or of the bytes themselves
// when they do not decode.
func storedContentHash(body []byte) string {
	if d, err := result.Unmarshal(body); err == nil {
		if b, err := json.Marshal(d); err == nil {
			body = b
		}
	}
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

func existsQuery(d dialect) string {
	if d.name() == "sqlite" {
		return "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
	}
	return "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_version'"
}

func (s *Store) wrap(what string, err error) error {
	return fmt.Errorf("history: %s: %s: %w", s.where, what, err)
}

// Added describes one stored document.
type Added struct {
	// Run is the run's id in the store; Points the measurement × metric
	// rows written; Skipped the metrics not stored and why.
	Run     int64
	Points  int
	Skipped []string
	// Duplicate is set when nothing was stored because the store already
	// held a run of the same content (see Add): the first such run,
	// and when it was added. Run and Points are then 0.
	Duplicate *Duplicate
	// Profiles counts the profiles stored with the run (Meta.Profiles).
	Profiles int
}

// Duplicate is a run of the store with the content of a document added
// again.
type Duplicate struct {
	Run   int64
	Added time.Time
}

// Add stores doc with meta in one transaction: either the run and every
// measurement are stored, or (on any error, or a crash) nothing is. A
// document whose content (the SHA-256 of its JSON as it reads back) the
// store already holds is not stored again, unless meta.AllowDuplicate:
// Added.Duplicate names the run that holds it. A zero meta.Time takes the
// document's start, else now. Each metric is stored with its raw values
// and their median; a binned metric (a histogram, no raw values) with its
// median from the recorder's p50 or its bins; a metric with neither is
// skipped and listed in Added.Skipped. AddAll adds several documents in
// one transaction.
func (s *Store) Add(ctx context.Context, doc *result.Document, meta Meta) (Added, error) {
	p, err := prepareRun(doc, meta)
	if err != nil {
		return p.added, fmt.Errorf("history: %w", err)
	}
	as, err := s.addRuns(ctx, []*pendingRun{p})
	if err != nil {
		return Added{}, err
	}
	return as[0], nil
}

// Entry is a document to add with its metadata (see AddAll).
type Entry struct {
	Doc  *result.Document
	Meta Meta
}

// AddAll stores the entries as Add stores each one, all in one
// transaction: either every run is stored or (on any error, or a crash)
// none is, and the store is locked and committed once however many there
// are. A document with the content of one before it in entries is a
// duplicate of that one's run. The Added are in the order of entries.
// An error names its entry by Meta.Source, else by its position.
func (s *Store) AddAll(ctx context.Context, entries []Entry) ([]Added, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	runs := make([]*pendingRun, len(entries))
	for i, e := range entries {
		p, err := prepareRun(e.Doc, e.Meta)
		if err != nil {
			name := e.Meta.Source
			if name == "" {
				name = fmt.Sprintf("document %d of %d", i+1, len(entries))
			}
			return nil, fmt.Errorf("history: %s: %w", name, err)
		}
		runs[i] = p
	}
	return s.addRuns(ctx, runs)
}

// pendingRun is a document ready to be written: the columns of its run
// and of its measurement rows.
type pendingRun struct {
	doc               *result.Document
	meta              Meta
	body, tags, parts string
	hash              string
	rows              []measurementRow
	profiles          []profileRow
	added             Added // its Skipped
}

// measurementRow is the columns of one measurement × metric of a run.
type measurementRow struct {
	name, metric, unit string
	n                  int
	median             float64
	samples            string
}

// prepareRun encodes doc and meta for the store (see Add). Its errors say
// what is wrong without the package's prefix; with no metric to store,
// the pendingRun's added lists the metrics skipped.
func prepareRun(doc *result.Document, meta Meta) (*pendingRun, error) {
	p := &pendingRun{doc: doc}
	if doc == nil {
		return p, errors.New("no document to add")
	}
	if meta.Time.IsZero() {
		meta.Time = doc.Start
		if meta.Time.IsZero() {
			meta.Time = time.Now()
		}
	}
	if meta.Machine.Hash == "" {
		meta.Machine = Fingerprint(doc.Environment)
	}
	p.meta = meta
	body, err := json.Marshal(doc)
	if err != nil {
		return p, fmt.Errorf("cannot encode the document: %w", err)
	}
	p.body, p.hash = string(body), storedContentHash(body)
	tags, _ := json.Marshal(nonNilTags(meta.Tags))
	parts, _ := json.Marshal(meta.Machine)
	p.tags, p.parts = string(tags), string(parts)
	for _, m := range doc.Measurements {
		for _, mt := range m.Metrics {
			vals := slices.DeleteFunc(slices.Clone(mt.Values), func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) })
			if len(vals) == 0 {
				// A binned metric (chrono latency, scope timers): its
				// median from the recorder's p50, else from the bins.
				if med, n, ok := histogramMedian(&mt); ok {
					p.rows = append(p.rows, measurementRow{m.Name, mt.Name, mt.Unit, n, med, "[]"})
					continue
				}
				p.added.Skipped = append(p.added.Skipped, m.Name+" "+mt.Name+": no raw values and no histogram")
				continue
			}
			b, _ := json.Marshal(vals)
			p.rows = append(p.rows, measurementRow{m.Name, mt.Name, mt.Unit, len(vals), stats.Median(vals), string(b)})
		}
	}
	if len(p.rows) == 0 {
		return p, fmt.Errorf("the %s document has no metric with samples to store (%s): nothing was added", doc.Kind, strings.Join(p.added.Skipped, "; "))
	}
	if p.profiles, err = profileRows(doc, meta.Profiles); err != nil {
		return p, err
	}
	return p, nil
}

// addRuns writes runs in one transaction.
func (s *Store) addRuns(ctx context.Context, runs []*pendingRun) ([]Added, error) {
	tx, err := s.dialect.begin(ctx, s.db)
	if err != nil {
		return nil, s.wrap("cannot start the append", err)
	}
	defer tx.Rollback()
	// Another process adding one of these documents waits here (SQLite:
	// BEGIN IMMEDIATE; PostgreSQL: a lock on each hash, taken in the
	// order of the hashes, so that two processes adding the same
	// documents in another order cannot deadlock) and then sees that
	// process's runs.
	var hashes []string
	for _, p := range runs {
		if !p.meta.AllowDuplicate {
			hashes = append(hashes, p.hash)
		}
	}
	slices.Sort(hashes)
	for _, h := range slices.Compact(hashes) {
		if err := s.dialect.lockContent(ctx, tx, h); err != nil {
			return nil, s.wrap("cannot lock the document's content", err)
		}
	}
	var st appendStmts
	defer st.close()
	out := make([]Added, len(runs))
	for i, p := range runs {
		if out[i], err = s.addRun(ctx, tx, &st, p); err != nil {
			return nil, err
		}
	}
	if s.beforeCommit != nil {
		if err := s.beforeCommit(); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, s.wrap("cannot commit the append", err)
	}
	return out, nil
}

// appendStmts are the statements of an append, each prepared when first
// needed and then shared by the runs of the transaction: measurements
// holds the insert of k rows at once by k.
type appendStmts struct {
	duplicate, run, profile *sql.Stmt
	measurements            map[int]*sql.Stmt
}

func (st *appendStmts) close() {
	for _, x := range append(slices.Collect(maps.Values(st.measurements)), st.duplicate, st.run, st.profile) {
		if x != nil {
			x.Close()
		}
	}
}

// rowsPerInsert is the most measurement rows one INSERT writes (7
// parameters each: within SQLite's oldest limit of 999 parameters).
const rowsPerInsert = 100

// prepare returns *x, preparing q in tx first when it is nil.
func (s *Store) prepare(ctx context.Context, tx *sql.Tx, x **sql.Stmt, q string) (*sql.Stmt, error) {
	if *x == nil {
		stmt, err := tx.PrepareContext(ctx, s.dialect.rebind(q))
		if err != nil {
			return nil, s.wrap("cannot prepare the append", err)
		}
		*x = stmt
	}
	return *x, nil
}

// addRun writes one run and its measurements in tx, or finds the run
// that holds its content.
func (s *Store) addRun(ctx context.Context, tx *sql.Tx, st *appendStmts, p *pendingRun) (Added, error) {
	a := p.added
	if !p.meta.AllowDuplicate {
		q, err := s.prepare(ctx, tx, &st.duplicate, "SELECT id, added_ns FROM runs WHERE content_sha256 = ? ORDER BY id LIMIT 1")
		if err != nil {
			return Added{}, err
		}
		var id, added int64
		err = q.QueryRowContext(ctx, p.hash).Scan(&id, &added)
		switch {
		case err == nil:
			return Added{Skipped: a.Skipped, Duplicate: &Duplicate{Run: id, Added: time.Unix(0, added)}}, nil
		case !errors.Is(err, sql.ErrNoRows):
			return Added{}, s.wrap("cannot look for the document in the store", err)
		}
	}
	meta := p.meta
	var dirty sql.NullInt64
	if meta.Git.Dirty != nil {
		dirty = sql.NullInt64{Valid: true}
		if *meta.Git.Dirty {
			dirty.Int64 = 1
		}
	}
	ins, err := s.prepare(ctx, tx, &st.run, `INSERT INTO runs
		(added_ns, time_ns, kind, source, git_commit, git_branch, git_dirty, git_note, machine, machine_parts, tags, document, content_sha256)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	if err != nil {
		return Added{}, err
	}
	err = ins.QueryRowContext(ctx, time.Now().UnixNano(), meta.Time.UnixNano(), p.doc.Kind, meta.Source,
		nullString(meta.Git.Commit), nullString(meta.Git.Branch), dirty, meta.Git.Note,
		meta.Machine.Hash, p.parts, p.tags, p.body, p.hash).Scan(&a.Run)
	if err != nil {
		return Added{}, s.wrap("cannot add the run", err)
	}
	// The rows in as few statements as rowsPerInsert allows: one round
	// trip each on PostgreSQL.
	for rows := range slices.Chunk(p.rows, rowsPerInsert) {
		if st.measurements == nil {
			st.measurements = map[int]*sql.Stmt{}
		}
		x := st.measurements[len(rows)]
		ins, err := s.prepare(ctx, tx, &x, `INSERT INTO measurements (run_id, name, metric, unit, n, median, samples) VALUES `+
			strings.Repeat("(?, ?, ?, ?, ?, ?, ?), ", len(rows)-1)+"(?, ?, ?, ?, ?, ?, ?)")
		if err != nil {
			return Added{}, err
		}
		st.measurements[len(rows)] = x
		args := make([]any, 0, 7*len(rows))
		for _, r := range rows {
			args = append(args, a.Run, r.name, r.metric, r.unit, r.n, r.median, r.samples)
		}
		if _, err := ins.ExecContext(ctx, args...); err != nil {
			return Added{}, s.wrap("cannot add measurement "+strconv.Quote(rows[0].name)+measurementsMore(len(rows)), err)
		}
		a.Points += len(rows)
	}
	if err := s.addProfiles(ctx, tx, st, a.Run, p.profiles); err != nil {
		return Added{}, err
	}
	a.Profiles = len(p.profiles)
	return a, nil
}

// measurementsMore counts the other rows of an insert of n, for its error.
func measurementsMore(n int) string {
	if n == 1 {
		return ""
	}
	return " (and " + plural.Count(n-1, "more row") + ")"
}

// histogramMedian returns the median of a binned metric and its sample
// count: the recorder's p50 when it kept one, else interpolated linearly
// within the bin that holds the middle sample. ok is false without a
// histogram or samples.
func histogramMedian(mt *result.Metric) (med float64, n int, ok bool) {
	h := mt.Histogram
	if h == nil || h.Total() == 0 {
		return 0, 0, false
	}
	n = int(h.Total())
	if p, found := mt.Percentiles["p50"]; found && !math.IsNaN(p) {
		return p, n, true
	}
	half := float64(float64(h.Total()) / 2)
	cum := float64(h.Underflow)
	if cum >= half || len(h.Counts) == 0 || len(h.Bounds) != len(h.Counts)+1 {
		return 0, 0, false // the middle is outside the bins
	}
	for i, c := range h.Counts {
		if cum+float64(c) >= half && c > 0 {
			f := (half - cum) / float64(c)
			return h.Bounds[i] + float64(f*(h.Bounds[i+1]-h.Bounds[i])), n, true
		}
		cum += float64(c)
	}
	return 0, 0, false
}

func nonNilTags(t map[string]string) map[string]string {
	if t == nil {
		return map[string]string{}
	}
	return t
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// Summary is one measurement × metric of the store, for List.
type Summary struct {
	Name, Metric, Unit string
	// Runs is the number of runs that hold it; First and Last when they
	// were taken; Machines the distinct machine fingerprints.
	Runs        int
	First, Last time.Time
	Machines    int
}

// List returns every measurement × metric in the store, by name.
func (s *Store) List(ctx context.Context) ([]Summary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT m.name, m.metric, MIN(m.unit), COUNT(*), MIN(r.time_ns), MAX(r.time_ns), COUNT(DISTINCT r.machine)
		FROM measurements m JOIN runs r ON r.id = m.run_id GROUP BY m.name, m.metric ORDER BY m.name, m.metric`)
	if err != nil {
		return nil, s.wrap("cannot list the measurements", err)
	}
	defer rows.Close()
	var out []Summary
	for rows.Next() {
		var x Summary
		var first, last int64
		if err := rows.Scan(&x.Name, &x.Metric, &x.Unit, &x.Runs, &first, &last, &x.Machines); err != nil {
			return nil, s.wrap("cannot read the list", err)
		}
		x.First, x.Last = time.Unix(0, first), time.Unix(0, last)
		out = append(out, x)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("cannot read the list", err)
	}
	return out, nil
}

// Filter narrows a series.
type Filter struct {
	// Machine keeps the runs whose fingerprint hash starts with it ("":
	// every machine); with ExactMachine, the runs whose hash is Machine
	// ("": the runs whose document recorded no environment).
	Machine      string
	ExactMachine bool
	// Since keeps the runs taken at or after it (zero: all).
	Since time.Time
	// Branch keeps the runs of that git branch ("": all).
	Branch string
}

// Point is one run's figure of a series: the run as a history document
// holds it (its id, time, git state, machine, tags, samples), with the
// metric's unit and the run's median.
type Point struct {
	result.HistoryPoint
	Unit string
	// Median is the median of Values, the run's raw samples (of its
	// histogram for a binned metric, whose Values are empty).
	Median float64
}

// Series returns the points of one measurement's metric ordered by time
// (then by run), filtered by f.
func (s *Store) Series(ctx context.Context, name, metric string, f Filter) ([]Point, error) {
	q := `SELECT r.id, r.time_ns, r.git_commit, r.git_branch, r.git_dirty, r.machine, r.tags, m.unit, m.median, m.n, m.samples
		FROM measurements m JOIN runs r ON r.id = m.run_id WHERE m.name = ? AND m.metric = ?`
	args := []any{name, metric}
	switch {
	case f.ExactMachine:
		q += " AND r.machine = ?"
		args = append(args, f.Machine)
	case f.Machine != "":
		q += " AND r.machine LIKE ?"
		args = append(args, strings.NewReplacer(`%`, ``, `_`, ``).Replace(f.Machine)+"%")
	}
	if !f.Since.IsZero() {
		q += " AND r.time_ns >= ?"
		args = append(args, f.Since.UnixNano())
	}
	if f.Branch != "" {
		q += " AND r.git_branch = ?"
		args = append(args, f.Branch)
	}
	q += " ORDER BY r.time_ns, r.id"
	rows, err := s.db.QueryContext(ctx, s.dialect.rebind(q), args...)
	if err != nil {
		return nil, s.wrap("cannot read the series", err)
	}
	defer rows.Close()
	var out []Point
	for rows.Next() {
		var p Point
		var t int64
		var commit, branch sql.NullString
		var dirty sql.NullInt64
		var tags, samples string
		if err := rows.Scan(&p.Run, &t, &commit, &branch, &dirty, &p.Machine, &tags, &p.Unit, &p.Median, &p.N, &samples); err != nil {
			return nil, s.wrap("cannot read the series", err)
		}
		p.Time, p.Commit, p.Branch = time.Unix(0, t), commit.String, branch.String
		if dirty.Valid {
			d := dirty.Int64 != 0
			p.Dirty = &d
		}
		if err := json.Unmarshal([]byte(tags), &p.Tags); err != nil {
			return nil, s.wrap(fmt.Sprintf("run %d has unreadable tags", p.Run), err)
		}
		if err := json.Unmarshal([]byte(samples), &p.Values); err != nil {
			return nil, s.wrap(fmt.Sprintf("run %d has unreadable samples", p.Run), err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("cannot read the series", err)
	}
	return out, nil
}

// Machines returns the fingerprints of the runs holding a measurement's
// metric, the newest run's first.
func (s *Store) Machines(ctx context.Context, name, metric string) ([]Machine, error) {
	rows, err := s.db.QueryContext(ctx, s.dialect.rebind(`SELECT r.machine_parts, MAX(r.time_ns) AS last FROM measurements m JOIN runs r ON r.id = m.run_id
		WHERE m.name = ? AND m.metric = ? GROUP BY r.machine_parts ORDER BY last DESC`), name, metric)
	if err != nil {
		return nil, s.wrap("cannot read the machines", err)
	}
	defer rows.Close()
	var out []Machine
	for rows.Next() {
		var parts string
		var last int64
		if err := rows.Scan(&parts, &last); err != nil {
			return nil, s.wrap("cannot read the machines", err)
		}
		var m Machine
		if err := json.Unmarshal([]byte(parts), &m); err != nil {
			return nil, s.wrap("unreadable machine fingerprint", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
