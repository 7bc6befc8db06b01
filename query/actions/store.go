package actions

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"

	"github.com/daawid/registry/query/internal/sqlstore"
	_ "github.com/jackc/pgx/v5/stdlib" // the PostgreSQL driver, "pgx"
	_ "modernc.org/sqlite"             // the SQLite driver, "sqlite"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Store is the writable store of the action runs: SQLite (one file, WAL)
// or PostgreSQL, with the same tables, made by the same versioned
// migrations (goose).
type Store struct {
	db       *sql.DB
	postgres bool
	// writeMu lets one SQLite transaction of this process write at a time.
	// SQLite takes writers one at a time anyway, but a writer that finds
	// the lock taken waits in SQLite's busy handler, which sleeps in steps
	// of up to 100 ms: waiting here instead hands the lock on at once.
	// Other processes on the same file still wait in the busy handler.
	writeMu sync.Mutex
	// stmts are SQLite's prepared statements by query: SQLite parses a
	// query again on every call otherwise, which was half the cost of
	// reading a run for its page. (PostgreSQL's driver, pgx, keeps its
	// own per connection; preparing through the pool there could wait for
	// a connection while every one is held by a transaction waiting for a
	// lock the preparing transaction holds.) No connection is held while
	// a SQLite transaction waits for writeMu, so preparing from inside
	// one always finds a connection.
	stmts sync.Map // string → *sql.Stmt
}

// stmt is the prepared statement of a query (with ? placeholders).
func (s *Store) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := s.stmts.Load(q); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := s.db.PrepareContext(ctx, rebind(s.postgres, q))
	if err != nil {
		return nil, err
	}
	if prev, loaded := s.stmts.LoadOrStore(q, st); loaded {
		st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}

// OpenStore opens the store a URL names and brings its tables up to the
// newest migration: postgres://… or postgresql://… for PostgreSQL, a file
// path or sqlite://PATH for SQLite (created when missing).
func OpenStore(ctx context.Context, dsn string) (*Store, error) {
	if sqlstore.IsPostgres(dsn) {
		db, err := sqlstore.OpenPostgres(ctx, dsn, 16)
		if err != nil {
			return nil, fmt.Errorf("runs store: %w", err)
		}
		return migrated(ctx, &Store{db: db, postgres: true}, "")
	}
	return OpenSQLite(ctx, sqlstore.SQLitePath(dsn))
}

// OpenSQLite opens a SQLite store (sqlstore.OpenSQLite: every transaction
// begins IMMEDIATE, so the counts a limit takes are exact across
// processes). pragmas are further SQLite pragmas, such as
// "cache_size(-20000)" (the tests fill a small disk with
// "max_page_count(40)").
func OpenSQLite(ctx context.Context, path string, pragmas ...string) (*Store, error) {
	db, err := sqlstore.OpenSQLite(path, 8, append([]string{"foreign_keys(ON)"}, pragmas...)...)
	if err != nil {
		return nil, fmt.Errorf("runs store: %w", err)
	}
	return migrated(ctx, &Store{db: db}, path)
}

// migrated applies the migrations not yet applied; several server
// processes starting at once on PostgreSQL take turns by goose's session
// lock. A SQLite file holds personal data: only the server's user reads
// it.
func migrated(ctx context.Context, s *Store, path string) (*Store, error) {
	fsys, err := fs.Sub(migrations, "migrations")
	if err == nil {
		err = sqlstore.Migrate(ctx, s.db, s.postgres, sqlstore.Migration{FS: fsys})
	}
	if err != nil {
		s.db.Close()
		if path != "" {
			return nil, fmt.Errorf("runs store %s: %w", path, err)
		}
		return nil, fmt.Errorf("runs store: %w", err)
	}
	if path != "" {
		os.Chmod(path, 0o600)
	}
	return s, nil
}

// Close closes the store.
func (s *Store) Close() error {
	s.stmts.Range(func(_, st any) bool { st.(*sql.Stmt).Close(); return true })
	return s.db.Close()
}

// Postgres reports whether the store is PostgreSQL.
func (s *Store) Postgres() bool { return s.postgres }

// tx is one transaction, with the store's placeholders.
type tx struct {
	*sql.Tx
	store *Store
}

// inTx runs fn in one transaction that holds the locks of keys (sorted,
// so that two transactions never wait on each other in a circle), and
// commits when fn returns nil.
//
// SQLite's transactions begin IMMEDIATE and so already run one at a time;
// PostgreSQL's take a transaction-scoped advisory lock per key, so what a
// limit counts cannot change between its count and its insert.
func (s *Store) inTx(ctx context.Context, keys []string, fn func(t *tx) error) error {
	if !s.postgres {
		s.writeMu.Lock()
		defer s.writeMu.Unlock()
	}
	sqlTx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return storeError("begin", err)
	}
	t := &tx{Tx: sqlTx, store: s}
	if s.postgres {
		keys = slices.Clone(keys)
		slices.Sort(keys)
		keys = slices.Compact(keys)
		for _, k := range keys {
			if _, err := t.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", k); err != nil {
				t.Rollback()
				return storeError("lock", err)
			}
		}
	}
	if err := fn(t); err != nil {
		t.Rollback()
		return err
	}
	if err := t.Commit(); err != nil {
		return storeError("commit", err)
	}
	return nil
}

// rebind turns the ? placeholders of a query into PostgreSQL's $n.
func rebind(postgres bool, q string) string { return sqlstore.Rebind(postgres, q) }

func (t *tx) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if t.store.postgres {
		return t.ExecContext(ctx, rebind(true, q), args...)
	}
	st, err := t.store.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return t.StmtContext(ctx, st).ExecContext(ctx, args...)
}

func (t *tx) queryRow(ctx context.Context, q string, args ...any) rowScanner {
	if t.store.postgres {
		return t.QueryRowContext(ctx, rebind(true, q), args...)
	}
	st, err := t.store.stmt(ctx, q)
	if err != nil {
		return errRow{err}
	}
	return t.StmtContext(ctx, st).QueryRowContext(ctx, args...)
}

func (s *Store) queryRow(ctx context.Context, q string, args ...any) rowScanner {
	if s.postgres {
		return s.db.QueryRowContext(ctx, rebind(true, q), args...)
	}
	st, err := s.stmt(ctx, q)
	if err != nil {
		return errRow{err}
	}
	return st.QueryRowContext(ctx, args...)
}

func (s *Store) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if s.postgres {
		return s.db.ExecContext(ctx, rebind(true, q), args...)
	}
	st, err := s.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

func (s *Store) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if s.postgres {
		return s.db.QueryContext(ctx, rebind(true, q), args...)
	}
	st, err := s.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// errRow is a row whose statement could not be prepared.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

// StoreError is a failure of the store itself (a full disk, a lost
// connection): the caller answers unavailable, and nothing was written.
type StoreError struct {
	Op  string
	Err error
}

func (e *StoreError) Error() string { return "runs store: " + e.Op + ": " + e.Err.Error() }
func (e *StoreError) Unwrap() error { return e.Err }

func storeError(op string, err error) error {
	if err == nil {
		return nil
	}
	var se *StoreError
	if errors.As(err, &se) {
		return err
	}
	return &StoreError{Op: op, Err: err}
}
