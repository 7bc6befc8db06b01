package counting

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"
)

// Config is where the counts are kept and how often they are written.
type Config struct {
	// Dir holds reads/ and searches/; it is created if missing.
	Dir string
	// FlushEvery is how often Run writes what is pending (default one
	// minute): what a crash can lose.
	FlushEvery time.Duration
	// MaxPendingSearches bounds the search log kept in memory (default
	// 1<<20 rows). Only a store that keeps failing fills it; searches
	// beyond it are dropped and the drop is logged, rather than letting a
	// full disk run the server out of memory. Reads need no bound: their
	// map grows with entries × categories × days, not with traffic.
	MaxPendingSearches int
}

// ErrClosed is returned by Flush, Compact and Totals after Close.
var ErrClosed = errors.New("counting: closed")

// ErrLocked is returned by Open when another Counter holds the directory.
var ErrLocked = errors.New("counting: another counter holds the directory")

// numShards spreads the reads over mutexes so that concurrent requests for
// different entries rarely wait on each other. A power of two, so a shard
// is picked with a mask.
const numShards = 64

// Counter counts reads and logs searches in memory and writes them to
// Parquet files. Its methods are safe for concurrent use.
type Counter struct {
	dir   string
	every time.Duration
	log   *slog.Logger
	lock  *os.File

	seed   maphash.Seed
	shards [numShards]shard

	smu         sync.Mutex
	searches    []searchRow
	maxSearches int
	dropped     int64 // searches dropped since the last flush, under smu

	// fmu serialises everything that touches the files (Flush, Compact,
	// Totals, Close): a flush moves counts from memory to a file, and
	// Totals must see each count on exactly one side of that move.
	fmu    sync.Mutex
	seq    uint64 // the last file sequence number used, under fmu
	stamp  string // the latest time used in a file name, under fmu
	closed bool
}

// shard is one part of the pending reads. A count is behind a pointer so
// that counting a known key is a lookup and not an assignment: assigning
// would store the caller's strings as the key again (Go updates string
// keys on assignment), undoing the copies add makes. The padding keeps two
// shards' mutexes off one cache line, where cores locking different shards
// would still slow each other down.
type shard struct {
	mu sync.Mutex
	m  map[readKey]*int64
	_  [48]byte
}

// add adds n reads to a key.
func (s *shard) add(k readKey, n int64) {
	s.mu.Lock()
	if p := s.m[k]; p != nil {
		*p += n
	} else {
		// A new key keeps its own copies: the caller's strings may be
		// slices of a whole request, which the map would otherwise pin
		// until the next flush.
		k.entry, k.category = strings.Clone(k.entry), strings.Clone(k.category)
		p = new(int64)
		*p = n
		s.m[k] = p
	}
	s.mu.Unlock()
}

// readKey is what a read is counted by. A struct rather than a joined
// string, so counting an existing key allocates nothing.
type readKey struct {
	day      int32 // days since 1970-01-01, UTC
	entry    string
	category string
}

// Open opens (creating it if needed) the directory of counts, takes its
// lock, and clears what an interrupted flush or compaction left behind. A
// nil log discards.
func Open(cfg Config, log *slog.Logger) (*Counter, error) {
	if cfg.Dir == "" {
		return nil, errors.New("counting: no directory")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.FlushEvery <= 0 {
		cfg.FlushEvery = time.Minute
	}
	if cfg.MaxPendingSearches <= 0 {
		cfg.MaxPendingSearches = 1 << 20
	}
	c := &Counter{dir: cfg.Dir, every: cfg.FlushEvery, log: log, seed: maphash.MakeSeed(), maxSearches: cfg.MaxPendingSearches}
	for i := range c.shards {
		c.shards[i].m = map[readKey]*int64{}
	}
	for _, kind := range []string{readsDir, searchesDir} {
		if err := os.MkdirAll(c.path(kind), 0o755); err != nil {
			return nil, fmt.Errorf("counting: %w", err)
		}
	}
	lock, err := lockDir(c.dir)
	if err != nil {
		return nil, err
	}
	c.lock = lock
	if err := c.recover(); err != nil {
		c.unlock()
		return nil, fmt.Errorf("counting: %w", err)
	}
	return c, nil
}

// Read counts one read of an entry's view by a category of reader at now;
// the day is now's UTC date.
func (c *Counter) Read(entryID, category string, now time.Time) {
	k := readKey{day: dayOf(now), entry: entryID, category: category}
	c.shards[c.shardOf(entryID)].add(k, 1)
}

// shardOf picks an entry's shard. The entry alone spreads requests well
// (it is what differs most between them) and hashes faster than the key.
func (c *Counter) shardOf(entryID string) uint64 {
	return maphash.String(c.seed, entryID) & (numShards - 1)
}

// Run flushes every FlushEvery until ctx ends, then flushes once more; it
// also ends when the Counter is closed. A failed flush is logged; its
// counts wait for the next one.
func (c *Counter) Run(ctx context.Context) {
	t := time.NewTicker(c.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			if err := c.Flush(); err != nil && !errors.Is(err, ErrClosed) {
				c.log.Error("counting: final flush failed", "err", err)
			}
			return
		case <-t.C:
			if err := c.Flush(); errors.Is(err, ErrClosed) {
				return
			} else if err != nil {
				c.log.Warn("counting: flush failed, the counts wait for the next one", "err", err)
			}
		}
	}
}

// Close flushes what is pending and releases the directory. It releases
// it even when that flush fails: the error then says what was lost. Reads
// and searches after Close are not written.
func (c *Counter) Close() error {
	c.fmu.Lock()
	defer c.fmu.Unlock()
	if c.closed {
		return nil
	}
	err := c.flushLocked()
	if err != nil {
		reads, searches := c.pending()
		err = fmt.Errorf("%w (lost: %d reads, %d searches)", err, reads, searches)
	}
	c.closed = true
	c.unlock()
	return err
}

// pending is how many reads and searches wait in memory.
func (c *Counter) pending() (reads, searches int64) {
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		for _, n := range s.m {
			reads += *n
		}
		s.mu.Unlock()
	}
	c.smu.Lock()
	searches = int64(len(c.searches))
	c.smu.Unlock()
	return reads, searches
}

// dayOf is t's UTC date as days since 1970-01-01 (floored, so an instant
// before 1970 is on its own day too).
func dayOf(t time.Time) int32 {
	s := t.Unix()
	d := s / 86400
	if s%86400 < 0 {
		d--
	}
	return int32(d)
}

// dayString is a day as YYYY-MM-DD.
func dayString(d int32) string { return time.Unix(int64(d)*86400, 0).UTC().Format(time.DateOnly) }
