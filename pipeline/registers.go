package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync/atomic"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/compile/register"
	"github.com/daawid/registry/schemas"
)

// registers compiles the register files in two passes: the first finds
// the companies the registry does not know and gives them identities in
// key order (so IDs and slugs do not depend on the order of rows or
// files); the second compiles every record. A file compiled whole before
// (same SHA-256) is skipped: its companies are unchanged.
func (r *run) registers(ctx context.Context) error {
	var files []string
	for _, f := range r.cfg.Registers {
		sha, err := fileHash(f)
		if err != nil {
			r.refuse(Problem{File: f, Reason: err.Error()})
			continue
		}
		if seen, err := r.st.InputSeen(ctx, sha); err != nil {
			return err
		} else if seen {
			r.rep.FilesSkipped++
			r.log.Info("register file unchanged since it was compiled; skipped", "file", f)
			continue
		}
		files = append(files, f)
		if err := r.w.append("stage_inputs", sha, filepath.Base(f), r.rep.RunID); err != nil {
			return err
		}
	}
	var news []compile.NewCompany
	seen := map[string]bool{}
	for _, f := range files {
		err := r.scan(f, func(rec *register.Record) {
			if _, ok := r.ids.ByKey(rec.Key); !ok && rec.Active && !seen[rec.Key] {
				seen[rec.Key] = true
				news = append(news, compile.NewCompany{Key: rec.Key, Name: rec.Name, Locality: rec.Address.Locality})
			}
		}, false)
		if err != nil {
			return err
		}
	}
	for _, id := range r.ids.AssignNew(news, r.now) {
		r.changedIDs[id.Key] = id
	}
	return r.compileFiles(ctx, files)
}

// scan reads a register file for the first pass: good records only.
func (r *run) scan(path string, fn func(*register.Record), _ bool) error {
	return r.scanWith(path, fn, nil)
}

// scanWith reads a register file, calling fn for each good record and
// problem (when set) for bad rows, warnings and unreadable files; it
// counts rows read when problem is set.
func (r *run) scanWith(path string, fn func(*register.Record), problem func(Problem)) error {
	report := problem != nil
	rd, closer, err := openRegister(path, r.now)
	if err != nil {
		if report {
			problem(Problem{File: filepath.Base(path), Reason: err.Error()})
		}
		return nil
	}
	defer closer.Close()
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		var re *register.RowError
		if errors.As(err, &re) {
			if report {
				atomic.AddInt64(&r.rep.RowsRead, 1)
				problem(Problem{File: re.File, Line: re.Line, Path: re.Field, Reason: re.Msg})
			}
			continue
		}
		if err != nil {
			if report {
				problem(Problem{File: filepath.Base(path), Reason: err.Error()})
			}
			return nil // an unreadable rest of a file is reported; the run goes on
		}
		if report {
			n := atomic.AddInt64(&r.rep.RowsRead, 1)
			for _, w := range rec.Warnings {
				problem(Problem{File: w.File, Line: w.Line, Path: w.Field, Reason: w.Msg, Kept: true})
			}
			if r.cfg.Progress != nil && n%10000 == 0 {
				r.cfg.Progress(n)
			}
		}
		fn(rec)
	}
}

// outcome is what compiling one company gave: computed by a worker,
// applied by the single writer.
type outcome struct {
	id        *compile.Identity
	row       *EntryRow // the new current row, nil when unchanged
	entryJSON []byte
	cause     string
	decl      *compile.OwnerRevision // a newly accepted declaration to keep
	remove    *EntryRow
	reason    string
	problems  []Problem
	unchanged bool
	newEntry  bool
	siteUsed  bool
	err       error
}

