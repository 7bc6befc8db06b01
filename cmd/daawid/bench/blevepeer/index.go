package blevepeer

import (
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// The fields of a Bleve document. The text fields hold what our index
// finds words in (docs/search.md "Words"); the keyword fields are the
// filters and the postal code; point is where the entry is.
const (
	fieldName       = "name"       // display names, every language
	fieldSummary    = "summary"    // summaries, every language
	fieldCategories = "categories" // the categories' everyday words (SEARCH-32)
	fieldLocality   = "locality"   // the locations' towns
	fieldPoint      = "point"      // the primary location's point (geo)
	fieldCategory   = "category"   // category codes and their sectors
	fieldKind       = "kind"
	fieldCountry    = "country"
	fieldPostal     = "postal" // compact, upper case, as our index keeps it
	fieldVerified   = "verified"
	fieldAccepting  = "accepting"
	fieldOpen       = "open" // hours slots, see openSlots
	foldedAnalyzer  = "daawid_folded"
	batchSize       = 5000
)

// indexMapping is the mapping of the peer's index: no dynamic fields and
// nothing stored, so its size on disk is what searching needs (the hits
// are entry IDs, as ours are before the answer is made).
func indexMapping() (*mapping.IndexMappingImpl, error) {
	im := bleve.NewIndexMapping()
	// Folding as ours does (diacritics dropped, case folded), so that a
	// query word folded by our Prepare finds the entry's word.
	if err := im.AddCustomAnalyzer(foldedAnalyzer, map[string]any{
		"type":          custom.Name,
		"char_filters":  []string{asciifolding.Name},
		"tokenizer":     unicode.Name,
		"token_filters": []string{lowercase.Name},
	}); err != nil {
		return nil, fmt.Errorf("bleve analyzer: %w", err)
	}
	im.DefaultAnalyzer = foldedAnalyzer
	im.StoreDynamic, im.IndexDynamic, im.DocValuesDynamic = false, false, false
	dm := bleve.NewDocumentStaticMapping()
	for _, f := range []string{fieldName, fieldSummary, fieldCategories, fieldLocality} {
		fm := mapping.NewTextFieldMapping()
		fm.Analyzer, fm.Store, fm.IncludeInAll, fm.IncludeTermVectors, fm.DocValues = foldedAnalyzer, false, false, false, false
		dm.AddFieldMappingsAt(f, fm)
	}
	for _, f := range []string{fieldCategory, fieldKind, fieldCountry, fieldPostal, fieldVerified, fieldAccepting, fieldOpen} {
		fm := mapping.NewKeywordFieldMapping()
		fm.Store, fm.IncludeInAll, fm.IncludeTermVectors, fm.DocValues = false, false, false, false
		dm.AddFieldMappingsAt(f, fm)
	}
	geo := mapping.NewGeoPointFieldMapping()
	geo.Store, geo.IncludeInAll = false, false
	dm.AddFieldMappingsAt(fieldPoint, geo)
	im.DefaultMapping = dm
	return im, nil
}

// Builder indexes search records into a new Bleve index on disk, in
// batches.
type Builder struct {
	ix    bleve.Index
	batch *bleve.Batch
	gaz   *places.Gazetteer
	tax   *taxonomy.Taxonomy
	words map[string]string // category code → its everyday words
	zones map[string]*time.Location
	now   time.Time
	n     int
}

// NewBuilder creates the index in dir (which must not exist). gaz places
// entries without a point as ours does (SEARCH-23); now is the instant
// capacities are judged unexpired at and hours slots take their
// offsets from.
func NewBuilder(dir string, gaz *places.Gazetteer, now time.Time) (*Builder, error) {
	im, err := indexMapping()
	if err != nil {
		return nil, err
	}
	// Scorch, Bleve's default index type, with its default options: each
	// batch returns once persisted. (unsafe_batch, which returns once a
	// batch is searchable, loses the last batches at Close in v2.6.3.)
	ix, err := bleve.NewUsing(dir, im, scorch.Name, bleve.Config.DefaultKVStore, nil)
	if err != nil {
		return nil, fmt.Errorf("bleve index %s: %w", dir, err)
	}
	return &Builder{ix: ix, batch: ix.NewBatch(), gaz: gaz, tax: taxonomy.Default(),
		words: map[string]string{}, zones: map[string]*time.Location{}, now: now}, nil
}

// Add indexes one record.
func (b *Builder) Add(r *schemas.SearchRecord) error {
	if err := b.batch.Index(r.ID, b.document(r)); err != nil {
		return fmt.Errorf("bleve: entry %s: %w", r.ID, err)
	}
	b.n++
	if b.batch.Size() >= batchSize {
		return b.flush()
	}
	return nil
}

func (b *Builder) flush() error {
	if err := b.ix.Batch(b.batch); err != nil {
		return fmt.Errorf("bleve batch: %w", err)
	}
	b.batch.Reset()
	return nil
}

// Close indexes what is left and closes the index, which waits until
// scorch has persisted it: the build is over when the index is on disk.
func (b *Builder) Close() (int, error) {
	if b.batch.Size() > 0 {
		if err := b.flush(); err != nil {
			b.ix.Close()
			return 0, err
		}
	}
	if err := b.ix.Close(); err != nil {
		return 0, fmt.Errorf("bleve close: %w", err)
	}
	return b.n, nil
}

// document is a record as the peer indexes it.
func (b *Builder) document(r *schemas.SearchRecord) map[string]any {
	doc := map[string]any{
		fieldName:     joinTexts(r.Names),
		fieldSummary:  joinTexts(r.Summaries),
		fieldKind:     string(r.Kind),
		fieldVerified: fmt.Sprint(r.Status == schemas.StatusVerified),
	}
	// D72: acceptingWork is an unexpired capacity that is accepting or
	// limited (SEARCH-07).
	accepting := r.CapacityStatus == "accepting" || r.CapacityStatus == "limited"
	if r.CapacityExpiresAt != "" {
		if t, err := time.Parse(time.RFC3339, r.CapacityExpiresAt); err == nil && !t.After(b.now) {
			accepting = false
		}
	}
	doc[fieldAccepting] = fmt.Sprint(accepting)
	var cats, words []string
	for _, c := range r.Categories {
		cats = append(cats, c)
		if cat, ok := b.tax.Lookup(c); ok && cat.Sector != "" && cat.Sector != c {
			cats = append(cats, cat.Sector)
		}
		words = append(words, b.categoryWords(c))
	}
	doc[fieldCategory], doc[fieldCategories] = cats, strings.Join(words, " ")
	var towns, countries, postals, open []string
	for _, l := range r.Locations {
		towns = append(towns, l.Locality)
		countries = append(countries, l.Country)
		if l.PostalCode != "" {
			postals = append(postals, compactCode(l.PostalCode))
		}
		open = append(open, b.openSlots(l)...)
	}
	doc[fieldLocality], doc[fieldCountry], doc[fieldPostal], doc[fieldOpen] = strings.Join(towns, " "), countries, postals, open
	if p, ok := b.point(r); ok {
		doc[fieldPoint] = map[string]any{"lat": p.Lat, "lon": p.Lng}
	}
	return doc
}

// point is the primary location's point: stated, else its postal
// code's, else its town's, as our index places it (SEARCH-23).
func (b *Builder) point(r *schemas.SearchRecord) (schemas.Geo, bool) {
	if r.PrimaryLocation >= len(r.Locations) {
		return schemas.Geo{}, false
	}
	l := r.Locations[r.PrimaryLocation]
	if l.Geo != nil {
		return *l.Geo, true
	}
	if b.gaz == nil {
		return schemas.Geo{}, false
	}
	if l.PostalCode != "" {
		if m, ok := b.gaz.FindPostal(l.Country, l.PostalCode); ok {
			return schemas.Geo{Lat: m.Place.Lat, Lng: m.Place.Lng}, true
		}
	}
	if m, ok := b.gaz.Find(l.Locality+", "+l.Country, nil); ok {
		return schemas.Geo{Lat: m.Place.Lat, Lng: m.Place.Lng}, true
	}
	return schemas.Geo{}, false
}

// categoryWords are a category's labels and terms in every language,
// and its sector's labels (a sector's words count for every category in
// it, SEARCH-32), made once per category.
func (b *Builder) categoryWords(code string) string {
	if w, ok := b.words[code]; ok {
		return w
	}
	var parts []string
	add := func(code string) {
		labels := b.tax.Labels(code)
		for _, lang := range slices.Sorted(maps.Keys(labels)) {
			parts = append(parts, labels[lang])
		}
		ts := b.tax.Terms(code)
		for _, locale := range slices.Sorted(maps.Keys(ts)) {
			parts = append(parts, ts[locale]...)
		}
	}
	add(code)
	if cat, ok := b.tax.Lookup(code); ok && cat.Sector != "" && cat.Sector != code {
		add(cat.Sector)
	}
	w := strings.Join(parts, " ")
	b.words[code] = w
	return w
}

func joinTexts(ts []schemas.LangText) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.Text
	}
	return strings.Join(parts, " ")
}

// compactCode is a postal code as our index compares it: upper case,
// without spaces and hyphens.
func compactCode(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, strings.ToUpper(s))
}

// DiskBytes is the size of the files under dir.
func DiskBytes(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	return n, err
}
