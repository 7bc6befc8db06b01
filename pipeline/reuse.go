package pipeline

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/daawid/registry/export/publication"
)

// reuse is what a full publication keeps of the publication before it
// (same engine, same site): the documents of every live entry it holds at
// the entry's current revision, which the new one points at instead of
// rendering them again. They are found with one join in DuckDB between
// the state's entries and the previous publication's document index
// chain, into a temporary table that spills to disk beyond DuckDB's memory
// limit; none is held in the heap (issue 18: before, every previous
// document's row was, about 3 KB an entry).
type reuse struct {
	conn *sql.Conn // the temporary tables live on this connection
}

// openReuse finds the reusable documents of the previous publication in
// dir, whose index chain is index (the manifest's, in order).
func (s *State) openReuse(ctx context.Context, dir string, index []string) (*reuse, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	files := make([]string, len(index))
	for i, f := range index {
		files[i] = sqlString(filepath.Join(dir, filepath.FromSlash(f)))
	}
	list := `[` + strings.Join(files, ", ") + `]`
	// A later index replaces every document of an entry it names, a
	// tombstone leaving none (publication.ResolveDocs): the last file
	// naming an entry holds its documents.
	q := `CREATE OR REPLACE TEMP TABLE reused_docs AS
		WITH d AS (SELECT *, list_position(` + list + `, filename) AS pos FROM read_parquet(` + list + `, filename = true, file_row_number = true, union_by_name = true)
			WHERE kind <> '` + publication.KindSite + `'),
		last AS (SELECT entry_id, max(pos) AS pos FROM d GROUP BY entry_id),
		cur AS (SELECT entry_id, revision FROM ` + indexSource(s.chain) + ` WHERE revision > 0 AND removed_at IS NULL)
		SELECT d.* FROM d JOIN last USING (entry_id, pos) JOIN cur ON cur.entry_id = d.entry_id AND cur.revision = d.revision
		WHERE d.kind <> '` + publication.KindRemoved + `';
		CREATE OR REPLACE TEMP TABLE reused_entries AS SELECT DISTINCT entry_id FROM temp.reused_docs`
	if len(s.chain) == 0 {
		q = `CREATE OR REPLACE TEMP TABLE reused_docs AS SELECT *, 0 AS pos FROM read_parquet(` + list + `, filename = true, file_row_number = true, union_by_name = true) WHERE false;
		CREATE OR REPLACE TEMP TABLE reused_entries AS SELECT DISTINCT entry_id FROM temp.reused_docs`
	}
	if _, err := conn.ExecContext(ctx, q); err != nil {
		conn.Close()
		return nil, fmt.Errorf("previous documents: %w", err)
	}
	return &reuse{conn: conn}, nil
}

// docs calls fn with each reused entry's documents, by entry ID, each
// entry's in the order they were written.
func (u *reuse) docs(ctx context.Context, fn func([]publication.DocRow) error) error {
	rs, err := u.conn.QueryContext(ctx, `SELECT entry_id, slug, kind, lang, path, pack, "offset", length, media_type, etag, last_modified,
		revision, next_change_at, checksum, encoding, identity_length FROM temp.reused_docs ORDER BY entry_id, pos, file_row_number`)
	if err != nil {
		return fmt.Errorf("previous documents: %w", err)
	}
	defer rs.Close()
	var cur []publication.DocRow
	for rs.Next() {
		var d publication.DocRow
		var next sql.NullTime
		var sum, idLen sql.NullInt64
		var enc sql.NullString
		if err := rs.Scan(&d.EntryID, &d.Slug, &d.Kind, &d.Lang, &d.Path, &d.Pack, &d.Offset, &d.Length, &d.MediaType, &d.ETag, &d.LastModified,
			&d.Revision, &next, &sum, &enc, &idLen); err != nil {
			return fmt.Errorf("previous documents: %w", err)
		}
		d.LastModified, d.NextChangeAt = d.LastModified.UTC(), utc(next.Time)
		d.Checksum, d.Encoding, d.IdentityLength = uint32(sum.Int64), enc.String, idLen.Int64
		if len(cur) > 0 && cur[0].EntryID != d.EntryID {
			if err := fn(cur); err != nil {
				return err
			}
			cur = nil
		}
		cur = append(cur, d)
	}
	if err := rs.Err(); err != nil {
		return fmt.Errorf("previous documents: %w", err)
	}
	if len(cur) > 0 {
		return fn(cur)
	}
	return nil
}

// liveToRender calls fn with the live entries not reused, in storage
// order, in chunks.
func (u *reuse) liveToRender(ctx context.Context, s *State, fn func([]*EntryRow) error) error {
	return s.scanEntries(ctx, u.conn, `removed_at IS NULL AND entry_id NOT IN (SELECT entry_id FROM temp.reused_entries) ORDER BY revision_run, revision_row`, publishChunk, fn)
}

func (u *reuse) close() {
	if u.conn != nil {
		u.conn.Close()
		u.conn = nil
	}
}
