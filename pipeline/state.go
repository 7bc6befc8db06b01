package pipeline

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/compile/register"
	"github.com/daawid/registry/schemas"
	"github.com/duckdb/duckdb-go/v2"
)

// StateFile is the pipeline's state database in its state directory.
const StateFile = "state.duckdb"

// schemaSQL creates the state tables; comments make the file explain
// itself to an analyst who opens it with DuckDB.
var schemaSQL = []string{
	`CREATE TABLE IF NOT EXISTS identities (
		key VARCHAR NOT NULL, entry_id VARCHAR NOT NULL, slug VARCHAR NOT NULL, old_slugs VARCHAR[],
		created_at TIMESTAMP NOT NULL, items VARCHAR, last_revision INTEGER NOT NULL)`,
	// No primary keys: the pipeline keeps keys unique itself, and DuckDB
	// loads and replaces rows in bulk much faster without ART indexes.
	`COMMENT ON TABLE identities IS 'Identity map: the same company keeps the same entry ID and slug across runs. key is jurisdiction/register reference (gb/09999991, de/wuppertal/hrb/99901) or owner/{entryId}.'`,
	`COMMENT ON COLUMN identities.old_slugs IS 'Slugs the entry had before a rename; they redirect and are never given again.'`,
	`COMMENT ON COLUMN identities.items IS 'IDs of items compiled for the entry (location:register, contact:website), stable across runs.'`,
	`COMMENT ON COLUMN identities.last_revision IS 'Last revision number ever issued; numbers never repeat.'`,
	`CREATE TABLE IF NOT EXISTS entries (
		entry_id VARCHAR NOT NULL, key VARCHAR NOT NULL, slug VARCHAR NOT NULL, revision INTEGER NOT NULL,
		status VARCHAR NOT NULL, claimed BOOLEAN NOT NULL, content_hash VARCHAR NOT NULL, source_hash UBIGINT,
		updated_at TIMESTAMP NOT NULL, next_change_at TIMESTAMP, removed_at TIMESTAMP, removed_reason VARCHAR)`,
	`COMMENT ON TABLE entries IS 'The current revision of every entry, one row each.'`,
	`COMMENT ON COLUMN entries.content_hash IS 'SHA-256 of what the entry says, without revision and observation dates: equal hashes mean no new revision.'`,
	`COMMENT ON COLUMN entries.source_hash IS 'FNV-64a of the register row last compiled: an unchanged row is not compiled again.'`,
	`COMMENT ON COLUMN entries.next_change_at IS 'When time alone changes a projection (capacity expiry, noindex window, grace period): the expiry job re-issues the entry then.'`,
	`COMMENT ON COLUMN entries.removed_at IS 'Set when the entry left the registry (company dissolved or removed from its register).'`,
	`CREATE TABLE IF NOT EXISTS revisions (
		entry_id VARCHAR NOT NULL, revision INTEGER NOT NULL, issued_at TIMESTAMP NOT NULL, run_id VARCHAR NOT NULL,
		cause VARCHAR NOT NULL, entry VARCHAR NOT NULL)`,
	`COMMENT ON TABLE revisions IS 'Every revision of every entry, in the open format (entry: JSON text; query it with entry::JSON). cause: compiled, owner, verification, expired.'`,
	`CREATE TABLE IF NOT EXISTS declarations (
		entry_id VARCHAR NOT NULL, based_on INTEGER NOT NULL, declared_at TIMESTAMP NOT NULL, file VARCHAR NOT NULL, entry VARCHAR NOT NULL)`,
	`COMMENT ON TABLE declarations IS 'The latest accepted owner revision of each claimed entry, as the owner declared it; merged over register data every run.'`,
	`CREATE TABLE IF NOT EXISTS refused (
		run_id VARCHAR NOT NULL, file VARCHAR NOT NULL, line INTEGER, path VARCHAR, reason VARCHAR NOT NULL)`,
	`COMMENT ON TABLE refused IS 'Input the runs refused or skipped, with file, line or JSON path, and why. Nothing is dropped silently.'`,
	`CREATE TABLE IF NOT EXISTS inputs (sha256 VARCHAR NOT NULL, file VARCHAR NOT NULL, run_id VARCHAR NOT NULL)`,
	`COMMENT ON TABLE inputs IS 'Register files compiled whole, by content hash: the same file again is skipped.'`,
	`CREATE TABLE IF NOT EXISTS runs (
		run_id VARCHAR NOT NULL, now TIMESTAMP NOT NULL, started_at TIMESTAMP NOT NULL, finished_at TIMESTAMP NOT NULL,
		rows_read BIGINT, rows_skipped BIGINT, warnings BIGINT, compiled BIGINT, unchanged BIGINT, new_entries BIGINT,
		merged BIGINT, refused BIGINT, events BIGINT, expired BIGINT, removed BIGINT, sites_crawled BIGINT,
		seconds_read DOUBLE, seconds_compile DOUBLE, seconds_commit DOUBLE, report VARCHAR)`,
	`COMMENT ON TABLE runs IS 'One row per compile run: what it read, compiled, merged, refused, expired and removed, and how long each stage took.'`,
}