// record works out one register record's outcome. It reads the run's maps
// and owns the record's identity (records are split among workers by key).
func (r *run) record(ctx context.Context, rec *register.Record) outcome {
	row := r.rows[rec.Key]
	id, ok := r.ids.ByKey(rec.Key)
	if !rec.Active {
		// Dissolved companies leave the registry: a change, recorded; a
		// claimed entry is never removed by register data alone.
		if row != nil && !row.Removed {
			if row.Claimed {
				return outcome{problems: []Problem{{File: rec.File, Line: rec.Line, Reason: "the register says " + rec.Status + "; the entry is claimed and stays", Kept: true}}, unchanged: true}
			}
			return outcome{remove: row, reason: "register: " + rec.Status}
		}
		return outcome{unchanged: true}
	}
	if !ok {
		return outcome{unchanged: true}
	}
	decl, isNew := r.newDecl[id.EntryID], true
	if decl == nil {
		decl, isNew = r.decls[id.EntryID], false
	}
	evs := r.events[id.EntryID]
	web := r.siteFor(rec)
	if row != nil && !row.Removed && row.SourceHash == rec.Hash && !isNew && len(evs) == 0 && web == nil {
		return outcome{id: id, unchanged: true}
	}
	o := r.build(ctx, id, row, rec, web, decl, isNew, evs)
	o.siteUsed = web != nil
	return o
}

// build makes the entry's revision from its sources; the outcome holds it
// when it says something new.
func (r *run) build(ctx context.Context, id *compile.Identity, row *EntryRow, rec *register.Record, web *siteFacts, decl *compile.OwnerRevision, isNew bool, evs []compile.Event) outcome {
	var prev *schemas.Entry
	if row != nil && !row.Removed && (decl != nil || len(evs) > 0 || row.Status == schemas.StatusSuspended) {
		if p, ok := r.prevs[row.EntryID]; ok {
			prev = p
		} else {
			var err error
			if prev, err = r.st.Revision(ctx, row.EntryID, row.Revision); err != nil {
				return outcome{err: err}
			}
		}
	}
	var e *schemas.Entry
	o := outcome{id: id, cause: "compiled"}
	switch {
	case decl != nil:
		e = r.comp.Claimed(decl, rec, web, id, prev, evs, r.now)
		if isNew {
			o.cause, o.decl = "owner", decl
		}
	case rec != nil:
		e = r.comp.Unclaimed(rec, web, id, nil, r.now)
		if prev != nil {
			e.Record.OpenReportAt = prev.Record.OpenReportAt
			if prev.Status == schemas.StatusSuspended {
				e.Status = schemas.StatusSuspended
			}
		}
		if len(evs) > 0 {
			compile.ApplyEvents(e, evs)
		}
	default:
		if prev == nil {
			return outcome{unchanged: true}
		}
		e = prev.Clone()
		compile.ApplyEvents(e, evs)
		o.cause = "verification"
	}
	if len(evs) > 0 && o.cause == "compiled" {
		o.cause = "verification"
	}
	var sourceHash uint64
	if rec != nil {
		sourceHash = rec.Hash
	}
	hash := compile.ContentHash(e)
	if row != nil && !row.Removed && hash == row.ContentHash {
		o.unchanged = true
		return o
	}
	last := id.LastRevision
	if row != nil && row.Revision > last {
		last = row.Revision
	}
	e.Record.Revision = last + 1
	e.Record.UpdatedAt = schemas.FormatTime(r.now)
	if prev != nil {
		e.Record.CreatedAt = prev.Record.CreatedAt
	}
	id.LastRevision = e.Record.Revision
	js, err := json.Marshal(e)
	if err != nil {
		return outcome{err: err}
	}
	o.entryJSON = js
	o.newEntry = row == nil
	o.row = &EntryRow{EntryID: e.ID, Key: id.Key, Slug: e.Slug, Revision: e.Record.Revision, Status: e.Status,
		Claimed: decl != nil, ContentHash: hash, SourceHash: sourceHash, NextChangeAt: e.NextChangeAt(), updatedAt: schemas.ParseTime(e.Record.UpdatedAt)}
	return o
}

// apply stages an outcome (the writer's side).
func (r *run) apply(o outcome) error {
	if o.err != nil {
		return o.err
	}
	for _, p := range o.problems {
		r.refuse(p)
	}
	if o.remove != nil {
		gone := *o.remove
		gone.Removed = true
		r.setRow(&gone)
		r.rep.Removed++
		return r.w.removed(&gone, r.now, o.reason)
	}
	if o.siteUsed {
		r.rep.SitesMatched++
	}
	if o.id != nil {
		r.touched[o.id.EntryID] = true
	}
	if o.decl != nil {
		if err := r.w.declaration(o.decl); err != nil {
			return err
		}
	}
	if o.unchanged || o.row == nil {
		r.rep.Unchanged++
		return nil
	}
	r.changedIDs[o.id.Key] = o.id
	if o.newEntry {
		r.rep.NewEntries++
	}
	if err := r.w.revisionJSON(o.row, o.entryJSON, o.cause, r.now); err != nil {
		return err
	}
	r.rep.Compiled++
	r.setRow(o.row)
	return nil
}

