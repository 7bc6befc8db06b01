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

// staged are the small tables a run writes into first: temporary copies
// that the commit moves into the real tables in one transaction with the
// run's row.
var staged = []struct{ table, like string }{
	{"stage_declarations", "declarations"},
	{"stage_refused", "refused"},
	{"stage_inputs", "inputs"},
}

// writer streams a run's results: revisions into the run's revisions
// file, the rest into the staging tables.
type writer struct {
	st        *State
	conn      *sql.Conn
	appenders map[string]*duckdb.Appender
	runID     string
	revs      *revisionWriter
	// index is the run's full index file while a run that compiles the
	// registry a key range at a time adds its ranges (indexPart).
	index *indexWriter
}

func (s *State) newWriter(ctx context.Context, runID string) (*writer, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	w := &writer{st: s, conn: conn, appenders: map[string]*duckdb.Appender{}, runID: runID}
	for _, st := range staged {
		if _, err := conn.ExecContext(ctx, fmt.Sprintf(`CREATE OR REPLACE TEMP TABLE %s AS SELECT * FROM %s LIMIT 0`, st.table, st.like)); err != nil {
			conn.Close()
			return nil, err
		}
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
	if w.revs, err = newRevisionWriter(runFile(s.dir, revisionsDir, runID)); err != nil {
		w.abort()
		return nil, err
	}
	return w, nil
}

func (w *writer) append(table string, vals ...driver.Value) error {
	if err := w.appenders[table].AppendRow(vals...); err != nil {
		return fmt.Errorf("%s: %w", table, err)
	}
	return nil
}

// revision queues a new revision of an entry and returns its row: the
// entry's new current state.
func (w *writer) revision(e *schemas.Entry, key, cause string, claimed bool, sourceHash uint64, issued time.Time) (*EntryRow, error) {
	js, err := compile.EntryJSON(e)
	if err != nil {
		return nil, err
	}
	row := &EntryRow{EntryID: e.ID, Key: key, Slug: e.Slug, Revision: e.Record.Revision, Status: e.Status, Claimed: claimed,
		ContentHash: compile.ContentHash(e), SourceHash: sourceHash, UpdatedAt: schemas.ParseTime(e.Record.UpdatedAt), NextChangeAt: e.NextChangeAt()}
	w.revisionJSON(row, js, cause, issued)
	return row, nil
}

// revisionJSON queues a revision already marshalled by a worker and
// points its row at it.
func (w *writer) revisionJSON(row *EntryRow, js string, cause string, issued time.Time) {
	row.RevisionRun, row.Cause = w.runID, cause
	row.RevisionRow = w.revs.add(revisionRow{EntryID: row.EntryID, Revision: int32(row.Revision), IssuedAt: issued.UTC(),
		RunID: w.runID, Cause: cause, Entry: js})
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

// indexPart writes one key range's identities and entry rows into the
// run's full index file; the ranges come in key order.
func (w *writer) indexPart(ids *compile.Identities, rows map[string]*EntryRow) error {
	if w.index == nil {
		iw, err := newIndexWriter(runFile(w.st.dir, indexDir, w.runID))
		if err != nil {
			return err
		}
		w.index = iw
	}
	if err := w.index.add(ids, rows); err != nil {
		return fmt.Errorf("index file: %w", err)
	}
	return nil
}

// commit writes the run's files and then, in one transaction, moves the
// staged rows into the state with the run's record and points the views
// at the new files. Until that transaction commits nothing names the
// files; the next run deletes them if it never does.
//
// A run that loaded every identity writes a full index; one that loaded
// only what it touched (delta) writes those rows as a delta over the
// current chain.
func (w *writer) commit(ctx context.Context, run []driver.Value, ids *compile.Identities, rows map[string]*EntryRow, delta bool) error {
	for _, a := range w.appenders {
		if err := a.Close(); err != nil {
			return err
		}
	}
	w.appenders = nil
	nrev := w.revs.rows
	err := w.revs.finish()
	w.revs = nil
	if err != nil {
		return fmt.Errorf("revisions file: %w", err)
	}
	chain := []string{runFile(w.st.dir, indexDir, w.runID)}
	if delta {
		chain = append(append([]string(nil), w.st.chain...), deltaFile(w.st.dir, w.runID))
	}
	if w.index != nil {
		// A run by key ranges wrote its index as it went (ids is nil).
		err = w.index.finish()
		w.index = nil
	} else {
		err = writeIndex(chain[len(chain)-1], ids, rows)
	}
	if err != nil {
		return fmt.Errorf("index file: %w", err)
	}
	tx, err := w.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	stmts := []string{
		`DELETE FROM declarations WHERE entry_id IN (SELECT entry_id FROM temp.stage_declarations)`,
		`INSERT INTO declarations SELECT * FROM temp.stage_declarations`,
		`INSERT INTO refused SELECT * FROM temp.stage_refused`,
		`INSERT INTO inputs SELECT * FROM temp.stage_inputs`,
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			tx.Rollback()
			return fmt.Errorf("commit: %w", err)
		}
	}
	run = append(run, nrev)
	ph := "?"
	for range run[1:] {
		ph += ", ?"
	}
	args := make([]any, len(run))
	for i, v := range run {
		args[i] = v
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO runs VALUES (`+ph+`)`, args...); err != nil {
		tx.Rollback()
		return fmt.Errorf("commit: %w", err)
	}
	if err := w.st.refreshViews(ctx, tx, chain); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	w.st.clean()
	return w.conn.Close()
}

// abort drops the staged rows and the run's unfinished files.
func (w *writer) abort() {
	for _, a := range w.appenders {
		a.Close()
	}
	if w.revs != nil {
		w.revs.abort()
	}
	if w.index != nil {
		w.index.abort()
	}
	w.conn.Close()
}
