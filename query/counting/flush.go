package counting

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
)

// Flush writes what is pending as new files, one per kind and day. What
// it could not write goes back to memory for the next flush and the error
// says why; what it wrote is gone from memory, so nothing is written
// twice.
func (c *Counter) Flush() error {
	c.fmu.Lock()
	defer c.fmu.Unlock()
	if c.closed {
		return ErrClosed
	}
	return c.flushLocked()
}

func (c *Counter) flushLocked() error {
	reads := c.takeReads()
	searches, dropped := c.takeSearches()
	if dropped > 0 {
		c.log.Warn("counting: searches dropped, the pending log was full", "dropped", dropped)
	}
	var errs []error
	for _, day := range sortedDays(reads) {
		rows := reads[day]
		slices.SortFunc(rows, func(a, b readRow) int {
			return cmp.Or(cmp.Compare(a.EntryID, b.EntryID), cmp.Compare(a.Category, b.Category))
		})
		committed, err := writeParquet(filepath.Join(c.dayDir(readsDir, day), c.nextName()), rows)
		if err != nil {
			errs = append(errs, fmt.Errorf("counting: reads of %s: %w", dayString(day), err))
		}
		if !committed {
			c.putBackReads(rows)
		}
	}
	var failed []searchRow
	for _, day := range sortedDays(searches) {
		rows := searches[day]
		committed, err := writeParquet(filepath.Join(c.dayDir(searchesDir, day), c.nextName()), rows)
		if err != nil {
			errs = append(errs, fmt.Errorf("counting: searches of %s: %w", dayString(day), err))
		}
		if !committed {
			failed = append(failed, rows...)
		}
	}
	c.putBackSearches(failed)
	return errors.Join(errs...)
}

// takeReads empties the shards and returns their counts by day. Each
// shard gets a fresh map sized as the old one was, since the next minute
// reads much the same entries.
func (c *Counter) takeReads() map[int32][]readRow {
	byDay := map[int32][]readRow{}
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		m := s.m
		if len(m) == 0 {
			s.mu.Unlock()
			continue
		}
		s.m = make(map[readKey]*int64, len(m))
		s.mu.Unlock()
		for k, n := range m {
			byDay[k.day] = append(byDay[k.day], readRow{Day: k.day, EntryID: k.entry, Category: k.category, Reads: *n})
		}
	}
	return byDay
}

// putBackReads adds counts that were not written to those counted since.
func (c *Counter) putBackReads(rows []readRow) {
	for _, r := range rows {
		c.shards[c.shardOf(r.EntryID)].add(readKey{day: r.Day, entry: r.EntryID, category: r.Category}, r.Reads)
	}
}

// takeSearches empties the search log and returns it by day, each day's
// rows in arrival order, and how many searches were dropped.
func (c *Counter) takeSearches() (map[int32][]searchRow, int64) {
	c.smu.Lock()
	log, dropped := c.searches, c.dropped
	c.searches, c.dropped = nil, 0
	c.smu.Unlock()
	byDay := map[int32][]searchRow{}
	for _, r := range log {
		byDay[r.Day] = append(byDay[r.Day], r)
	}
	return byDay, dropped
}

// putBackSearches puts searches that were not written before those logged
// since, so each day's log stays in arrival order.
func (c *Counter) putBackSearches(rows []searchRow) {
	if len(rows) == 0 {
		return
	}
	c.smu.Lock()
	c.searches = append(rows, c.searches...)
	c.smu.Unlock()
}

func sortedDays[T any](m map[int32]T) []int32 {
	days := make([]int32, 0, len(m))
	for d := range m {
		days = append(days, d)
	}
	slices.Sort(days)
	return days
}
