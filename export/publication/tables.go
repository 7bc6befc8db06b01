package publication

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// The DuckDB snapshot: registry.duckdb's tables, made here and written by
// export.RegistryDB; the server and the pipeline read them through the
// typed readers below, never with SQL of their own, so the contract
// between writer and reader lives in this one file.

// EntryTables are the tables with rows per entry besides entries.
var EntryTables = []string{"offerings", "locations", "contact_points", "actions"}

// TablesSQL makes the tables of a new registry.duckdb, with their
// comments (what an analyst reads in duckdb_tables()).
var TablesSQL = []string{
	`CREATE TABLE entries (
		entry_id VARCHAR NOT NULL, slug VARCHAR NOT NULL, status VARCHAR NOT NULL, listed BOOLEAN NOT NULL, kind VARCHAR,
		name VARCHAR, default_language VARCHAR, languages VARCHAR[], categories VARCHAR[], summary VARCHAR,
		locality VARCHAR, postal_code VARCHAR, country VARCHAR, lat DOUBLE, lon DOUBLE, verification_level VARCHAR,
		verified_hosts VARCHAR[], revision INTEGER NOT NULL, etag VARCHAR, last_modified TIMESTAMP, next_change_at TIMESTAMP,
		removed_at TIMESTAMP, removed_reason VARCHAR, md_bytes BIGINT)`,
	`COMMENT ON TABLE entries IS 'One row per entry of the publication: its status and where it is. Removed entries (status removed) stay listed here so the server can answer 410 Gone. etag and last_modified are those of its default-language markdown; next_change_at is when time alone changes it (the server applies expiry itself if the pipeline is late).'`,
	`COMMENT ON COLUMN entries.summary IS 'The summary in the default language.'`,
	`COMMENT ON COLUMN entries.locality IS 'Town of the primary location (locality level for people and locality-only addresses: never a street).'`,
	`COMMENT ON COLUMN entries.verified_hosts IS 'Domains verified for the entry, grace period included: the by-domain lookup.'`,
	`COMMENT ON COLUMN entries.md_bytes IS 'Size of the default-language markdown (its token estimate is a quarter of it).'`,
	`CREATE TABLE offerings (entry_id VARCHAR NOT NULL, offering_id VARCHAR NOT NULL, kind VARCHAR, name VARCHAR, description VARCHAR, category VARCHAR,
		audience VARCHAR, price_kind VARCHAR, price_amount VARCHAR, price_min VARCHAR, price_max VARCHAR, currency VARCHAR, price_unit VARCHAR, language VARCHAR)`,
	`COMMENT ON TABLE offerings IS 'Offerings of the listed entries, text in the entry''s default language (language); prices as decimal strings with two decimals.'`,
	`CREATE TABLE locations (entry_id VARCHAR NOT NULL, location_id VARCHAR NOT NULL, name VARCHAR, street VARCHAR, postal_code VARCHAR, locality VARCHAR,
		region VARCHAR, address_display VARCHAR, lat DOUBLE, lon DOUBLE, time_zone VARCHAR, hours VARCHAR)`,
	`COMMENT ON TABLE locations IS 'Locations with their opening hours (hours: JSON text with the weekly hours and dated exceptions as the view shows them; query it with hours::JSON). A locality-only location has no street and no point (I15).'`,
	`CREATE TABLE contact_points (entry_id VARCHAR NOT NULL, contact_id VARCHAR NOT NULL, name VARCHAR, purposes VARCHAR[], phone VARCHAR, email VARCHAR, languages VARCHAR[])`,
	`COMMENT ON TABLE contact_points IS 'Public contact points only; private ones never leave the pipeline.'`,
	`CREATE TABLE actions (entry_id VARCHAR NOT NULL, action_id VARCHAR NOT NULL, type VARCHAR, name VARCHAR, offering_ids VARCHAR[])`,
	`COMMENT ON TABLE actions IS 'Actions an agent can start for the entry (request_quote, book, ...).'`,
	`CREATE TABLE categories (code VARCHAR NOT NULL, sector VARCHAR, schema_type VARCHAR, nace VARCHAR[], labels VARCHAR, terms VARCHAR)`,
	`COMMENT ON TABLE categories IS 'The category taxonomy: labels and everyday words (OpenStreetMap presets) by language, as JSON text: objects keyed by language (query them with labels::JSON, terms::JSON).'`,
	OldSlugsSQL,
	OldSlugsComment,
}

// OldSlugsSQL and OldSlugsComment make the old_slugs table; a delta
// publication runs them on a copy of a publication made before the table.
const (
	OldSlugsSQL     = `CREATE TABLE IF NOT EXISTS old_slugs (slug VARCHAR NOT NULL, entry_id VARCHAR NOT NULL)`
	OldSlugsComment = `COMMENT ON TABLE old_slugs IS 'Slugs entries had before a rename: /{old slug} redirects to the entry''s page (they are never given again).'`
)

