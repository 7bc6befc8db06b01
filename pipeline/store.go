package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/daawid/registry/compile"
	"github.com/daawid/registry/schemas"
	"github.com/parquet-go/parquet-go"
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
// no entry yet, as for a seeded identity).
type indexRow struct {
	Key           string            `parquet:"key"`
	EntryID       string            `parquet:"entry_id"`
	Slug          string            `parquet:"slug"`
	OldSlugs      []string          `parquet:"old_slugs,list"`
	CreatedAt     time.Time         `parquet:"created_at,timestamp(millisecond)"`
	Items         map[string]string `parquet:"items"`
	LastRevision  int32             `parquet:"last_revision"`
	Revision      int32             `parquet:"revision"`
	Status        string            `parquet:"status,dict"`
	Claimed       bool              `parquet:"claimed"`
	ContentHash   string            `parquet:"content_hash"`
	SourceHash    uint64            `parquet:"source_hash"`
	UpdatedAt     time.Time         `parquet:"updated_at,timestamp(millisecond),optional"`
	NextChangeAt  time.Time         `parquet:"next_change_at,timestamp(millisecond),optional"`
	RemovedAt     time.Time         `parquet:"removed_at,timestamp(millisecond),optional"`
	RemovedReason string            `parquet:"removed_reason,optional"`
	RevisionRun   string            `parquet:"revision_run,dict,optional"`
	RevisionRow   int64             `parquet:"revision_row"`
}

// writerOptions are the Parquet settings of the state's files: ZSTD, and
// pages small enough that reading one revision decompresses little.
func writerOptions(extra ...parquet.WriterOption) []parquet.WriterOption {
	return append([]parquet.WriterOption{parquet.Compression(&parquet.Zstd), parquet.PageBufferSize(128 << 10)}, extra...)
}

// atomicFile is a file written under a temporary name and renamed into
// place once complete and synced.
type atomicFile struct {
	path string
	f    *os.File
}

func createAtomic(path string) (*atomicFile, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return nil, err
	}
	return &atomicFile{path: path, f: f}, nil
}

func (a *atomicFile) commit() error {
	if err := a.f.Sync(); err != nil {
		a.abort()
		return err
	}
	if err := a.f.Close(); err != nil {
		os.Remove(a.f.Name())
		return err
	}
	return os.Rename(a.f.Name(), a.path)
}

func (a *atomicFile) abort() {
	a.f.Close()
	os.Remove(a.f.Name())
}

// revisionWriter writes a run's revisions file on its own goroutine, so
// compressing overlaps compiling.
type revisionWriter struct {
	file *atomicFile
	w    *parquet.GenericWriter[revisionRow]
	ch   chan []revisionRow
	buf  []revisionRow
	rows int64
	done chan error
}

const revisionBatch = 512

func newRevisionWriter(path string) (*revisionWriter, error) {
	af, err := createAtomic(path)
	if err != nil {
		return nil, err
	}
	rw := &revisionWriter{file: af, ch: make(chan []revisionRow, 8), done: make(chan error, 1)}
	rw.w = parquet.NewGenericWriter[revisionRow](af.f, writerOptions(parquet.MaxRowsPerRowGroup(32<<10))...)
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
		rw.file.abort()
		return err
	}
	return rw.file.commit()
}

func (rw *revisionWriter) abort() {
	if rw.ch != nil {
		close(rw.ch)
		<-rw.done
		rw.ch = nil
	}
	rw.file.abort()
}

// writeIndex writes the identity map and entry rows of a run, sorted by key.
func writeIndex(path string, ids *compile.Identities, rows map[string]*EntryRow) error {
	af, err := createAtomic(path)
	if err != nil {
		return err
	}
	w := parquet.NewGenericWriter[indexRow](af.f, writerOptions(parquet.MaxRowsPerRowGroup(256<<10))...)
	all := ids.All()
	batch := make([]indexRow, 0, 1024)
	flush := func() error {
		_, err := w.Write(batch)
		batch = batch[:0]
		return err
	}
	for _, id := range all {
		ir := indexRow{Key: id.Key, EntryID: id.EntryID, Slug: id.Slug, OldSlugs: id.OldSlugs, CreatedAt: schemas.ParseTime(id.CreatedAt),
			Items: id.Items, LastRevision: int32(id.LastRevision)}
		if r := rows[id.Key]; r != nil {
			ir.Revision, ir.Status, ir.Claimed, ir.ContentHash, ir.SourceHash = int32(r.Revision), string(r.Status), r.Claimed, r.ContentHash, r.SourceHash
			ir.UpdatedAt, ir.NextChangeAt, ir.RemovedAt, ir.RemovedReason = r.UpdatedAt, r.NextChangeAt, r.RemovedAt, r.RemovedReason
			ir.RevisionRun, ir.RevisionRow = r.RevisionRun, r.RevisionRow
		}
		batch = append(batch, ir)
		if len(batch) == cap(batch) {
			if err := flush(); err != nil {
				af.abort()
				return err
			}
		}
	}
	if err := flush(); err != nil {
		af.abort()
		return err
	}
	if err := w.Close(); err != nil {
		af.abort()
		return err
	}
	return af.commit()
}

