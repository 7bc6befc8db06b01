package fairuse_test

import (
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/daawid/registry/query/fairuse"
)

const limit = 300 // the contract's anonymous reads per minute

var noon = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// exhaust spends key's whole allowance in now's minute, failing if any of
// the reads is refused.
func exhaust(t *testing.T, l *fairuse.Limiter, category string, addr netip.Addr, now time.Time) {
	t.Helper()
	for i := range limit {
		if ok, _ := l.Allow(category, addr, now); !ok {
			t.Fatalf("read %d of %s at %s refused, want allowed", i+1, category, addr)
		}
	}
}

// TestLimit301stRefused_RATE checks §7.8: 300 reads a minute, the 301st
// answers rate_limited with the seconds until the next minute, and the
// next minute allows again.
func TestLimit301stRefused_RATE(t *testing.T) {
	l := fairuse.NewLimiter(limit)
	ip := netip.MustParseAddr("192.0.2.7")
	at := noon.Add(17 * time.Second) // 12:00:17
	exhaust(t, l, "openai", ip, at)
	if ok, retry := l.Allow("openai", ip, at); ok || retry != 43 {
		t.Errorf("301st read at 12:00:17 = %v, retry %d; want refused, retry 43", ok, retry)
	}
	// The retry counts to the next minute whenever in this one it is asked.
	for _, c := range []struct {
		at    time.Duration
		retry int
	}{
		{17*time.Second + 400*time.Millisecond, 43}, // rounded up: never invite an early retry
		{59*time.Second + 900*time.Millisecond, 1},
		{59 * time.Second, 1},
		{0, 60},
	} {
		if ok, retry := l.Allow("openai", ip, noon.Add(c.at)); ok || retry != c.retry {
			t.Errorf("read at 12:00:%06.3f = %v, retry %d; want refused, retry %d", c.at.Seconds(), ok, retry, c.retry)
		}
	}
	next := noon.Add(time.Minute)
	exhaust(t, l, "openai", ip, next)
	if ok, retry := l.Allow("openai", ip, next); ok || retry != 60 {
		t.Errorf("301st read at 12:01:00 = %v, retry %d; want refused, retry 60", ok, retry)
	}
}

// TestLimitCalendarMinuteInUTC_RATE checks that the window is the calendar
// minute of UTC whatever zone now is given in, also before 1970, where
// Unix time is negative and must still round down to the minute (§7.8).
func TestLimitCalendarMinuteInUTC_RATE(t *testing.T) {
	l := fairuse.NewLimiter(limit)
	ip := netip.MustParseAddr("192.0.2.8")
	berlin := time.FixedZone("CET", 3600)
	exhaust(t, l, "other", ip, noon.Add(10*time.Second).In(berlin))
	if ok, _ := l.Allow("other", ip, noon.Add(50*time.Second)); ok {
		t.Error("read later in the same minute, given in UTC, allowed; want refused")
	}
	l = fairuse.NewLimiter(limit) // a fresh one: this Limiter has moved on to 2026
	before := time.Date(1969, 12, 31, 23, 59, 30, 0, time.UTC)
	exhaust(t, l, "other", ip, before)
	if ok, retry := l.Allow("other", ip, before); ok || retry != 30 {
		t.Errorf("301st read at 23:59:30 in 1969 = %v, retry %d; want refused, retry 30", ok, retry)
	}
}

// TestLimitExactUnderConcurrency_RATE checks that the limit holds exactly
// however goroutines interleave (§7.8): 64 goroutines make 1000 attempts
// in all for one key in one minute, and exactly 300 are allowed. Rounds
// repeat it with fresh keys to give the scheduler more chances.
func TestLimitExactUnderConcurrency_RATE(t *testing.T) {
	const goroutines, attempts, rounds = 64, 1000, 20
	l := fairuse.NewLimiter(limit)
	for round := range rounds {
		ip := netip.AddrFrom4([4]byte{198, 51, 100, byte(round)})
		at := noon.Add(time.Duration(round) * time.Second)
		var left, allowed, badRetry atomic.Int64
		left.Store(attempts)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for range goroutines {
			wg.Go(func() {
				<-start
				for left.Add(-1) >= 0 {
					ok, retry := l.Allow("anthropic", ip, at)
					switch {
					case ok:
						allowed.Add(1)
					case retry != 60-round:
						badRetry.Add(1)
					}
				}
			})
		}
		close(start)
		wg.Wait()
		if allowed.Load() != limit || badRetry.Load() != 0 {
			t.Fatalf("round %d: %d of %d attempts allowed, %d refusals with a wrong retry; want exactly %d, 0",
				round, allowed.Load(), attempts, badRetry.Load(), limit)
		}
	}
}

