package publication

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/daawid/registry/schemas"
)

// FeedDir is where a publication keeps its feed: every segment since the
// first publication, each a JSON-lines file and a Parquet file of the same
// records, named by their first and last sequence numbers.
const FeedDir = "feed"

// FeedSegmentName names a segment by its first and last sequence numbers.
func FeedSegmentName(first, last int64) string { return fmt.Sprintf("%012d-%012d", first, last) }

// FeedSegment is one file pair of the feed.
type FeedSegment struct {
	First, Last int64
	Name        string // without extension
}

// FeedSegments lists a feed directory's segments in sequence order.
func FeedSegments(dir string) ([]FeedSegment, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []FeedSegment
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		var s FeedSegment
		if _, err := fmt.Sscanf(name, "%012d-%012d", &s.First, &s.Last); err != nil {
			continue
		}
		s.Name = name
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].First < out[j].First })
	return out, nil
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
		more, err := readSegment(filepath.Join(dir, s.Name+".jsonl"), s.First, s.Last, after, limit-len(out), &out)
		if err != nil || more {
			return out, more, err
		}
	}
	return out, false, nil
}

// readSegment appends to out up to limit changes of the segment at path
// (its first sequence number first) numbered above after, and says
// whether more follow. A segment numbers its changes one by one from its
// first, so the lines before after are skipped unread: reading the end of
// a feed of millions costs a scan, not a decoding (issue 18). A segment
// whose numbers were not consecutive is read again from its start.
func readSegment(path string, first, last, after int64, limit int, out *[]schemas.Change) (bool, error) {
	for _, skip := range []int64{after - first + 1, 0} {
		f, err := os.Open(path)
		if err != nil {
			return false, err
		}
		br := bufio.NewReaderSize(f, 1<<16)
		if skip > 0 {
			if err := skipLines(br, skip); err != nil {
				f.Close()
				return false, fmt.Errorf("%s: %w", filepath.Base(path), err)
			}
		}
		dec := json.NewDecoder(br)
		n, again := 0, false
		for {
			var c schemas.Change
			if err := dec.Decode(&c); err == io.EOF {
				break
			} else if err != nil {
				f.Close()
				return false, fmt.Errorf("%s: %w", filepath.Base(path), err)
			}
			if c.Seq <= after {
				continue
			}
			if skip > 0 && n == 0 && c.Seq != after+1 && c.Seq > first+skip {
				again = true // a gap: lines were skipped that should not have been
				break
			}
			if n == limit {
				f.Close()
				return true, nil
			}
			*out = append(*out, c)
			n++
		}
		f.Close()
		if n == 0 && skip > 0 && last > after {
			again = true // the skip went past changes the segment holds
		}
		if !again {
			return false, nil
		}
	}
	return false, nil
}

// skipLines reads past n lines.
func skipLines(br *bufio.Reader, n int64) error {
	for ; n > 0; n-- {
		for {
			_, err := br.ReadSlice('\n')
			if err == nil {
				break
			}
			if err == io.EOF {
				return nil
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				return err
			}
		}
	}
	return nil
}

// FeedLast is the last sequence number of a feed directory (0: none).
func FeedLast(dir string) (int64, error) {
	segs, err := FeedSegments(dir)
	if err != nil || len(segs) == 0 {
		return 0, err
	}
	return segs[len(segs)-1].Last, nil
}
