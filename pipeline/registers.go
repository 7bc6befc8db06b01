package pipeline

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/daawid/registry/export/publication"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/compile/register"
	"github.com/daawid/registry/schemas"
)

// registerFile is one register file of the run and the register it is
// read as.
type registerFile struct {
	path string
	kind *register.Kind
}

// registerFiles are the register files this run compiles: a file compiled
// whole before (same SHA-256) is skipped, its companies are unchanged.
// Each file's register is settled here, named on the command line
// ("KIND:FILE") or recognised by its content.
func (r *run) registerFiles(ctx context.Context) ([]registerFile, error) {
	var files []registerFile
	for _, arg := range r.cfg.Registers {
		src, err := register.ParseSource(arg)
		if err != nil {
			return nil, fmt.Errorf("register files: %w", err)
		}
		f := src.Path
		sha, err := publication.FileSHA256(f)
		if err != nil {
			// A named input that is not there fails the run loudly: a
			// nightly run that skipped its register would look like a
			// quiet night.
			return nil, &InputError{Input: "register file", Path: f, Err: err}
		}
		if seen, err := r.st.InputSeen(ctx, sha); err != nil {
			return nil, err
		} else if seen {
			r.rep.FilesSkipped++
			r.log.Info("register file unchanged since it was compiled; skipped", "file", f)
			continue
		}
		// The file is opened once here, its register named or recognised
		// and its header read, so that a file no register reads stops the
		// run now, loudly, rather than as a problem among the rows (D78).
		_, kind, closer, err := openRegister(registerFile{path: f, kind: src.Kind}, r.now)
		if err != nil {
			return nil, fmt.Errorf("register files: %w", err)
		}
		closer.Close()
		files = append(files, registerFile{path: f, kind: kind})
		if err := r.w.append("stage_inputs", sha, filepath.Base(f), r.rep.RunID); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// completeKinds are the registers whose files in this run make up a whole
// data product (D54): every company they do not name has left.
func completeKinds(files []registerFile) []*register.Kind {
	var out []*register.Kind
	for _, k := range register.Kinds() {
		if k.Complete == nil {
			continue
		}
		var names []string
		for _, f := range files {
			if f.kind == k {
				names = append(names, filepath.Base(f.path))
			}
		}
		if len(names) > 0 && k.Complete(names) {
			out = append(out, k)
		}
	}
	return out
}

// registers compiles the register files in two passes: the first finds
// the companies the registry does not know and gives them identities in
// key order (so IDs and slugs do not depend on the order of rows or
// files); the second compiles every record.
//
// The first pass also notes the place of every row's key. When the
// registry and its new companies are more than a key range holds
// (CompileConfig.RangeEntries), the run goes on by key ranges instead
// (byRanges): memory then holds one range's identities and entries, not
// the registry's (issue 18).
func (r *run) registers(ctx context.Context, files []registerFile) error {
	n := runtime.GOMAXPROCS(0)
	found, renamed := make([][]compile.NewCompany, n), make([][]compile.NewCompany, n)
	places := &keyPlaces{}
	room := int64(r.rangeEntries() - r.ids.Len())
	var news atomic.Int64
	err := r.scanFiles(ctx, files, func(w int, rd register.Framed, raw register.Raw, place *uint64) {
		b, ok := rd.Brief(raw)
		if ok {
			*place = keyPlace(b.Key)
		}
		if !r.whole || news.Load() > room {
			return
		}
		if r.newOrRenamed(w, b, ok, found, renamed) && news.Add(1) > room {
			found[w] = nil // too many for one range: the run goes by ranges
		}
	}, scanOpts{count: true, problem: r.refuse, places: places})
	if err != nil {
		return err
	}
	r.complete = completeKinds(files)
	r.rep.KeyRanges = 1
	if !r.whole || news.Load() > room {
		return r.byRanges(ctx, files, places)
	}
	r.assign(found, renamed)
	return r.compileRows(func(fn scanFn) error { return r.scanFiles(ctx, files, fn, scanOpts{}) })
}

// newOrRenamed notes a row's company when the registry does not know it
// (found) or its name calls for a new slug (renamed); it reports a new
// company.
func (r *run) newOrRenamed(w int, b register.Brief, ok bool, found, renamed [][]compile.NewCompany) bool {
	if !ok || !b.Active {
		return false
	}
	id, known := r.ids.ByKey(b.Key)
	if !known {
		found[w] = append(found[w], compile.NewCompany{Key: b.Key, Name: b.Name, Locality: b.Locality})
		return true
	}
	// An unclaimed company the register names anew gets the slug of its
	// new name; the old one redirects (D47). A claimed entry's name is its
	// owner's.
	if row := r.rows[b.Key]; row != nil && !row.Claimed && !row.Removed && compile.RenameDue(id, b.Name) {
		renamed[w] = append(renamed[w], compile.NewCompany{Key: b.Key, Name: b.Name, Locality: b.Locality})
	}
	return false
}

// assign gives the new companies their identities and the renamed ones
// their new slugs, each in key order.
func (r *run) assign(found, renamed [][]compile.NewCompany) {
	// A key on two workers (two company numbers for one register entry)
	// counts once, deterministically: the one of the lowest worker.
	var news []compile.NewCompany
	for _, f := range found {
		news = append(news, f...)
	}
	sort.SliceStable(news, func(i, j int) bool { return news[i].Key < news[j].Key })
	news = slices.CompactFunc(news, func(a, b compile.NewCompany) bool { return a.Key == b.Key })
	if len(news) > len(r.rows)/4 {
		// Many new companies (a first run): size the maps once rather
		// than let them grow a million entries step by step.
		r.ids = r.ids.Grown(len(news))
		rows := make(map[string]*EntryRow, len(r.rows)+len(news))
		maps.Copy(rows, r.rows)
		r.rows = rows
		touched := make(map[string]bool, len(rows)+len(news))
		maps.Copy(touched, r.touched)
		r.touched = touched
	}
	compile.Prepare(news, r.now, parallelFor)
	r.ids.AssignNew(news, r.now)
	var renames []compile.NewCompany
	for _, f := range renamed {
		renames = append(renames, f...)
	}
	sort.SliceStable(renames, func(i, j int) bool { return renames[i].Key < renames[j].Key })
	for _, c := range slices.CompactFunc(renames, func(a, b compile.NewCompany) bool { return a.Key == b.Key }) {
		if id, ok := r.ids.ByKey(c.Key); ok && r.ids.Rename(id, c.Name, c.Locality) {
			r.log.Info("renamed", "entry", id.EntryID, "slug", id.Slug, "was", id.OldSlugs[len(id.OldSlugs)-1])
		}
	}
}

// keyPlace is the first 8 bytes of a key as a big-endian number (zeros
// after a shorter key): keys in one order have places in the same order,
// so a key range is a range of places. Place 0 is the first range's.
func keyPlace(key string) uint64 {
	var b [8]byte
	copy(b[:], key)
	return binary.BigEndian.Uint64(b[:])
}

// placeKey is the shortest key at a place: a key is at or after the place
// exactly when it sorts at or after this string (keys hold no NUL byte).
func placeKey(p uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], p)
	return strings.TrimRight(string(b[:]), "\x00")
}