// State is the pipeline's embedded DuckDB database.
type State struct {
	db   *sql.DB
	path string
}

// OpenState opens (creating) the state database in dir.
func OpenState(dir string) (*State, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, StateFile)
	db, err := sql.Open("duckdb", path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// The state keeps DuckDB to a share of the machine and spills the rest
	// to disk beside it, so a run of millions of rows stays in bounds.
	setup := []string{`SET memory_limit = '1536MB'`, `SET temp_directory = '` + filepath.Join(dir, "tmp") + `'`, `SET preserve_insertion_order = false`}
	for _, q := range append(setup, schemaSQL...) {
		if _, err := db.Exec(q); err != nil {
			db.Close()
			return nil, fmt.Errorf("state schema: %w", err)
		}
	}
	// Revisions of a run that never committed belong to no run: drop them.
	if _, err := db.Exec(`DELETE FROM revisions WHERE run_id NOT IN (SELECT run_id FROM runs)`); err != nil {
		db.Close()
		return nil, fmt.Errorf("state: %w", err)
	}
	return &State{db: db, path: path}, nil
}

// Close closes the database.
func (s *State) Close() error { return s.db.Close() }

// DB is the database, for reports and tests.
func (s *State) DB() *sql.DB { return s.db }

// EntryRow is an entry's current state.
type EntryRow struct {
	EntryID, Key, Slug string
	Revision           int
	Status             schemas.EntryStatus
	Claimed            bool
	ContentHash        string
	SourceHash         uint64
	NextChangeAt       time.Time
	Removed            bool
	updatedAt          time.Time
}

// LoadIdentities reads the identity map.
func (s *State) LoadIdentities(ctx context.Context) (*compile.Identities, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT key, entry_id, slug, coalesce(old_slugs, []::VARCHAR[]), created_at, coalesce(items::VARCHAR, '{}'), last_revision FROM identities`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ids := compile.NewIdentities()
	for rows.Next() {
		var id compile.Identity
		var old duckdb.Composite[[]string]
		var created time.Time
		var items string
		if err := rows.Scan(&id.Key, &id.EntryID, &id.Slug, &old, &created, &items, &id.LastRevision); err != nil {
			return nil, err
		}
		id.OldSlugs = old.Get()
		id.CreatedAt = schemas.FormatTime(created)
		if err := json.Unmarshal([]byte(items), &id.Items); err != nil {
			return nil, fmt.Errorf("identity %s items: %w", id.Key, err)
		}
		ids.Add(&id)
	}
	return ids, rows.Err()
}

// LoadEntries reads the current state of every entry, by key.
func (s *State) LoadEntries(ctx context.Context) (map[string]*EntryRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT entry_id, key, slug, revision, status, claimed, content_hash, coalesce(source_hash, 0), next_change_at, removed_at IS NOT NULL FROM entries`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]*EntryRow{}
	for rows.Next() {
		var r EntryRow
		var next sql.NullTime
		if err := rows.Scan(&r.EntryID, &r.Key, &r.Slug, &r.Revision, &r.Status, &r.Claimed, &r.ContentHash, &r.SourceHash, &next, &r.Removed); err != nil {
			return nil, err
		}
		if next.Valid {
			r.NextChangeAt = next.Time.UTC()
		}
		out[r.Key] = &r
	}
	return out, rows.Err()
}

