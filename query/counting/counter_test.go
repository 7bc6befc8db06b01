package counting

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
)

var day1 = time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)

func open(t testing.TB, dir string) *Counter {
	t.Helper()
	c, err := Open(Config{Dir: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func totals(t testing.TB, c *Counter) []ReadCount {
	t.Helper()
	got, err := c.Totals()
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func sameTotals(t testing.TB, got, want []ReadCount) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("totals\n got %v\nwant %v", got, want)
	}
}

// REST-38: each entry returned is a read of its view, counted per entry,
// day and category of reader; the day is the UTC date, so reads a minute
// apart across midnight fall on two days.
func TestRead_CountsPerDayEntryCategory(t *testing.T) {
	c := open(t, t.TempDir())
	defer c.Close()
	berlin := time.FixedZone("CET", 3600)
	c.Read("e1", "openai", day1)
	c.Read("e1", "openai", day1)
	c.Read("e1", "anthropic", day1)
	c.Read("e2", "openai", day1)
	c.Read("e1", "openai", day1.Add(2*time.Minute))                       // 2026-12-01 UTC
	c.Read("e1", "openai", time.Date(2026, 12, 1, 0, 30, 0, 0, berlin))   // 2026-11-30 23:30 UTC
	c.Read("e1", "other", time.Date(1969, 12, 31, 23, 0, 0, 0, time.UTC)) // before 1970 too
	want := []ReadCount{
		{"1969-12-31", "e1", "other", 1},
		{"2026-11-30", "e1", "anthropic", 1},
		{"2026-11-30", "e1", "openai", 3},
		{"2026-11-30", "e2", "openai", 1},
		{"2026-12-01", "e1", "openai", 1},
	}
	sameTotals(t, totals(t, c), want)
	// Totals is the same whether the counts are pending or written.
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	sameTotals(t, totals(t, c), want)
	for _, d := range []string{"1969-12-31", "2026-11-30", "2026-12-01"} {
		if names, err := dataFiles(filepath.Join(c.dir, readsDir, "day="+d)); err != nil || len(names) != 1 {
			t.Fatalf("reads of %s: %v %v", d, names, err)
		}
	}
}

// REST-38: counting under load is exact: 32 goroutines each count 1000
// reads while flushes and Totals run beside them; no read is lost to a
// flush or counted twice.
func TestRead_ConcurrentExact(t *testing.T) {
	c := open(t, t.TempDir())
	defer c.Close()
	const workers, each = 32, 1000
	cats := []string{"openai", "anthropic", "other"}
	done := make(chan struct{})
	var flushErr error
	var bg sync.WaitGroup
	bg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			if err := c.Flush(); err != nil {
				flushErr = err
				return
			}
			if _, err := c.Totals(); err != nil {
				flushErr = err
				return
			}
		}
	})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				c.Read(fmt.Sprintf("e%d", i%10), cats[(w+i)%3], day1.Add(time.Duration(i%2)*time.Hour))
			}
		})
	}
	wg.Wait()
	close(done)
	bg.Wait()
	if flushErr != nil {
		t.Fatal(flushErr)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	want := map[ReadCount]bool{}
	var sum int64
	byKey := map[[3]string]int64{}
	for w := range workers {
		for i := range each {
			d := "2026-11-30"
			if i%2 == 1 {
				d = "2026-12-01"
			}
			byKey[[3]string{d, fmt.Sprintf("e%d", i%10), cats[(w+i)%3]}]++
		}
	}
	for k, n := range byKey {
		want[ReadCount{k[0], k[1], k[2], n}] = true
	}
	for _, r := range totals(t, c) {
		if !want[r] {
			t.Errorf("unexpected %v", r)
		}
		delete(want, r)
		sum += r.Reads
	}
	if len(want) > 0 || sum != workers*each {
		t.Fatalf("missing %v, sum %d", want, sum)
	}
}

// REST-38: the counts survive a restart: what was counted before Close is
// still in Totals after Open, with what is counted since.
func TestRestart_KeepsCounts(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	c.Read("e1", "openai", day1)
	c.Read("e1", "openai", day1)
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	c.Read("e1", "openai", day1) // pending at Close
	c.Search(SearchLog{At: day1, Category: "openai", Query: "joiner"})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	if _, err := c.Totals(); !errors.Is(err, ErrClosed) {
		t.Fatalf("Totals after Close: %v", err)
	}
	c = open(t, dir)
	defer c.Close()
	c.Read("e1", "openai", day1)
	c.Read("e2", "other", day1)
	sameTotals(t, totals(t, c), []ReadCount{{"2026-11-30", "e1", "openai", 4}, {"2026-11-30", "e2", "other", 1}})
	// New files sort after the old ones: the sequence carries on.
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	names, _ := dataFiles(filepath.Join(dir, readsDir, "day=2026-11-30"))
	if len(names) != 3 || seqOf(names[2]) <= seqOf(names[1]) || !slices.IsSorted(names) {
		t.Fatalf("files %v", names)
	}
}

