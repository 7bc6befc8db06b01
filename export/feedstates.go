package export

import (
	"context"
	"errors"

	"fmt"
	"strings"

	"github.com/daawid/registry/feeds"
	"github.com/duckdb/duckdb-go/v2"
)

// The change feed compares the states of the entries a publication
// rendered or removed with their states in the previous publication. A
// publication of millions of entries does not hold them (issue 18): they
// are appended to a temporary table beside the registry's, and one join
// in DuckDB with the previous publication's entries table reads them
// back, by entry ID, within DuckDB's memory limit.

// feedStatesSQL makes the temporary table (before the Appenders open:
// DDL next to open Appenders loses their rows).
const feedStatesSQL = `CREATE OR REPLACE TEMP TABLE feed_states (entry_id VARCHAR NOT NULL, slug VARCHAR NOT NULL, status VARCHAR NOT NULL,
	cause VARCHAR NOT NULL, listed BOOLEAN NOT NULL, revision INTEGER NOT NULL);
	CREATE OR REPLACE TEMP TABLE reused_ids (entry_id VARCHAR NOT NULL)`

// FeedState records the state of an entry this publication rendered or
// removed, for ScanFeedStates.
func (r *RegistryDB) FeedState(s feeds.State) error {
	return r.states.AppendRow(s.EntryID, s.Slug, s.Status, s.Cause, s.Listed, s.Revision)
}

// ScanFeedStates calls fn with every state FeedState recorded, in entry ID
// order, and the entry's state in the previous publication's database
// prevDB (nil when it held none, or when prevDB is "").
func (r *RegistryDB) ScanFeedStates(ctx context.Context, prevDB string, fn func(cur feeds.State, prev *feeds.State) error) error {
	if err := r.states.Flush(); err != nil {
		return fmt.Errorf("feed states: %w", err)
	}
	q := `SELECT c.entry_id, c.slug, c.status, c.cause, c.listed, c.revision, false, '', '', false, 0 FROM temp.feed_states c ORDER BY c.entry_id`
	if prevDB != "" {
		if _, err := r.conn.ExecContext(ctx, `ATTACH '`+strings.ReplaceAll(prevDB, "'", "''")+`' AS feed_prev (READ_ONLY)`); err != nil {
			return fmt.Errorf("feed states: %w", err)
		}
		defer r.conn.ExecContext(context.Background(), `DETACH feed_prev`)
		q = `SELECT c.entry_id, c.slug, c.status, c.cause, c.listed, c.revision, p.entry_id IS NOT NULL, coalesce(p.slug, ''), coalesce(p.status, ''),
			coalesce(p.listed, false), coalesce(p.revision, 0)
			FROM temp.feed_states c LEFT JOIN feed_prev.entries p USING (entry_id) ORDER BY c.entry_id`
	}
	rs, err := r.conn.QueryContext(ctx, q)
	if err != nil {
		return fmt.Errorf("feed states: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		var cur, prev feeds.State
		var had bool
		if err := rs.Scan(&cur.EntryID, &cur.Slug, &cur.Status, &cur.Cause, &cur.Listed, &cur.Revision, &had, &prev.Slug, &prev.Status, &prev.Listed, &prev.Revision); err != nil {
			return fmt.Errorf("feed states: %w", err)
		}
		var p *feeds.State
		if had {
			prev.EntryID = cur.EntryID
			p = &prev
		}
		if err := fn(cur, p); err != nil {
			return err
		}
	}
	if err := rs.Err(); err != nil {
		return fmt.Errorf("feed states: %w", err)
	}
	return nil
}

// closeFeedStates closes the Appenders of the temporary tables (Finish,
// Close).
func (r *RegistryDB) closeFeedStates() error {
	var errs []error
	for _, a := range []**duckdb.Appender{&r.states, &r.reused} {
		if *a != nil {
			errs = append(errs, (*a).Close())
			*a = nil
		}
	}
	return errors.Join(errs...)
}
