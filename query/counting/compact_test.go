package counting

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// flushDay makes n files of reads and n of searches for day1.
func flushDay(t *testing.T, c *Counter, n int) {
	t.Helper()
	for i := range n {
		c.Read("e1", "openai", day1)
		c.Read("e2", "other", day1)
		c.Search(SearchLog{At: day1, Category: "openai", Query: "q", Page: i + 1})
		if err := c.Flush(); err != nil {
			t.Fatal(err)
		}
	}
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

// Compact merges a day's files into one per kind: the sums and the
// search log's order are those of the parts, and no part is left.
func TestCompact_MergesADay(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	defer c.Close()
	flushDay(t, c, 3)
	c.Read("e1", "openai", day1.Add(time.Hour)) // another day, untouched
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	before := totals(t, c)
	if err := c.Compact("2026-11-30"); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{readsDir, searchesDir} {
		if names := files(t, filepath.Join(dir, kind, "day=2026-11-30")); len(names) != 1 || !strings.HasSuffix(names[0], fileExt) {
			t.Fatalf("%s after Compact: %v", kind, names)
		}
	}
	sameTotals(t, totals(t, c), before)
	db := duck(t)
	mismatched(t, db, dir, readsDir)
	mismatched(t, db, dir, searchesDir)
	var pages string
	if err := db.QueryRow(`SELECT string_agg(page::VARCHAR, ',') FROM ` + glob(dir, searchesDir)).Scan(&pages); err != nil || pages != "1,2,3" {
		t.Fatalf("search pages %q %v", pages, err)
	}
	// A later flush adds a file after the merged one.
	flushDay(t, c, 1)
	names := files(t, filepath.Join(dir, readsDir, "day=2026-11-30"))
	if len(names) != 2 || !slices.IsSorted(names) {
		t.Fatalf("files %v", names)
	}
	if err := c.Compact("30.11.2026"); err == nil {
		t.Fatal("a day not as YYYY-MM-DD was taken")
	}
}

// A compaction interrupted by a crash never leaves both the merged file
// and its parts for a reader to sum: Open shows the parts again if the
// merged file had not appeared, and deletes them if it had.
func TestCompact_CrashRecovery(t *testing.T) {
	for _, mergedInPlace := range []bool{false, true} {
		dir := t.TempDir()
		c := open(t, dir)
		flushDay(t, c, 3)
		want := totals(t, c)
		dayDir := filepath.Join(dir, readsDir, "day=2026-11-30")
		parts, _ := dataFiles(dayDir)
		// Do by hand what Compact does, up to the crash.
		merged := c.nextName()
		var rows []readRow
		for _, p := range parts {
			r, err := readParquet[readRow](filepath.Join(dayDir, p))
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, r...)
		}
		if err := writeTemp(filepath.Join(dayDir, merged), sumReads(rows)); err != nil {
			t.Fatal(err)
		}
		c.Close()
		for _, p := range parts {
			os.Rename(filepath.Join(dayDir, p), filepath.Join(dayDir, strings.TrimSuffix(p, fileExt)+hiddenInfix+strings.TrimSuffix(merged, fileExt)))
		}
		if mergedInPlace {
			os.Rename(filepath.Join(dayDir, merged+tmpExt), filepath.Join(dayDir, merged))
		}
		c = open(t, dir)
		sameTotals(t, totals(t, c), want)
		names := files(t, dayDir)
		if mergedInPlace && !slices.Equal(names, []string{merged}) || !mergedInPlace && !slices.Equal(names, parts) {
			t.Fatalf("merged in place %v: files %v", mergedInPlace, names)
		}
		c.Close()
	}
}