// readIndex loads an index file into the identity map and entry rows.
func readIndex(path string) (*compile.Identities, map[string]*EntryRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("state index: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, nil, fmt.Errorf("state index %s: %w", path, err)
	}
	n := int(pf.NumRows())
	ids := compile.NewIdentitiesSized(n)
	rows := make(map[string]*EntryRow, n)
	rd := parquet.NewGenericReader[indexRow](pf)
	defer rd.Close()
	buf := make([]indexRow, 1024)
	// Rows are allocated in blocks: a million small allocations cost more
	// than the reading.
	var idBlock []compile.Identity
	var rowBlock []EntryRow
	for {
		k, err := rd.Read(buf)
		for i := range buf[:k] {
			ir := &buf[i]
			if len(idBlock) == 0 {
				idBlock = make([]compile.Identity, 4096)
			}
			id := &idBlock[0]
			idBlock = idBlock[1:]
			*id = compile.Identity{Key: ir.Key, EntryID: ir.EntryID, Slug: ir.Slug, OldSlugs: ir.OldSlugs,
				CreatedAt: schemas.FormatTime(ir.CreatedAt), Items: ir.Items, LastRevision: int(ir.LastRevision)}
			if len(id.OldSlugs) == 0 {
				id.OldSlugs = nil
			}
			if len(id.Items) == 0 {
				id.Items = nil
			}
			ids.Add(id)
			if ir.Revision == 0 {
				continue
			}
			if len(rowBlock) == 0 {
				rowBlock = make([]EntryRow, 4096)
			}
			r := &rowBlock[0]
			rowBlock = rowBlock[1:]
			*r = EntryRow{EntryID: ir.EntryID, Key: ir.Key, Slug: ir.Slug, Revision: int(ir.Revision), Status: schemas.EntryStatus(ir.Status),
				Claimed: ir.Claimed, ContentHash: ir.ContentHash, SourceHash: ir.SourceHash, UpdatedAt: utc(ir.UpdatedAt),
				NextChangeAt: utc(ir.NextChangeAt), RemovedAt: utc(ir.RemovedAt), RemovedReason: ir.RemovedReason,
				Removed: !ir.RemovedAt.IsZero(), RevisionRun: ir.RevisionRun, RevisionRow: ir.RevisionRow}
			rows[r.Key] = r
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("state index %s: %w", path, err)
		}
	}
	return ids, rows, nil
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

// readRevisions reads revisions by where they are, file by file in row
// order, decompressing only the pages that hold them.
func readRevisions(dir string, want map[string]revisionRef) (map[string]*schemas.Entry, error) {
	out := make(map[string]*schemas.Entry, len(want))
	byRun := map[string][]string{}
	for id, ref := range want {
		if ref.Run == "" {
			return nil, fmt.Errorf("revision of %s: the state does not say where it is", id)
		}
		byRun[ref.Run] = append(byRun[ref.Run], id)
	}
	runs := make([]string, 0, len(byRun))
	for run := range byRun {
		runs = append(runs, run)
	}
	sort.Strings(runs)
	type entryOnly struct {
		Entry string `parquet:"entry"`
	}
	for _, run := range runs {
		ids := byRun[run]
		sort.Slice(ids, func(i, j int) bool { return want[ids[i]].Row < want[ids[j]].Row })
		err := func() error {
			path := filepath.Join(dir, revisionsDir, run+".parquet")
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				return err
			}
			pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipBloomFilters(true))
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			rd := parquet.NewGenericReader[entryOnly](pf)
			defer rd.Close()
			buf := make([]entryOnly, 1)
			next := int64(0) // the row the reader is at
			for _, id := range ids {
				row := want[id].Row
				if row != next {
					if err := rd.SeekToRow(row); err != nil {
						return fmt.Errorf("%s row %d: %w", path, row, err)
					}
				}
				n, err := rd.Read(buf)
				if n != 1 {
					if err == nil || errors.Is(err, io.EOF) {
						err = fmt.Errorf("no row %d", row)
					}
					return fmt.Errorf("%s: %w", path, err)
				}
				next = row + 1
				var e schemas.Entry
				if err := json.Unmarshal([]byte(buf[0].Entry), &e); err != nil {
					return fmt.Errorf("revision of %s in %s: %w", id, path, err)
				}
				out[id] = &e
			}
			return nil
		}()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// runFiles names the files of a run.
func runFile(dir, sub, run string) string { return filepath.Join(dir, sub, run+".parquet") }

// sqlString quotes a string for SQL.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
