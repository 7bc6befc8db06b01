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
	"time"

	"github.com/daawid/registry/schemas"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// The bulk exports are built from each entry's EntryView in its default
// language, so they hold exactly what the public projections show: only
// public contact points, no street for a locality-only location, no
// expired capacity; the operator's representatives only in the legal
// columns (docs/exports.md, decision D60).

// EntryRow is one row of entries.
type EntryRow struct {
	EntryID           string    `parquet:"entry_id"`
	Slug              string    `parquet:"slug"`
	Kind              string    `parquet:"kind,dict"`
	Status            string    `parquet:"status,dict"`
	Name              string    `parquet:"name"`
	Summary           string    `parquet:"summary,optional"`
	Description       string    `parquet:"description,optional"`
	Language          string    `parquet:"language,dict"`
	Languages         []string  `parquet:"languages,list"`
	Categories        []string  `parquet:"categories,list"`
	FoundingYear      int32     `parquet:"founding_year,optional"`
	Employees         string    `parquet:"employees,dict,optional"`
	Locality          string    `parquet:"locality,optional"`
	PostalCode        string    `parquet:"postal_code,optional"`
	Region            string    `parquet:"region,optional"`
	Lat               float64   `parquet:"lat,optional"`
	Lon               float64   `parquet:"lon,optional"`
	VerificationLevel string    `parquet:"verification_level,dict"`
	VerifiedHosts     []string  `parquet:"verified_hosts,list"`
	CapacityStatus    string    `parquet:"capacity_status,dict,optional"`
	CapacityExpiresAt time.Time `parquet:"capacity_expires_at,timestamp(millisecond),optional"`
	Revision          int32     `parquet:"revision"`
	UpdatedAt         time.Time `parquet:"updated_at,timestamp(millisecond)"`
	URL               string    `parquet:"url"`
	MarkdownURL       string    `parquet:"markdown_url"`
	LegalName         string    `parquet:"legal_name,optional"`
	LegalForm         string    `parquet:"legal_form,optional"`
	RegisterType      string    `parquet:"register_type,dict,optional"`
	RegisterCourt     string    `parquet:"register_court,optional"`
	RegisterNumber    string    `parquet:"register_number,optional"`
	VATID             string    `parquet:"vat_id,optional"`
	Representatives   []string  `parquet:"representatives,list"`
}

// OfferingRow is one row of offerings.
type OfferingRow struct {
	EntryID     string `parquet:"entry_id"`
	OfferingID  string `parquet:"offering_id"`
	Kind        string `parquet:"kind,dict"`
	Name        string `parquet:"name"`
	Description string `parquet:"description,optional"`
	Category    string `parquet:"category,dict,optional"`
	Audience    string `parquet:"audience,dict,optional"`
	PriceKind   string `parquet:"price_kind,dict,optional"`
	PriceAmount string `parquet:"price_amount,optional"`
	PriceMin    string `parquet:"price_min,optional"`
	PriceMax    string `parquet:"price_max,optional"`
	Currency    string `parquet:"currency,dict,optional"`
	PriceUnit   string `parquet:"price_unit,dict,optional"`
	Language    string `parquet:"language,dict"`
}

// LocationRow is one row of locations, with its opening hours as JSON.
type LocationRow struct {
	EntryID        string  `parquet:"entry_id"`
	LocationID     string  `parquet:"location_id"`
	Name           string  `parquet:"name,optional"`
	Street         string  `parquet:"street,optional"`
	PostalCode     string  `parquet:"postal_code,optional"`
	Locality       string  `parquet:"locality,optional"`
	Region         string  `parquet:"region,optional"`
	AddressDisplay string  `parquet:"address_display,dict"`
	Lat            float64 `parquet:"lat,optional"`
	Lon            float64 `parquet:"lon,optional"`
	TimeZone       string  `parquet:"time_zone,dict,optional"`
	Hours          string  `parquet:"hours,optional"` // JSON, as the view shows them
}

// ContactRow is one public contact point.
type ContactRow struct {
	EntryID   string   `parquet:"entry_id"`
	ContactID string   `parquet:"contact_id"`
	Name      string   `parquet:"name"`
	Purposes  []string `parquet:"purposes,list"`
	Phone     string   `parquet:"phone,optional"`
	Email     string   `parquet:"email,optional"`
	Languages []string `parquet:"languages,list"`
}

