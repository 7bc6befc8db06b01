package export

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/daawid/registry/schemas"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Tables are the export's tables, in the order docs/exports.md lists them.
var Tables = []string{"entries", "offerings", "locations", "contact_points", "actions", "categories", "changes"}

// partitioned are the large tables, written hive-partitioned by country.
var partitioned = map[string]bool{"entries": true, "offerings": true, "locations": true}

// Exporter writes one full export.
type Exporter struct {
	dir     string
	writers map[string]partWriter // by relative path
	counts  map[string]int64      // by table
}

// partWriter is one Parquet file being written.
type partWriter interface {
	close() error
	abort()
}

// typed buffers rows and writes them in batches. geo is the extent of the
// points written, for the tables with a geometry column.
type typed[T any] struct {
	f   *os.File
	w   *parquet.GenericWriter[T]
	buf []T
	geo *extent
}

// located is a row with a point (GeoParquet tables).
type located interface{ bbox() *BBox }

func (r EntryRow) bbox() *BBox    { return r.BBox }
func (r LocationRow) bbox() *BBox { return r.BBox }

func (t *typed[T]) add(v T) error {
	if l, ok := any(v).(located); ok {
		t.geo.add(l.bbox())
	}
	t.buf = append(t.buf, v)
	if len(t.buf) == cap(t.buf) {
		return t.flush()
	}
	return nil
}

func (t *typed[T]) flush() error {
	if len(t.buf) == 0 {
		return nil
	}
	_, err := t.w.Write(t.buf)
	t.buf = t.buf[:0]
	return err
}

// abort closes the file unfinished.
func (t *typed[T]) abort() { t.f.Close() }

func (t *typed[T]) close() error {
	if err := t.flush(); err != nil {
		t.f.Close()
		return err
	}
	if t.geo != nil {
		// GeoParquet 1.1: the file-level `geo` metadata, with the bbox of
		// the points this file holds.
		t.w.SetKeyValueMetadata("geo", t.geo.geoMetadata())
	}
	if err := t.w.Close(); err != nil {
		t.f.Close()
		return err
	}
	if err := t.f.Sync(); err != nil {
		t.f.Close()
		return err
	}
	return t.f.Close()
}

// New starts an export into dir (created).
func New(dir string) (*Exporter, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Exporter{dir: dir, writers: map[string]partWriter{}, counts: map[string]int64{}}, nil
}

// exportPageBytes is the size a column's values reach before they are
// written out as a page (parquet-go's default is 256 KiB). Every column
// of every table and country holds up to that much in the heap while
// the export is written, and the publication writes the exports while
// it renders (D133): at 128 KiB they hold half of it, and the files are
// 1–4 % larger (64 KiB: a quarter, and the entries table 9.5 % larger).
const exportPageBytes = 128 << 10

func options() []parquet.WriterOption {
	return []parquet.WriterOption{parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}), parquet.MaxRowsPerRowGroup(128 << 10),
		parquet.PageBufferSize(exportPageBytes)}
}

