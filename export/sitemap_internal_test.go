package export

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSitemapParts_WithinDuckDBsMemory writes the sitemap parts of 600,000
// entries (900,000 URLs, about 80 MB of lines) with registry.duckdb held
// to 48 MB: the URLs stream sorted and are cut into parts as they come, so
// no step holds them all (before, one ordered string_agg per part ran out
// of the 512 MB limit at 3M entries, issue 18).
func TestSitemapParts_WithinDuckDBsMemory(t *testing.T) {
	r, err := NewRegistryDB(filepath.Join(t.TempDir(), "registry.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	for _, q := range []string{
		// Every other entry has two languages; every 7th is unlisted; the
		// slugs are written out of order.
		`INSERT INTO entries (entry_id, slug, status, listed, languages, revision, last_modified)
			SELECT 'ent_' || i, 'company-' || lpad(((i * 7919) % 600000)::VARCHAR, 6, '0'), 'unclaimed', i % 7 <> 0,
				CASE WHEN i % 2 = 0 THEN ['en', 'de'] ELSE ['de'] END, 1,
				TIMESTAMP '2026-10-01 00:00:00' + to_seconds(i)
			FROM range(600000) t(i)`,
		`SET memory_limit = '48MB'`,
		`SET threads = 1`,
	} {
		if _, err := r.conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var want int
	if err := r.conn.QueryRowContext(ctx, `SELECT sum(len(languages)) FROM entries WHERE listed`).Scan(&want); err != nil {
		t.Fatal(err)
	}
	parts, urls, prev := 0, 0, ""
	var newest time.Time
	err = r.SitemapParts("https://daawid.example", 50_000, func(lines string, lastmod time.Time) error {
		parts++
		n := strings.Count(lines, "<url>")
		if n > 50_000 {
			return fmt.Errorf("part %d has %d URLs", parts, n)
		}
		urls += n
		first := slugOf(lines[:strings.IndexByte(lines, '\n')])
		if first < prev {
			return fmt.Errorf("part %d starts with %s, before %s", parts, first, prev)
		}
		prev = slugOf(lines[strings.LastIndexByte(lines[:len(lines)-1], '\n')+1:])
		if lastmod.After(newest) {
			newest = lastmod
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if urls != want || parts != (want+49_999)/50_000 {
		t.Errorf("%d URLs in %d parts; want %d in %d", urls, parts, want, (want+49_999)/50_000)
	}
	if want := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC).Add(599_999 * time.Second); !newest.Equal(want) {
		t.Errorf("newest lastmod %v, want %v", newest, want)
	}
}

// slugOf is the slug of a sitemap line.
func slugOf(line string) string {
	rest := line[strings.Index(line, "example/")+len("example/"):]
	return rest[:strings.IndexAny(rest, "/<")]
}
