package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// connectTimeout bounds connecting to PostgreSQL when the address sets no
// connect_timeout.
const connectTimeout = 5 * time.Second

// migrationLock is the key of the advisory lock that serializes
// migrations among processes.
const migrationLock = 0x6368726f6e6f // "chrono"

func openPostgres(ctx context.Context, dsn string) (*Store, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("history: cannot parse the PostgreSQL address: %v; give it as postgres://USER:PASSWORD@HOST:5432/DATABASE", redactErr(err, dsn))
	}
	if !strings.Contains(dsn, "connect_timeout") {
		cfg.ConnectTimeout = connectTimeout
	}
	where := "postgres://" + net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))) + "/" + cfg.Database
	db := stdlib.OpenDB(*cfg)
	pctx, cancel := context.WithTimeout(ctx, cfg.ConnectTimeout+time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("history: PostgreSQL at %s refused the connection: %s (%s); check the user, password and database in --db or %s", where, pe.Message, pe.Code, EnvDSN)
		}
		return nil, fmt.Errorf("history: cannot reach PostgreSQL at %s within %s: %v; start the server or correct the address in --db or %s", where, cfg.ConnectTimeout, redactErr(err, dsn), EnvDSN)
	}
	return &Store{db: db, dialect: postgresDialect{}, where: where}, nil
}

// redactErr keeps a password in the address out of an error message.
func redactErr(err error, dsn string) string {
	msg := err.Error()
	if cfg, perr := pgx.ParseConfig(dsn); perr == nil && cfg.Password != "" {
		msg = strings.ReplaceAll(msg, cfg.Password, "xxxxx")
	}
	return msg
}

type postgresDialect struct{}

func (postgresDialect) name() string { return "postgres" }

func (postgresDialect) begin(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
	return db.BeginTx(ctx, nil)
}

// rebind numbers the ? placeholders ($1, $2, ...). The queries here hold
// no ? inside a string literal.
func (postgresDialect) rebind(q string) string {
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

func (postgresDialect) lockMigrations(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrationLock))
	return err
}

// lockContent takes a transaction-level advisory lock keyed by the hash's
// first 60 bits (another key than migrationLock's but by chance).
func (postgresDialect) lockContent(ctx context.Context, tx *sql.Tx, hash string) error {
	key, err := strconv.ParseInt(hash[:15], 16, 64)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", key)
	return err
}

func (postgresDialect) foreignTables(ctx context.Context, tx *sql.Tx) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name IN ('runs', 'measurements', 'profiles')").Scan(&n)
	return n, err
}

func (postgresDialect) migrations() [][]string {
	return [][]string{{
		`CREATE TABLE runs (
			id BIGSERIAL PRIMARY KEY,
			added_ns BIGINT NOT NULL,
			time_ns BIGINT NOT NULL,
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
			id BIGSERIAL PRIMARY KEY,
			run_id BIGINT NOT NULL REFERENCES runs(id),
			name TEXT NOT NULL,
			metric TEXT NOT NULL,
			unit TEXT NOT NULL,
			n INTEGER NOT NULL,
			median DOUBLE PRECISION NOT NULL,
			samples TEXT NOT NULL)`,
		`CREATE INDEX measurements_name ON measurements(name, metric)`,
		`CREATE INDEX measurements_run ON measurements(run_id)`,
		`CREATE INDEX runs_time ON runs(time_ns)`,
	}, {
		// 2: see sqliteDialect.migrations.
		`ALTER TABLE runs ADD COLUMN content_sha256 TEXT`,
		`CREATE INDEX runs_content ON runs(content_sha256)`,
	}, {
		// 3: see sqliteDialect.migrations.
		`CREATE TABLE profiles (
			run_id BIGINT NOT NULL REFERENCES runs(id),
			measurement TEXT NOT NULL,
			iterations DOUBLE PRECISION NOT NULL,
			per TEXT NOT NULL,
			source TEXT NOT NULL,
			bytes INTEGER NOT NULL,
			data BYTEA NOT NULL,
			PRIMARY KEY (run_id, measurement))`,
		`CREATE INDEX profiles_measurement ON profiles(measurement)`,
	}}
}