// DefaultRangeEntries is how many identities a compile holds at once: a
// registry with its new companies beyond it is compiled by key ranges of
// about this many. A range holds about 1.9 KB an identity live (the
// identity, its entry row, a held register row), so about 1.9 GB, within
// the run's 2.75 GiB heap budget (docs/performance.md).
const DefaultRangeEntries = 1_000_000

func (r *run) rangeEntries() int {
	if r.cfg.RangeEntries > 0 {
		return r.cfg.RangeEntries
	}
	return DefaultRangeEntries
}

// byRanges compiles the registry a key range at a time: one more pass
// over the register files writes each row to its range's file (their key
// places say which, D123); then each range's identities and entry rows
// are loaded from the index (its row groups outside the range unread),
// its rows are read from its file, and it is compiled, merged, expired
// and written to the new index before the next range is loaded. Every
// slug given is held for all ranges (compile.SlugSet). Ranges go in key
// order, so identities are given in the same order as in one pass;
// entries that begin with their owner come last, as in one pass.
func (r *run) byRanges(ctx context.Context, files []registerFile, places *keyPlaces) error {
	// The entries the inbox and the events name, by key: each is merged in
	// the range of its key.
	keyOf := map[string]string{}
	for _, m := range []map[string]bool{keysOf(r.newDecl), keysOf(r.events)} {
		for entryID := range m {
			if id, ok := r.ids.ByEntry(entryID); ok {
				keyOf[entryID] = id.Key
			}
		}
	}
	r.ids, r.rows = nil, nil
	if r.rangedLimit > 0 {
		debug.SetMemoryLimit(r.rangedLimit) // Compile puts the one before back
	}
	slugs := compile.NewSlugSet(r.indexRows + int(r.rep.RowsRead))
	var sampleIdx []uint64
	i := 0
	err := r.st.scanSlugs(func(key, slug, oldSlugs string) {
		slugs.Add(slug)
		for _, old := range strings.Fields(oldSlugs) {
			slugs.Add(old)
		}
		if i%sampleEvery == 0 {
			sampleIdx = append(sampleIdx, keyPlace(key))
		}
		i++
	})
	if err != nil {
		return err
	}
	for _, id := range r.seed {
		slugs.Add(id.Slug)
	}
	bounds := rangeBounds(sampleIdx, places.sample(sampleEvery, nil), r.rangeEntries())
	r.rep.KeyRanges = len(bounds) + 1
	r.log.Info("compiling by key ranges", "ranges", len(bounds)+1, "identities", r.indexRows, "rows", r.rep.RowsRead)
	// The rows are dealt to their ranges' files in one more pass (D123);
	// the places are needed no more.
	sp, err := r.spillRanges(ctx, files, places, bounds)
	if err != nil {
		return err
	}
	defer sp.close()
	places = nil
	for p := 0; p <= len(bounds); p++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		var lo, hi uint64
		if p > 0 {
			lo = bounds[p-1]
		}
		if p < len(bounds) {
			hi = bounds[p]
		}
		loKey, hiKey := placeKey(lo), ""
		if hi != 0 {
			hiKey = placeKey(hi)
		}
		in := func(key string) bool { return key >= loKey && (hiKey == "" || key < hiKey) }
		r.ids = compile.NewIdentitiesWith(slugs, 0)
		if r.rows, err = r.st.LoadRange(r.ids, loKey, hiKey); err != nil {
			return err
		}
		for _, id := range r.seed {
			if _, known := r.ids.ByKey(id.Key); !known && in(id.Key) {
				r.ids.Add(id)
			}
		}
		r.touched = map[string]bool{}
		if err := r.rangeRegisters(ctx, sp, p); err != nil {
			return err
		}
		if err := r.withHistory(ctx, func(entryID string) bool { k, ok := keyOf[entryID]; return ok && in(k) }); err != nil {
			return err
		}
		r.dissolved()
		if err := r.expire(); err != nil {
			return err
		}
		if err := r.w.indexPart(r.ids, r.rows); err != nil {
			return err
		}
		r.logMemory(fmt.Sprintf("key range %d of %d (%d identities)", p+1, len(bounds)+1, r.ids.Len()))
	}
	// Entries that begin with their owner in this run.
	r.ids, r.rows, r.touched = compile.NewIdentitiesWith(slugs, 0), map[string]*EntryRow{}, map[string]bool{}
	if err := r.withHistory(ctx, func(entryID string) bool { _, known := keyOf[entryID]; return !known }); err != nil {
		return err
	}
	r.byRange = true
	return r.w.indexPart(r.ids, r.rows)
}

