package pipeline

import (
	"bufio"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/daawid/registry/export"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
	"github.com/duckdb/duckdb-go/v2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// CompareEntriesExport measures the Parquet export of the entries table
// against DuckDB's own COPY of the same rows, side by side (the publish
// issue's benchmark): the rows are made once from every current entry,
// then written by the exporter's writer and, loaded into DuckDB, by
// COPY … TO … (FORMAT parquet, COMPRESSION zstd). It returns both times in
// seconds and the row count.
func CompareEntriesExport(stateDir, dir string) (ours, duck float64, rows int, err error) {
	st, err := OpenState(stateDir)
	if err != nil {
		return 0, 0, 0, err
	}
	defer st.Close()
	_, all, err := st.Load()
	if err != nil {
		return 0, 0, 0, err
	}
	var live []*EntryRow
	for _, r := range all {
		if !r.Removed {
			live = append(live, r)
		}
	}
	inStorageOrder(live)
	site, err := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	if err != nil {
		return 0, 0, 0, err
	}
	out := make([]export.EntryRow, 0, len(live))
	for i := 0; i < len(live); i += 4096 {
		part := live[i:min(i+4096, len(live))]
		entries, err := st.Revisions(part)
		if err != nil {
			return 0, 0, 0, err
		}
		made := make([]export.EntryRow, len(part))
		parallelFor(len(part), func(k int) {
			e := entries[part[k].EntryID]
			v := render.View(e, e.DefaultLanguage, site, nil)
			made[k] = export.RowsOf(&v, render.HTMLPageURL(site, e, e.DefaultLanguage), render.MarkdownURL(site, e, e.DefaultLanguage)).Entry
		})
		out = append(out, made...)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, 0, 0, err
	}
	// Ours: the exporter's writer and settings.
	start := time.Now()
	f, err := os.Create(filepath.Join(dir, "ours.parquet"))
	if err != nil {
		return 0, 0, 0, err
	}
	w := parquet.NewGenericWriter[export.EntryRow](f, parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}), parquet.MaxRowsPerRowGroup(128<<10))
	for i := 0; i < len(out); i += 1024 {
		if _, err := w.Write(out[i:min(i+1024, len(out))]); err != nil {
			f.Close()
			return 0, 0, 0, err
		}
	}
	if err := w.Close(); err != nil {
		f.Close()
		return 0, 0, 0, err
	}
	if err := f.Close(); err != nil {
		return 0, 0, 0, err
	}
	ours = time.Since(start).Seconds()
	// DuckDB: the same rows in a table, then COPY.
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return 0, 0, 0, err
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		return 0, 0, 0, err
	}
	defer conn.Close()
	ddl := `CREATE TABLE entries (entry_id VARCHAR, slug VARCHAR, kind VARCHAR, status VARCHAR, name VARCHAR, summary VARCHAR, description VARCHAR,
		language VARCHAR, languages VARCHAR[], categories VARCHAR[], founding_year INTEGER, employees VARCHAR, locality VARCHAR, postal_code VARCHAR,
		region VARCHAR, lat DOUBLE, lon DOUBLE, verification_level VARCHAR, verified_hosts VARCHAR[], capacity_status VARCHAR,
		capacity_expires_at TIMESTAMPTZ, revision INTEGER, updated_at TIMESTAMPTZ, url VARCHAR, markdown_url VARCHAR, legal_name VARCHAR,
		legal_form VARCHAR, register_type VARCHAR, register_court VARCHAR, register_number VARCHAR, vat_id VARCHAR, representatives VARCHAR[])`
	if _, err := conn.ExecContext(context.Background(), ddl); err != nil {
		return 0, 0, 0, err
	}
	err = conn.Raw(func(dc any) error {
		a, err := duckdb.NewAppender(dc.(driver.Conn), "", "main", "entries")
		if err != nil {
			return err
		}
		for _, r := range out {
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
	})
	if err != nil {
		return 0, 0, 0, err
	}
	start = time.Now()
	if _, err := conn.ExecContext(context.Background(), `COPY entries TO `+sqlString(filepath.Join(dir, "duckdb.parquet"))+` (FORMAT parquet, COMPRESSION zstd)`); err != nil {
		return 0, 0, 0, err
	}
	duck = time.Since(start).Seconds()
	return ours, duck, len(out), nil
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

// ReportEvents writes report_opened events for n listed entries (the
// first by entry ID): each gives its entry a new revision, the changes of
// the delta benchmark.
func ReportEvents(stateDir, path string, n int, at time.Time) error {
	st, err := OpenState(stateDir)
	if err != nil {
		return err
	}
	defer st.Close()
	rs, err := st.db.Query(`SELECT entry_id FROM entries WHERE removed_at IS NULL ORDER BY entry_id LIMIT ?`, n)
	if err != nil {
		return err
	}
	defer rs.Close()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for rs.Next() {
		var id string
		if err := rs.Scan(&id); err != nil {
			f.Close()
			return err
		}
		line, _ := json.Marshal(map[string]string{"entry": id, "type": "report_opened", "at": schemas.FormatTime(at)})
		w.Write(append(line, '\n'))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func nullable(s string) driver.Value {
	if s == "" {
		return nil
	}
	return s
}