// TestLimitManyKeysConcurrently_RATE checks exactness across shards: many
// keys read at once from many goroutines, each key gets exactly its 300.
func TestLimitManyKeysConcurrently_RATE(t *testing.T) {
	const keys, perKey, goroutines = 500, 400, 16
	l := fairuse.NewLimiter(limit)
	allowed := make([]atomic.Int64, keys)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range keys * perKey / goroutines {
				k := (i*goroutines + g) % keys
				ip := netip.AddrFrom4([4]byte{10, 0, byte(k >> 8), byte(k)})
				if ok, _ := l.Allow("google", ip, noon); ok {
					allowed[k].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for k := range allowed {
		if n := allowed[k].Load(); n != limit {
			t.Fatalf("key %d: %d reads allowed, want %d", k, n, limit)
		}
	}
}

// TestLimitPerCategoryAndAddress_RATE checks that the allowance belongs to
// the pair: another believed category from the same address (both
// operators' published ranges hold it), or the same category from another
// address, has its own (§7.8, REST-38).
func TestLimitPerCategoryAndAddress_RATE(t *testing.T) {
	l := fairuse.NewLimiter(limit)
	l.Ranges = fairuse.Ranges{"openai": {netip.MustParsePrefix("203.0.113.0/24")}, "anthropic": {netip.MustParsePrefix("203.0.113.0/24")}}
	ip := netip.MustParseAddr("203.0.113.5")
	exhaust(t, l, "openai", ip, noon)
	if ok, _ := l.Allow("openai", ip, noon); ok {
		t.Fatal("301st openai read from 203.0.113.5 allowed")
	}
	exhaust(t, l, "anthropic", ip, noon)
	exhaust(t, l, "openai", netip.MustParseAddr("203.0.113.6"), noon)
}

// TestLimitIPv6By64_RATE checks that an IPv6 address counts by its /64 and
// an IPv4-mapped address as the IPv4 address it carries (§7.8).
func TestLimitIPv6By64_RATE(t *testing.T) {
	l := fairuse.NewLimiter(limit)
	exhaust(t, l, "perplexity", netip.MustParseAddr("2001:db8:1:2::1"), noon)
	for _, same := range []string{"2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::1%eth0"} {
		if ok, _ := l.Allow("perplexity", netip.MustParseAddr(same), noon); ok {
			t.Errorf("read from %s, in the exhausted /64, allowed", same)
		}
	}
	exhaust(t, l, "perplexity", netip.MustParseAddr("2001:db8:1:3::1"), noon)

	exhaust(t, l, "perplexity", netip.MustParseAddr("::ffff:192.0.2.44"), noon)
	if ok, _ := l.Allow("perplexity", netip.MustParseAddr("192.0.2.44"), noon); ok {
		t.Error("read from 192.0.2.44 allowed after ::ffff:192.0.2.44 spent its allowance")
	}
	exhaust(t, l, "perplexity", netip.MustParseAddr("192.0.2.45"), noon) // IPv4 is not grouped
}

// TestAddrKey_RATE checks the key each kind of address counts by.
func TestAddrKey_RATE(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"192.0.2.1", "192.0.2.1"},
		{"::ffff:192.0.2.1", "192.0.2.1"},
		{"2001:db8:aa:bb:cc:dd:ee:ff", "2001:db8:aa:bb::"},
		{"fe80::1%eth0", "fe80::"},
		{"::1", "::"},
	} {
		if got := fairuse.AddrKey(netip.MustParseAddr(c.in)); got != netip.MustParseAddr(c.want) {
			t.Errorf("AddrKey(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	if got := fairuse.AddrKey(netip.Addr{}); got.IsValid() {
		t.Errorf("AddrKey(zero) = %s, want the zero Addr", got)
	}
}

// TestRenamingGivesNoNewAllowance_RATE_REST38 checks that a caller who
// spent its allowance gets none back by calling itself something new: an
// unknown name is "other", the same as the name before (§7.8, REST-38).
func TestRenamingGivesNoNewAllowance_RATE_REST38(t *testing.T) {
	l := fairuse.NewLimiter(limit)
	ip := netip.MustParseAddr("198.51.100.200")
	exhaust(t, l, fairuse.CategoryOf("foo/1", ""), ip, noon)
	for _, ua := range []string{"bar/2", "foo/1.1", uaChrome, uaCurl, "", "MyNewAIBot/1.0"} {
		if ok, _ := l.Allow(fairuse.CategoryOf(ua, ""), ip, noon); ok {
			t.Errorf("read as %q allowed after foo/1 spent the allowance", ua)
		}
	}
	// An unknown signer is no new name either.
	if ok, _ := l.Allow(fairuse.CategoryOf("baz/3", `"https://my-new-agent.example"`), ip, noon); ok {
		t.Error("read signed by an unknown agent allowed after foo/1 spent the allowance")
	}
}

// TestLimitForgetsOldMinutes_RATE checks that counters live only for their
// minute (§7.8: "an address is there for that minute"): memory follows the
// readers of the current minute, not the time the Limiter has run.
func TestLimitForgetsOldMinutes_RATE(t *testing.T) {
	const clients, minutes = 1000, 100
	l := fairuse.NewLimiter(limit)
	for m := range minutes {
		at := noon.Add(time.Duration(m) * time.Minute)
		for c := range clients {
			ip := netip.AddrFrom4([4]byte{10, byte(m), byte(c >> 8), byte(c)}) // new addresses every minute
			l.Allow("other", ip, at)
		}
		if n := l.Len(); n != clients {
			t.Fatalf("minute %d: %d counters held, want %d", m, n, clients)
		}
	}
	end := noon.Add(minutes * time.Minute)
	l.Allow("openai", netip.MustParseAddr("192.0.2.1"), end)
	if n := l.Len(); n != 1 {
		t.Errorf("first read of a new minute: %d counters held, want 1", n)
	}
	l.Sweep(end.Add(time.Minute))
	if n := l.Len(); n != 0 {
		t.Errorf("after Sweep in an idle minute: %d counters held, want 0", n)
	}
	// A Sweep with an earlier time neither drops nor resurrects anything.
	l.Allow("openai", netip.MustParseAddr("192.0.2.1"), end.Add(time.Minute))
	l.Sweep(end)
	if n := l.Len(); n != 1 {
		t.Errorf("after a stale Sweep: %d counters held, want 1", n)
	}
}

// TestLimitLateReadCountsInNewerMinute_RATE checks a read stamped with a
// minute the Limiter has left: it is counted in the newer minute, so it
// can never push a key over the limit there.
func TestLimitLateReadCountsInNewerMinute_RATE(t *testing.T) {
	l := fairuse.NewLimiter(limit)
	ip := netip.MustParseAddr("192.0.2.9")
	next := noon.Add(time.Minute)
	for range limit - 1 {
		l.Allow("meta", ip, next)
	}
	if ok, _ := l.Allow("meta", ip, noon.Add(59*time.Second)); !ok {
		t.Fatal("late read, the 300th of the newer minute, refused")
	}
	if ok, retry := l.Allow("meta", ip, next); ok || retry != 60 {
		t.Errorf("301st read of 12:01 = %v, retry %d; want refused, retry 60", ok, retry)
	}
	if ok, retry := l.Allow("meta", ip, noon.Add(59*time.Second)); ok || retry != 61 {
		t.Errorf("late read after the limit = %v, retry %d; want refused, retry 61 (to the end of the minute it was counted in)", ok, retry)
	}
}

func TestNewLimiterRefusesZero(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewLimiter(0) did not panic")
		}
	}()
	fairuse.NewLimiter(0)
}
