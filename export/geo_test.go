package export_test

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/daawid/registry/export"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// exportFixtures exports every fixture entry into a temporary folder and
// returns it with the files written.
func exportFixtures(t *testing.T) (string, []export.File) {
	t.Helper()
	dir := t.TempDir()
	x, err := export.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	for _, e := range fixtures.Entries() {
		if err := x.Add(viewsOf(e, site), render.HTMLPageURL(site, e, e.DefaultLanguage), render.MarkdownURL(site, e, e.DefaultLanguage)); err != nil {
			t.Fatal(err)
		}
	}
	files, _, err := x.Close()
	if err != nil {
		t.Fatal(err)
	}
	return dir, files
}

// geoSchema compiles the official GeoParquet 1.1.0 JSON schema; its crs
// reference to PROJJSON, which cannot be fetched offline, is served a
// stand-in (testdata/geoparquet-1.1.0.schema.json.SOURCE).
func geoSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile("testdata/geoparquet-1.1.0.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("https://geoparquet.org/schema-1.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("https://proj.org/schemas/v0.7/projjson.schema.json", map[string]any{"type": "object"}); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("https://geoparquet.org/schema-1.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestExport_GeoParquet: the files with points are GeoParquet 1.1: their
// `geo` metadata validates against the official JSON schema and bounds
// every point; DuckDB reads the WKB column as a GEOMETRY (from the `geo`
// metadata, without the spatial extension); the WKB bytes DuckDB returns
// decode to the row's lat/lon and to the fixture's point; geometry and bbox
// are null together, and null wherever the address is not shown in full
// (PRIV-18).
func TestExport_GeoParquet(t *testing.T) {
	dir, files := exportFixtures(t)
	schema := geoSchema(t)
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	points := map[string][2]float64{} // location ID → lon, lat of fixtures shown in full
	for _, e := range fixtures.Entries() {
		for _, l := range e.Locations {
			if l.Geo != nil && l.AddressDisplay == schemas.DisplayFull {
				points[l.ID] = [2]float64{l.Geo.Lng, l.Geo.Lat}
			}
		}
	}
	checked, geoFiles := 0, 0
	for _, f := range files {
		if f.Table != "entries" && f.Table != "locations" {
			continue
		}
		geoFiles++
		path := filepath.Join(dir, f.Path)
		var meta string
		if err := db.QueryRow(`SELECT decode(value) FROM parquet_kv_metadata(?) WHERE decode(key) = 'geo'`, path).Scan(&meta); err != nil {
			t.Fatalf("%s: no geo metadata: %v", f.Path, err)
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(meta))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s: geo metadata does not validate against GeoParquet 1.1.0: %v\n%s", f.Path, err, meta)
		}
		var geo struct {
			Columns map[string]struct {
				BBox []float64 `json:"bbox"`
			} `json:"columns"`
		}
		json.Unmarshal([]byte(meta), &geo)
		var typ string
		if err := db.QueryRow(`SELECT typeof(geometry) FROM read_parquet(?) LIMIT 1`, path).Scan(&typ); err != nil || typ != "GEOMETRY('OGC:CRS84')" {
			t.Errorf("%s: DuckDB reads geometry as %q (%v), want GEOMETRY('OGC:CRS84')", f.Path, typ, err)
		}
		id := "location_id"
		if f.Table == "entries" {
			id = "entry_id"
		}
		rows, err := db.Query(`SELECT `+id+`, address_display_or_full, lat, lon, ST_AsWKB(geometry), bbox.xmin, bbox.ymin, bbox.xmax, bbox.ymax
			FROM (SELECT *, `+displayExpr(f.Table)+` AS address_display_or_full FROM read_parquet(?))`, path)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		for rows.Next() {
			var key, display string
			var lat, lon, xmin, ymin, xmax, ymax sql.NullFloat64
			var wkb []byte
			if err := rows.Scan(&key, &display, &lat, &lon, &wkb, &xmin, &ymin, &xmax, &ymax); err != nil {
				t.Fatal(err)
			}
			if wkb == nil {
				if xmin.Valid || lat.Valid {
					t.Errorf("%s %s: no geometry but a bbox or a point", f.Path, key)
				}
				continue
			}
			if display != "full" {
				t.Errorf("%s %s: a geometry for an address shown as %s (PRIV-18)", f.Path, key, display)
			}
			lo, la, err := export.PointOfWKB(wkb)
			if err != nil {
				t.Errorf("%s %s: %v", f.Path, key, err)
				continue
			}
			if lo != lon.Float64 || la != lat.Float64 || xmin.Float64 != lo || xmax.Float64 != lo || ymin.Float64 != la || ymax.Float64 != la {
				t.Errorf("%s %s: WKB (%v %v), lon/lat (%v %v), bbox (%v %v %v %v)", f.Path, key, lo, la, lon.Float64, lat.Float64, xmin.Float64, ymin.Float64, xmax.Float64, ymax.Float64)
			}
			if p, ok := points[key]; f.Table == "locations" && (!ok || p != [2]float64{lo, la}) {
				t.Errorf("%s %s: point (%v %v), the fixture has %v", f.Path, key, lo, la, p)
			}
			b := geo.Columns["geometry"].BBox
			if len(b) != 4 || lo < b[0] || la < b[1] || lo > b[2] || la > b[3] {
				t.Errorf("%s %s: point (%v %v) outside the file bbox %v", f.Path, key, lo, la, b)
			}
			checked++
		}
		rows.Close()
	}
	if geoFiles == 0 || checked < 10 {
		t.Fatalf("only %d points in %d files checked", checked, geoFiles)
	}
}

