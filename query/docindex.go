package query

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/render"
)

// docIndex is a publication's documents in memory, in a compact form: a
// million entries have about five million documents, and the server must
// stay small (the bound: under 3 GB). A document keeps only its
// path, where its bytes are, and codes for its kind, language and pack;
// what all documents of an entry share (ID, slug, revision, dates, the
// render key of its ETags) is kept once on the entry; media types follow
// from kinds. A row that says anything the compact form would not derive
// back is kept whole (full), so nothing is ever served differently from
// the index. The index chain is read in batches (publication.ScanDocIndex),
// never whole.
type docIndex struct {
	files []string // the index files it was read from
	// docs and ents hold no pointers (the garbage collector never scans
	// the millions of them): strings are in arena, found by offset.
	docs  []docRec
	ents  []entryRec
	arena []byte
	byID  hashTable // entry ID → its place in ents
	slugs hashTable // slug → its place in ents (live entries only)
	// langSets are the entries' language lists (default first), keys the
	// render keys of their ETags: few distinct ones, shared.
	langSets [][]string
	keys     []string
	site     map[string]publication.DocRow // registry-level files, by path
	// extra are documents at a path the rules of appendDocPath do not
	// make (none in a publication of this engine; kept so nothing would be
	// served wrongly if one did).
	extra map[string]int32
	full  map[int32]publication.DocRow // rows the compact form does not derive
	packs []string
	kinds []string
	langs []string
	codes map[string]int // kind, language, pack, language list or key → its code, by table
	// search is this layer's search index, built (or mapped) when a
	// snapshot first opens the layer.
	search *searchLayer
	// mapped is the file the arrays lie in, for an index a publication
	// wrote for its server (D115); nil: they are in the heap.
	mapped *publication.Mapped
	// sp is set while a publication writes the server's document file
	// (docspill.go, D116): docs, ents and arena then hold only the
	// entries since the last spill, the first of each at these bases.
	sp               *docSpill
	docBase, entBase int32
	arenaBase        uint32
}

// docRec is one document, compact: its path is not kept but made from
// the entry's slug, the kind and the language by the rules the pipeline
// publishes by (appendDocPath), so a million entries' paths cost nothing.
type docRec struct {
	offset int64
	// length is of the bytes stored in the pack, decoded of the document
	// as served (issue 18): a document is at most 4 GiB, so both fit in 32
	// bits and the record stays 32 bytes (D89).
	length, decoded uint32
	sum             uint32 // the stored bytes' checksum (DocRow.Checksum)
	entry           int32  // in ents
	pack            uint16
	kind, lang      uint8
	variant         uint8 // the legal and privacy notices' German or English address
	encoding        uint8 // in docEncodings
	_               [2]byte
}

// docEncodings are the stored encodings a docRec codes (DocRow.Encoding):
// the ones this engine reads (publication.KnownEncoding).
var docEncodings = [...]string{publication.EncodingIdentity, publication.EncodingZstd, publication.EncodingZstdDict}

