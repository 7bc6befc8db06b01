package bench

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/daawid/registry/export"
	"github.com/daawid/registry/pipeline"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas/taxonomy"
	"github.com/duckdb/duckdb-go/v2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// exportCompare is "daawid bench export-compare", a step of bench publish
// run in its own process so that its peak memory is its own. It prints
// the two times and the row count as one JSON object.
func exportCompare(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench export-compare", flag.ContinueOnError)
	state := fs.String("state", "", "state directory")
	dir := fs.String("dir", "", "where the two files go")
	if err := fs.Parse(args); err != nil || *state == "" || *dir == "" {
		return 2
	}
	ours, duck, rows, err := compareEntriesExport(*state, *dir)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 1
	}
	b, _ := json.Marshal(map[string]any{"Ours": ours, "DuckDB": duck, "Rows": rows})
	fmt.Fprintln(stdout, string(b))
	return 0
}

// compareEntriesExport measures the Parquet export of the entries table
// against DuckDB's own COPY of the same rows, side by side (the publish
// issue's benchmark): the rows are made once from every current entry,
// then written by the exporter's writer and, loaded into DuckDB, by
// COPY … TO … (FORMAT parquet, COMPRESSION zstd). It returns both times in
// seconds and the row count.
func compareEntriesExport(stateDir, dir string) (ours, duck float64, rows int, err error) {
	out, err := entryRows(stateDir)
	if err != nil {
		return 0, 0, 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, 0, 0, err
	}
	if ours, err = writeOurs(filepath.Join(dir, "ours.parquet"), out); err != nil {
		return 0, 0, 0, err
	}
	if duck, err = copyWithDuckDB(filepath.Join(dir, "duckdb.parquet"), out); err != nil {
		return 0, 0, 0, err
	}
	return ours, duck, len(out), nil
}

// entryRows makes the export's entries rows of every current entry of the
// state, in the order the revisions are stored.
func entryRows(stateDir string) ([]export.EntryRow, error) {
	st, err := pipeline.OpenState(stateDir)
	if err != nil {
		return nil, fmt.Errorf("open state: %w", err)
	}
	defer st.Close()
	_, all, err := st.Load()
	if err != nil {
		return nil, fmt.Errorf("load state: %w", err)
	}
	var live []*pipeline.EntryRow
	for _, r := range all {
		if !r.Removed {
			live = append(live, r)
		}
	}
	inStorageOrder(live)
	site, err := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	if err != nil {
		return nil, err
	}
	out := make([]export.EntryRow, 0, len(live))
	for i := 0; i < len(live); i += 4096 {
		part := live[i:min(i+4096, len(live))]
		entries, err := st.Revisions(part)
		if err != nil {
			return nil, fmt.Errorf("read revisions: %w", err)
		}
		made := make([]export.EntryRow, len(part))
		parallelFor(len(part), func(k int) {
			e := entries[part[k].EntryID]
			v := render.View(e, e.DefaultLanguage, site, nil)
			made[k] = export.RowsOf(&v, render.HTMLPageURL(site, e, e.DefaultLanguage), render.MarkdownURL(site, e, e.DefaultLanguage)).Entry
		})
		out = append(out, made...)
	}
	return out, nil
}

// writeOurs writes the rows with the exporter's writer and settings and
// returns the seconds it took.
func writeOurs(path string, rows []export.EntryRow) (float64, error) {
	start := time.Now()
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := parquet.NewGenericWriter[export.EntryRow](f, parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}), parquet.MaxRowsPerRowGroup(128<<10))
	for i := 0; i < len(rows); i += 1024 {
		if _, err := w.Write(rows[i:min(i+1024, len(rows))]); err != nil {
			f.Close()
			return 0, err
		}
	}
	if err := w.Close(); err != nil {
		f.Close()
		return 0, err
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	return time.Since(start).Seconds(), nil
}

