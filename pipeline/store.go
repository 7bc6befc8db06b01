package pipeline

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unique"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/schemas"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
	sjson "github.com/segmentio/encoding/json"
)

// The bulk of the state lives in Parquet files beside state.duckdb, written
// once and never changed (decision D53):
//
//   - revisions/{runId}.parquet: every revision a run issued, in the order
//     it issued them, the entry as JSON text in the open format;
//   - index/{runId}.parquet: the identity map and the current state of
//     every entry after that run, one row per identity, sorted by key.
//
// state.duckdb holds the runs, the refusals, the inputs and the owner
// declarations, and views (revisions, identities, entries) over the files
// of the committed runs. A run writes its files under temporary names,
// renames them, and then commits its row in runs with the views: a run
// that fails or dies before that commit leaves files nothing names, which
// the next run deletes.

const (
	revisionsDir = "revisions"
	indexDir     = "index"
)

// revisionRow is one revision in a run's revisions file.
type revisionRow struct {
	EntryID  string    `parquet:"entry_id"`
	Revision int32     `parquet:"revision"`
	IssuedAt time.Time `parquet:"issued_at,timestamp(millisecond)"`
	RunID    string    `parquet:"run_id,dict"`
	Cause    string    `parquet:"cause,dict"`
	Entry    string    `parquet:"entry"`
}

// indexRow is one identity and the current state of its entry (Revision 0:
// no entry yet, as for a seeded identity). The row is flat (old slugs and
// explicit item IDs as text) because flat rows read several times faster;
// the identities view turns them back into a list and JSON.
type indexRow struct {
	Key           string    `parquet:"key"`
	EntryID       string    `parquet:"entry_id"`
	Slug          string    `parquet:"slug"`
	OldSlugs      string    `parquet:"old_slugs"` // space-separated
	CreatedAt     string    `parquet:"created_at"`
	Items         string    `parquet:"items"` // JSON object, "" for none
	LastRevision  int32     `parquet:"last_revision"`
	Revision      int32     `parquet:"revision"`
	Status        string    `parquet:"status,dict"`
	Claimed       bool      `parquet:"claimed"`
	Held          bool      `parquet:"held"`
	ContentHash   string    `parquet:"content_hash"`
	SourceHash    uint64    `parquet:"source_hash"`
	UpdatedAt     time.Time `parquet:"updated_at,timestamp(millisecond),optional"`
	NextChangeAt  time.Time `parquet:"next_change_at,timestamp(millisecond),optional"`
	RemovedAt     time.Time `parquet:"removed_at,timestamp(millisecond),optional"`
	RemovedReason string    `parquet:"removed_reason,optional"`
	RevisionRun   string    `parquet:"revision_run,dict,optional"`
	RevisionRow   int64     `parquet:"revision_row"`
	Cause         string    `parquet:"cause,dict,optional"`
}

// writerOptions are the Parquet settings of the state's files: ZSTD, and
// pages small enough that reading one revision decompresses little.
func writerOptions(extra ...parquet.WriterOption) []parquet.WriterOption {
	return append([]parquet.WriterOption{parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest}), parquet.PageBufferSize(32 << 10)}, extra...)
}

// revisionWriter writes a run's revisions file on its own goroutine, so
// compressing overlaps compiling.
type revisionWriter struct {
	file *publication.AtomicFile
	w    *parquet.GenericWriter[revisionRow]
	ch   chan []revisionRow
	buf  []revisionRow
	rows int64
	done chan error
}

const revisionBatch = 512

func newRevisionWriter(path string) (*revisionWriter, error) {
	af, err := publication.CreateAtomic(path)
	if err != nil {
		return nil, err
	}
	rw := &revisionWriter{file: af, ch: make(chan []revisionRow, 8), done: make(chan error, 1)}
	rw.w = parquet.NewGenericWriter[revisionRow](af.File, writerOptions(parquet.MaxRowsPerRowGroup(8<<10))...)
	go func() {
		var err error
		for batch := range rw.ch {
			if err == nil {
				_, err = rw.w.Write(batch)
			}
		}
		rw.done <- err
	}()
	return rw, nil
}

