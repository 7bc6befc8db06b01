package query

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/duckdb/duckdb-go/v2" // the snapshot's registry.duckdb
)

// registryTables is what the server keeps in memory from a publication's
// registry.duckdb besides the documents: the entries that left the
// registry (410), the hosts verified entries answer by-domain lookups for,
// and the slugs entries had before a rename. Each is small next to the
// documents: only removed entries, verified hosts and renames have rows.
type registryTables struct {
	removed     map[string]removedEntry // entry ID → when and why
	removedSlug map[string]string       // slug → entry ID
	hosts       map[string]string       // verified host → entry ID
	oldSlugs    map[string]string       // old slug → entry ID
}

type removedEntry struct {
	Slug   string
	At     time.Time
	Reason string
}

func readRegistryTables(dir string) (*registryTables, error) {
	db, err := sql.Open("duckdb", filepath.Join(dir, "registry.duckdb")+"?access_mode=read_only")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	ctx := context.Background()
	t := &registryTables{removed: map[string]removedEntry{}, removedSlug: map[string]string{}, hosts: map[string]string{}, oldSlugs: map[string]string{}}
	if err := scanRows(ctx, db, `SELECT entry_id, slug, coalesce(removed_at, TIMESTAMP '1970-01-01'), coalesce(removed_reason, '') FROM entries WHERE status = 'removed'`,
		func(rs *sql.Rows) error {
			var id string
			var r removedEntry
			if err := rs.Scan(&id, &r.Slug, &r.At, &r.Reason); err != nil {
				return err
			}
			t.removed[id], t.removedSlug[r.Slug] = r, id
			return nil
		}); err != nil {
		return nil, fmt.Errorf("registry.duckdb: removed entries: %w", err)
	}
	// A host verified by two entries cannot happen (a verification moves
	// the host); were it to, the smallest ID answers, deterministically.
	if err := scanRows(ctx, db, `SELECT h, min(entry_id) FROM (SELECT entry_id, unnest(verified_hosts) AS h FROM entries WHERE status <> 'removed') GROUP BY h`,
		func(rs *sql.Rows) error {
			var h, id string
			if err := rs.Scan(&h, &id); err != nil {
				return err
			}
			t.hosts[strings.ToLower(h)] = id
			return nil
		}); err != nil {
		return nil, fmt.Errorf("registry.duckdb: verified hosts: %w", err)
	}
	var hasOld bool
	if err := db.QueryRowContext(ctx, `SELECT count(*) > 0 FROM duckdb_tables() WHERE table_name = 'old_slugs'`).Scan(&hasOld); err != nil {
		return nil, err
	}
	if hasOld {
		if err := scanRows(ctx, db, `SELECT slug, entry_id FROM old_slugs`, func(rs *sql.Rows) error {
			var s, id string
			if err := rs.Scan(&s, &id); err != nil {
				return err
			}
			t.oldSlugs[s] = id
			return nil
		}); err != nil {
			return nil, fmt.Errorf("registry.duckdb: old slugs: %w", err)
		}
	}
	return t, nil
}

func scanRows(ctx context.Context, db *sql.DB, q string, row func(*sql.Rows) error) error {
	rs, err := db.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		if err := row(rs); err != nil {
			return err
		}
	}
	return rs.Err()
}