func encodingCode(enc string) (uint8, error) {
	for i, e := range docEncodings {
		if e == enc {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("field encoding: %q is not an encoding this server reads (%s, %s or identity)", enc, publication.EncodingZstd, publication.EncodingZstdDict)
}

// entryRec is an entry as the index keeps it, without a pointer.
// Its fields are ordered so that the compiler adds no padding: the
// served file holds records as they lie in memory (D115).
type entryRec struct {
	lastModified, next int64  // Unix milliseconds; 0: none
	id, slug           uint32 // offsets into arena
	revision           int32
	first, n           int32  // its documents: docs[first : first+n]
	chain              int32  // the index of the chain that last named it
	langs, key         uint16 // codes in langSets and keys
	idLen, slugLen     uint8
	removed            bool
	_                  [1]byte
}

// entryInfo is what the server knows of an entry without reading a
// document, made from its record for a request.
type entryInfo struct {
	ID, Slug, DefaultLang string
	Langs                 []string // default first
}

// doc, ent and bytesAt are a document, an entry and a string of the
// arena by their places in the whole index (the bases are 0 but while
// a spilling index is read, D116).
func (ix *docIndex) doc(i int32) *docRec    { return &ix.docs[i-ix.docBase] }
func (ix *docIndex) ent(at int32) *entryRec { return &ix.ents[at-ix.entBase] }
func (ix *docIndex) bytesAt(off uint32, n uint8) []byte {
	off -= ix.arenaBase
	return ix.arena[off : off+uint32(n)]
}

func (ix *docIndex) str(off uint32, n uint8) string { return string(ix.bytesAt(off, n)) }

func (ix *docIndex) idOf(at int32) []byte {
	e := ix.ent(at)
	return ix.bytesAt(e.id, e.idLen)
}

func (ix *docIndex) slugOf(at int32) []byte {
	e := ix.ent(at)
	return ix.bytesAt(e.slug, e.slugLen)
}

func (ix *docIndex) info(at int32) entryInfo {
	e := &ix.ents[at]
	langs := ix.langSets[e.langs]
	def := ""
	if len(langs) > 0 {
		def = langs[0]
	}
	return entryInfo{ID: ix.str(e.id, e.idLen), Slug: ix.str(e.slug, e.slugLen), DefaultLang: def, Langs: langs}
}

// bySlug finds a live entry of this layer by its slug.
func (ix *docIndex) bySlug(slug string) (int32, bool) {
	return ix.slugs.find(slug)
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

// mediaTypes are the media types of the entry documents' kinds, from the
// table of formats (D59).
var mediaTypes = render.MediaTypes()

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
// files are the ones served, publication.ResolveDocs).
func readDocIndex(dir string, files []string) (*docIndex, error) {
	return readDocIndexSpilling(dir, files, nil)
}

// readDocIndexSpilling is readDocIndex, spilling when sp is set (one
// file only: docspill.go).
func readDocIndexSpilling(dir string, files []string, sp *docSpill) (*docIndex, error) {
	ix := &docIndex{site: map[string]publication.DocRow{}, full: map[int32]publication.DocRow{},
		extra: map[string]int32{}, codes: map[string]int{}, search: &searchLayer{}}
	ix.byID = newHashTable(1<<10, ix.idOf)
	if sp != nil {
		if len(files) != 1 {
			return nil, fmt.Errorf("document index: a spilling read of %d index files; it reads one", len(files))
		}
		ix.sp = sp
		ix.byID.hashOf, ix.byID.keyOf = sp.idHash, ix.spilledID
	}
	ix.files = files
	ix.langSets = append(ix.langSets, nil) // code 0: no languages yet
	ix.codes["s"] = 0
	for ci, idx := range files {
		ix.site = map[string]publication.DocRow{}
		err := publication.ScanDocIndex(filepath.Join(dir, filepath.FromSlash(idx)), func(rows []publication.DocRow) error {
			for i := range rows {
				if err := ix.add(&rows[i], int32(ci+1)); err != nil {
					return fmt.Errorf("%s: %w", idx, err)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if ix.sp != nil {
		return ix, ix.spillEnd()
	}
	live := 0
	for i := range ix.ents {
		if !ix.ents[i].removed {
			live++
		}
	}
	ix.slugs = newHashTable(live, ix.slugOf)
	for i := range ix.ents {
		if !ix.ents[i].removed {
			ix.slugs.insert(int32(i))
		}
	}
	for p, i := range ix.extra {
		if e := &ix.ents[ix.docs[i].entry]; e.removed || i < e.first || i >= e.first+e.n {
			delete(ix.extra, p) // replaced by a later index
		}
	}
	return ix, nil
}

// intern appends a string to the arena.
func (ix *docIndex) intern(s string) (uint32, uint8, error) {
	if len(s) > 255 {
		return 0, 0, fmt.Errorf("%q is longer than 255 bytes", s)
	}
	off := ix.arenaBase + uint32(len(ix.arena))
	ix.arena = append(ix.arena, s...)
	return off, uint8(len(s)), nil
}

func (ix *docIndex) add(r *publication.DocRow, chain int32) error {
	if r.Kind == publication.KindSite {
		row := *r
		row.Path, row.Pack, row.MediaType, row.ETag = strings.Clone(r.Path), strings.Clone(r.Pack), strings.Clone(r.MediaType), strings.Clone(r.ETag)
		ix.site[row.Path] = row
		return nil
	}
	at, known := ix.byID.find(r.EntryID)
	if !known {
		if ix.sp != nil {
			if err := ix.spillEntry(r.EntryID); err != nil {
				return err
			}
		}
		off, n, err := ix.intern(r.EntryID)
		if err != nil {
			return err
		}
		at = ix.entBase + int32(len(ix.ents))
		ix.ents = append(ix.ents, entryRec{id: off, idLen: n, chain: -1})
		ix.byID.insert(at)
	} else if at < ix.entBase {
		return notTogether(r.EntryID)
	}
	e := ix.ent(at)
	if e.chain != chain {
		key, err := ix.code(&ix.keys, "r", renderKeyOf(r.ETag), 65535)
		if err != nil {
			return err
		}
		slug, slugLen := e.slug, e.slugLen
		if slugLen == 0 || string(ix.bytesAt(slug, slugLen)) != r.Slug {
			if slug, slugLen, err = ix.intern(r.Slug); err != nil {
				return err
			}
		}
		*e = entryRec{id: e.id, idLen: e.idLen, slug: slug, slugLen: slugLen, revision: r.Revision, lastModified: millis(r.LastModified),
			next: millis(r.NextChangeAt), key: uint16(key), first: ix.docBase + int32(len(ix.docs)), chain: chain}
		if r.Kind == publication.KindRemoved {
			e.removed = true
			return nil
		}
	}
	if e.removed {
		return fmt.Errorf("entry %s has documents after its tombstone", r.EntryID)
	}
	if e.first+e.n != ix.docBase+int32(len(ix.docs)) {
		return notTogether(r.EntryID)
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
	enc, err := encodingCode(r.Encoding)
	if err != nil {
		return fmt.Errorf("document %s: %w", r.Path, err)
	}
	if r.Length < 0 || r.Length > math.MaxUint32 || r.DecodedLength() > math.MaxUint32 {
		return fmt.Errorf("document %s: field length: %d bytes stored, %d decoded; at most 4 GiB", r.Path, r.Length, r.DecodedLength())
	}
	i := ix.docBase + int32(len(ix.docs))
	ix.docs = append(ix.docs, docRec{offset: r.Offset, length: uint32(r.Length), decoded: uint32(r.DecodedLength()), sum: r.Checksum, entry: at,
		pack: uint16(pack), kind: uint8(kind), lang: uint8(lang), variant: pathVariant(r.Kind, r.Path), encoding: enc})
	e.n++
	if r.Kind == render.KindMarkdown {
		// The default language's markdown comes first (D59).
		set := append(append([]string(nil), ix.langSets[e.langs]...), ix.langs[lang])
		key := "s" + strings.Join(set, ",")
		c, ok := ix.codes[key]
		if !ok {
			if len(ix.langSets) >= 65535 {
				return fmt.Errorf("more than 65535 distinct language lists")
			}
			ix.langSets = append(ix.langSets, set)
			c = len(ix.langSets) - 1
			ix.codes[key] = c
		}
		e.langs = uint16(c)
	}
	if want := ix.row(i); !sameRow(&want, r) {
		row := *r
		row.EntryID, row.Slug, row.Path, row.ETag, row.MediaType = strings.Clone(r.EntryID), strings.Clone(r.Slug), strings.Clone(r.Path), strings.Clone(r.ETag), strings.Clone(r.MediaType)
		ix.full[i] = row
		if want.Path != r.Path && r.Path != "" {
			ix.extra[row.Path] = i
		}
	}
	return nil
}

// notTogether is the error of an index whose entry's documents are apart.
func notTogether(id string) error {
	return fmt.Errorf("the documents of entry %s are not together (the index is grouped by entry, D59)", id)
}

// row is a document's index row, as the publication wrote it.
func (ix *docIndex) row(i int32) publication.DocRow { return ix.rowAt(i, "") }

// rowAt is row for a document found by its path, which it then need not
// make again.
func (ix *docIndex) rowAt(i int32, path string) publication.DocRow {
	if len(ix.full) > 0 {
		if r, ok := ix.full[i]; ok {
			return r
		}
	}
	d := ix.doc(i)
	e := ix.ent(d.entry)
	id, slug := ix.str(e.id, e.idLen), ix.str(e.slug, e.slugLen)
	kind, lang := ix.kinds[d.kind], ix.langs[d.lang]
	if path == "" {
		var buf [128]byte
		path = string(appendDocPath(buf[:0], id, slug, ix.defaultLang(e), kind, lang, d.variant))
	}
	r := publication.DocRow{EntryID: id, Slug: slug, Kind: kind, Lang: lang, Path: path,
		Pack: ix.packs[d.pack], Offset: d.offset, Length: int64(d.length), MediaType: mediaTypes[kind],
		ETag: publication.DocETag(id, int(e.revision), kind, lang, ix.keys[e.key]), LastModified: fromMillis(e.lastModified),
		Revision: e.revision, NextChangeAt: fromMillis(e.next), Checksum: d.sum}
	if d.encoding != 0 {
		r.Encoding, r.IdentityLength = docEncodings[d.encoding], int64(d.decoded)
	}
	return r
}

// langsOf is the languages of a document's entry, default first.
func (ix *docIndex) langsOf(i int32) []string { return ix.langSets[ix.ent(ix.doc(i).entry).langs] }

func (ix *docIndex) defaultLang(e *entryRec) string {
	if l := ix.langSets[e.langs]; len(l) > 0 {
		return l[0]
	}
	return ""
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
	case kind == render.KindLegal && strings.Contains(path, "/impressum"), kind == render.KindPrivacy && strings.Contains(path, "/datenschutz"):
		return variantGerman
	case kind == render.KindLegal || kind == render.KindPrivacy:
		return variantEnglish
	}
	return variantNone
}

// appendDocPath makes the path a document is served at, by the rules of
// render.Documents (D59): the default language without a language
// segment.
func appendDocPath(b []byte, id, slug, defaultLang, kind, lang string, variant uint8) []byte {
	def := lang == defaultLang
	b = append(append(b, '/'), slug...)
	switch kind {
	case render.KindMarkdown:
		if !def {
			b = append(append(b, '/'), lang...)
		}
		return append(b, ".md"...)
	case render.KindHTML:
		if !def {
			b = append(append(b, '/'), lang...)
		}
		return b
	case render.KindOfferings:
		if !def {
			b = append(append(b, '/'), lang...)
		}
		return append(b, "/offerings.md"...)
	case render.KindJSONLD:
		return append(b, ".json"...)
	case render.KindLegal, render.KindPrivacy:
		names := [2][2]string{{"/impressum", "/legal"}, {"/datenschutz", "/privacy"}}[boolIndex(kind == render.KindPrivacy)]
		b = append(b, names[boolIndex(variant == variantEnglish)]...)
		if !def {
			b = append(append(b, '/'), lang...)
		}
		return b
	case render.KindView:
		return append(append(b[:0], "/v1/entries/"...), id...)
	}
	return b[:0] // not served by path (the revision kept for the time guard)
}

func boolIndex(v bool) int {
	if v {
		return 1
	}
	return 0
}

// docAtEntry finds the document of an entry (of this layer) served at a
// path.
func (ix *docIndex) docAtEntry(at int32, slug, path string) (int32, bool) {
	e := ix.ent(at)
	def := ix.defaultLang(e)
	var buf [128]byte
	for i := e.first; i < e.first+e.n; i++ {
		d := ix.doc(i)
		kind := ix.kinds[d.kind]
		if kind == render.KindView || kind == render.KindEntry || kind == render.KindSearch || kind == render.KindCard {
			continue
		}
		if string(appendDocPath(buf[:0], "", slug, def, kind, ix.langs[d.lang], d.variant)) == path {
			if r, replaced := ix.full[i]; replaced && r.Path != path {
				continue
			}
			return i, true
		}
	}
	return 0, false
}

// entryDoc finds an entry's document of a kind in a language.
func (ix *docIndex) entryDoc(at int32, kind, lang string) (int32, bool) {
	k, ok := ix.codes["k"+kind]
	if !ok {
		return 0, false
	}
	l, ok := ix.codes["l"+lang]
	if !ok {
		return 0, false
	}
	e := ix.ent(at)
	for i := e.first; i < e.first+e.n; i++ {
		if d := ix.doc(i); int(d.kind) == k && int(d.lang) == l {
			return i, true
		}
	}
	return 0, false
}

// sameRow compares index rows, times by their instant.
func sameRow(a, b *publication.DocRow) bool {
	return a.EntryID == b.EntryID && a.Slug == b.Slug && a.Kind == b.Kind && a.Lang == b.Lang && a.Path == b.Path &&
		a.Pack == b.Pack && a.Offset == b.Offset && a.Length == b.Length && a.MediaType == b.MediaType && a.ETag == b.ETag &&
		a.LastModified.Equal(b.LastModified) && a.Revision == b.Revision && a.NextChangeAt.Equal(b.NextChangeAt) &&
		a.Checksum == b.Checksum && a.Encoding == b.Encoding && a.DecodedLength() == b.DecodedLength()
}

// hashTable maps strings kept in the arena to places in ents, by open
// addressing with linear probing: a slice of int32, nothing to scan. Its
// hash is xxHash without a seed, so that a table written at publish is
// found by the server that maps it (D115); its keys are the
// publication's own IDs and slugs, never a client's.
type hashTable struct {
	slots []int32 // place + 1; 0 is empty
	n     int
	keyOf func(at int32) []byte
	// hashOf, when set, is a place's key's hash, kept apart (a spilling
	// read, D116): a slot is compared by hash first, and its key read
	// only when the hashes agree.
	hashOf func(at int32) uint64
}

func newHashTable(n int, keyOf func(int32) []byte) hashTable {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	return hashTable{slots: make([]int32, size), keyOf: keyOf}
}

// find looks a key up.
func (h *hashTable) find(key string) (int32, bool) {
	return h.probe(xxhash.Sum64String(key), func(k []byte) bool { return string(k) == key })
}

// findBytes is find for a key held as bytes (no copy to a string).
func (h *hashTable) findBytes(key []byte) (int32, bool) {
	return h.probe(xxhash.Sum64(key), func(k []byte) bool { return bytes.Equal(k, key) })
}

// probe walks the slots from a key's hash to the place whose key is the
// one looked for (eq) or to an empty slot.
func (h *hashTable) probe(hash uint64, eq func(key []byte) bool) (int32, bool) {
	if len(h.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(h.slots) - 1)
	for i := hash & mask; ; i = (i + 1) & mask {
		v := h.slots[i]
		if v == 0 {
			return 0, false
		}
		if h.hashOf != nil && h.hashOf(v-1) != hash {
			continue
		}
		if eq(h.keyOf(v - 1)) {
			return v - 1, true
		}
	}
}

// insert adds the key of a place (not there yet), growing the table to
// keep it at most half full.
func (h *hashTable) insert(at int32) {
	if 2*(h.n+1) > len(h.slots) {
		old := h.slots
		h.slots = make([]int32, max(16, 2*len(old)))
		for _, v := range old {
			if v != 0 {
				h.put(v - 1)
			}
		}
	}
	h.put(at)
	h.n++
}

func (h *hashTable) put(at int32) {
	mask := uint64(len(h.slots) - 1)
	var hash uint64
	if h.hashOf != nil {
		hash = h.hashOf(at)
	} else {
		hash = xxhash.Sum64(h.keyOf(at))
	}
	for i := hash & mask; ; i = (i + 1) & mask {
		if h.slots[i] == 0 {
			h.slots[i] = at + 1
			return
		}
	}
}