// ActionRow is one action.
type ActionRow struct {
	EntryID     string   `parquet:"entry_id"`
	ActionID    string   `parquet:"action_id"`
	Type        string   `parquet:"type,dict"`
	Name        string   `parquet:"name"`
	OfferingIDs []string `parquet:"offering_ids,list"`
}

// CategoryRow is one category of the taxonomy with its words.
type CategoryRow struct {
	Code       string   `parquet:"code"`
	Sector     string   `parquet:"sector,dict"`
	Label      string   `parquet:"label"`
	SchemaType string   `parquet:"schema_type,dict"`
	NACE       []string `parquet:"nace,list"`
	Terms      []string `parquet:"terms_en,list"`
}

// Tables are the export's tables, in the order docs/exports.md lists them.
var Tables = []string{"entries", "offerings", "locations", "contact_points", "actions", "categories"}

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
}

// typed buffers rows and writes them in batches.
type typed[T any] struct {
	f   *os.File
	w   *parquet.GenericWriter[T]
	buf []T
}

func (t *typed[T]) add(v T) error {
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

func (t *typed[T]) close() error {
	if err := t.flush(); err != nil {
		t.f.Close()
		return err
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

func options() []parquet.WriterOption {
	return []parquet.WriterOption{parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}), parquet.MaxRowsPerRowGroup(128 << 10)}
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
		pw = &typed[T]{f: f, w: parquet.NewGenericWriter[T](f, options()...), buf: make([]T, 0, 1024)}
		x.writers[rel] = pw
	}
	x.counts[table]++
	return pw.(*typed[T]).add(row)
}

// Rows are one entry's rows in every table.
type Rows struct {
	Country   string // the primary location's country: the entry's partition
	Entry     EntryRow
	Offerings []OfferingRow
	Locations []LocationRow // each with its own country in LocationCountry
	Contacts  []ContactRow
	Actions   []ActionRow
	// LocationCountry is each location's country (its partition).
	LocationCountry []string
}

// RowsOf makes an entry's rows from its view (default language); the
// legal columns come from the operator block as the legal notice shows it.
// The exports and the publication's registry.duckdb both use them.
func RowsOf(v *schemas.EntryView, url, mdURL string) Rows {
	country := ""
	var primary *schemas.LocationView
	for i := range v.Locations {
		if primary == nil || v.Locations[i].ID == v.PrimaryLocationID {
			primary = &v.Locations[i]
		}
	}
	er := EntryRow{EntryID: v.ID, Slug: v.Slug, Kind: string(v.Kind), Status: string(v.Status), Name: v.DisplayName, Summary: v.Summary,
		Description: v.Description, Language: v.Language, Languages: nonNil(v.AvailableLanguages), Categories: nonNil(v.Categories),
		FoundingYear: int32(v.FoundingYear), Employees: string(v.Employees), VerificationLevel: string(v.Verification.Level),
		VerifiedHosts: []string{}, Revision: int32(v.Record.Revision), UpdatedAt: schemas.ParseTime(v.Record.UpdatedAt), URL: url, MarkdownURL: mdURL,
		Representatives: []string{}}
	for _, d := range v.Domains {
		if d.Verified {
			er.VerifiedHosts = append(er.VerifiedHosts, d.Host)
		}
	}
	if primary != nil {
		a := primary.Address
		er.Locality, er.PostalCode, er.Region, country = a.Locality, a.PostalCode, a.Region, a.Country
		if primary.Geo != nil && primary.AddressDisplay == schemas.DisplayFull {
			er.Lat, er.Lon = primary.Geo.Lat, primary.Geo.Lng
		}
	}
	if v.Capacity != nil {
		er.CapacityStatus, er.CapacityExpiresAt = string(v.Capacity.Status), schemas.ParseTime(v.Capacity.ExpiresAt)
	}
	if op := v.Operator; op != nil {
		er.LegalName, er.LegalForm, er.VATID = op.LegalName, op.LegalForm, op.VATID
		if op.Register != nil {
			er.RegisterType, er.RegisterCourt, er.RegisterNumber = op.Register.Type, op.Register.Court, op.Register.Number
		}
		for _, r := range op.Representatives {
			er.Representatives = append(er.Representatives, r.Name)
		}
		if country == "" {
			country = op.Address.Country
		}
	}
	out := Rows{Country: country, Entry: er}
	for _, o := range v.Offerings {
		or := OfferingRow{EntryID: v.ID, OfferingID: o.ID, Kind: string(o.Kind), Name: o.Name, Description: o.Description, Category: o.Category,
			Audience: string(o.Audience), Language: v.Language}
		if p := o.Price; p != nil {
			or.PriceKind, or.PriceAmount, or.PriceMin, or.PriceMax, or.Currency, or.PriceUnit = string(p.Kind), p.Amount, p.Min, p.Max, p.Currency, string(p.Unit)
		}
		out.Offerings = append(out.Offerings, or)
	}
	for _, l := range v.Locations {
		lr := LocationRow{EntryID: v.ID, LocationID: l.ID, Name: l.Name, PostalCode: l.Address.PostalCode, Locality: l.Address.Locality,
			Region: l.Address.Region, AddressDisplay: string(l.AddressDisplay), TimeZone: l.TimeZone}
		if l.AddressDisplay == schemas.DisplayFull {
			lr.Street = l.Address.Street
			if l.Geo != nil {
				lr.Lat, lr.Lon = l.Geo.Lat, l.Geo.Lng
			}
		}
		if len(l.Hours) > 0 || len(l.HoursExceptions) > 0 {
			b, _ := json.Marshal(map[string]any{"hours": l.Hours, "exceptions": l.HoursExceptions})
			lr.Hours = string(b)
		}
		lc := l.Address.Country
		if lc == "" {
			lc = country
		}
		out.Locations = append(out.Locations, lr)
		out.LocationCountry = append(out.LocationCountry, lc)
	}
	for _, c := range v.ContactPoints { // the view holds public ones only
		cr := ContactRow{EntryID: v.ID, ContactID: c.ID, Name: c.Name, Phone: c.Phone, Email: c.Email, Languages: nonNil(c.Languages), Purposes: []string{}}
		for _, p := range c.Purposes {
			cr.Purposes = append(cr.Purposes, string(p))
		}
		out.Contacts = append(out.Contacts, cr)
	}
	for _, a := range v.Actions {
		out.Actions = append(out.Actions, ActionRow{EntryID: v.ID, ActionID: a.ID, Type: string(a.Type), Name: a.Name, OfferingIDs: nonNil(a.OfferingIDs)})
	}
	return out
}