// sampleEvery: the key ranges are cut from every sampleEvery-th key of
// the index and of the rows read.
const sampleEvery = 16

// rangeBounds cuts the places of the sampled keys of the index and of the
// rows read into ranges of at most about size identities each: places in
// order, a range closed before the place that would take it past size (a
// place's identities are at least its index keys and at least its rows'
// keys). A range is never cut inside a place, so one place with more keys
// than size is a range of its own. It returns the places where the ranges
// after the first begin, rising.
func rangeBounds(idx, rows []uint64, size int) []uint64 {
	slices.Sort(idx)
	slices.Sort(rows)
	var out []uint64
	cur := 0
	for i, j := 0, 0; i < len(idx) || j < len(rows); {
		var p uint64
		switch {
		case j == len(rows) || (i < len(idx) && idx[i] <= rows[j]):
			p = idx[i]
		default:
			p = rows[j]
		}
		ni, nj := 0, 0
		for ; i < len(idx) && idx[i] == p; i++ {
			ni++
		}
		for ; j < len(rows) && rows[j] == p; j++ {
			nj++
		}
		w := max(ni, nj) * sampleEvery
		if cur > 0 && cur+w > size {
			out = append(out, p)
			cur = 0
		}
		cur += w
	}
	return out
}

// rangeRegisters is registers for one key range, the pth: the first pass
// deals the range's rows from its file and holds them, the second
// compiles what it held.
func (r *run) rangeRegisters(ctx context.Context, sp *rangeSpill, p int) error {
	n := runtime.GOMAXPROCS(0)
	found, renamed := make([][]compile.NewCompany, n), make([][]compile.NewCompany, n)
	held := make([][]heldRow, n)
	err := scanWith(ctx, func(w int, rd register.Framed, raw register.Raw, _ *uint64) {
		held[w] = append(held[w], heldRow{rd: rd, raw: raw})
		b, ok := rd.Brief(raw)
		r.newOrRenamed(w, b, ok, found, renamed)
	}, func(d *dealer) error { return sp.frame(ctx, p, d) })
	if err != nil {
		return err
	}
	r.assign(found, renamed)
	return r.compileRows(replay(held))
}

