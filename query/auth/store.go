package auth

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/daawid/registry/query/internal/sqlstore"
	_ "github.com/jackc/pgx/v5/stdlib" // the PostgreSQL driver, "pgx"
	_ "modernc.org/sqlite"             // the SQLite driver, "sqlite"
)

//go:embed migrations/*.sql
var migrations embed.FS

// versionTable is goose's table of this package's migrations, apart from
// the action runs' own, so that the two rooms migrate the one store
// independently.
const versionTable = "auth_goose_db_version"

// lockID is the PostgreSQL session lock this package's migrations take,
// another than the action runs' (goose's default), so the two never wait
// on each other.
const lockID = 5_887_940_537_704_921_019

// Store is the authorization server's part of the writable store.
type Store struct {
	db       *sql.DB
	postgres bool
}

// OpenStore opens the store a DSN names, as actions.OpenStore reads it
// (postgres://… or postgresql://… for PostgreSQL, a file path or
// sqlite://PATH for SQLite), and brings the authorization server's tables
// up to the newest migration.
func OpenStore(ctx context.Context, dsn string) (*Store, error) {
	s := &Store{postgres: sqlstore.IsPostgres(dsn)}
	var err error
	if s.postgres {
		s.db, err = sqlstore.OpenPostgres(ctx, dsn, 8)
	} else {
		s.db, err = sqlstore.OpenSQLite(sqlstore.SQLitePath(dsn), 4)
	}
	if err != nil {
		return nil, fmt.Errorf("auth store: %w", err)
	}
	fsys, err := fs.Sub(migrations, "migrations")
	if err == nil {
		err = sqlstore.Migrate(ctx, s.db, s.postgres, sqlstore.Migration{FS: fsys, Table: versionTable, LockID: lockID})
	}
	if err != nil {
		s.db.Close()
		return nil, fmt.Errorf("auth store: %w", err)
	}
	if !s.postgres {
		// The file holds keys and addresses: only the server's user reads it.
		os.Chmod(sqlstore.SQLitePath(dsn), 0o600)
	}
	return s, nil
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// rebind turns the ? placeholders of a query into PostgreSQL's $n.
func (s *Store) rebind(q string) string { return sqlstore.Rebind(s.postgres, q) }

// Exec runs a statement written with ? placeholders on the store, for
// the rooms whose tables this package's migrations keep beside its own
// (the claim flow's, query/claim), so the store stays one connection pool.
func (s *Store) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return s.exec(ctx, q, args...)
}

// QueryRow runs a query written with ? placeholders on the store (see Exec).
func (s *Store) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return s.queryRow(ctx, q, args...)
}

func (s *Store) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return s.db.ExecContext(ctx, s.rebind(q), args...)
}

func (s *Store) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return s.db.QueryRowContext(ctx, s.rebind(q), args...)
}

func (s *Store) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return s.db.QueryContext(ctx, s.rebind(q), args...)
}

// once marks a row used when nobody has yet: the UPDATE's condition
// makes the check and the mark one step, on SQLite and PostgreSQL alike,
// so two requests racing with one code or refresh token cannot both win.
func (s *Store) once(ctx context.Context, table, keyCol, key string, now time.Time) (bool, error) {
	res, err := s.exec(ctx, "UPDATE "+table+" SET used_at = ? WHERE "+keyCol+" = ? AND used_at IS NULL", millis(now), key)
	if err != nil {
		return false, err
	}
	n, err := rowsOf(res, err)
	return n == 1, err
}

// rowsOf is how many rows an exec changed (0 when it failed).
func rowsOf(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func millis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }
