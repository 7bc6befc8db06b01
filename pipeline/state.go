package pipeline

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/compile/register"
	"github.com/daawid/registry/export"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/schemas"
)

// StateFile is the pipeline's state database in its state directory.
const StateFile = "state.duckdb"

// schemaSQL creates the state tables; comments make the file explain
// itself to an analyst who opens it with DuckDB. The identity map, the
// entries and the revisions are views over Parquet files (store.go).
var schemaSQL = []string{
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
		seconds_read DOUBLE, seconds_compile DOUBLE, seconds_commit DOUBLE, report VARCHAR, revisions BIGINT NOT NULL)`,
	`COMMENT ON TABLE runs IS 'One row per compile run: what it read, compiled, merged, refused, expired and removed, and how long each stage took. A run counts once its row is here; revisions/{run_id}.parquet holds the revisions it issued and index/{run_id}.parquet the identity map and entries after it.'`,
}

// viewComments explain the views over the Parquet files.
var viewComments = []string{
	`COMMENT ON VIEW identities IS 'Identity map: the same company keeps the same entry ID and slug across runs. key is jurisdiction/register reference (gb/09999991, de/wuppertal/hrb/99901) or owner/{entryId}. old_slugs redirect and are never given again; items are the IDs of items compiled for the entry (location:register), stable across runs; last_revision is the last revision number ever issued. Reads index/{last run}.parquet.'`,
	`COMMENT ON VIEW entries IS 'The current revision of every entry, one row each. content_hash: SHA-256 of what the entry says without revision and observation dates (equal: no new revision). source_hash: FNV-64a of the register row last compiled. next_change_at: when time alone changes a projection (capacity expiry, noindex window, grace period). removed_at: when the entry left the registry. revision_run/revision_row: where the current revision is in revisions/{run}.parquet. Reads index/{last run}.parquet.'`,
	`COMMENT ON VIEW revisions IS 'Every revision of every entry, in the open format (entry: JSON text; query it with entry::JSON). cause: compiled, owner, verification, expired. Reads revisions/*.parquet of the committed runs.'`,
}

// State is the pipeline's embedded DuckDB database and the Parquet files
// beside it.
type State struct {
	db   *sql.DB
	dir  string
	path string
	// chain are the index files that make the current state, oldest
	// first: the last full index and the deltas after it (D53).
	chain []string
	// chainRuns are the runs that wrote the chain's files, and runOrder
	// every committed run's place in the order they finished.
	chainRuns []string
	runOrder  map[string]int
	// revs are the revision files read so far, kept open (D124).
	revs revisionFiles
}

// keepIndexes is how many runs' index files are kept (the last one is the
// state; the ones before it let an analyst look back a few runs).
const keepIndexes = 3

// OpenState opens (creating) the state database in dir.
func OpenState(dir string) (*State, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(abs, StateFile)
	db, err := sql.Open("duckdb", path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// DuckDB keeps to a share of the machine and spills the rest to disk
	// beside the state.
	setup := []string{`SET memory_limit = '1536MB'`, `SET temp_directory = '` + filepath.Join(abs, "tmp") + `'`, `SET preserve_insertion_order = false`}
	for _, q := range append(setup, schemaSQL...) {
		if _, err := db.Exec(q); err != nil {
			db.Close()
			return nil, fmt.Errorf("state schema: %w", err)
		}
	}
	var kind string
	if err := db.QueryRow(`SELECT coalesce(max(table_type), '') FROM information_schema.tables WHERE table_name = 'entries'`).Scan(&kind); err == nil && kind == "BASE TABLE" {
		db.Close()
		return nil, fmt.Errorf("%s: a state from before revisions moved to Parquet files (decision D53); compile into a new state directory", path)
	}
	s := &State{db: db, dir: abs, path: path}
	if err := s.clean(); err != nil {
		db.Close()
		return nil, err
	}
	tx, err := db.Begin()
	if err != nil {
		db.Close()
		return nil, err
	}
	if err := s.refreshViews(context.Background(), tx, s.chain); err != nil {
		tx.Rollback()
		db.Close()
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// committedRuns lists the committed runs, oldest first, with whether each
// wrote a revisions file.
func (s *State) committedRuns(q interface {
	Query(string, ...any) (*sql.Rows, error)
}) (runs []string, withRevisions map[string]bool, err error) {
	rows, err := q.Query(`SELECT run_id, revisions > 0 FROM runs ORDER BY finished_at, run_id`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	withRevisions = map[string]bool{}
	for rows.Next() {
		var id string
		var revs bool
		if err := rows.Scan(&id, &revs); err != nil {
			return nil, nil, err
		}
		runs = append(runs, id)
		withRevisions[id] = revs
	}
	return runs, withRevisions, rows.Err()
}

// clean finds the current index chain and deletes the files of runs that
// never committed (a run that failed or died) and index files no longer
// needed: those before the third-to-last full index.
func (s *State) clean() error {
	runs, _, err := s.committedRuns(s.db)
	if err != nil {
		return err
	}
	committed := map[string]bool{}
	for _, r := range runs {
		committed[r] = true
	}
	s.chain, s.chainRuns, s.runOrder = nil, nil, make(map[string]int, len(runs))
	var fulls []int // positions in runs of full indexes
	for i, r := range runs {
		s.runOrder[r] = i
		if _, err := os.Stat(runFile(s.dir, indexDir, r)); err == nil {
			s.chain, s.chainRuns = []string{runFile(s.dir, indexDir, r)}, []string{r}
			fulls = append(fulls, i)
		} else if _, err := os.Stat(deltaFile(s.dir, r)); err == nil {
			s.chain, s.chainRuns = append(s.chain, deltaFile(s.dir, r)), append(s.chainRuns, r)
		}
	}
	from := 0 // index files of runs before this one go
	if len(fulls) > keepIndexes {
		from = fulls[len(fulls)-keepIndexes]
	}
	keep := map[string]bool{}
	for _, r := range runs[from:] {
		keep[r] = true
	}
	for _, sub := range []string{revisionsDir, indexDir} {
		files, _ := filepath.Glob(filepath.Join(s.dir, sub, "*"))
		for _, f := range files {
			base := filepath.Base(f)
			run, ok := strings.CutSuffix(base, ".parquet")
			run = strings.TrimSuffix(run, ".delta")
			switch {
			case !ok: // a temporary file of a run that died
				os.Remove(f)
			case !committed[run]:
				os.Remove(f)
			case sub == indexDir && !keep[run]:
				os.Remove(f)
			}
		}
	}
	return nil
}

// deltaFile is the index delta of a run that loaded only what it touched.
func deltaFile(dir, run string) string {
	return filepath.Join(dir, indexDir, run+".delta.parquet")
}

// indexSource is SQL for the current index rows: the chain's files, the
// latest row of each key winning (run IDs sort in time order).
func indexSource(chain []string) string { return indexSourceOf(chain, "") }

// indexSourceOf is indexSource of the keys where holds (SQL over the
// index's columns; "": every key).
func indexSourceOf(chain []string, where string) string {
	if len(chain) == 1 {
		if where != "" {
			return `(SELECT * FROM ` + indexFiles(chain) + ` WHERE ` + where + `)`
		}
		return indexFiles(chain)
	}
	if where != "" {
		where = ` WHERE ` + where
	}
	return `(SELECT * EXCLUDE (filename) FROM read_parquet(` + fileList(chain) + `, filename = true)` + where +
		` QUALIFY row_number() OVER (PARTITION BY key ORDER BY filename DESC) = 1)`
}

// indexFiles reads every row of the index chain's files, a key's rows in
// each file it is in.
func indexFiles(chain []string) string { return `read_parquet(` + fileList(chain) + `)` }

// fileList is a list of files in SQL.
func fileList(files []string) string {
	quoted := make([]string, len(files))
	for i, f := range files {
		quoted[i] = sqlString(f)
	}
	return `[` + strings.Join(quoted, ", ") + `]`
}

// refreshViews points the views at the files of the committed runs and the
// index chain (of a run committed in the same transaction).
func (s *State) refreshViews(ctx context.Context, tx *sql.Tx, chain []string) error {
	runs, withRevisions, err := s.committedRuns(tx)
	if err != nil {
		return err
	}
	var files []string
	for _, r := range runs {
		if withRevisions[r] {
			files = append(files, sqlString(runFile(s.dir, revisionsDir, r)))
		}
	}
	revisions := `SELECT NULL::VARCHAR AS entry_id, NULL::INTEGER AS revision, NULL::TIMESTAMP AS issued_at, NULL::VARCHAR AS run_id, NULL::VARCHAR AS cause, NULL::VARCHAR AS entry WHERE false`
	if len(files) > 0 {
		revisions = `SELECT entry_id, revision, issued_at, run_id, cause, entry FROM read_parquet([` + strings.Join(files, ", ") + `])`
	}
	identities := `SELECT NULL::VARCHAR AS key, NULL::VARCHAR AS entry_id, NULL::VARCHAR AS slug, NULL::VARCHAR[] AS old_slugs, NULL::TIMESTAMP AS created_at, NULL::JSON AS items, NULL::INTEGER AS last_revision WHERE false`
	entries := `SELECT NULL::VARCHAR AS entry_id, NULL::VARCHAR AS key, NULL::VARCHAR AS slug, NULL::INTEGER AS revision, NULL::VARCHAR AS status, NULL::BOOLEAN AS claimed, NULL::BOOLEAN AS held, NULL::VARCHAR AS content_hash, NULL::UBIGINT AS source_hash, NULL::TIMESTAMP AS updated_at, NULL::TIMESTAMP AS next_change_at, NULL::TIMESTAMP AS removed_at, NULL::VARCHAR AS removed_reason, NULL::VARCHAR AS revision_run, NULL::BIGINT AS revision_row, NULL::VARCHAR AS cause WHERE false`
	if len(chain) > 0 {
		idx := indexSource(chain)
		identities = `SELECT key, entry_id, slug, CASE WHEN old_slugs = '' THEN NULL ELSE string_split(old_slugs, ' ') END AS old_slugs, created_at::TIMESTAMP AS created_at, nullif(items, '')::JSON AS items, last_revision FROM ` + idx
		entries = `SELECT entry_id, key, slug, revision, status, claimed, held, content_hash, nullif(source_hash, 0) AS source_hash, updated_at, next_change_at, removed_at, removed_reason, revision_run, revision_row, cause FROM ` + idx + ` WHERE revision > 0`
	}
	stmts := []string{
		`CREATE OR REPLACE VIEW revisions AS ` + revisions,
		`CREATE OR REPLACE VIEW identities AS ` + identities,
		`CREATE OR REPLACE VIEW entries AS ` + entries,
	}
	for _, q := range append(stmts, viewComments...) {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("state views: %w", err)
		}
	}
	return nil
}

// Close closes the database and the revision files read.
func (s *State) Close() error {
	s.revs.close()
	return s.db.Close()
}

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
	UpdatedAt          time.Time
	NextChangeAt       time.Time
	Removed            bool
	RemovedAt          time.Time
	RemovedReason      string
	// Held: the entry carries what events decided (an open report, a
	// suspension, verification): a recompile merges over its previous
	// revision instead of starting from its sources alone.
	Held bool
	// Cause is why the current revision was issued: compiled, owner,
	// verification, expired.
	Cause string
	// RevisionRun and RevisionRow say where the current revision is.
	RevisionRun string
	RevisionRow int64
	// seen is set when a register file of the run names the entry.
	seen bool
}

func (r *EntryRow) ref() revisionRef { return revisionRef{Run: r.RevisionRun, Row: r.RevisionRow} }

// Load reads the identity map and the current state of every entry, by
// key: the last full index and the deltas after it.
func (s *State) Load() (*compile.Identities, map[string]*EntryRow, error) {
	ids, rows := compile.NewIdentities(), map[string]*EntryRow{}
	for i, f := range s.chain {
		var err error
		if i == 0 {
			ids, rows, err = readIndex(f)
		} else {
			err = readIndexInto(f, ids, rows)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return ids, rows, nil
}

// LoadSome reads only the identities and entries a small run touches: by
// entry ID, by key, and every listed entry whose next change is due by due.
func (s *State) LoadSome(ctx context.Context, entryIDs, keys []string, due time.Time) (*compile.Identities, map[string]*EntryRow, error) {
	ids, rows := compile.NewIdentities(), map[string]*EntryRow{}
	if len(s.chain) == 0 {
		return ids, rows, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	if err := publication.TempStrings(ctx, conn, "wanted_ids", "entry_id", entryIDs); err != nil {
		return nil, nil, err
	}
	if err := publication.TempStrings(ctx, conn, "wanted_keys", "key", keys); err != nil {
		return nil, nil, err
	}
	// Of the full index (the chain's first file) only the rows that match
	// are read; of the deltas after it, small, every row. Each key's
	// current row is then the latest of those, and it must match: a key
	// whose current row is in the full index has no row in a delta. One
	// pass over the full index, where ordering every key's rows ran out of
	// DuckDB's memory at 10M entries once the chain had a delta (issue 18).
	wanted := `(entry_id IN (SELECT entry_id FROM temp.wanted_ids) OR key IN (SELECT key FROM temp.wanted_keys)
		OR (revision > 0 AND removed_at IS NULL AND next_change_at <= $1))`
	src := `(SELECT * FROM ` + indexFiles(s.chain[:1]) + ` WHERE ` + wanted + `)`
	if len(s.chain) > 1 {
		src = `(SELECT * EXCLUDE (filename) FROM (
				SELECT * FROM read_parquet(` + sqlString(s.chain[0]) + `, filename = true) WHERE ` + wanted + `
				UNION ALL BY NAME SELECT * FROM read_parquet(` + fileList(s.chain[1:]) + `, filename = true))
			QUALIFY row_number() OVER (PARTITION BY key ORDER BY filename DESC) = 1)`
	}
	q := `SELECT ` + indexColumns("") + ` FROM ` + src + ` WHERE ` + wanted
	rs, err := conn.QueryContext(ctx, q, due.UTC())
	if err != nil {
		return nil, nil, fmt.Errorf("state index: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		ir, err := scanIndexRow(rs)
		if err != nil {
			return nil, nil, fmt.Errorf("state index: %w", err)
		}
		id, row, err := fromIndexRow(&ir)
		if err != nil {
			return nil, nil, err
		}
		ids.Add(id)
		if row != nil {
			rows[row.Key] = row
		}
	}
	return ids, rows, rs.Err()
}

// indexColumns are the index columns scanIndexRow reads, in its order,
// with a table prefix ("i.") or none.
func indexColumns(p string) string {
	return strings.NewReplacer("$", p).Replace(`$key, $entry_id, $slug, $old_slugs, $created_at, $items, $last_revision, $revision, $status,
		$claimed, $held, $content_hash, $source_hash, $updated_at, $next_change_at, $removed_at, coalesce($removed_reason, ''),
		coalesce($revision_run, ''), $revision_row, coalesce($cause, '')`)
}

// scanIndexRow reads one row of indexColumns.
func scanIndexRow(rs *sql.Rows) (indexRow, error) {
	var ir indexRow
	var updated, next, removed sql.NullTime
	err := rs.Scan(&ir.Key, &ir.EntryID, &ir.Slug, &ir.OldSlugs, &ir.CreatedAt, &ir.Items, &ir.LastRevision, &ir.Revision, &ir.Status,
		&ir.Claimed, &ir.Held, &ir.ContentHash, &ir.SourceHash, &updated, &next, &removed, &ir.RemovedReason, &ir.RevisionRun, &ir.RevisionRow, &ir.Cause)
	ir.UpdatedAt, ir.NextChangeAt, ir.RemovedAt = updated.Time, next.Time, removed.Time
	return ir, err
}

// ScanLive streams the current live entries in the order their revisions
// are stored (each page of the revision files is then read once), in
// chunks of at most chunk rows, without holding them (issue 18: a full
// publication's memory does not grow with the registry; DuckDB sorts
// within its memory limit and spills beyond it). fn owns each chunk.
func (s *State) ScanLive(ctx context.Context, chunk int, fn func([]*EntryRow) error) error {
	return s.scanEntries(ctx, s.db, `removed_at IS NULL ORDER BY revision_run, revision_row`, chunk, fn)
}

// CountLive is how many live entries ScanLive streams.
func (s *State) CountLive(ctx context.Context) (int64, error) {
	if len(s.chain) == 0 {
		return 0, nil
	}
	var n int64
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM `+indexSource(s.chain)+` WHERE revision > 0 AND removed_at IS NULL`).Scan(&n)
	return n, err
}

// Removed reads the current removed entries, by entry ID.
func (s *State) Removed(ctx context.Context) ([]*EntryRow, error) {
	var out []*EntryRow
	err := s.scanEntries(ctx, s.db, `removed_at IS NOT NULL ORDER BY entry_id`, 4096, func(rows []*EntryRow) error {
		out = append(out, rows...)
		return nil
	})
	return out, err
}

// queryer is a database or one of its connections (which holds its
// temporary tables).
type queryer interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// scanEntries streams the current entries (revision > 0) matching where,
// which ends with their order, through q.
func (s *State) scanEntries(ctx context.Context, q queryer, where string, chunk int, fn func([]*EntryRow) error) error {
	if len(s.chain) == 0 {
		return nil
	}
	// Only the columns of an EntryRow: the sort carries each row whole
	// (the identity's items and old slugs stay on disk).
	rs, err := q.QueryContext(ctx, `SELECT key, entry_id, slug, revision, status, claimed, held, content_hash, source_hash, updated_at,
		next_change_at, removed_at, coalesce(removed_reason, ''), coalesce(revision_run, ''), revision_row, coalesce(cause, '')
		FROM `+indexSource(s.chain)+` WHERE revision > 0 AND `+where)
	if err != nil {
		return fmt.Errorf("state entries: %w", err)
	}
	defer rs.Close()
	part := make([]*EntryRow, 0, chunk)
	for rs.Next() {
		var ir indexRow
		var updated, next, removed sql.NullTime
		err := rs.Scan(&ir.Key, &ir.EntryID, &ir.Slug, &ir.Revision, &ir.Status, &ir.Claimed, &ir.Held, &ir.ContentHash, &ir.SourceHash,
			&updated, &next, &removed, &ir.RemovedReason, &ir.RevisionRun, &ir.RevisionRow, &ir.Cause)
		if err != nil {
			return fmt.Errorf("state entries: %w", err)
		}
		ir.UpdatedAt, ir.NextChangeAt, ir.RemovedAt = updated.Time, next.Time, removed.Time
		row := entryRowOf(&ir)
		if part = append(part, &row); len(part) == chunk {
			if err := fn(part); err != nil {
				return err
			}
			part = make([]*EntryRow, 0, chunk)
		}
	}
	if err := rs.Err(); err != nil {
		return fmt.Errorf("state entries: %w", err)
	}
	if len(part) > 0 {
		return fn(part)
	}
	return nil
}

