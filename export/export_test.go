package export_test

import (
	"database/sql"
	"path/filepath"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/daawid/registry/export"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// PRIV: the exports hold what the projections show and nothing more. Every
// fixture entry is exported; DuckDB reads the files back: no private
// contact point, no street or point of a locality-only location, no
// expired capacity, and the same rows as the manifest.
func TestExport_OnlyWhatProjectionsShow(t *testing.T) {
	dir := t.TempDir()
	x, err := export.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	private, localityOnly := map[string]bool{}, 0
	for _, e := range fixtures.Entries() {
		if err := x.Add(viewsOf(e, site), render.HTMLPageURL(site, e, e.DefaultLanguage), render.MarkdownURL(site, e, e.DefaultLanguage)); err != nil {
			t.Fatal(err)
		}
		for _, c := range e.ContactPoints {
			if c.Visibility != "public" {
				private[c.ID] = true
			}
		}
		for _, l := range e.Locations {
			if l.AddressDisplay != schemas.DisplayFull {
				localityOnly++
			}
		}
	}
	if len(private) == 0 || localityOnly == 0 {
		t.Fatal("the fixtures no longer have private contact points or locality-only locations")
	}
	files, counts, err := x.Close()
	if err != nil {
		t.Fatal(err)
	}
	if counts["entries"] != int64(len(fixtures.Entries())) {
		t.Fatalf("entries %d", counts["entries"])
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, f := range files {
		var n int64
		if err := db.QueryRow(`SELECT count(*) FROM read_parquet(?)`, filepath.Join(dir, f.Path)).Scan(&n); err != nil || n != f.Rows {
			t.Errorf("%s: %d rows read, %d listed (%v)", f.Path, n, f.Rows, err)
		}
	}
	rows, err := db.Query(`SELECT contact_id FROM read_parquet(?)`, filepath.Join(dir, "contact_points", "part-0.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		rows.Scan(&id)
		if private[id] {
			t.Errorf("private contact point %s exported", id)
		}
	}
	rows.Close()
	var leaks int
	if err := db.QueryRow(`SELECT count(*) FROM read_parquet(?, hive_partitioning = true) WHERE address_display <> 'full' AND (street IS NOT NULL OR lat IS NOT NULL OR geometry IS NOT NULL OR bbox IS NOT NULL)`,
		filepath.Join(dir, "locations", "*", "*.parquet")).Scan(&leaks); err != nil || leaks != 0 {
		t.Errorf("%d locality-only locations with a street or a point (%v)", leaks, err)
	}
	var expired int
	if err := db.QueryRow(`SELECT count(*) FROM read_parquet(?, hive_partitioning = true) WHERE capacity_expires_at IS NOT NULL AND capacity_expires_at < updated_at`,
		filepath.Join(dir, "entries", "*", "*.parquet")).Scan(&expired); err != nil || expired != 0 {
		t.Errorf("%d entries with expired capacity (%v)", expired, err)
	}
}

// viewsOf is an entry's views in every language it is published in,
// default first, as the pipeline passes them to Exporter.Add.
func viewsOf(e *schemas.Entry, site render.Site) []schemas.EntryView {
	def := render.View(e, e.DefaultLanguage, site, nil)
	out := []schemas.EntryView{def}
	for _, lang := range def.AvailableLanguages {
		if lang != e.DefaultLanguage {
			out = append(out, render.View(e, lang, site, nil))
		}
	}
	return out
}