func put[T any](x *Exporter, table, country string, row T) error {
	rel := table + "/part-0.parquet"
	if partitioned[table] {
		if country == "" {
			country = "unknown"
		}
		rel = table + "/country=" + country + "/part-0.parquet"
	}
	pw, ok := x.writers[rel]
	if !ok {
		path := filepath.Join(x.dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		tw := &typed[T]{f: f, w: parquet.NewGenericWriter[T](f, options()...), buf: make([]T, 0, 1024)}
		if _, ok := any(row).(located); ok {
			tw.geo = &extent{}
		}
		tw.w.SetKeyValueMetadata(ColumnsKey, columnsMetadata(table))
		pw = tw
		x.writers[rel] = pw
	}
	x.counts[table]++
	return pw.(*typed[T]).add(row)
}

// ColumnsKey is the key-value metadata key of every export file's column
// descriptions.
const ColumnsKey = "daawid:columns"

// Add writes an entry's rows from its views: views[0] in the entry's
// default language, then one per other language for the per-language maps.
// A price that is not an amount with two decimals is refused by name.
func (x *Exporter) Add(views []schemas.EntryView, url, mdURL string) error {
	r, err := Prepare(views, url, mdURL)
	if err != nil {
		return err
	}
	return x.AddRows(r)
}

// Prepare makes an entry's rows from its views, as Add writes them: it
// touches no file, so a caller makes them on every core and gives them to
// AddRows in its order (D133).
func Prepare(views []schemas.EntryView, url, mdURL string) (*Rows, error) {
	if len(views) == 0 {
		return nil, fmt.Errorf("export: no view to add")
	}
	r := RowsOf(&views[0], url, mdURL)
	for i := 1; i < len(views); i++ {
		r.AddLanguage(&views[i])
	}
	if err := checkPrices(&r); err != nil {
		return nil, fmt.Errorf("export %s: %w", views[0].ID, err)
	}
	return &r, nil
}

// AddRows writes an entry's rows Prepare made.
func (x *Exporter) AddRows(r *Rows) error {
	if err := put(x, "entries", r.Country, r.Entry); err != nil {
		return err
	}
	for _, o := range r.Offerings {
		if err := put(x, "offerings", r.Country, o); err != nil {
			return err
		}
	}
	for i, l := range r.Locations {
		if err := put(x, "locations", r.LocationCountry[i], l); err != nil {
			return err
		}
	}
	for _, c := range r.Contacts {
		if err := put(x, "contact_points", "", c); err != nil {
			return err
		}
	}
	for _, a := range r.Actions {
		if err := put(x, "actions", "", a); err != nil {
			return err
		}
	}
	return nil
}

// checkPrices refuses an offering whose price did not fit its DECIMAL
// column, naming the field.
func checkPrices(r *Rows) error {
	for _, o := range r.Offerings {
		if o.Price == nil {
			continue
		}
		for _, f := range []struct{ name, value string }{{"amount", o.Price.Amount}, {"min", o.Price.Min}, {"max", o.Price.Max}} {
			if _, err := parseCents(f.value); err != nil {
				return fmt.Errorf("offering %s price.%s: %w", o.OfferingID, f.name, err)
			}
		}
	}
	return nil
}

// AddCategory writes one category row.
func (x *Exporter) AddCategory(r CategoryRow) error { return put(x, "categories", "", r) }

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// File is one file of an export with its rows and checksum.
type File struct {
	Path   string `json:"path"`
	Table  string `json:"table"`
	Rows   int64  `json:"rows"`
	SHA256 string `json:"sha256"`
	Bytes  int64  `json:"bytes"`
}

// Abort closes every file unfinished: the export is dropped with the
// directory it was written in.
func (x *Exporter) Abort() {
	for _, pw := range x.writers {
		pw.abort()
	}
	x.writers = map[string]partWriter{}
}

// Close finishes every file and returns them, sorted by path, with the
// tables' row counts.
func (x *Exporter) Close() ([]File, map[string]int64, error) {
	var files []File
	var firstErr error
	for rel, pw := range x.writers {
		if err := pw.close(); err != nil && firstErr == nil {
			firstErr = fmt.Errorf("%s: %w", rel, err)
		}
		files = append(files, File{Path: rel, Table: strings.SplitN(rel, "/", 2)[0]})
	}
	x.writers = map[string]partWriter{}
	if firstErr != nil {
		return nil, nil, firstErr
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for i := range files {
		path := filepath.Join(x.dir, filepath.FromSlash(files[i].Path))
		sum, n, err := hashFile(path)
		if err != nil {
			return nil, nil, err
		}
		files[i].SHA256, files[i].Bytes = sum, n
		rows, err := rowCount(path)
		if err != nil {
			return nil, nil, err
		}
		files[i].Rows = rows
	}
	for _, t := range Tables {
		if _, ok := x.counts[t]; !ok {
			x.counts[t] = 0
		}
	}
	return files, x.counts, nil
}

func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil)), n, err
}

func rowCount(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return 0, err
	}
	return pf.NumRows(), nil
}

// Manifest is exports/manifest.json: the schema version, and every file
// with its table, rows and SHA-256.
type Manifest struct {
	// SchemaVersion is the exports' schema version (SchemaVersion); a
	// reader checks it before it reads a column (docs/exports.md).
	SchemaVersion int              `json:"schema_version"`
	Publication   string           `json:"publication"`
	CreatedAt     string           `json:"createdAt"`
	Tables        map[string]int64 `json:"tables"`
	Files         []File           `json:"files"`
}

// WriteManifest writes dir/manifest.json.
func WriteManifest(dir string, m Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "manifest.json"), append(b, '\n'), 0o644)
}
