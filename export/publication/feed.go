package publication

import (
	"bufio"
	"encoding/json"
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
		f, err := os.Open(filepath.Join(dir, s.Name+".jsonl"))
		if err != nil {
			return nil, false, err
		}
		dec := json.NewDecoder(bufio.NewReader(f))
		for {
			var c schemas.Change
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

// FeedLast is the last sequence number of a feed directory (0: none).
func FeedLast(dir string) (int64, error) {
	segs, err := FeedSegments(dir)
	if err != nil || len(segs) == 0 {
		return 0, err
	}
	return segs[len(segs)-1].Last, nil
}