// setRow records an entry's new current row. While workers read the rows,
// new rows wait in pending and join after the parallel pass.
func (r *run) setRow(row *EntryRow) {
	if r.pending != nil {
		r.pending[row.Key] = row
		return
	}
	r.rows[row.Key] = row
	r.byEntry[row.EntryID] = row
}

// flushRows joins the pending rows after a parallel pass.
func (r *run) flushRows() {
	p := r.pending
	r.pending = nil
	for _, row := range p {
		r.setRow(row)
	}
}

// ownerOnly merges the owner revisions and events of entries no register
// record of this run named: from the stored register record, or none for
// entries that began with their owner.
func (r *run) ownerOnly(ctx context.Context) error {
	pending := map[string]bool{}
	for id := range r.newDecl {
		pending[id] = true
	}
	for id := range r.events {
		pending[id] = true
	}
	ids := make([]string, 0, len(pending))
	for id := range pending {
		if !r.touched[id] {
			ids = append(ids, id)
		}
	}
	sortStrings(ids)
	// One join loads the current revisions these entries are merged over.
	want := map[string]int{}
	for _, entryID := range ids {
		if id, ok := r.ids.ByEntry(entryID); ok {
			if row := r.rows[id.Key]; row != nil && !row.Removed {
				want[row.EntryID] = row.Revision
			}
		}
	}
	prevs, err := r.st.Revisions(ctx, want)
	if err != nil {
		return err
	}
	r.prevs = prevs
	defer func() { r.prevs = nil }()
	for _, entryID := range ids {
		r.touched[entryID] = true
		id, ok := r.ids.ByEntry(entryID)
		decl, isNew := r.newDecl[entryID], true
		if decl == nil {
			decl, isNew = r.decls[entryID], false
		}
		if !ok {
			if decl == nil {
				continue
			}
			// An entry that begins with its owner: its identity is its ID.
			id = &compile.Identity{Key: "owner/" + entryID, EntryID: entryID, CreatedAt: schemas.FormatTime(r.now)}
			id.Slug = r.ids.FreeSlug(decl.Entry.Slug, decl.Entry.DisplayName)
			r.ids.Add(id)
			r.changedIDs[id.Key] = id
		}
		var rec *register.Record
		if row := r.rows[id.Key]; row != nil && prevs[row.EntryID] != nil {
			rec = RecordOf(row, prevs[row.EntryID])
		}
		if err := r.apply(r.build(ctx, id, r.rows[id.Key], rec, nil, decl, isNew, r.events[entryID])); err != nil {
			return err
		}
	}
	return nil
}

// expire re-issues the entries whose nextChangeAt has come (decision D4);
// its cost grows with what expires, not with the registry.
func (r *run) expire(ctx context.Context) error {
	var due []*EntryRow
	for _, row := range r.rows {
		if !row.Removed && !row.NextChangeAt.IsZero() && !row.NextChangeAt.After(r.now) && !r.touched[row.EntryID] {
			due = append(due, row)
		}
	}
	sortRows(due)
	want := make(map[string]int, len(due))
	for _, row := range due {
		want[row.EntryID] = row.Revision
	}
	prevs, err := r.st.Revisions(ctx, want)
	if err != nil {
		return err
	}
	for _, row := range due {
		prev, ok := prevs[row.EntryID]
		if !ok {
			return fmt.Errorf("expire: revision %d of %s is missing", row.Revision, row.EntryID)
		}
		e, changed := compile.Expire(prev, r.now)
		if !changed {
			continue
		}
		id, _ := r.ids.ByKey(row.Key)
		if id != nil && id.LastRevision >= e.Record.Revision {
			e.Record.Revision = id.LastRevision + 1
		}
		if id != nil {
			id.LastRevision = e.Record.Revision
			r.changedIDs[id.Key] = id
		}
		if err := r.w.revision(e, row.Key, "expired", row.Claimed, row.SourceHash, r.now); err != nil {
			return err
		}
		r.rep.Expired++
		r.rep.Compiled++
	}
	return nil
}