// Run flushes on its own and once more when its context ends.
func TestRun_FlushesAndFinishes(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(Config{Dir: dir, FlushEvery: 10 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { c.Run(ctx); close(ran) }()
	c.Read("e1", "openai", day1)
	dayDir := filepath.Join(dir, readsDir, "day=2026-11-30")
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if names, _ := dataFiles(dayDir); len(names) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Run did not flush")
		}
	}
	c.Read("e1", "openai", day1)
	cancel()
	<-ran
	if r, _ := c.pending(); r != 0 {
		t.Fatalf("%d reads pending after Run ended", r)
	}
	sameTotals(t, totals(t, c), []ReadCount{{"2026-11-30", "e1", "openai", 2}})
}

// A flush that cannot write keeps what it could not write, and the next
// one writes everything exactly once. Here reads/ is a file, so no reads
// file can be made, while the searches are written at once.
func TestFlush_FailureKeepsCounts(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	defer c.Close()
	c.Read("e1", "openai", day1)
	c.Read("e1", "openai", day1.Add(time.Hour))
	c.Search(SearchLog{At: day1, Category: "openai", Query: "joiner", Hits: 3})
	reads := filepath.Join(dir, readsDir)
	if err := os.Remove(reads); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(reads, []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err == nil {
		t.Fatal("a flush into a file succeeded")
	}
	if r, s := c.pending(); r != 2 || s != 0 {
		t.Fatalf("pending after the failure: %d reads, %d searches", r, s)
	}
	c.Read("e1", "openai", day1) // counted while the store is broken
	os.Remove(reads)
	if err := os.Mkdir(reads, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	sameTotals(t, totals(t, c), []ReadCount{{"2026-11-30", "e1", "openai", 2}, {"2026-12-01", "e1", "openai", 1}})
	db := duck(t)
	var rows int
	if err := db.QueryRow(`SELECT count(*) FROM read_parquet('` + filepath.Join(dir, searchesDir) + `/*/*.parquet')`).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("searches %d %v", rows, err)
	}
}

// When one day's file fails and another's is written, only the failed
// day's counts go back: the written ones are not written again.
func TestFlush_PartialFailure(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	defer c.Close()
	c.Read("e1", "openai", day1)
	c.Read("e1", "openai", day1.Add(time.Hour))
	blocker := filepath.Join(dir, readsDir, "day=2026-12-01")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err == nil {
		t.Fatal("no error")
	}
	if r, _ := c.pending(); r != 1 {
		t.Fatalf("%d reads pending, want the one of the failed day", r)
	}
	os.Remove(blocker)
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	sameTotals(t, totals(t, c), []ReadCount{{"2026-11-30", "e1", "openai", 1}, {"2026-12-01", "e1", "openai", 1}})
}

// One Counter holds a directory: a second would reuse file names.
func TestOpen_Locked(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	if _, err := Open(Config{Dir: dir}, nil); !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: %v", err)
	}
	c.Close()
	open(t, dir).Close()
}

// A flush interrupted by a crash leaves a temporary file; Open deletes it
// and nothing reads it.
func TestOpen_RemovesTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	c.Read("e1", "openai", day1)
	c.Close()
	stray := filepath.Join(dir, readsDir, "day=2026-11-30", "20261130T235900Z-00000009.parquet.tmp")
	if err := os.WriteFile(stray, []byte("half a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	c = open(t, dir)
	defer c.Close()
	if _, err := os.Stat(stray); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the temporary file is still there: %v", err)
	}
	sameTotals(t, totals(t, c), []ReadCount{{"2026-11-30", "e1", "openai", 1}})
}

// The pending search log is bounded; what goes over is dropped, counted
// and logged, and the rest is written.
func TestSearch_BoundedWhilePending(t *testing.T) {
	dir := t.TempDir()
	c, err := Open(Config{Dir: dir, MaxPendingSearches: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for range 3 {
		c.Search(SearchLog{At: day1, Category: "other", Query: "x"})
	}
	if _, s := c.pending(); s != 2 || c.dropped != 1 {
		t.Fatalf("pending %d dropped %d", s, c.dropped)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	if c.dropped != 0 {
		t.Fatal("the drop count was not reset")
	}
}

// A new key keeps its own copies of the strings, also after further reads
// of it, so a counted entry ID does not pin the request it was cut from.
func TestRead_KeepsOwnCopies(t *testing.T) {
	c := open(t, t.TempDir())
	defer c.Close()
	path := "/v1/entries/" + strings.Repeat("x", 10) + "/e1"
	id := path[len(path)-2:]
	for range 3 {
		c.Read(id, "openai", day1)
	}
	for k := range c.shards[c.shardOf(id)].m {
		if unsafe.StringData(k.entry) == unsafe.StringData(id) {
			t.Fatal("the key holds the caller's string")
		}
	}
}

// File names only ever increase, across restarts and whatever the clock
// says: a file from a clock that ran ahead is followed by later names.
func TestNames_AlwaysIncrease(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	ahead := filepath.Join(dir, searchesDir, "day=2999-12-31", "29991231T235959Z-00000040.parquet")
	if _, err := writeParquet(ahead, []searchRow{{Day: dayOf(time.Date(2999, 12, 31, 0, 0, 0, 0, time.UTC)), Category: "other"}}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c = open(t, dir)
	defer c.Close()
	if a, b := c.nextName(), c.nextName(); a != "29991231T235959Z-00000041.parquet" || b <= a {
		t.Fatalf("names after a clock ahead: %s, %s", a, b)
	}
}
