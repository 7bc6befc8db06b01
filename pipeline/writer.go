package pipeline

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"time"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/schemas"
	"github.com/duckdb/duckdb-go/v2"
)

// staged are the tables a run writes into first: temporary copies that
// the commit moves into the real tables in one transaction, so a run that
// fails or is killed leaves the state as it was.
var staged = []struct{ table, like string }{
	{"stage_identities", "identities"},
	{"stage_entries", "entries"},
	{"stage_declarations", "declarations"},
	{"stage_refused", "refused"},
	{"stage_inputs", "inputs"},
}

// writer streams a run's results into the staging tables.
type writer struct {
	conn      *sql.Conn
	appenders map[string]*duckdb.Appender
	runID     string
	// revConn appends revisions outside the run's transaction, flushed in
	// chunks, so a million revisions never sit in transaction-local
	// memory. Until the run's row is committed they belong to no run and
	// nothing reads them; the next run deletes them if this one failed.
	revConn *sql.Conn
	revRows int
}

// revisionChunk is how many revisions are appended between flushes.
const revisionChunk = 50_000

func (s *State) newWriter(ctx context.Context, runID string) (*writer, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	w := &writer{conn: conn, appenders: map[string]*duckdb.Appender{}, runID: runID}
	for _, st := range staged {
		if _, err := conn.ExecContext(ctx, fmt.Sprintf(`CREATE OR REPLACE TEMP TABLE %s AS SELECT * FROM %s LIMIT 0`, st.table, st.like)); err != nil {
			conn.Close()
			return nil, err
		}
	}
	// The small tables whose rows replace older ones are staged and swapped
	// in by one transaction at the commit, with the run's row, which is
	// what makes the run's revisions count.
	if w.revConn, err = s.db.Conn(ctx); err != nil {
		conn.Close()
		return nil, err
	}
	err = w.revConn.Raw(func(dc any) error {
		a, err := duckdb.NewAppender(dc.(driver.Conn), "", "main", "revisions")
		if err != nil {
			return fmt.Errorf("appender revisions: %w", err)
		}
		w.appenders["revisions"] = a
		return nil
	})
	if err != nil {
		w.abort()
		return nil, err
	}
	err = conn.Raw(func(dc any) error {
		for _, st := range staged {
			a, err := duckdb.NewAppender(dc.(driver.Conn), "temp", "main", st.table)
			if err != nil {
				return fmt.Errorf("appender %s: %w", st.table, err)
			}
			w.appenders[st.table] = a
		}
		return nil
	})
	if err != nil {
		w.abort()
		return nil, err
	}
	return w, nil
}

func (w *writer) append(table string, vals ...driver.Value) error {
	a := w.appenders[table]
	if err := a.AppendRow(vals...); err != nil {
		return fmt.Errorf("%s: %w", table, err)
	}
	if table == "revisions" {
		if w.revRows++; w.revRows%revisionChunk == 0 {
			if err := a.Flush(); err != nil {
				return fmt.Errorf("revisions: %w", err)
			}
		}
	}
	return nil
}

func nullTime(t time.Time) driver.Value {
	if t.IsZero() {
		return nil
	}
	return t.UTC()
}

// revision stages a new revision of an entry and its entries row.
func (w *writer) revision(e *schemas.Entry, key, cause string, claimed bool, sourceHash uint64, issued time.Time) error {
	js, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := w.append("revisions", e.ID, int32(e.Record.Revision), issued.UTC(), w.runID, cause, string(js)); err != nil {
		return err
	}
	var sh driver.Value
	if sourceHash != 0 {
		sh = sourceHash
	}
	return w.append("stage_entries", e.ID, key, e.Slug, int32(e.Record.Revision), string(e.Status), claimed,
		compile.ContentHash(e), sh, schemas.ParseTime(e.Record.UpdatedAt), nullTime(e.NextChangeAt()), nil, nil)
}

