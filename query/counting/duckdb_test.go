package counting

import (
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
)

func duck(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// glob is the hive-partitioned read of one kind of file, as an analyst
// writes it.
func glob(dir, kind string) string {
	return `read_parquet('` + filepath.Join(dir, kind) + `/*/*.parquet', hive_partitioning = true)`
}

// mismatched fails if a file's own day column differs from the day of
// its directory (hive partitioning would hide that: it takes the latter).
func mismatched(t *testing.T, db *sql.DB, dir, kind string) {
	t.Helper()
	var n, bad int
	if err := db.QueryRow(`SELECT count(*), count(*) FILTER (WHERE filename NOT LIKE '%/day=' || strftime(day, '%Y-%m-%d') || '/%')
		FROM read_parquet('`+filepath.Join(dir, kind)+`/*/*.parquet', hive_partitioning = false, filename = true)`).Scan(&n, &bad); err != nil || n == 0 || bad != 0 {
		t.Fatalf("%s: %d of %d rows on another day than their directory's (%v)", kind, bad, n, err)
	}
}

// REST-38: the counts are exported as Parquet for analysts. DuckDB reads
// the files of several flushes with hive partitioning; day is one DATE
// column and the sums are those counted.
func TestFlush_DuckDBReadsBack(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	defer c.Close()
	for range 3 {
		c.Read("e1", "openai", day1)
	}
	c.Read("e2", "anthropic", day1)
	c.Read("e1", "openai", day1.Add(time.Hour))
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	c.Read("e1", "openai", day1)
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	db := duck(t)
	var cols []string
	rows, err := db.Query(`SELECT column_name || ' ' || column_type FROM (DESCRIBE SELECT * FROM ` + glob(dir, readsDir) + `)`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		rows.Scan(&s)
		cols = append(cols, s)
	}
	rows.Close()
	if want := []string{"day DATE", "entry_id VARCHAR", "category VARCHAR", "reads BIGINT"}; !slices.Equal(cols, want) {
		t.Fatalf("columns %v, want %v", cols, want)
	}
	rows, err = db.Query(`SELECT strftime(day, '%Y-%m-%d'), entry_id, category, sum(reads)::BIGINT FROM ` + glob(dir, readsDir) + ` GROUP BY ALL ORDER BY ALL`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []ReadCount
	for rows.Next() {
		var r ReadCount
		if err := rows.Scan(&r.Day, &r.EntryID, &r.Category, &r.Reads); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	want := []ReadCount{{"2026-11-30", "e1", "openai", 4}, {"2026-11-30", "e2", "anthropic", 1}, {"2026-12-01", "e1", "openai", 1}}
	sameTotals(t, got, want)
	sameTotals(t, totals(t, c), want)
	// The day in each file is its directory's: a file read on its own,
	// without hive partitioning, says the same day.
	mismatched(t, db, dir, readsDir)
	// Each file is sorted by entry and category, for analysts' range scans.
	var unsorted int
	if err := db.QueryRow(`SELECT count(*) FROM (SELECT filename, entry_id, category, lag(entry_id || '\x00' || category) OVER (PARTITION BY filename ORDER BY file_row_number) AS prev
		FROM read_parquet('` + filepath.Join(dir, readsDir) + `/*/*.parquet', filename = true, file_row_number = true)) WHERE prev > entry_id || '\x00' || category`).Scan(&unsorted); err != nil || unsorted != 0 {
		t.Fatalf("unsorted rows %d %v", unsorted, err)
	}
}

// REST-39 / §8: each search goes into the search log by category of
// reader, with no address, user agent or outcome. DuckDB reads the log
// back; its columns are exactly the public parameters, and the rows keep
// their order, their minute and their nulls.
func TestSearch_LogReadBackWithoutPersonalData(t *testing.T) {
	dir := t.TempDir()
	c := open(t, dir)
	defer c.Close()
	yes := true
	at := time.Date(2026, 11, 30, 10, 15, 42, 0, time.UTC)
	c.Search(SearchLog{At: at, Category: "openai", Query: "Tischler für Einbauschrank", Place: "Wuppertal", OpenAt: "2026-11-28T10:00:00Z",
		AcceptingWork: &yes, Language: "de", Limit: 10, Page: 1, Hits: 7})
	c.Search(SearchLog{At: at.Add(time.Second), Category: "anthropic", Query: "joiner", PostalCode: "SW1A", Country: "GB", RadiusKm: 25,
		CategoryCode: "trades", Kind: "organization", Page: 2, Hits: 0})
	yes = false // the log keeps its own copy
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	db := duck(t)
	rows, err := db.Query(`SELECT column_name FROM (DESCRIBE SELECT * FROM ` + glob(dir, searchesDir) + `)`)
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		cols = append(cols, s)
	}
	rows.Close()
	want := []string{"day", "searched_at", "category", "query", "place", "postal_code", "country", "category_code", "kind", "language",
		"radius_km", "open_at", "accepting_work", "verified_only", "page_size", "page", "hits"}
	if !slices.Equal(cols, want) {
		t.Fatalf("columns %v\nwant %v", cols, want)
	}
	for _, col := range cols {
		for _, personal := range []string{"ip", "addr", "agent", "outcome", "user"} {
			if strings.Contains(col, personal) {
				t.Errorf("column %q may hold personal data", col)
			}
		}
	}
	mismatched(t, db, dir, searchesDir)
	var got []string
	rows, err = db.Query(`SELECT concat_ws('|', strftime(day, '%Y-%m-%d'), strftime(searched_at, '%H:%M:%S'), category, coalesce(query, '∅'), coalesce(place, '∅'),
		coalesce(postal_code, '∅'), coalesce(country, '∅'), coalesce(category_code, '∅'), coalesce(kind, '∅'), coalesce(language, '∅'),
		coalesce(radius_km::VARCHAR, '∅'), coalesce(open_at, '∅'), coalesce(accepting_work::VARCHAR, '∅'), coalesce(verified_only::VARCHAR, '∅'),
		coalesce(page_size::VARCHAR, '∅'), page, hits)
		FROM read_parquet('` + filepath.Join(dir, searchesDir) + `/*/*.parquet', hive_partitioning = true, filename = true, file_row_number = true)
		ORDER BY filename, file_row_number`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		rows.Scan(&s)
		got = append(got, s)
	}
	wantRows := []string{
		"2026-11-30|10:15:00|openai|Tischler für Einbauschrank|Wuppertal|∅|∅|∅|∅|de|∅|2026-11-28T10:00:00Z|true|∅|10|1|7",
		"2026-11-30|10:15:00|anthropic|joiner|∅|SW1A|GB|trades|organization|∅|25.0|∅|∅|∅|∅|2|0",
	}
	if !slices.Equal(got, wantRows) {
		t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantRows, "\n"))
	}
}