// add queues a revision and returns its row number in the file.
func (rw *revisionWriter) add(r revisionRow) int64 {
	rw.buf = append(rw.buf, r)
	if len(rw.buf) == revisionBatch {
		rw.ch <- rw.buf
		rw.buf = make([]revisionRow, 0, revisionBatch)
	}
	n := rw.rows
	rw.rows++
	return n
}

// finish writes what is queued and renames the file into place; a run
// that issued no revision leaves no file.
func (rw *revisionWriter) finish() error {
	if len(rw.buf) > 0 {
		rw.ch <- rw.buf
		rw.buf = nil
	}
	close(rw.ch)
	err := <-rw.done
	if err == nil {
		err = rw.w.Close()
	}
	if err != nil || rw.rows == 0 {
		rw.file.Abort()
		return err
	}
	return rw.file.Commit()
}

func (rw *revisionWriter) abort() {
	if rw.ch != nil {
		close(rw.ch)
		<-rw.done
		rw.ch = nil
	}
	rw.file.Abort()
}

// writeIndex writes the identity map and entry rows of a run, sorted by key.
func writeIndex(path string, ids *compile.Identities, rows map[string]*EntryRow) error {
	iw, err := newIndexWriter(path)
	if err != nil {
		return err
	}
	if err := iw.add(ids, rows); err != nil {
		iw.abort()
		return err
	}
	return iw.finish()
}

// indexWriter writes an index file in parts: a run that compiles the
// registry a key range at a time adds each range's identities as it is
// done, in key order.
type indexWriter struct {
	file *publication.AtomicFile
	w    *parquet.GenericWriter[indexRow]
}

func newIndexWriter(path string) (*indexWriter, error) {
	af, err := publication.CreateAtomic(path)
	if err != nil {
		return nil, err
	}
	return &indexWriter{file: af, w: parquet.NewGenericWriter[indexRow](af.File, writerOptions(parquet.MaxRowsPerRowGroup(256<<10))...)}, nil
}

