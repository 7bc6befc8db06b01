package feeds

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Change types: what happened to an entry's public projections.
const (
	Created   = "created"
	Updated   = "updated"
	Removed   = "removed"
	Suspended = "suspended"
	Unlisted  = "unlisted"
	Expired   = "expired"
)

// Change is one record of the change feed: every change to a public
// projection is one, numbered by a sequence that only grows.
type Change struct {
	Seq         int64     `json:"seq" parquet:"seq"`
	Type        string    `json:"type" parquet:"type,dict"`
	EntryID     string    `json:"entryId" parquet:"entry_id"`
	Slug        string    `json:"slug" parquet:"slug"`
	Revision    int32     `json:"revision" parquet:"revision"`
	At          time.Time `json:"at" parquet:"at,timestamp(millisecond)"`
	Publication string    `json:"publication" parquet:"publication,dict"`
}

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

// Dir is where a publication keeps its feed: every segment since the
// first publication, each a JSON-lines file and a Parquet file of the same
// records, named by their first and last sequence numbers.
const Dir = "feed"

func segmentName(first, last int64) string { return fmt.Sprintf("%012d-%012d", first, last) }

// Segment is one file pair of the feed.
type Segment struct {
	First, Last int64
	Name        string // without extension
}

// Segments lists a feed directory's segments in sequence order.
func Segments(dir string) ([]Segment, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []Segment
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		var s Segment
		if _, err := fmt.Sscanf(name, "%012d-%012d", &s.First, &s.Last); err != nil {
			continue
		}
		s.Name = name
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].First < out[j].First })
	return out, nil
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
	segs, err := Segments(prevDir)
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
	name := filepath.Join(dir, segmentName(changes[0].Seq, changes[len(changes)-1].Seq))
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

// Read returns up to limit changes with a sequence number above after, in
// order, and whether more follow.
func Read(dir string, after int64, limit int) ([]Change, bool, error) {
	segs, err := Segments(dir)
	if err != nil {
		return nil, false, err
	}
	var out []Change
	for _, s := range segs {
		if s.Last <= after {
			continue
		}
		f, err := os.Open(filepath.Join(dir, s.Name+".jsonl"))
		if err != nil {
			return nil, false, err
		}
		dec := json.NewDecoder(bufio.NewReader(f))
		for {
			var c Change
			if err := dec.Decode(&c); err == io.EOF {
				break
			} else if err != nil {
				f.Close()
				return nil, false, fmt.Errorf("%s: %w", s.Name, err)
			}
			if c.Seq <= after {
				continue
			}
			if len(out) == limit {
				f.Close()
				return out, true, nil
			}
			out = append(out, c)
		}
		f.Close()
	}
	return out, false, nil
}

// Last is the last sequence number of a feed directory (0: none).
func Last(dir string) (int64, error) {
	segs, err := Segments(dir)
	if err != nil || len(segs) == 0 {
		return 0, err
	}
	return segs[len(segs)-1].Last, nil
}
