// Package sqlstore opens the serving side's writable store, SQLite (one
// file, WAL) or PostgreSQL, and brings a room's tables up to its newest
// migration (goose). The action runs and the authorization server keep
// their tables in the same store, each with its own migrations.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // the PostgreSQL driver, "pgx"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	_ "modernc.org/sqlite" // the SQLite driver, "sqlite"
)

// IsPostgres reports whether a DSN names PostgreSQL (postgres://… or
// postgresql://…); anything else is a SQLite file path or sqlite://PATH.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// SQLitePath is the file a SQLite DSN names.
func SQLitePath(dsn string) string { return strings.TrimPrefix(dsn, "sqlite://") }

// OpenSQLite opens a SQLite file, creating it and its folder (0700) when
// missing. Every transaction begins IMMEDIATE, so the writers of every
// process using the file take turns (the busy timeout waits for the turn)
// and the counts a limit takes are exact. pragmas are further SQLite
// pragmas, such as "foreign_keys(ON)".
func OpenSQLite(path string, maxConns int, pragmas ...string) (*sql.DB, error) {
	if path == "" {
		return nil, errors.New("no SQLite file named")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(20000)")
	q.Add("_pragma", "synchronous(NORMAL)")
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(maxConns)
	return db, nil
}

// OpenPostgres connects to PostgreSQL and checks the connection.
func OpenPostgres(ctx context.Context, dsn string, maxConns int) (*sql.DB, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(maxConns)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	return db, nil
}

// Migration names a room's migrations: the folder of *.sql files, goose's
// version table ("" goose's own) and the PostgreSQL session lock several
// starting servers take turns by (0: goose's own). Rooms sharing a store
// use tables and locks of their own, so they migrate independently.
type Migration struct {
	FS     fs.FS
	Table  string
	LockID int64
}

// Migrate applies the migrations not yet applied.
func Migrate(ctx context.Context, db *sql.DB, postgres bool, m Migration) error {
	d := goose.DialectSQLite3
	var opts []goose.ProviderOption
	if m.Table != "" {
		opts = append(opts, goose.WithTableName(m.Table))
	}
	if postgres {
		d = goose.DialectPostgres
		var lopts []lock.SessionLockerOption
		if m.LockID != 0 {
			lopts = append(lopts, lock.WithLockID(m.LockID))
		}
		l, err := lock.NewPostgresSessionLocker(lopts...)
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(l))
	}
	p, err := goose.NewProvider(d, db, m.FS, opts...)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	return nil
}

// Rebind turns the ? placeholders of a query into PostgreSQL's $n.
func Rebind(postgres bool, q string) string {
	if !postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}