func displayExpr(table string) string {
	if table == "locations" {
		return "address_display"
	}
	return "'full'" // an entry's point is its primary location's, shown in full (RowsOf)
}

// TestExport_ColumnsDescribedAndNoKeywords: every file carries its columns
// with their descriptions in the daawid:columns metadata, equal to the
// code's (and so to docs/exports.md's); no column is named after a DuckDB
// keyword that needs quoting (the v1 `at` did).
func TestExport_ColumnsDescribedAndNoKeywords(t *testing.T) {
	dir, files := exportFixtures(t)
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, f := range files {
		var meta string
		if err := db.QueryRow(`SELECT decode(value) FROM parquet_kv_metadata(?) WHERE decode(key) = ?`, filepath.Join(dir, f.Path), export.ColumnsKey).Scan(&meta); err != nil {
			t.Fatalf("%s: no %s metadata: %v", f.Path, export.ColumnsKey, err)
		}
		want, _ := export.TableColumns(f.Table)
		wb, _ := json.Marshal(want)
		if meta != string(wb) {
			t.Errorf("%s: %s is\n%s\nwant\n%s", f.Path, export.ColumnsKey, meta, wb)
		}
	}
	for _, table := range export.Tables {
		cols, _ := export.TableColumns(table)
		for _, c := range cols {
			var cat string
			err := db.QueryRow(`SELECT keyword_category FROM duckdb_keywords() WHERE keyword_name = ?`, c.Name).Scan(&cat)
			if err == nil && cat != "unreserved" {
				t.Errorf("%s.%s is a DuckDB %s keyword", table, c.Name, cat)
			}
		}
	}
}

// TestExport_TypedColumns: prices are DECIMAL(14,2) that DuckDB averages
// to the fixtures' average; hours are one struct per day, as many as the
// fixtures' rules cover; the name map has every language of every entry.
func TestExport_TypedColumns(t *testing.T) {
	dir, _ := exportFixtures(t)
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	site, _ := render.NewSite(render.DefaultBaseURL, taxonomy.Default())
	var cents, n, days, names int64
	for _, e := range fixtures.Entries() {
		vs := viewsOf(e, site)
		names += int64(len(vs))
		for _, o := range vs[0].Offerings {
			if o.Price != nil && o.Price.Min != "" {
				var w, f int64
				whole, frac, _ := strings.Cut(o.Price.Min, ".")
				json.Unmarshal([]byte(whole), &w)
				json.Unmarshal([]byte(strings.TrimLeft(frac, "0")+"0"), &f)
				cents += w*100 + f/10
				n++
			}
		}
		for _, l := range vs[0].Locations {
			for _, h := range l.Hours {
				days += int64(len(h.Days))
			}
		}
	}
	var typ, avg string
	if err := db.QueryRow(`SELECT typeof(price_min), CAST(avg(price_min) OVER () AS VARCHAR) FROM read_parquet(?) WHERE price_min IS NOT NULL LIMIT 1`,
		filepath.Join(dir, "offerings", "*", "*.parquet")).Scan(&typ, &avg); err != nil {
		t.Fatal(err)
	}
	want := float64(cents) / float64(n) / 100
	var got float64
	json.Unmarshal([]byte(avg), &got)
	if typ != "DECIMAL(14,2)" || n == 0 || math.Abs(got-want) > 1e-9 {
		t.Errorf("price_min is %s, avg %s; want DECIMAL(14,2), avg %v of %d", typ, avg, want, n)
	}
	var gotDays, gotNames int64
	if err := db.QueryRow(`SELECT sum(len(hours)) FROM read_parquet(?)`, filepath.Join(dir, "locations", "*", "*.parquet")).Scan(&gotDays); err != nil || gotDays != days || days == 0 {
		t.Errorf("%d hours elements (%v), the fixtures' rules cover %d days", gotDays, err, days)
	}
	if err := db.QueryRow(`SELECT sum(cardinality(names)) FROM read_parquet(?)`, filepath.Join(dir, "entries", "*", "*.parquet")).Scan(&gotNames); err != nil || gotNames != names {
		t.Errorf("%d names (%v), the fixtures have %d entry languages", gotNames, err, names)
	}
}