// add writes identities and their entry rows, sorted by key.
func (iw *indexWriter) add(ids *compile.Identities, rows map[string]*EntryRow) error {
	all := ids.All()
	batch := make([]indexRow, 0, 1024)
	flush := func() error {
		_, err := iw.w.Write(batch)
		batch = batch[:0]
		return err
	}
	for _, id := range all {
		ir := indexRow{Key: id.Key, EntryID: id.EntryID, Slug: id.Slug, OldSlugs: strings.Join(id.OldSlugs, " "), CreatedAt: id.CreatedAt,
			LastRevision: int32(id.LastRevision)}
		if len(id.Items) > 0 {
			b, err := json.Marshal(id.Items)
			if err != nil {
				return err
			}
			ir.Items = string(b)
		}
		if r := rows[id.Key]; r != nil {
			ir.Revision, ir.Status, ir.Claimed, ir.Held, ir.ContentHash, ir.SourceHash = int32(r.Revision), string(r.Status), r.Claimed, r.Held, r.ContentHash, r.SourceHash
			ir.UpdatedAt, ir.NextChangeAt, ir.RemovedAt, ir.RemovedReason = r.UpdatedAt, r.NextChangeAt, r.RemovedAt, r.RemovedReason
			ir.RevisionRun, ir.RevisionRow, ir.Cause = r.RevisionRun, r.RevisionRow, r.Cause
		}
		batch = append(batch, ir)
		if len(batch) == cap(batch) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// finish closes the file and renames it into place.
func (iw *indexWriter) finish() error {
	if err := iw.w.Close(); err != nil {
		iw.file.Abort()
		return err
	}
	return iw.file.Commit()
}

func (iw *indexWriter) abort() { iw.file.Abort() }

// readIndex loads an index file into a new identity map and entry rows.
func readIndex(path string) (*compile.Identities, map[string]*EntryRow, error) {
	n, err := indexRows(path)
	if err != nil {
		return nil, nil, err
	}
	ids := compile.NewIdentitiesSized(n)
	rows := make(map[string]*EntryRow, n)
	return ids, rows, readIndexInto(path, ids, rows)
}

func indexRows(path string) (int, error) {
	f, pf, err := publication.OpenParquet(path, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if f == nil {
		return 0, fmt.Errorf("state index: %w", err)
	}
	defer f.Close()
	if err != nil {
		return 0, fmt.Errorf("state index %s: %w", path, err)
	}
	return int(pf.NumRows()), nil
}

// fromIndexRow makes the identity and entry row (nil: no entry yet) of an
// index row.
func fromIndexRow(ir *indexRow) (*compile.Identity, *EntryRow, error) {
	id := &compile.Identity{Key: ir.Key, EntryID: ir.EntryID, Slug: ir.Slug, CreatedAt: ir.CreatedAt, LastRevision: int(ir.LastRevision)}
	fillIdentity(id, ir)
	if ir.Items != "" {
		if err := json.Unmarshal([]byte(ir.Items), &id.Items); err != nil {
			return nil, nil, fmt.Errorf("state index: items of %s: %w", ir.Key, err)
		}
	}
	if ir.Revision == 0 {
		return id, nil, nil
	}
	row := entryRowOf(ir)
	return id, &row, nil
}

func fillIdentity(id *compile.Identity, ir *indexRow) {
	if ir.OldSlugs != "" {
		id.OldSlugs = strings.Fields(ir.OldSlugs)
	}
}

func entryRowOf(ir *indexRow) EntryRow {
	return EntryRow{EntryID: ir.EntryID, Key: ir.Key, Slug: ir.Slug, Revision: int(ir.Revision), Status: schemas.EntryStatus(interned(ir.Status)),
		Claimed: ir.Claimed, Held: ir.Held, ContentHash: ir.ContentHash, SourceHash: ir.SourceHash, UpdatedAt: utc(ir.UpdatedAt),
		NextChangeAt: utc(ir.NextChangeAt), RemovedAt: utc(ir.RemovedAt), RemovedReason: interned(ir.RemovedReason),
		Removed: !ir.RemovedAt.IsZero(), RevisionRun: interned(ir.RevisionRun), RevisionRow: ir.RevisionRow, Cause: interned(ir.Cause)}
}

// interned is s as one shared copy: an entry row's status, cause, removal
// reason and revision run take a handful of values across millions of
// rows, and each row read from Parquet would otherwise hold its own
// (about 70 bytes an entry of a loaded state, issue 18).
func interned(s string) string {
	if s == "" {
		return ""
	}
	return unique.Make(s).Value()
}

// readIndexInto loads an index file (a full one or a delta) into an
// identity map and entry rows; its rows replace those of the same key.
func readIndexInto(path string, ids *compile.Identities, rows map[string]*EntryRow) error {
	return readIndexRange(path, ids, rows, "", "", nil)
}

// readIndexRange is readIndexInto for the rows whose key is in [lo, hi)
// (in says which; nil for every row): a row group whose key statistics
// lie outside the range is skipped unread.
func readIndexRange(path string, ids *compile.Identities, rows map[string]*EntryRow, lo, hi string, in func(string) bool) error {
	// Rows are decoded here and put into the maps on other goroutines, in
	// blocks: a million small allocations and map inserts cost more than
	// the reading.
	type block struct {
		ids  []compile.Identity
		rows []EntryRow
	}
	blocks := make(chan block, 4)
	rowsDone := make(chan struct{})
	idBlocks := make(chan []compile.Identity, 4)
	go func() {
		for b := range idBlocks {
			for i := range b {
				ids.Add(&b[i])
			}
		}
		close(rowsDone)
	}()
	go func() {
		for b := range blocks {
			for i := range b.rows {
				rows[b.rows[i].Key] = &b.rows[i]
			}
			idBlocks <- b.ids
		}
		close(idBlocks)
	}()
	readErr := scanIndexGroups(path, lo, hi, func(buf []indexRow) error {
		if in != nil {
			kept := buf[:0]
			for _, ir := range buf {
				if in(ir.Key) {
					kept = append(kept, ir)
				}
			}
			buf = kept
		}
		b := block{ids: make([]compile.Identity, len(buf)), rows: make([]EntryRow, 0, len(buf))}
		var err error
		for i := range buf {
			ir := &buf[i]
			id := &b.ids[i]
			*id = compile.Identity{Key: ir.Key, EntryID: ir.EntryID, Slug: ir.Slug, CreatedAt: ir.CreatedAt, LastRevision: int(ir.LastRevision)}
			fillIdentity(id, ir)
			if ir.Items != "" {
				if uerr := json.Unmarshal([]byte(ir.Items), &id.Items); uerr != nil {
					err = fmt.Errorf("items of %s: %w", ir.Key, uerr)
				}
			}
			if ir.Revision != 0 {
				b.rows = append(b.rows, entryRowOf(ir))
			}
		}
		blocks <- b
		return err
	})
	if readErr != nil {
		readErr = fmt.Errorf("state index %s: %w", path, readErr)
	}
	close(blocks)
	<-rowsDone
	return readErr
}

// scanIndexGroups reads an index file's rows in blocks, skipping the row
// groups whose key column's statistics show no key in [lo, hi) (hi "" for
// no end; "" and "" read every group).
func scanIndexGroups(path, lo, hi string, fn func([]indexRow) error) error {
	if lo == "" && hi == "" {
		return publication.ScanParquet(path, fn)
	}
	return publication.ScanParquetGroups(path, func(pf *parquet.File, i int) bool {
		col, ok := pf.Schema().Lookup("key")
		if !ok {
			return true
		}
		stats := pf.Metadata().RowGroups[i].Columns[col.ColumnIndex].MetaData.Statistics
		return stats.MinValue == nil || stats.MaxValue == nil ||
			!((hi != "" && string(stats.MinValue) >= hi) || string(stats.MaxValue) < lo)
	}, fn)
}

func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

// revisionRef is where a revision is: the run whose file holds it and its
// row in that file.
type revisionRef struct {
	Run string
	Row int64
}

// revisionFiles are the revision files a State has opened, kept open
// for the next read: opening one reads its footer and page index, which
// grow with the file (a 10M-entry run's file has 1,220 row groups and
// about 80,000 pages), and a publication reads revisions a chunk at a
// time, 20,000 chunks at 10M; opened again for every chunk, the opening
// cost grew with the registry squared (D124). A run's file never changes
// once written. At most maxOpenRevisionFiles stay open: a state of
// thousands of runs (a delta a minute) would run out of descriptors; the
// least recently used one nobody reads is closed first.
type revisionFiles struct {
	mu    sync.Mutex
	files map[string]*revisionFile
	clock int64
}

const maxOpenRevisionFiles = 64

type revisionFile struct {
	f        *os.File
	pf       *parquet.File
	readers  int   // reads using it now
	lastUsed int64 // revisionFiles.clock at its last use
}

// open returns the opened file at path and the function that says its
// read is done.
func (rf *revisionFiles) open(path string) (*parquet.File, func(), error) {
	rf.mu.Lock()
	defer rf.mu.Unlock()
	rf.clock++
	o := rf.files[path]
	if o == nil {
		f, pf, err := publication.OpenParquet(path, parquet.SkipBloomFilters(true))
		if f == nil {
			return nil, nil, fmt.Errorf("revisions: %w", err)
		}
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		if rf.files == nil {
			rf.files = map[string]*revisionFile{}
		}
		rf.evict()
		o = &revisionFile{f: f, pf: pf}
		rf.files[path] = o
	}
	o.readers++
	o.lastUsed = rf.clock
	return o.pf, func() {
		rf.mu.Lock()
		o.readers--
		rf.mu.Unlock()
	}, nil
}

// evict closes the least recently used files nobody reads while there
// are too many open (the lock held).
func (rf *revisionFiles) evict() {
	for len(rf.files) >= maxOpenRevisionFiles {
		var oldest string
		for path, o := range rf.files {
			if o.readers == 0 && (oldest == "" || o.lastUsed < rf.files[oldest].lastUsed) {
				oldest = path
			}
		}
		if oldest == "" {
			return // all in use: one more stays open for now
		}
		rf.files[oldest].f.Close()
		delete(rf.files, oldest)
	}
}

// close closes every file opened.
func (rf *revisionFiles) close() {
	rf.mu.Lock()
	defer rf.mu.Unlock()
	for _, o := range rf.files {
		o.f.Close()
	}
	rf.files = nil
}

// readRevisions reads revisions by where they are. Each row group of
// each file is read on its own core; within one, rows close together are
// read in sequence and far ones reached by seeking (the page index), so
// only the pages that hold wanted rows are decompressed.
func (s *State) readRevisions(want map[string]revisionRef) (map[string]*schemas.Entry, error) {
	dir := s.dir
	byRun := map[string][]string{}
	for id, ref := range want {
		if ref.Run == "" {
			return nil, fmt.Errorf("revision of %s: the state does not say where it is", id)
		}
		byRun[ref.Run] = append(byRun[ref.Run], id)
	}
	type task struct {
		path string
		rg   parquet.RowGroup
		base int64    // the row group's first row in the file
		ids  []string // by row
	}
	var tasks []task
	for run, ids := range byRun {
		path := runFile(dir, revisionsDir, run)
		pf, done, err := s.revs.open(path)
		if err != nil {
			return nil, err
		}
		defer done()
		sort.Slice(ids, func(i, j int) bool { return want[ids[i]].Row < want[ids[j]].Row })
		base := int64(0)
		for _, rg := range pf.RowGroups() {
			end := base + rg.NumRows()
			var in []string
			for len(ids) > 0 && want[ids[0]].Row < end {
				in, ids = append(in, ids[0]), ids[1:]
			}
			if len(in) > 0 {
				tasks = append(tasks, task{path: path, rg: rg, base: base, ids: in})
			}
			base = end
		}
		if len(ids) > 0 {
			return nil, fmt.Errorf("%s has %d rows; revision of %s is said to be row %d", path, base, ids[0], want[ids[0]].Row)
		}
	}
	sort.Slice(tasks, func(i, j int) bool {
		if tasks[i].path != tasks[j].path {
			return tasks[i].path < tasks[j].path
		}
		return tasks[i].base < tasks[j].base
	})
	found := make([][]*schemas.Entry, len(tasks))
	errs := make([]error, len(tasks))
	const gap = 64 // rows read through rather than sought past
	parallelFor(len(tasks), func(t int) {
		tk := tasks[t]
		rd := parquet.NewGenericRowGroupReader[revisionRow](tk.rg)
		defer rd.Close()
		out := make([]*schemas.Entry, len(tk.ids))
		buf := make([]revisionRow, 1)
		at := int64(0) // the reader's position in the row group
		for i, id := range tk.ids {
			row := want[id].Row - tk.base
			if row < at || row-at > gap {
				if err := rd.SeekToRow(row); err != nil {
					errs[t] = fmt.Errorf("%s row %d: %w", tk.path, row+tk.base, err)
					return
				}
				at = row
			}
			for at <= row {
				n, err := rd.Read(buf)
				if n != 1 {
					if err == nil || errors.Is(err, io.EOF) {
						err = fmt.Errorf("no row %d", tk.base+at)
					}
					errs[t] = fmt.Errorf("%s: %w", tk.path, err)
					return
				}
				at++
			}
			if buf[0].EntryID != id {
				errs[t] = fmt.Errorf("%s row %d holds %s, not %s", tk.path, row+tk.base, buf[0].EntryID, id)
				return
			}
			var e schemas.Entry
			if err := decodeRevision([]byte(buf[0].Entry), &e); err != nil {
				errs[t] = fmt.Errorf("revision of %s in %s: %w", id, tk.path, err)
				return
			}
			out[i] = &e
		}
		found[t] = out
	})
	res := make(map[string]*schemas.Entry, len(want))
	for t, tk := range tasks {
		if errs[t] != nil {
			return nil, errs[t]
		}
		for i, id := range tk.ids {
			res[id] = found[t][i]
		}
	}
	return res, nil
}

// runFiles names the files of a run.
func runFile(dir, sub, run string) string { return filepath.Join(dir, sub, run+".parquet") }

// sqlString quotes a string for SQL.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// inStorageOrder sorts entry rows by where their current revisions are
// stored (run, then row), so reading them in chunks reads each page of the
// revision files once.
func inStorageOrder(rows []*EntryRow) {
	slices.SortFunc(rows, func(a, b *EntryRow) int {
		if c := strings.Compare(a.RevisionRun, b.RevisionRun); c != 0 {
			return c
		}
		return cmp.Compare(a.RevisionRow, b.RevisionRow)
	})
}

// decodeRevision decodes a stored revision: JSON the pipeline wrote with
// encoding/json. It is decoded with segmentio/encoding/json, which
// decodes into the same value (TestDecodeRevision_SameAsEncodingJSON)
// about three times as fast; decoding every revision was a tenth of a
// publication's work (issue 18, D119). Marshalling stays with
// encoding/json: the documents' bytes are its bytes.
func decodeRevision(b []byte, e *schemas.Entry) error {
	return sjson.Unmarshal(b, e)
}
