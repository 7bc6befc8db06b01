package counting

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
)

// ReadCount is the number of reads of one entry by one category of reader
// on one day.
type ReadCount struct {
	Day      string // YYYY-MM-DD, UTC
	EntryID  string
	Category string
	Reads    int64
}

// Totals sums every read counted so far, written or pending, per day,
// entry and category, sorted by them. It reads every reads file, so it is
// for tests and operators, not for serving.
func (c *Counter) Totals() ([]ReadCount, error) {
	c.fmu.Lock()
	defer c.fmu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	sum := map[readKey]int64{}
	dirs, err := c.dayDirs(readsDir)
	if err != nil {
		return nil, fmt.Errorf("counting: %w", err)
	}
	for _, dir := range dirs {
		names, err := dataFiles(dir)
		if err != nil {
			return nil, fmt.Errorf("counting: %w", err)
		}
		for _, name := range names {
			rows, err := readParquet[readRow](filepath.Join(dir, name))
			if err != nil {
				return nil, fmt.Errorf("counting: %w", err)
			}
			for _, r := range rows {
				sum[readKey{day: r.Day, entry: r.EntryID, category: r.Category}] += r.Reads
			}
		}
	}
	// Holding fmu, no flush runs: a pending count is not also in a file.
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		for k, n := range s.m {
			sum[k] += *n
		}
		s.mu.Unlock()
	}
	out := make([]ReadCount, 0, len(sum))
	for k, n := range sum {
		out = append(out, ReadCount{Day: dayString(k.day), EntryID: k.entry, Category: k.category, Reads: n})
	}
	slices.SortFunc(out, func(a, b ReadCount) int {
		return cmp.Or(cmp.Compare(a.Day, b.Day), cmp.Compare(a.EntryID, b.EntryID), cmp.Compare(a.Category, b.Category))
	})
	return out, nil
}