// revisionJSON stages a revision already marshalled by a worker.
func (w *writer) revisionJSON(row *EntryRow, js []byte, cause string, issued time.Time) error {
	if err := w.append("revisions", row.EntryID, int32(row.Revision), issued.UTC(), w.runID, cause, string(js)); err != nil {
		return err
	}
	var sh driver.Value
	if row.SourceHash != 0 {
		sh = row.SourceHash
	}
	return w.append("stage_entries", row.EntryID, row.Key, row.Slug, int32(row.Revision), string(row.Status), row.Claimed,
		row.ContentHash, sh, row.updatedAt.UTC(), nullTime(row.NextChangeAt), nil, nil)
}

// removed stages an entry leaving the registry.
func (w *writer) removed(r *EntryRow, at time.Time, reason string) error {
	return w.append("stage_entries", r.EntryID, r.Key, r.Slug, int32(r.Revision), string(r.Status), r.Claimed,
		r.ContentHash, nil, at.UTC(), nil, at.UTC(), reason)
}

// identity stages a new or changed identity.
func (w *writer) identity(id *compile.Identity) error {
	items, _ := json.Marshal(id.Items)
	old := id.OldSlugs
	if old == nil {
		old = []string{}
	}
	return w.append("stage_identities", id.Key, id.EntryID, id.Slug, old, schemas.ParseTime(id.CreatedAt), string(items), int32(id.LastRevision))
}

func (w *writer) declaration(d *compile.OwnerRevision) error {
	js, err := json.Marshal(d.Entry)
	if err != nil {
		return err
	}
	return w.append("stage_declarations", d.Entry.ID, int32(d.BasedOn), d.DeclaredAt.UTC(), d.File, string(js))
}

func (w *writer) refused(file string, line int, path, reason string) error {
	var l driver.Value
	if line > 0 {
		l = int32(line)
	}
	var p driver.Value
	if path != "" {
		p = path
	}
	return w.append("stage_refused", w.runID, file, l, p, reason)
}

// commit moves the staged rows into the state in one transaction, with the
// run's record.
func (w *writer) commit(ctx context.Context, run []driver.Value) error {
	for _, a := range w.appenders {
		if err := a.Close(); err != nil {
			return err
		}
	}
	w.appenders = nil
	if err := w.revConn.Close(); err != nil {
		return err
	}
	w.revConn = nil
	if _, err := w.conn.ExecContext(ctx, `BEGIN TRANSACTION`); err != nil {
		return err
	}
	stmts := []string{
		`DELETE FROM identities WHERE key IN (SELECT key FROM temp.stage_identities)`,
		`INSERT INTO identities SELECT * FROM temp.stage_identities`,
		`DELETE FROM entries WHERE entry_id IN (SELECT entry_id FROM temp.stage_entries)`,
		`INSERT INTO entries SELECT * FROM temp.stage_entries`,
		`DELETE FROM declarations WHERE entry_id IN (SELECT entry_id FROM temp.stage_declarations)`,
		`INSERT INTO declarations SELECT * FROM temp.stage_declarations`,
		`INSERT INTO refused SELECT * FROM temp.stage_refused`,
		`INSERT INTO inputs SELECT * FROM temp.stage_inputs`,
	}
	for _, q := range stmts {
		if _, err := w.conn.ExecContext(ctx, q); err != nil {
			w.conn.ExecContext(context.Background(), `ROLLBACK`)
			return fmt.Errorf("commit: %w", err)
		}
	}
	ph := "?"
	for range run[1:] {
		ph += ", ?"
	}
	args := make([]any, len(run))
	for i, v := range run {
		args[i] = v
	}
	if _, err := w.conn.ExecContext(ctx, `INSERT INTO runs VALUES (`+ph+`)`, args...); err != nil {
		w.conn.ExecContext(context.Background(), `ROLLBACK`)
		return fmt.Errorf("commit: %w", err)
	}
	if _, err := w.conn.ExecContext(ctx, `COMMIT`); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return w.conn.Close()
}

// abort drops the staged rows; revisions already flushed belong to no
// committed run and are removed by the next run.
func (w *writer) abort() {
	for _, a := range w.appenders {
		a.Close()
	}
	if w.revConn != nil {
		w.revConn.Close()
	}
	w.conn.ExecContext(context.Background(), `ROLLBACK`)
	w.conn.Close()
}
