package pipeline

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/schemas"
)

// applyEdits turns the owner tools' edits (decision D95) into owner
// revisions: each entry's edits, in file order, are applied over the
// owner's stored declaration, or over the entry's current revision when
// the owner has declared nothing yet. The result is checked like any owner
// revision, so an edit that would make the entry invalid is refused with
// the reasons, and the entry stays as it was. An edit must be based on the
// entry's current revision (changed_since); several edits based on it in
// one inbox all apply, so set_capacity and update_entry called before the
// next delta both land.
func (r *run) applyEdits(ctx context.Context) error {
	if len(r.edits) == 0 {
		return nil
	}
	byEntry := map[string][]inboxRead{}
	var order []string
	for _, rd := range r.edits {
		ed, name := rd.edit, filepath.Base(rd.file)
		id, known := r.ids.ByEntry(ed.Entry)
		var row *EntryRow
		if known {
			row = r.rows[id.Key]
		}
		switch {
		case row == nil || row.Removed:
			r.refuseFile(rd.file, []Problem{{File: name, Path: "/entry", Reason: ed.Entry + " is not an entry of the registry"}})
			continue
		case r.newDecl[ed.Entry] != nil:
			r.refuseFile(rd.file, []Problem{{File: name, Reason: "a full owner revision of the entry in this inbox (" + r.newDecl[ed.Entry].File + ") was taken first"}})
			continue
		case ed.BasedOn != row.Revision:
			cs := &compile.ChangedSince{EntryID: ed.Entry, BasedOn: ed.BasedOn, Current: row.Revision}
			r.refuseFile(rd.file, []Problem{{File: name, Path: "/basedOn", Reason: cs.Error()}})
			continue
		}
		if byEntry[ed.Entry] == nil {
			order = append(order, ed.Entry)
		}
		byEntry[ed.Entry] = append(byEntry[ed.Entry], rd)
	}
	r.edits = nil
	if len(order) == 0 {
		return nil
	}
	sortStrings(order)
	var live []*EntryRow
	var claimed []string
	for _, entryID := range order {
		id, _ := r.ids.ByEntry(entryID)
		row := r.rows[id.Key]
		live = append(live, row)
		if row.Claimed {
			claimed = append(claimed, entryID)
		}
	}
	prevs, err := r.st.Revisions(live)
	if err != nil {
		return err
	}
	decls, err := r.st.Declarations(ctx, claimed)
	if err != nil {
		return err
	}
	for i, entryID := range order {
		base := prevs[entryID]
		if d := decls[entryID]; d != nil {
			base = d.Entry
		}
		if base == nil {
			r.refuseFiles(byEntry[entryID], Problem{Path: "/entry", Reason: "revision " + strconv.Itoa(live[i].Revision) + " of " + entryID + " is missing from the state"})
			continue
		}
		r.applyEntryEdits(base, live[i].Revision, byEntry[entryID])
	}
	return nil
}

// applyEntryEdits applies one entry's edits, each checked like any owner
// revision as it is applied, so a bad edit is refused alone; when one or
// more apply, the result is the entry's owner revision of this run.
func (r *run) applyEntryEdits(base *schemas.Entry, current int, reads []inboxRead) {
	e := base
	var last *schemas.OwnerEdit
	var took []inboxRead
	for _, rd := range reads {
		next, issues := schemas.ApplyEdit(e, rd.edit)
		if len(issues) == 0 {
			next.Record.Revision = current
			issues = validEntry(next)
		}
		if len(issues) > 0 {
			r.refuseFiles([]inboxRead{rd}, issuesProblems(issues)...)
			continue
		}
		if last == nil || schemas.ParseTime(rd.edit.DeclaredAt).After(schemas.ParseTime(last.DeclaredAt)) {
			last = rd.edit // the entry is confirmed as of the newest edit (D5)
		}
		e = next
		took = append(took, rd)
	}
	if last == nil {
		return
	}
	name := filepath.Base(took[len(took)-1].file)
	r.newDecl[e.ID] = &compile.OwnerRevision{File: name, Entry: e, BasedOn: current, DeclaredAt: schemas.ParseTime(last.DeclaredAt)}
	for _, rd := range took {
		r.moves = append(r.moves, inboxMove{file: rd.file, dir: "accepted"})
		r.rep.Merged++
	}
}

// validEntry checks an entry as an owner revision file is checked.
func validEntry(e *schemas.Entry) schemas.Issues {
	data, err := json.Marshal(e)
	if err != nil {
		return schemas.Issues{{Path: "/", Message: err.Error()}}
	}
	_, issues := schemas.Validate(data)
	return issues
}

func issuesProblems(is schemas.Issues) []Problem {
	out := make([]Problem, len(is))
	for i, x := range is {
		out[i] = Problem{Path: x.Path, Reason: x.Message}
	}
	return out
}

// refuseFiles refuses each file with the same reasons, named by the file.
func (r *run) refuseFiles(reads []inboxRead, ps ...Problem) {
	for _, rd := range reads {
		named := make([]Problem, len(ps))
		for i, p := range ps {
			p.File = filepath.Base(rd.file)
			named[i] = p
		}
		r.refuseFile(rd.file, named)
	}
}