// entriesDDL is the entries table of the comparison, with the columns of
// export.EntryRow.
const entriesDDL = `CREATE TABLE entries (entry_id VARCHAR, slug VARCHAR, kind VARCHAR, status VARCHAR, name VARCHAR, summary VARCHAR, description VARCHAR,
		language VARCHAR, languages VARCHAR[], categories VARCHAR[], founding_year INTEGER, employees VARCHAR, locality VARCHAR, postal_code VARCHAR,
		region VARCHAR, lat DOUBLE, lon DOUBLE, verification_level VARCHAR, verified_hosts VARCHAR[], capacity_status VARCHAR,
		capacity_expires_at TIMESTAMPTZ, revision INTEGER, updated_at TIMESTAMPTZ, url VARCHAR, markdown_url VARCHAR, legal_name VARCHAR,
		legal_form VARCHAR, register_type VARCHAR, register_court VARCHAR, register_number VARCHAR, vat_id VARCHAR, representatives VARCHAR[])`

// copyWithDuckDB loads the rows into an in-memory DuckDB table and times
// only its COPY to path: the load is not what the comparison is about.
func copyWithDuckDB(path string, rows []export.EntryRow) (float64, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), entriesDDL); err != nil {
		return 0, err
	}
	if err := conn.Raw(func(dc any) error { return appendEntries(dc.(driver.Conn), rows) }); err != nil {
		return 0, err
	}
	start := time.Now()
	if _, err := conn.ExecContext(context.Background(), `COPY entries TO `+sqlString(path)+` (FORMAT parquet, COMPRESSION zstd)`); err != nil {
		return 0, err
	}
	return time.Since(start).Seconds(), nil
}

// appendEntries appends the rows to the entries table with DuckDB's
// Appender.
func appendEntries(dc driver.Conn, rows []export.EntryRow) error {
	a, err := duckdb.NewAppender(dc, "", "main", "entries")
	if err != nil {
		return err
	}
	for _, r := range rows {
		var exp driver.Value
		if !r.CapacityExpiresAt.IsZero() {
			exp = r.CapacityExpiresAt
		}
		if err := a.AppendRow(r.EntryID, r.Slug, r.Kind, r.Status, r.Name, nullable(r.Summary), nullable(r.Description), r.Language,
			r.Languages, r.Categories, nullInt(r.FoundingYear), nullable(r.Employees), nullable(r.Locality), nullable(r.PostalCode),
			nullable(r.Region), nullFloat(r.Lat), nullFloat(r.Lon), r.VerificationLevel, r.VerifiedHosts, nullable(r.CapacityStatus), exp,
			r.Revision, r.UpdatedAt, r.URL, r.MarkdownURL, nullable(r.LegalName), nullable(r.LegalForm), nullable(r.RegisterType),
			nullable(r.RegisterCourt), nullable(r.RegisterNumber), nullable(r.VATID), r.Representatives); err != nil {
			a.Close()
			return err
		}
	}
	return a.Close()
}

// inStorageOrder sorts entry rows by where their current revisions are
// stored (run, then row), as the pipeline does, so reading them in chunks
// reads each page of the revision files once.
func inStorageOrder(rows []*pipeline.EntryRow) {
	slices.SortFunc(rows, func(a, b *pipeline.EntryRow) int {
		if c := strings.Compare(a.RevisionRun, b.RevisionRun); c != 0 {
			return c
		}
		return cmp.Compare(a.RevisionRow, b.RevisionRow)
	})
}

// parallelFor calls fn(0..n-1) on every core. Making the rows is not
// timed, but on a million entries it would take minutes on one core.
func parallelFor(n int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// sqlString quotes a string for SQL.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// nullable, nullInt and nullFloat write a zero value as NULL, as the
// exporter's tables do.
func nullable(s string) driver.Value {
	if s == "" {
		return nil
	}
	return s
}

func nullInt(v int32) driver.Value {
	if v == 0 {
		return nil
	}
	return v
}

func nullFloat(v float64) driver.Value {
	if v == 0 {
		return nil
	}
	return v
}
