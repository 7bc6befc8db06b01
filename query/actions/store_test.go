package actions

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daawid/registry/fixtures/citools"
)

// TestOpenStore_MigrationsOnce: a store opened again (a restart, or a
// second server process) finds its tables and applies nothing twice, on
// SQLite and PostgreSQL.
func TestOpenStore_MigrationsOnce(t *testing.T) {
	ctx := context.Background()
	sqlite := filepath.Join(t.TempDir(), "runs.db")
	twice := func(t *testing.T, dsn string) {
		for i := range 2 {
			s, err := OpenStore(ctx, dsn)
			if err != nil {
				t.Fatalf("open %d: %v", i+1, err)
			}
			var n int
			if err := s.queryRow(ctx, `SELECT COUNT(*) FROM runs`).Scan(&n); err != nil || n != 0 {
				t.Errorf("runs table: %d %v", n, err)
			}
			s.Close()
		}
	}
	t.Run("sqlite", func(t *testing.T) { twice(t, sqlite) })
	t.Run("postgres", func(t *testing.T) {
		base := citools.Postgres(t)
		db, err := sql.Open("pgx", base)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.ExecContext(ctx, "CREATE SCHEMA IF NOT EXISTS migrations_once"); err != nil {
			t.Fatal(err)
		}
		defer db.ExecContext(ctx, "DROP SCHEMA migrations_once CASCADE")
		sep := "?"
		if strings.Contains(base, "?") {
			sep = "&"
		}
		twice(t, base+sep+"search_path=migrations_once")
	})
	if fi, err := os.Stat(sqlite); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the SQLite file's mode is %v (%v), want 0600: it holds personal data", fi.Mode().Perm(), err)
	}
}

func TestRebind(t *testing.T) {
	q := `SELECT a FROM t WHERE b = ? AND c IN (?, ?)`
	if got := rebind(true, q); got != `SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)` {
		t.Errorf("postgres: %s", got)
	}
	if got := rebind(false, q); got != q {
		t.Errorf("sqlite: %s", got)
	}
}

// TestLoadSecret: made with 32 random bytes and mode 0600 when asked to,
// refused when missing, short or readable by others.
func TestLoadSecret(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "runs", "secret")
	if _, err := LoadSecret(path, false); err == nil {
		t.Error("a missing secret was not refused")
	}
	a, err := LoadSecret(path, true)
	if err != nil || len(a) != 32 {
		t.Fatalf("made: %d bytes, %v", len(a), err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	b, err := LoadSecret(path, true)
	if err != nil || string(a) != string(b) {
		t.Errorf("a second start reads another secret (%v)", err)
	}
	os.Chmod(path, 0o644)
	if _, err := LoadSecret(path, false); err == nil || !strings.Contains(err.Error(), "readable by others") {
		t.Errorf("a world-readable secret: %v", err)
	}
	short := filepath.Join(dir, "short")
	os.WriteFile(short, []byte("too short"), 0o600)
	if _, err := LoadSecret(short, false); err == nil {
		t.Error("a short secret was not refused")
	}
}