// outcome is what compiling one company gave: computed by a worker,
// applied by the single writer.
type outcome struct {
	key       string // the register key a record named, when one did
	id        *compile.Identity
	row       *EntryRow // the new current row, nil when unchanged
	entryJSON string
	cause     string
	decl      *compile.OwnerRevision // a newly accepted declaration to keep
	remove    *EntryRow
	reason    string
	problems  []Problem
	unchanged bool
	newEntry  bool
	siteUsed  bool
	deferred  *deferredRecord
	err       error
}

// record works out one register record's outcome. It reads the run's maps
// and owns the record's identity (records are split among workers by key).
func (r *run) record(rec *register.Record) outcome {
	row := r.rows[rec.Key]
	id, ok := r.ids.ByKey(rec.Key)
	if !rec.Active {
		// Dissolved companies leave the registry: a change, recorded; a
		// claimed entry is never removed by register data alone.
		if row != nil && !row.Removed {
			if row.Claimed {
				return outcome{key: rec.Key, problems: []Problem{{File: rec.File, Line: rec.Line, Reason: "the register says " + rec.Status + "; the entry is claimed and stays", Kept: true}}, unchanged: true}
			}
			reason := "register: " + rec.Status
			if rec.Withheld {
				// D77: the company asked the register not to publish it;
				// the entry compiled from it before comes down.
				reason = "register: withheld at the company's request (" + rec.Status + ")"
			}
			return outcome{key: rec.Key, remove: row, reason: reason}
		}
		return outcome{key: rec.Key, unchanged: true}
	}
	if !ok {
		return outcome{key: rec.Key, unchanged: true}
	}
	isNew := r.newDecl[id.EntryID] != nil
	evs := r.events[id.EntryID]
	web := r.siteFor(rec)
	live := row != nil && !row.Removed
	if live && row.SourceHash == rec.Hash && !isNew && len(evs) == 0 && web == nil {
		return outcome{key: rec.Key, id: id, unchanged: true}
	}
	if isNew || len(evs) > 0 || (live && (row.Claimed || row.Held || row.Status == schemas.StatusSuspended || !row.NextChangeAt.IsZero())) {
		return outcome{key: rec.Key, id: id, deferred: &deferredRecord{id: id, rec: rec, web: web}}
	}
	o := r.build(id, row, nil, rec, web, nil, false, nil)
	o.key = rec.Key
	o.siteUsed = web != nil
	return o
}

