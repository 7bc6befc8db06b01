package feeds

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/schemas"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// The feed's records and its readers are the snapshot format's
// (schemas.Change, export/publication): the server reads the feed too.
type Change = schemas.Change

// Change types, as schemas names them.
const (
	Created   = schemas.ChangeCreated
	Updated   = schemas.ChangeUpdated
	Removed   = schemas.ChangeRemoved
	Suspended = schemas.ChangeSuspended
	Unlisted  = schemas.ChangeUnlisted
	Expired   = schemas.ChangeExpired
)

// Dir is where a publication keeps its feed.
const Dir = publication.FeedDir

// State is what the feed compares of an entry between two publications.
type State struct {
	EntryID, Slug, Status, Cause string
	Listed                       bool
	Revision                     int32
}

// Diff turns the entries of the previous and the new publication into
// changes, in entry ID order, numbered from next on. An entry prev does
// not hold is new. at is the publication's instant.
func Diff(prev map[string]State, cur []State, next int64, at time.Time, publication string) []Change {
	sorted := append([]State(nil), cur...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].EntryID < sorted[j].EntryID })
	var out []Change
	for _, n := range sorted {
		var was *State
		if p, had := prev[n.EntryID]; had {
			was = &p
		}
		if typ := Classify(was, n); typ != "" {
			out = append(out, Change{Seq: next, Type: typ, EntryID: n.EntryID, Slug: n.Slug, Revision: n.Revision, At: at.UTC(), Publication: publication})
			next++
		}
	}
	return out
}

// Classify is the change an entry's new state n makes over its state in
// the previous publication (nil: it held none): a change type, or "" for
// none. Diff applies it entry by entry; a publication too large to hold
// its states streams them through it (issue 18).
func Classify(p *State, n State) string {
	switch {
	case p == nil && n.Status == "removed":
		return "" // came and went between two publications: never public
	case p == nil:
		return Created
	case n.Status == "removed" && p.Status != "removed":
		return Removed
	case n.Status == "removed":
		return ""
	case n.Status == "suspended" && p.Status != "suspended":
		return Suspended
	case !n.Listed && p.Listed:
		return Unlisted
	case p.Status == "removed" && n.Status != "removed":
		return Created // listed again
	case n.Revision != p.Revision && n.Cause == "expired":
		return Expired
	case n.Revision != p.Revision || n.Slug != p.Slug || n.Listed != p.Listed || n.Status != p.Status:
		return Updated
	}
	return ""
}

// Carry links the segments of the previous publication's feed into the
// new one (hard links: the files are immutable), copying when a link is
// not possible.
func Carry(prevDir, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if prevDir == "" {
		return nil
	}
	segs, err := publication.FeedSegments(prevDir)
	if err != nil {
		return err
	}
	for _, s := range segs {
		for _, ext := range []string{".parquet", ".jsonl"} {
			src, dst := filepath.Join(prevDir, s.Name+ext), filepath.Join(dir, s.Name+ext)
			if ext == ".jsonl" {
				if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
					continue // written only before D122
				}
			}
			if err := os.Link(src, dst); err != nil {
				if err := copyFile(src, dst); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Write adds a segment with the changes (none: no segment).
func Write(dir string, changes []Change) error {
	w := NewSegmentWriter(dir)
	for _, c := range changes {
		if err := w.Add(c); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}

// SegmentWriter writes one segment of the feed as its changes come, in
// order (issue 18: a publication of millions of changes holds none of
// them): a Parquet file under a temporary name, which Close gives the
// segment's name once its last sequence number is known. Its row groups
// are segmentGroup rows, so a reader seeks past whole groups (D122).
type SegmentWriter struct {
	dir         string
	first, last int64
	n           int64
	pf          *os.File
	pw          *parquet.GenericWriter[Change]
	buf         []Change
	err         error
}

// NewSegmentWriter starts a segment in dir; nothing is created until the
// first change.
func NewSegmentWriter(dir string) *SegmentWriter { return &SegmentWriter{dir: dir} }

// segmentBatch is how many changes the writer buffers for the Parquet
// file.
const segmentBatch = 4096

// segmentGroup is the rows of a segment's row group: what a reader of the
// feed's end decodes at most.
const segmentGroup = 64 << 10

// Count is how many changes were added.
func (w *SegmentWriter) Count() int64 { return w.n }

// Add appends a change; its sequence number follows the one before.
func (w *SegmentWriter) Add(c Change) error {
	if w.err != nil {
		return w.err
	}
	if w.pf == nil {
		if w.err = w.open(); w.err != nil {
			return w.err
		}
		w.first = c.Seq
	}
	w.last = c.Seq
	w.n++
	if w.buf = append(w.buf, c); len(w.buf) == segmentBatch {
		_, w.err = w.pw.Write(w.buf)
		w.buf = w.buf[:0]
	}
	return w.err
}

func (w *SegmentWriter) open() error {
	var err error
	if w.pf, err = os.Create(filepath.Join(w.dir, "segment.parquet.tmp")); err != nil {
		return err
	}
	w.pw = parquet.NewGenericWriter[Change](w.pf, parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest}),
		parquet.MaxRowsPerRowGroup(segmentGroup))
	return nil
}

// Close finishes the segment (synced) and names it by its first and last
// sequence numbers; with no change it writes nothing.
func (w *SegmentWriter) Close() error {
	if w.pf == nil || w.err != nil {
		w.Abort()
		return w.err
	}
	if len(w.buf) > 0 {
		if _, err := w.pw.Write(w.buf); err != nil {
			w.Abort()
			return err
		}
	}
	steps := []func() error{w.pw.Close, w.pf.Sync, w.pf.Close}
	for _, step := range steps {
		if err := step(); err != nil {
			w.Abort()
			return err
		}
	}
	name := filepath.Join(w.dir, publication.FeedSegmentName(w.first, w.last))
	return os.Rename(w.pf.Name(), name+".parquet")
}

// Abort removes what the writer wrote.
func (w *SegmentWriter) Abort() {
	if w.pf != nil {
		w.pf.Close()
		os.Remove(w.pf.Name())
	}
}
