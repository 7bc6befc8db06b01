package query

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/snapshotio"
)

// docIndex is a publication's documents in memory, in a compact form: a
// million entries have about five million documents, and the server must
// stay small (the bound: under 3 GB). A document keeps only its
// path, where its bytes are, and codes for its kind, language and pack;
// what all documents of an entry share (ID, slug, revision, dates, the
// render key of its ETags) is kept once on the entry; media types follow
// from kinds. A row that says anything the compact form would not derive
// back is kept whole (full), so nothing is ever served differently from
// the index. The index chain is read in batches (snapshotio.ScanDocIndex),
// never whole.
type docIndex struct {
	// docs hold no pointers (the garbage collector never scans five
	// million of them); a document names its entry by its place in ents.
	docs    []docRec
	ents    []*entryInfo
	entries map[string]*entryInfo
	bySlug  map[string]*entryInfo
	site    map[string]schemas.DocRow // registry-level files, by path
	// extra are documents at a path the rules of appendDocPath do not
	// make (none in a publication of this engine; kept so nothing would be
	// served wrongly if one did).
	extra map[string]int32
	full  map[int32]schemas.DocRow // rows the compact form does not derive
	packs []string
	kinds []string
	langs []string
	codes map[string]int // kind, language or pack → its code, by table
}

// docRec is one document, compact: its path is not kept but made from
// the entry's slug, the kind and the language by the rules the pipeline
// publishes by (appendDocPath), so a million entries' paths cost nothing.
type docRec struct {
	offset, length int64
	entry          int32 // in ents
	pack           uint16
	kind, lang     uint8
	variant        uint8 // the legal and privacy notices' German or English address
}

// entryInfo is what the server knows of an entry without reading a
// document.
type entryInfo struct {
	ID, Slug, DefaultLang string
	Langs                 []string // default first
	revision              int32
	lastModified, next    int64 // Unix milliseconds; 0: none
	key                   string
	first, n              int32 // its documents: docs[first : first+n]
	at                    int32 // its place in docIndex.ents
	chain                 int   // the index of the chain that last named it
	removed               bool
}

// NextChangeAt is when time alone changes the entry's documents (D4).
func (e *entryInfo) NextChangeAt() time.Time { return fromMillis(e.next) }

// HasLang reports whether the entry is published in lang.
func (e *entryInfo) HasLang(lang string) bool {
	for _, l := range e.Langs {
		if l == lang {
			return true
		}
	}
	return false
}

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// mediaTypes are the media types of the entry documents' kinds (D59).
var mediaTypes = map[string]string{
	schemas.DocMarkdown:  "text/markdown; charset=utf-8",
	schemas.DocOfferings: "text/markdown; charset=utf-8",
	schemas.DocHTML:      "text/html; charset=utf-8",
	schemas.DocLegal:     "text/html; charset=utf-8",
	schemas.DocPrivacy:   "text/html; charset=utf-8",
	schemas.DocView:      "application/json",
	schemas.DocJSONLD:    "application/ld+json",
	schemas.DocEntry:     "application/json",
}

func (ix *docIndex) code(table *[]string, prefix, v string, max int) (int, error) {
	k := prefix + v
	if c, ok := ix.codes[k]; ok {
		return c, nil
	}
	if len(*table) >= max {
		return 0, fmt.Errorf("more than %d distinct %svalues", max, prefix)
	}
	*table = append(*table, strings.Clone(v))
	ix.codes[k] = len(*table) - 1
	return len(*table) - 1, nil
}

// renderKeyOf is the render key an ETag of the D66 form ends with.
func renderKeyOf(etag string) string {
	if len(etag) < 11 || etag[len(etag)-1] != '"' || etag[len(etag)-10] != '-' {
		return ""
	}
	return etag[len(etag)-9 : len(etag)-1]
}