// Add writes an entry's rows.
func (x *Exporter) Add(v *schemas.EntryView, url, mdURL string) error {
	r := RowsOf(v, url, mdURL)
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

// Schemas are the Parquet schemas of the tables, by table name.
func Schemas() map[string]*parquet.Schema {
	return map[string]*parquet.Schema{
		"entries":        parquet.SchemaOf(EntryRow{}),
		"offerings":      parquet.SchemaOf(OfferingRow{}),
		"locations":      parquet.SchemaOf(LocationRow{}),
		"contact_points": parquet.SchemaOf(ContactRow{}),
		"actions":        parquet.SchemaOf(ActionRow{}),
		"categories":     parquet.SchemaOf(CategoryRow{}),
	}
}

// Columns lists a table's columns as "name type" lines, in order: the
// published contract of the exports (docs/exports.md).
func Columns(s *parquet.Schema) []string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, f.Name()+" "+columnType(f))
	}
	return out
}

func columnType(n parquet.Node) string {
	if !n.Leaf() {
		// a list: its element's type
		for _, f := range n.Fields() {
			for _, g := range f.Fields() {
				return "LIST<" + columnType(g) + ">"
			}
		}
		return "GROUP"
	}
	t := n.Type()
	name := t.String()
	if lt := t.LogicalType(); lt != nil {
		name = lt.String()
	}
	switch {
	case name == "STRING":
		name = "VARCHAR"
	case name == "INT(32,true)" || name == "INT32":
		name = "INTEGER"
	case name == "INT(64,true)" || name == "INT64":
		name = "BIGINT"
	case strings.HasPrefix(name, "TIMESTAMP(isAdjustedToUTC=true"):
		name = "TIMESTAMPTZ"
	}
	if n.Optional() {
		return name + " NULL"
	}
	return name
}

// Manifest is exports/manifest.json: every file with its table, rows and
// SHA-256.
type Manifest struct {
	Publication string           `json:"publication"`
	CreatedAt   string           `json:"createdAt"`
	Tables      map[string]int64 `json:"tables"`
	Files       []File           `json:"files"`
}

// WriteManifest writes dir/manifest.json.
func WriteManifest(dir string, m Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "manifest.json"), append(b, '\n'), 0o644)
}