// Revision reads one revision of an entry; revision 0 is the current one.
func (s *State) Revision(ctx context.Context, entryID string, revision int) (*schemas.Entry, error) {
	q := `SELECT r.entry FROM revisions r JOIN entries e ON e.entry_id = r.entry_id AND e.revision = r.revision WHERE r.entry_id = ?`
	args := []any{entryID}
	if revision > 0 {
		q = `SELECT entry FROM revisions WHERE entry_id = ? AND revision = ? AND run_id IN (SELECT run_id FROM runs)`
		args = append(args, revision)
	}
	var js string
	if err := s.db.QueryRowContext(ctx, q, args...).Scan(&js); err != nil {
		return nil, fmt.Errorf("revision of %s: %w", entryID, err)
	}
	var e schemas.Entry
	if err := json.Unmarshal([]byte(js), &e); err != nil {
		return nil, fmt.Errorf("revision of %s: %w", entryID, err)
	}
	return &e, nil
}

// Declarations reads the accepted owner revisions, by entry ID.
func (s *State) Declarations(ctx context.Context) (map[string]*compile.OwnerRevision, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT entry_id, based_on, declared_at, file, entry::VARCHAR FROM declarations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]*compile.OwnerRevision{}
	for rows.Next() {
		var id, file, js string
		var d compile.OwnerRevision
		if err := rows.Scan(&id, &d.BasedOn, &d.DeclaredAt, &file, &js); err != nil {
			return nil, err
		}
		d.File = file
		d.DeclaredAt = d.DeclaredAt.UTC()
		if err := json.Unmarshal([]byte(js), &d.Entry); err != nil {
			return nil, err
		}
		out[id] = &d
	}
	return out, rows.Err()
}

// appendRows bulk-loads rows into a table of a catalog ("temp" for
// temporary tables) through the DuckDB Appender.
func appendRows(conn *sql.Conn, catalog, table string, rows [][]driver.Value) error {
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

// InputSeen reports whether a register file with this content was compiled.
func (s *State) InputSeen(ctx context.Context, sha string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM inputs WHERE sha256 = ?`, sha).Scan(&n)
	return n > 0, err
}

// RegisterRecord rebuilds the register record an entry was compiled from,
// out of its current revision: the operator block holds the register's
// legal identity and the provenance its retrieval date. Keeping the whole
// record of every row would double what a run writes (decision D51).
func (s *State) RegisterRecord(ctx context.Context, row *EntryRow) (*register.Record, error) {
	if row == nil {
		return nil, nil
	}
	e, err := s.Revision(ctx, row.EntryID, row.Revision)
	if err != nil {
		return nil, err
	}
	return RecordOf(row, e), nil
}

// RecordOf rebuilds the register record of an entry from one of its
// revisions, or nil when it has no register data.
func RecordOf(row *EntryRow, e *schemas.Entry) *register.Record {
	op := e.Operator
	if op == nil || op.Register == nil {
		return nil
	}
	rec := &register.Record{Source: "state", Key: row.Key, Register: *op.Register, LegalName: op.LegalName, LegalForm: op.LegalForm,
		Name: e.DisplayName, Address: op.Address, Active: true, Jurisdiction: op.Address.Country}
	for _, p := range e.Provenance {
		if p.Source == schemas.SourceRegister {
			rec.RetrievedAt = schemas.ParseTime(p.ObservedAt)
			break
		}
	}
	return rec
}

// Revisions loads many revisions at once, by entry ID and revision number,
// with one join instead of a query each.
func (s *State) Revisions(ctx context.Context, want map[string]int) (map[string]*schemas.Entry, error) {
	out := make(map[string]*schemas.Entry, len(want))
	if len(want) == 0 {
		return out, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `CREATE OR REPLACE TEMP TABLE wanted (entry_id VARCHAR, revision INTEGER)`); err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	rows := make([][]driver.Value, len(ids))
	for i, id := range ids {
		rows[i] = []driver.Value{id, int32(want[id])}
	}
	if err := appendRows(conn, "temp", "wanted", rows); err != nil {
		return nil, err
	}
	rs, err := conn.QueryContext(ctx, `SELECT r.entry_id, r.entry FROM revisions r JOIN temp.wanted w ON r.entry_id = w.entry_id AND r.revision = w.revision WHERE r.run_id IN (SELECT run_id FROM runs)`)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	for rs.Next() {
		var id, js string
		if err := rs.Scan(&id, &js); err != nil {
			return nil, err
		}
		var e schemas.Entry
		if err := json.Unmarshal([]byte(js), &e); err != nil {
			return nil, fmt.Errorf("revision of %s: %w", id, err)
		}
		out[id] = &e
	}
	return out, rs.Err()
}
