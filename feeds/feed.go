package feeds

import (
	"bufio"
	"encoding/json"
	"io"
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
// changes, in entry ID order, numbered from next on. A previous state of
// nil means the entry is new. at is the publication's instant.
func Diff(prev map[string]State, cur []State, next int64, at time.Time, publication string) []Change {
	sorted := append([]State(nil), cur...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].EntryID < sorted[j].EntryID })
	var out []Change
	for _, n := range sorted {
		p, had := prev[n.EntryID]
		typ := ""
		switch {
		case !had && n.Status == "removed":
			continue // came and went between two publications: never public
		case !had:
			typ = Created
		case n.Status == "removed" && p.Status != "removed":
			typ = Removed
		case n.Status == "removed":
			continue
		case n.Status == "suspended" && p.Status != "suspended":
			typ = Suspended
		case !n.Listed && p.Listed:
			typ = Unlisted
		case p.Status == "removed" && n.Status != "removed":
			typ = Created // listed again
		case n.Revision != p.Revision && n.Cause == "expired":
			typ = Expired
		case n.Revision != p.Revision || n.Slug != p.Slug || n.Listed != p.Listed || n.Status != p.Status:
			typ = Updated
		default:
			continue
		}
		out = append(out, Change{Seq: next, Type: typ, EntryID: n.EntryID, Slug: n.Slug, Revision: n.Revision, At: at.UTC(), Publication: publication})
		next++
	}
	return out
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
		for _, ext := range []string{".jsonl", ".parquet"} {
			src, dst := filepath.Join(prevDir, s.Name+ext), filepath.Join(dir, s.Name+ext)
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
	if len(changes) == 0 {
		return nil
	}
	name := filepath.Join(dir, publication.FeedSegmentName(changes[0].Seq, changes[len(changes)-1].Seq))
	f, err := os.Create(name + ".jsonl")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, c := range changes {
		if err := enc.Encode(c); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	pf, err := os.Create(name + ".parquet")
	if err != nil {
		return err
	}
	pw := parquet.NewGenericWriter[Change](pf, parquet.Compression(&zstd.Codec{Level: zstd.SpeedFastest}))
	if _, err := pw.Write(changes); err != nil {
		pf.Close()
		return err
	}
	if err := pw.Close(); err != nil {
		pf.Close()
		return err
	}
	if err := pf.Sync(); err != nil {
		pf.Close()
		return err
	}
	return pf.Close()
}