// LoadChanged reads the entries whose current state differs from the
// publication made from run since (another revision, or removed since, or
// new), for a delta publication: the latest rows of the keys with a
// revision issued after that run or removed after its instant.
//
// Those are exactly the entries to render or remove: a revision issued
// after the run, or a removal after its instant, cannot be in the
// publication made from it. They are read from the index files of the
// runs after since alone (chainAfter), and no longer joined with the
// publication's entries to check (D128).
func (s *State) LoadChanged(ctx context.Context, since string) (map[string]*EntryRow, error) {
	rows := map[string]*EntryRow{}
	chain := s.chainAfter(since)
	if len(chain) == 0 {
		return rows, nil
	}
	// Of the keys with a row changed since, the latest row; only those
	// keys' rows are put in order, not the registry's (D118).
	changed := `revision > 0 AND (revision_run > ? OR removed_at > (SELECT max(now) FROM runs WHERE run_id = ?))`
	q := `SELECT ` + indexColumns("") + `
		FROM ` + indexSourceOf(chain, `key IN (SELECT key FROM `+indexFiles(chain)+` WHERE `+changed+`)`) + ` WHERE ` + changed
	rs, err := s.db.QueryContext(ctx, q, since, since, since, since)
	if err != nil {
		return nil, fmt.Errorf("changed entries: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		ir, err := scanIndexRow(rs)
		if err != nil {
			return nil, fmt.Errorf("changed entries: %w", err)
		}
		row := entryRowOf(&ir)
		rows[row.Key] = &row
	}
	return rows, rs.Err()
}

// chainAfter are the files of the index chain written by the runs that
// finished after run since: the whole chain when since is not a committed
// run of the state. A row changed after since (a revision issued by a
// later run, or a removal at a later instant) was written by a later run,
// and so is every row of its key after it: these files hold the latest
// row of every key changed since, and reading them alone spares a delta
// publication the full index (943 MB at 10M entries, every column read
// for the keys it finds, about 5 s while registry.duckdb was copied
// beside it; issue 18, D128).
func (s *State) chainAfter(since string) []string {
	at, ok := s.runOrder[since]
	if !ok {
		return s.chain
	}
	var after []string
	for i, r := range s.chainRuns {
		if s.runOrder[r] > at {
			after = append(after, s.chain[i])
		}
	}
	return after
}

// LoadSlugs adds every slug ever given (current and old) to ids, for a run
// that loaded only some identities and is about to give a slug.
func (s *State) LoadSlugs(ids *compile.Identities) error {
	return s.scanSlugs(func(key, slug, oldSlugs string) {
		ids.AddSlug(slug)
		for _, old := range strings.Fields(oldSlugs) {
			ids.AddSlug(old)
		}
	})
}

// scanSlugs calls fn with the key, slug and old slugs (space-separated)
// of every row of the index chain (a key of a delta comes again).
func (s *State) scanSlugs(fn func(key, slug, oldSlugs string)) error {
	type slugRow struct {
		Key      string `parquet:"key"`
		Slug     string `parquet:"slug"`
		OldSlugs string `parquet:"old_slugs"`
	}
	for _, path := range s.chain {
		err := publication.ScanParquet(path, func(rows []slugRow) error {
			for _, r := range rows {
				fn(r.Key, r.Slug, r.OldSlugs)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("state slugs %s: %w", path, err)
		}
	}
	return nil
}

// IndexRows is how many rows the index chain holds (a key a delta changes
// counts twice): what loading the whole identity map would hold.
func (s *State) IndexRows() (int, error) {
	total := 0
	for _, f := range s.chain {
		n, err := indexRows(f)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// LoadRange reads the identities and entry rows whose keys are in
// [lo, hi) (hi "" for no end) into ids and a new map: a compile that holds
// the registry a share at a time (issue 18). The full index is written in
// key order, so its row groups outside the range are skipped unread.
func (s *State) LoadRange(ids *compile.Identities, lo, hi string) (map[string]*EntryRow, error) {
	rows := map[string]*EntryRow{}
	in := func(key string) bool { return key >= lo && (hi == "" || key < hi) }
	for _, f := range s.chain {
		if err := readIndexRange(f, ids, rows, lo, hi, in); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// Revision reads one revision of an entry; revision 0 is the current one.
func (s *State) Revision(ctx context.Context, entryID string, revision int) (*schemas.Entry, error) {
	if revision == 0 {
		var ref revisionRef
		err := s.db.QueryRowContext(ctx, `SELECT revision_run, revision_row FROM entries WHERE entry_id = ?`, entryID).Scan(&ref.Run, &ref.Row)
		if err != nil {
			return nil, fmt.Errorf("revision of %s: %w", entryID, err)
		}
		got, err := s.readRevisions(map[string]revisionRef{entryID: ref})
		if err != nil {
			return nil, err
		}
		return got[entryID], nil
	}
	var js string
	if err := s.db.QueryRowContext(ctx, `SELECT entry FROM revisions WHERE entry_id = ? AND revision = ?`, entryID, revision).Scan(&js); err != nil {
		return nil, fmt.Errorf("revision %d of %s: %w", revision, entryID, err)
	}
	var e schemas.Entry
	if err := json.Unmarshal([]byte(js), &e); err != nil {
		return nil, fmt.Errorf("revision of %s: %w", entryID, err)
	}
	return &e, nil
}

// Revisions reads the current revisions of many entries, by entry ID.
func (s *State) Revisions(rows []*EntryRow) (map[string]*schemas.Entry, error) {
	want := make(map[string]revisionRef, len(rows))
	for _, r := range rows {
		want[r.EntryID] = r.ref()
	}
	return s.readRevisions(want)
}

// Declarations reads the accepted owner revisions of some entries, by
// entry ID, with one join.
func (s *State) Declarations(ctx context.Context, entryIDs []string) (map[string]*compile.OwnerRevision, error) {
	out := map[string]*compile.OwnerRevision{}
	if len(entryIDs) == 0 {
		return out, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := publication.TempStrings(ctx, conn, "wanted", "entry_id", entryIDs); err != nil {
		return nil, err
	}
	rs, err := conn.QueryContext(ctx, `SELECT d.entry_id, d.based_on, d.declared_at, d.file, d.entry FROM declarations d JOIN temp.wanted w USING (entry_id)`)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	for rs.Next() {
		var id, js string
		var d compile.OwnerRevision
		if err := rs.Scan(&id, &d.BasedOn, &d.DeclaredAt, &d.File, &js); err != nil {
			return nil, err
		}
		d.DeclaredAt = d.DeclaredAt.UTC()
		if err := json.Unmarshal([]byte(js), &d.Entry); err != nil {
			return nil, fmt.Errorf("declaration of %s: %w", id, err)
		}
		out[id] = &d
	}
	return out, rs.Err()
}

// InputSeen reports whether a register file with this content was compiled.
func (s *State) InputSeen(ctx context.Context, sha string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM inputs WHERE sha256 = ?`, sha).Scan(&n)
	return n > 0, err
}

// RecordOf rebuilds the register record of an entry from one of its
// revisions, or nil when it has no register data: the operator block
// holds the register's legal identity and the provenance its retrieval
// date. Keeping the whole record of every row would double what a run
// writes (decision D51).
func RecordOf(row *EntryRow, e *schemas.Entry) *register.Record {
	op := e.Operator
	if op == nil || op.Register == nil {
		return nil
	}
	rec := &register.Record{Source: "state", Key: row.Key, Register: *op.Register, LegalName: op.LegalName, LegalForm: op.LegalForm,
		Name: e.DisplayName, Address: op.Address, Active: true, Jurisdiction: op.Address.Country}
	if k := register.KindOfType(op.Register.Type); k != nil {
		// A register the table knows says the language and zone of its
		// entries; for any other, compile goes by the address's country.
		rec.Language, rec.TimeZone = k.Language, k.TimeZone
	}
	for _, p := range e.Provenance {
		if p.Source == schemas.SourceRegister {
			rec.RetrievedAt = schemas.ParseTime(p.ObservedAt)
			break
		}
	}
	return rec
}

// OldSlugs are the slugs entries had before a rename, from the identity
// map, in entry ID order: of every entry, or with only, of those entries
// alone (a delta's, issue 18). Slugs are only ever added to a key, so the
// keys with an old slug in any file of the chain are found by a filter
// over the files, and only their rows are ordered to find each key's
// current one: not every identity of the registry.
func (s *State) OldSlugs(ctx context.Context, only []string) ([]export.OldSlug, error) {
	if len(s.chain) == 0 {
		return nil, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	with := `old_slugs <> ''`
	if only != nil {
		if err := publication.TempStrings(ctx, conn, "old_slugs_of", "entry_id", only); err != nil {
			return nil, err
		}
		with += ` AND entry_id IN (SELECT entry_id FROM temp.old_slugs_of)`
	}
	rows, err := conn.QueryContext(ctx, `SELECT entry_id, old_slugs FROM `+indexSourceOf(s.chain, `key IN (SELECT key FROM `+indexFiles(s.chain)+` WHERE `+with+`)`)+`
		WHERE `+with+` ORDER BY entry_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []export.OldSlug
	for rows.Next() {
		var id, old string
		if err := rows.Scan(&id, &old); err != nil {
			return nil, err
		}
		for _, slug := range strings.Fields(old) {
			out = append(out, export.OldSlug{Slug: slug, EntryID: id})
		}
	}
	return out, rows.Err()
}