// readDocIndex reads a publication's index chain (a later index replaces
// every document of an entry it names; the last index's registry-level
// files are the ones served, schemas.ResolveDocs).
func readDocIndex(dir string, m *schemas.Manifest) (*docIndex, error) {
	ix := &docIndex{entries: map[string]*entryInfo{}, site: map[string]schemas.DocRow{}, full: map[int32]schemas.DocRow{},
		extra: map[string]int32{}, codes: map[string]int{}}
	langSets := map[string][]string{} // shared language lists
	for ci, idx := range m.Index {
		ix.site = map[string]schemas.DocRow{}
		err := snapshotio.ScanDocIndex(filepath.Join(dir, filepath.FromSlash(idx)), func(rows []schemas.DocRow) error {
			for i := range rows {
				if err := ix.add(&rows[i], ci+1, langSets); err != nil {
					return fmt.Errorf("%s: %w", idx, err)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	ix.bySlug = make(map[string]*entryInfo, len(ix.entries))
	for id, e := range ix.entries {
		if e.removed {
			delete(ix.entries, id)
			continue
		}
		ix.bySlug[e.Slug] = e
	}
	for p, i := range ix.extra {
		if e := ix.ents[ix.docs[i].entry]; e.removed || i < e.first || i >= e.first+e.n {
			delete(ix.extra, p) // replaced by a later index
		}
	}
	return ix, nil
}

func (ix *docIndex) add(r *schemas.DocRow, chain int, langSets map[string][]string) error {
	if r.Kind == schemas.DocSite {
		row := *r
		row.Path, row.Pack, row.MediaType, row.ETag = strings.Clone(r.Path), strings.Clone(r.Pack), strings.Clone(r.MediaType), strings.Clone(r.ETag)
		ix.site[row.Path] = row
		return nil
	}
	e := ix.entries[r.EntryID]
	if e == nil || e.chain != chain {
		if e == nil {
			e = &entryInfo{ID: strings.Clone(r.EntryID), at: int32(len(ix.ents))}
			ix.entries[e.ID] = e
			ix.ents = append(ix.ents, e)
		}
		*e = entryInfo{ID: e.ID, at: e.at, Slug: strings.Clone(r.Slug), revision: r.Revision, lastModified: millis(r.LastModified),
			next: millis(r.NextChangeAt), key: renderKeyOf(r.ETag), first: int32(len(ix.docs)), chain: chain}
		if r.Kind == schemas.DocRemoved {
			e.removed = true
			return nil
		}
	}
	if e.removed {
		return fmt.Errorf("entry %s has documents after its tombstone", r.EntryID)
	}
	if int(e.first+e.n) != len(ix.docs) {
		return fmt.Errorf("the documents of entry %s are not together (the index is grouped by entry, D59)", r.EntryID)
	}
	kind, err := ix.code(&ix.kinds, "k", r.Kind, 255)
	if err != nil {
		return err
	}
	lang, err := ix.code(&ix.langs, "l", r.Lang, 255)
	if err != nil {
		return err
	}
	pack, err := ix.code(&ix.packs, "p", r.Pack, 65535)
	if err != nil {
		return err
	}
	i := int32(len(ix.docs))
	ix.docs = append(ix.docs, docRec{offset: r.Offset, length: r.Length, entry: e.at,
		pack: uint16(pack), kind: uint8(kind), lang: uint8(lang), variant: pathVariant(r.Kind, r.Path)})
	e.n++
	if r.Kind == schemas.DocMarkdown {
		if e.DefaultLang == "" {
			e.DefaultLang = ix.langs[lang] // the default language's markdown comes first (D59)
		}
		set := append(append([]string(nil), e.Langs...), ix.langs[lang])
		key := strings.Join(set, ",")
		if shared, ok := langSets[key]; ok {
			e.Langs = shared
		} else {
			langSets[key] = set
			e.Langs = set
		}
	}
	if want := ix.row(i); !sameRow(&want, r) {
		row := *r
		row.EntryID, row.Slug, row.Path, row.ETag, row.MediaType = e.ID, e.Slug, strings.Clone(r.Path), strings.Clone(r.ETag), strings.Clone(r.MediaType)
		ix.full[i] = row
		if want.Path != r.Path && r.Path != "" {
			ix.extra[row.Path] = i
		}
	}
	return nil
}

// row is a document's index row, as the publication wrote it.
func (ix *docIndex) row(i int32) schemas.DocRow {
	if r, ok := ix.full[i]; ok {
		return r
	}
	d := &ix.docs[i]
	e := ix.ents[d.entry]
	kind, lang := ix.kinds[d.kind], ix.langs[d.lang]
	var buf [128]byte
	return schemas.DocRow{EntryID: e.ID, Slug: e.Slug, Kind: kind, Lang: lang, Path: string(appendDocPath(buf[:0], e, kind, lang, d.variant)), Pack: ix.packs[d.pack],
		Offset: d.offset, Length: d.length, MediaType: mediaTypes[kind], ETag: schemas.DocETag(e.ID, int(e.revision), kind, lang, e.key),
		LastModified: fromMillis(e.lastModified), Revision: e.revision, NextChangeAt: fromMillis(e.next)}
}

// Path variants of the legal and privacy notices (render.LegalURL,
// render.PrivacyURL): German addresses for operators in Germany.
const (
	variantNone uint8 = iota
	variantGerman
	variantEnglish
)

func pathVariant(kind, path string) uint8 {
	switch {
	case kind == schemas.DocLegal && strings.Contains(path, "/impressum"), kind == schemas.DocPrivacy && strings.Contains(path, "/datenschutz"):
		return variantGerman
	case kind == schemas.DocLegal || kind == schemas.DocPrivacy:
		return variantEnglish
	}
	return variantNone
}

// appendDocPath makes the path a document is served at, by the rules of
// render.Documents (D59): the default language without a language
// segment.
func appendDocPath(b []byte, e *entryInfo, kind, lang string, variant uint8) []byte {
	def := lang == e.DefaultLang
	b = append(append(b, '/'), e.Slug...)
	switch kind {
	case schemas.DocMarkdown:
		if !def {
			b = append(append(b, '/'), lang...)
		}
		return append(b, ".md"...)
	case schemas.DocHTML:
		if !def {
			b = append(append(b, '/'), lang...)
		}
		return b
	case schemas.DocOfferings:
		if !def {
			b = append(append(b, '/'), lang...)
		}
		return append(b, "/offerings.md"...)
	case schemas.DocJSONLD:
		return append(b, ".json"...)
	case schemas.DocLegal, schemas.DocPrivacy:
		names := [2][2]string{{"/impressum", "/legal"}, {"/datenschutz", "/privacy"}}[boolIndex(kind == schemas.DocPrivacy)]
		b = append(b, names[boolIndex(variant == variantEnglish)]...)
		if !def {
			b = append(append(b, '/'), lang...)
		}
		return b
	case schemas.DocView:
		return append(append(b[:0], "/v1/entries/"...), e.ID...)
	}
	return b[:0] // not served by path (the revision kept for the time guard)
}

func boolIndex(v bool) int {
	if v {
		return 1
	}
	return 0
}

// docAt finds the document served at a path of an entry's.
func (ix *docIndex) docAt(path string) (int32, bool) {
	if i, ok := ix.extra[path]; ok {
		return i, true
	}
	slug := path[1:]
	if j := strings.IndexByte(slug, '/'); j >= 0 {
		slug = slug[:j]
	} else if j := strings.IndexByte(slug, '.'); j >= 0 {
		slug = slug[:j]
	}
	e, ok := ix.bySlug[slug]
	if !ok {
		return 0, false
	}
	var buf [128]byte
	for i := e.first; i < e.first+e.n; i++ {
		d := &ix.docs[i]
		kind := ix.kinds[d.kind]
		if kind == schemas.DocView || kind == schemas.DocEntry {
			continue
		}
		if string(appendDocPath(buf[:0], e, kind, ix.langs[d.lang], d.variant)) == path {
			if _, replaced := ix.full[i]; replaced && ix.full[i].Path != path {
				continue
			}
			return i, true
		}
	}
	return 0, false
}

// entryDoc finds an entry's document of a kind in a language.
func (ix *docIndex) entryDoc(e *entryInfo, kind, lang string) (int32, bool) {
	k, ok := ix.codes["k"+kind]
	if !ok {
		return 0, false
	}
	l, ok := ix.codes["l"+lang]
	if !ok {
		return 0, false
	}
	for i := e.first; i < e.first+e.n; i++ {
		if d := &ix.docs[i]; int(d.kind) == k && int(d.lang) == l {
			return i, true
		}
	}
	return 0, false
}

// live is how many documents the index serves.
func (ix *docIndex) live() int {
	n := len(ix.site)
	for _, e := range ix.entries {
		n += int(e.n)
	}
	return n
}

// sameRow compares index rows, times by their instant.
func sameRow(a, b *schemas.DocRow) bool {
	return a.EntryID == b.EntryID && a.Slug == b.Slug && a.Kind == b.Kind && a.Lang == b.Lang && a.Path == b.Path &&
		a.Pack == b.Pack && a.Offset == b.Offset && a.Length == b.Length && a.MediaType == b.MediaType && a.ETag == b.ETag &&
		a.LastModified.Equal(b.LastModified) && a.Revision == b.Revision && a.NextChangeAt.Equal(b.NextChangeAt)
}