// build makes the entry's revision from its sources and, for an entry
// with a history, its previous revision; the outcome holds it when it says
// something new.
func (r *run) build(id *compile.Identity, row *EntryRow, prev *schemas.Entry, rec *register.Record, web *siteFacts, decl *compile.OwnerRevision, isNew bool, evs []compile.Event) outcome {
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
			// What the registry itself decided stays: an open report
			// window (§2.2) and a suspension.
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
			return outcome{id: id, unchanged: true}
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
	// The entry is written once, as the next revision, and its content
	// hash read from those bytes; when nothing changed it is dropped.
	last := id.LastRevision
	if row != nil && row.Revision > last {
		last = row.Revision
	}
	e.Record.Revision = last + 1
	e.Record.UpdatedAt = schemas.FormatTime(r.now)
	if prev != nil {
		e.Record.CreatedAt = prev.Record.CreatedAt
	}
	js, err := compile.EntryJSON(e)
	if err != nil {
		return outcome{err: err}
	}
	hash := compile.ContentHashJSON(js)
	if row != nil && !row.Removed && hash == row.ContentHash {
		o.unchanged = true
		if sourceHash != row.SourceHash {
			// Nothing new to say, but the row was read: remember it so
			// the next run skips it.
			nr := *row
			nr.SourceHash = sourceHash
			o.row = &nr
		}
		return o
	}
	id.LastRevision = e.Record.Revision
	o.entryJSON = js
	o.newEntry = row == nil
	o.row = &EntryRow{EntryID: e.ID, Key: id.Key, Slug: e.Slug, Revision: e.Record.Revision, Status: e.Status,
		Claimed: decl != nil, Held: held(e) || len(evs) > 0 || (row != nil && row.Held), ContentHash: hash, SourceHash: sourceHash, NextChangeAt: e.NextChangeAt(), UpdatedAt: schemas.ParseTime(e.Record.UpdatedAt)}
	return o
}

