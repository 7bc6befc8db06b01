package fairuse

import (
	"hash/maphash"
	"math"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// shardCount spreads the counters over this many locks. Reads from
// different clients then rarely wait on one another: with 64 shards and a
// few cores, two concurrent reads meet on a lock only by a 1-in-64 chance.
const shardCount = 64

// key is what one allowance belongs to: a category of reader at an
// address (an AddrKey).
type key struct {
	category string
	addr     netip.Addr
}

// shard holds the counters of the keys that hash to it, all for one
// minute. It is padded to a cache line so that two shards' locks never
// share one and cores do not fight over it.
type shard struct {
	mu     sync.Mutex
	minute int64          // the Unix minute counts belongs to
	counts map[key]uint32 // reads this minute; nil until the first
	_      [40]byte       // 8 (mutex) + 8 + 8 + 40 = one 64-byte line
}

// Limiter counts reads per (category, address) in calendar minutes and
// refuses those over the limit. It is safe for concurrent use and exact:
// each shard's counters are changed under its lock, so in any one minute
// a key's first perMinute reads are allowed and every later one refused,
// however the goroutines interleave.
//
// Windows are fixed minutes, not sliding ones, because the contract tells
// a refused reader to come back at the next minute (retryAfterSeconds is
// the seconds until then). A minute's counters are dropped when the next
// minute begins, so memory holds one minute's readers and no more.
type Limiter struct {
	perMinute uint32
	// Ranges decide which claimed categories are believed (MCP-80); set
	// them before the first read. Without them every read of an address
	// shares one allowance.
	Ranges Ranges
	seed   maphash.Seed
	// minute is the latest minute any read was counted in; the read that
	// moves it forward sweeps every shard of older counters.
	minute atomic.Int64
	shards [shardCount]shard
}

// NewLimiter returns a Limiter allowing perMinute reads per key and
// minute. It panics if perMinute is below 1, because a limit that refuses
// every read is a configuration mistake, not a policy.
func NewLimiter(perMinute int) *Limiter {
	if perMinute < 1 || perMinute > math.MaxUint32-1 {
		panic("fairuse: perMinute out of range")
	}
	l := &Limiter{perMinute: uint32(perMinute), seed: maphash.MakeSeed()}
	l.minute.Store(math.MinInt64)
	for i := range l.shards {
		l.shards[i].minute = math.MinInt64
	}
	return l
}

// Allow counts one read by category at addr in the calendar minute (UTC)
// of now and reports whether it is within the limit. When it is not,
// retryAfter is the whole seconds until the next minute, rounded up and at
// least 1; a refused read is counted too, so hammering does not help.
// addr is reduced with AddrKey here, so callers pass the peer address as
// they have it. category is the claimed one (CategoryOf); it is counted
// as such only when the Limiter's Ranges believe it, else as Other, so no
// User-Agent or Signature-Agent raises one address's total (MCP-80).
//
// A read stamped with a minute its shard has already left (a goroutine
// delayed across the turn of the minute, or a clock stepped back) is
// counted in the shard's newer minute: that errs toward refusing, and a
// key never gets more than perMinute reads in the minute being counted.
func (l *Limiter) Allow(category string, addr netip.Addr, now time.Time) (ok bool, retryAfter int) {
	k := key{l.Ranges.Believed(category, addr), AddrKey(addr)}
	m := unixMinute(now)
	if seen := l.minute.Load(); m > seen && l.minute.CompareAndSwap(seen, m) {
		l.sweep(m)
	}
	s := &l.shards[l.shardOf(k.addr)]
	s.mu.Lock()
	if m > s.minute {
		s.minute, s.counts = m, nil
	}
	if s.counts == nil {
		s.counts = make(map[key]uint32)
	}
	n := s.counts[k]
	if n <= l.perMinute { // stop counting one past the limit: no overflow
		n++
		s.counts[k] = n
	}
	counted := s.minute
	s.mu.Unlock()
	if n <= l.perMinute {
		return true, 0
	}
	return false, secondsUntil(counted+1, now)
}

// Sweep drops every counter of a minute before now's. Allow sweeps by
// itself when the minute turns; a server whose traffic can stop for a
// while calls Sweep from a ticker so the last busy minute's addresses are
// not held until the next read.
func (l *Limiter) Sweep(now time.Time) {
	m := unixMinute(now)
	for {
		seen := l.minute.Load()
		if m <= seen {
			break
		}
		if l.minute.CompareAndSwap(seen, m) {
			break
		}
	}
	l.sweep(m)
}

// Len returns how many (category, address) counters the Limiter holds,
// for metrics and to show that old minutes are gone.
func (l *Limiter) Len() int {
	n := 0
	for i := range l.shards {
		s := &l.shards[i]
		s.mu.Lock()
		n += len(s.counts)
		s.mu.Unlock()
	}
	return n
}

// sweep drops the counters of every shard still holding a minute before
// m. The maps are replaced, not cleared, so that a busy minute's memory
// goes back to the heap instead of staying reserved in the map.
func (l *Limiter) sweep(m int64) {
	for i := range l.shards {
		s := &l.shards[i]
		s.mu.Lock()
		if s.minute < m {
			s.minute, s.counts = m, nil
		}
		s.mu.Unlock()
	}
}

// shardOf picks a shard by a seeded hash of the address, so that which
// addresses share a lock cannot be chosen by a client. All categories of
// one address share a shard; that costs nothing, since they are few.
func (l *Limiter) shardOf(addr netip.Addr) int {
	b := addr.As16()
	return int(maphash.Bytes(l.seed, b[:]) % shardCount)
}

// unixMinute returns the number of whole minutes since the Unix epoch at
// t, rounding down also before 1970. Unix time has no leap seconds, so
// these are the calendar minutes of UTC.
func unixMinute(t time.Time) int64 {
	s := t.Unix()
	m := s / 60
	if s%60 < 0 {
		m--
	}
	return m
}

// secondsUntil returns the whole seconds from now until the start of Unix
// minute m, rounded up so a reader told to wait is not early, and at
// least 1.
func secondsUntil(m int64, now time.Time) int {
	d := time.Unix(m*60, 0).Sub(now)
	secs := int((d + time.Second - 1) / time.Second)
	return max(secs, 1)
}