// Registry is a publication's registry.duckdb opened read-only.
type Registry struct {
	db *sql.DB
}

// OpenRegistry opens the registry.duckdb of the publication in dir
// read-only.
func OpenRegistry(dir string) (*Registry, error) {
	db, err := sql.Open("duckdb", filepath.Join(dir, RegistryFile)+"?access_mode=read_only")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RegistryFile, err)
	}
	return &Registry{db: db}, nil
}

// Close closes the database.
func (r *Registry) Close() error { return r.db.Close() }

// RemovedEntry is an entry that left the registry (the server answers
// 410 Gone for it).
type RemovedEntry struct {
	EntryID, Slug string
	At            time.Time // zero: unknown
	Reason        string
}

// RemovedEntries calls fn with every removed entry.
func (r *Registry) RemovedEntries(ctx context.Context, fn func(RemovedEntry) error) error {
	err := r.scan(ctx, `SELECT entry_id, slug, coalesce(removed_at, TIMESTAMP '1970-01-01'), coalesce(removed_reason, '') FROM entries WHERE status = 'removed'`,
		func(rs *sql.Rows) error {
			var e RemovedEntry
			if err := rs.Scan(&e.EntryID, &e.Slug, &e.At, &e.Reason); err != nil {
				return err
			}
			return fn(e)
		})
	if err != nil {
		return fmt.Errorf("%s: removed entries: %w", RegistryFile, err)
	}
	return nil
}

// VerifiedHosts calls fn with every verified host (lower case) and the
// entry it belongs to. A host verified by two entries cannot happen (a
// verification moves the host); were it to, the smallest ID answers,
// deterministically.
func (r *Registry) VerifiedHosts(ctx context.Context, fn func(host, entryID string) error) error {
	err := r.scan(ctx, `SELECT h, min(entry_id) FROM (SELECT entry_id, unnest(verified_hosts) AS h FROM entries WHERE status <> 'removed') GROUP BY h`,
		func(rs *sql.Rows) error {
			var h, id string
			if err := rs.Scan(&h, &id); err != nil {
				return err
			}
			return fn(strings.ToLower(h), id)
		})
	if err != nil {
		return fmt.Errorf("%s: verified hosts: %w", RegistryFile, err)
	}
	return nil
}

// OldSlugs calls fn with every slug an entry had before a rename; a
// publication made before the table has none.
func (r *Registry) OldSlugs(ctx context.Context, fn func(slug, entryID string) error) error {
	var has bool
	if err := r.db.QueryRowContext(ctx, `SELECT count(*) > 0 FROM duckdb_tables() WHERE table_name = 'old_slugs'`).Scan(&has); err != nil {
		return fmt.Errorf("%s: old slugs: %w", RegistryFile, err)
	}
	if !has {
		return nil
	}
	err := r.scan(ctx, `SELECT slug, entry_id FROM old_slugs`, func(rs *sql.Rows) error {
		var s, id string
		if err := rs.Scan(&s, &id); err != nil {
			return err
		}
		return fn(s, id)
	})
	if err != nil {
		return fmt.Errorf("%s: old slugs: %w", RegistryFile, err)
	}
	return nil
}

func (r *Registry) scan(ctx context.Context, q string, row func(*sql.Rows) error) error {
	rs, err := r.db.QueryContext(ctx, q)
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

// AppendRows bulk-loads rows into a table of a catalog ("temp" for
// temporary tables) through the DuckDB Appender.
func AppendRows(conn *sql.Conn, catalog, table string, rows [][]driver.Value) error {
	if len(rows) == 0 {
		return nil
	}
	return conn.Raw(func(dc any) error {
		a, err := duckdb.NewAppender(dc.(driver.Conn), catalog, "main", table)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := a.AppendRow(r...); err != nil {
				a.Close()
				return fmt.Errorf("%s: %w", table, err)
			}
		}
		return a.Close()
	})
}

// TempStrings makes (or replaces) a temporary one-column table of
// strings on a connection, to join a list against.
func TempStrings(ctx context.Context, conn *sql.Conn, table, col string, vals []string) error {
	if _, err := conn.ExecContext(ctx, `CREATE OR REPLACE TEMP TABLE `+table+` (`+col+` VARCHAR)`); err != nil {
		return err
	}
	rows := make([][]driver.Value, len(vals))
	for i, v := range vals {
		rows[i] = []driver.Value{v}
	}
	return AppendRows(conn, "temp", table, rows)
}