// apply stages an outcome (the writer's side).
func (r *run) apply(o outcome) error {
	if o.err != nil {
		return o.err
	}
	if o.key != "" {
		if row := r.rows[o.key]; row != nil {
			row.seen = true
		}
	}
	for _, p := range o.problems {
		r.refuse(p)
	}
	if o.deferred != nil {
		r.deferred = append(r.deferred, *o.deferred)
		return nil
	}
	if o.remove != nil {
		r.remove(o.remove, o.reason)
		return nil
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
	if o.unchanged {
		r.rep.Unchanged++
		if o.row != nil {
			r.setRow(o.row)
		}
		return nil
	}
	if o.row == nil {
		r.rep.Unchanged++
		return nil
	}
	if o.newEntry {
		r.rep.NewEntries++
	}
	r.w.revisionJSON(o.row, o.entryJSON, o.cause, r.now)
	r.rep.Compiled++
	r.setRow(o.row)
	return nil
}

// remove records an entry leaving the registry.
func (r *run) remove(row *EntryRow, reason string) {
	gone := *row
	gone.Removed, gone.RemovedAt, gone.RemovedReason, gone.NextChangeAt = true, r.now, reason, time.Time{}
	r.setRow(&gone)
	r.rep.Removed++
}

// setRow records an entry's new current row. While workers read the rows,
// new rows wait in pending and join after the parallel pass.
func (r *run) setRow(row *EntryRow) {
	if r.pending != nil {
		*r.pending = append(*r.pending, row)
		return
	}
	if old := r.rows[row.Key]; old != nil {
		row.seen = row.seen || old.seen
	}
	r.rows[row.Key] = row
}

// flushRows joins the pending rows after a parallel pass, in the order
// they came (a company's rows come in file order: the later one wins).
func (r *run) flushRows() {
	p := r.pending
	r.pending = nil
	for _, row := range *p {
		r.setRow(row)
	}
}

// historyItem is an entry to compile over its history.
type historyItem struct {
	entryID string
	id      *compile.Identity
	rec     *register.Record
	web     *siteFacts
}

// withHistory compiles the entries that have a history to merge over: the
// register records the parallel pass deferred, and the entries with an
// owner revision or verification events that no register record of this
// run named (merged over their stored register record, or none for
// entries that began with their owner). Their previous revisions and
// declarations are loaded in one go; they compile on every core.
//
// named, when set, says which of the entries the owner revisions and
// events name belong to this key range.
func (r *run) withHistory(ctx context.Context, named func(entryID string) bool) error {
	byID := map[string]*historyItem{}
	for _, d := range r.deferred {
		byID[d.id.EntryID] = &historyItem{entryID: d.id.EntryID, id: d.id, rec: d.rec, web: d.web}
	}
	r.deferred = nil
	for _, m := range []map[string]bool{keysOf(r.newDecl), keysOf(r.events)} {
		for entryID := range m {
			if !r.touched[entryID] && byID[entryID] == nil && (named == nil || named(entryID)) {
				byID[entryID] = &historyItem{entryID: entryID}
			}
		}
	}
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	sortStrings(ids)
	for _, entryID := range ids {
		if it := byID[entryID]; it.id == nil {
			it.id, _ = r.ids.ByEntry(entryID)
		}
	}
	// New identities (entries that begin with their owner) are given here,
	// in entry ID order, before compiling on every core. A small run
	// loads every slug first, so none is given twice.
	if r.small {
		for _, entryID := range ids {
			if byID[entryID].id == nil && r.newDecl[entryID] != nil {
				if err := r.st.LoadSlugs(r.ids); err != nil {
					return err
				}
				break
			}
		}
	}
	work := make([]*historyItem, 0, len(ids))
	for _, entryID := range ids {
		it := byID[entryID]
		r.touched[entryID] = true
		if it.id == nil {
			decl := r.newDecl[entryID]
			if decl == nil {
				continue
			}
			id := &compile.Identity{Key: "owner/" + entryID, EntryID: entryID, CreatedAt: schemas.FormatTime(r.now)}
			id.Slug = r.ids.FreeSlug(decl.Entry.Slug, decl.Entry.DisplayName)
			r.ids.Add(id)
			it.id = id
		}
		work = append(work, it)
	}
	// In chunks, so that only a chunk's previous revisions, declarations
	// and new revisions are in memory at once; in the order the previous
	// revisions are stored, so each page of the revision files is read
	// once, not once per chunk.
	pos := func(it *historyItem) revisionRef {
		if row := r.rows[it.id.Key]; row != nil && !row.Removed {
			return row.ref()
		}
		return revisionRef{}
	}
	slices.SortStableFunc(work, func(a, b *historyItem) int {
		pa, pb := pos(a), pos(b)
		if c := strings.Compare(pa.Run, pb.Run); c != 0 {
			return c
		}
		return cmp.Compare(pa.Row, pb.Row)
	})
	const chunk = 4096
	for len(work) > 0 {
		part := work[:min(chunk, len(work))]
		work = work[len(part):]
		if err := r.buildPart(ctx, part); err != nil {
			return err
		}
	}
	return nil
}

// buildPart compiles some entries with a history: their previous revisions
// and stored declarations loaded in one go, the builds on every core, the
// outcomes applied in entry ID order.
func (r *run) buildPart(ctx context.Context, part []*historyItem) error {
	var live []*EntryRow
	var claimed []string
	for _, it := range part {
		if row := r.rows[it.id.Key]; row != nil && !row.Removed {
			live = append(live, row)
			if row.Claimed {
				claimed = append(claimed, it.entryID)
			}
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
	outs := make([]outcome, len(part))
	parallelFor(len(part), func(i int) {
		it := part[i]
		row := r.rows[it.id.Key]
		var prev *schemas.Entry
		if row != nil && !row.Removed {
			prev = prevs[row.EntryID]
		}
		decl, isNew := r.newDecl[it.entryID], true
		if decl == nil {
			decl, isNew = decls[it.entryID], false
		}
		rec := it.rec
		if rec == nil && prev != nil {
			rec = RecordOf(row, prev)
		}
		outs[i] = r.build(it.id, row, prev, rec, it.web, decl, isNew, r.events[it.entryID])
		outs[i].siteUsed = it.web != nil
	})
	for _, o := range outs {
		if err := r.apply(o); err != nil {
			return err
		}
	}
	return nil
}

func keysOf[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// dissolved removes the companies a complete data product no longer
// lists (decision D54): Companies House BasicCompanyData lists every live
// company, so one missing from all the parts of a product has been
// dissolved or struck off. Claimed entries stay, with a warning.
func (r *run) dissolved() {
	for _, k := range r.complete {
		var gone []*EntryRow
		for key, row := range r.rows {
			if k.Owns(key) && !row.seen && !row.Removed && !r.touched[row.EntryID] {
				gone = append(gone, row)
			}
		}
		sortRows(gone)
		for _, row := range gone {
			if row.Claimed {
				r.refuse(Problem{File: k.Display, Path: row.Key, Reason: "not in the latest " + k.Product + " product; the entry is claimed and stays", Kept: true})
				continue
			}
			r.remove(row, "register: no longer in "+k.Display+" "+k.Product)
		}
	}
}

// expire re-issues the entries whose nextChangeAt has come (decision D4);
// its cost grows with what expires, not with the registry.
func (r *run) expire() error {
	var due []*EntryRow
	for _, row := range r.rows {
		if !row.Removed && !row.NextChangeAt.IsZero() && !row.NextChangeAt.After(r.now) && !r.touched[row.EntryID] {
			due = append(due, row)
		}
	}
	sortRows(due)
	prevs, err := r.st.Revisions(due)
	if err != nil {
		return err
	}
	for _, row := range due {
		prev, ok := prevs[row.EntryID]
		if !ok {
			return fmt.Errorf("expire: revision %d of %s is missing", row.Revision, row.EntryID)
		}
		e, changed := schemas.Expire(prev, r.now)
		if !changed {
			continue
		}
		id, _ := r.ids.ByKey(row.Key)
		if id != nil && id.LastRevision >= e.Record.Revision {
			e.Record.Revision = id.LastRevision + 1
		}
		if id != nil {
			id.LastRevision = e.Record.Revision
		}
		nr, err := r.w.revision(e, row.Key, "expired", row.Claimed, row.SourceHash, r.now)
		nr.Held = row.Held || held(e)
		if err != nil {
			return err
		}
		r.setRow(nr)
		r.rep.Expired++
		r.rep.Compiled++
	}
	return nil
}

// held reports whether an entry carries state the registry decided (an
// open report, a suspension) that its sources do not.
func held(e *schemas.Entry) bool {
	return e.Record.OpenReportAt != "" || e.Status == schemas.StatusSuspended
}
