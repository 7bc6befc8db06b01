package publication

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/daawid/registry/schemas"
	"github.com/parquet-go/parquet-go"
)

// FeedDir is where a publication keeps its feed: every segment since the
// first publication, each a Parquet file of its changes named by their
// first and last sequence numbers. Publications before D122 also wrote
// each segment as JSON lines beside it; those files are carried along and
// never read.
const FeedDir = "feed"

// FeedSegmentName names a segment by its first and last sequence numbers.
func FeedSegmentName(first, last int64) string { return fmt.Sprintf("%012d-%012d", first, last) }

// FeedSegment is one segment of the feed.
type FeedSegment struct {
	First, Last int64
	Name        string // without extension
}

// FeedSegments lists a feed directory's segments in sequence order.
func FeedSegments(dir string) ([]FeedSegment, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if err != nil {
		return nil, err
	}
	var out []FeedSegment
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".parquet")
		first, last, ok := parseSegmentName(name)
		if !ok {
			continue
		}
		out = append(out, FeedSegment{First: first, Last: last, Name: name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].First < out[j].First })
	return out, nil
}

// parseSegmentName reads "{first:012d}-{last:012d}".
func parseSegmentName(name string) (first, last int64, ok bool) {
	a, b, cut := strings.Cut(name, "-")
	if !cut || len(a) != 12 || len(b) != 12 {
		return 0, 0, false
	}
	first, err1 := strconv.ParseInt(a, 10, 64)
	last, err2 := strconv.ParseInt(b, 10, 64)
	return first, last, err1 == nil && err2 == nil && first >= 0 && last >= first
}

// ReadFeed returns up to limit changes with a sequence number above after, in
// order, and whether more follow.
func ReadFeed(dir string, after int64, limit int) ([]schemas.Change, bool, error) {
	segs, err := FeedSegments(dir)
	if err != nil {
		return nil, false, err
	}
	var out []schemas.Change
	for _, s := range segs {
		if s.Last <= after {
			continue
		}
		more, err := readSegment(filepath.Join(dir, s.Name+".parquet"), s.First, s.Last, after, limit-len(out), &out)
		if err != nil || more {
			return out, more, err
		}
	}
	return out, false, nil
}

// readSegment appends to out up to limit changes of the segment at path
// (its first sequence number first) numbered above after, and says
// whether more follow. A segment numbers its changes one by one from its
// first, so the rows before after are skipped by seeking (whole row
// groups unread): reading the end of a feed of millions costs a row
// group, not the segment (issue 18). A segment whose numbers were not
// consecutive is read again from its start.
func readSegment(path string, first, last, after int64, limit int, out *[]schemas.Change) (bool, error) {
	f, pf, err := OpenParquet(path, parquet.SkipBloomFilters(true))
	if f == nil {
		return false, err
	}
	defer f.Close()
	if err != nil {
		return false, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	for _, skip := range []int64{after - first + 1, 0} {
		if skip > pf.NumRows() {
			skip = pf.NumRows()
		}
		more, again, err := readRows(pf, skip, after, first, last, limit, out)
		if err != nil {
			return false, fmt.Errorf("%s: %w", filepath.Base(path), err)
		}
		if !again {
			return more, nil
		}
	}
	return false, nil
}

// readRows reads pf's changes from row skip on (see readSegment); again
// says the skip was wrong and nothing was appended.
func readRows(pf *parquet.File, skip, after, first, last int64, limit int, out *[]schemas.Change) (more, again bool, err error) {
	rd := parquet.NewGenericReader[schemas.Change](pf)
	defer rd.Close()
	if skip > 0 {
		if err := rd.SeekToRow(skip); err != nil {
			return false, false, err
		}
	}
	start := len(*out)
	buf := make([]schemas.Change, min(limit+1, 1024))
	n := 0
	for {
		k, rerr := rd.Read(buf)
		for _, c := range buf[:k] {
			if c.Seq <= after {
				continue
			}
			if skip > 0 && n == 0 && c.Seq != after+1 && c.Seq > first+skip {
				*out = (*out)[:start]
				return false, true, nil // a gap: rows were skipped that should not have been
			}
			if n == limit {
				return true, false, nil
			}
			c.At = c.At.UTC()
			*out = append(*out, c)
			n++
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			*out = (*out)[:start]
			return false, false, rerr
		}
	}
	if n == 0 && skip > 0 && last > after {
		return false, true, nil // the skip went past changes the segment holds
	}
	return false, false, nil
}

// FeedLast is the last sequence number of a feed directory (0: none).
func FeedLast(dir string) (int64, error) {
	segs, err := FeedSegments(dir)
	if err != nil || len(segs) == 0 {
		return 0, err
	}
	return segs[len(segs)-1].Last, nil
}
