package query

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/daawid/registry/export/publication"
)

// The document index of a full publication is written at publish as a
// sections file (D115) and memory-mapped by the server at open: its
// documents, entries, strings and hash tables are used where they lie,
// and only the small tables (kinds, languages, packs, language lists,
// render keys, the registry-level rows) are read into the heap. A server
// is then ready to serve a publication of ten million entries in the
// time it takes to map two files, and its heap does not grow with the
// registry.

const (
	docFileKind    = "docs"
	docFileVersion = 1
)

// docTables are the small tables of a document index file.
type docTables struct {
	Files    []string             `json:"files"`
	LangSets [][]string           `json:"langSets"`
	Keys     []string             `json:"keys"`
	Packs    []string             `json:"packs"`
	Kinds    []string             `json:"kinds"`
	Langs    []string             `json:"langs"`
	Site     []publication.DocRow `json:"site"`
	Full     []fullRow            `json:"full"`
	Extra    []extraPath          `json:"extra"`
	IDs      int                  `json:"ids"`
	Slugs    int                  `json:"slugs"`
}

type fullRow struct {
	At  int32              `json:"at"`
	Row publication.DocRow `json:"row"`
}

type extraPath struct {
	Path string `json:"path"`
	At   int32  `json:"at"`
}

// writeDocFile writes a document index as a sections file; the same
// index writes the same bytes (its maps are written sorted).
func writeDocFile(w io.Writer, ix *docIndex) (int64, error) {
	t := docTables{Files: ix.files, LangSets: ix.langSets, Keys: ix.keys, Packs: ix.packs, Kinds: ix.kinds, Langs: ix.langs,
		IDs: ix.byID.n, Slugs: ix.slugs.n}
	for _, r := range ix.site {
		t.Site = append(t.Site, r)
	}
	slices.SortFunc(t.Site, func(a, b publication.DocRow) int { return strings.Compare(a.Path, b.Path) })
	for at, r := range ix.full {
		t.Full = append(t.Full, fullRow{at, r})
	}
	slices.SortFunc(t.Full, func(a, b fullRow) int { return int(a.At - b.At) })
	for p, at := range ix.extra {
		t.Extra = append(t.Extra, extraPath{p, at})
	}
	slices.SortFunc(t.Extra, func(a, b extraPath) int { return strings.Compare(a.Path, b.Path) })
	tables, err := json.Marshal(t)
	if err != nil {
		return 0, err
	}
	secs := []publication.Section{
		named("docs", publication.RecordBytes(ix.docs)),
		named("ents", publication.RecordBytes(ix.ents)),
		{Name: "arena", Size: 1, Data: ix.arena},
		named("byid", publication.RecordBytes(ix.byID.slots)),
		named("slugs", publication.RecordBytes(ix.slugs.slots)),
		{Name: "tables", Size: 1, Data: tables},
	}
	if sp := ix.sp; sp != nil {
		// A spilling read's arrays are in its columns (docspill.go).
		secs[0].Data, secs[0].Source = nil, &sp.docs
		secs[1].Data, secs[1].Source = nil, &sp.ents
		secs[2].Data, secs[2].Source = nil, &sp.arena
	}
	return publication.WriteSections(w, docFileKind, docFileVersion, secs)
}

func named(name string, s publication.Section) publication.Section {
	s.Name = name
	return s
}

// openDocFile is the document index of a mapped file: its arrays are the
// file's bytes. It checks every reference the arrays hold, so a damaged
// file is refused at open rather than read out of bounds by a request.
func openDocFile(m *publication.Mapped) (*docIndex, error) {
	secs, err := publication.ReadSections(m.Bytes(), docFileKind, docFileVersion)
	if err != nil {
		return nil, err
	}
	ix := &docIndex{codes: map[string]int{}, full: map[int32]publication.DocRow{}, extra: map[string]int32{},
		site: map[string]publication.DocRow{}, search: &searchLayer{}, mapped: m}
	if ix.docs, err = publication.Records[docRec](secs, "docs"); err != nil {
		return nil, err
	}
	if ix.ents, err = publication.Records[entryRec](secs, "ents"); err != nil {
		return nil, err
	}
	if ix.arena, err = secs.Get("arena", 1); err != nil {
		return nil, err
	}
	byID, err := publication.Records[int32](secs, "byid")
	if err != nil {
		return nil, err
	}
	slugs, err := publication.Records[int32](secs, "slugs")
	if err != nil {
		return nil, err
	}
	raw, err := secs.Get("tables", 1)
	if err != nil {
		return nil, err
	}
	var t docTables
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("section tables: %w", err)
	}
	ix.files, ix.langSets, ix.keys, ix.packs, ix.kinds, ix.langs = t.Files, t.LangSets, t.Keys, t.Packs, t.Kinds, t.Langs
	for _, r := range t.Site {
		ix.site[r.Path] = r
	}
	for _, f := range t.Full {
		ix.full[f.At] = f.Row
	}
	for _, e := range t.Extra {
		ix.extra[e.Path] = e.At
	}
	for prefix, table := range map[string][]string{"k": ix.kinds, "l": ix.langs, "p": ix.packs, "r": ix.keys} {
		for i, v := range table {
			ix.codes[prefix+v] = i
		}
	}
	for i, set := range ix.langSets {
		ix.codes["s"+strings.Join(set, ",")] = i
	}
	ix.byID = hashTable{slots: byID, n: t.IDs, keyOf: ix.idOf}
	ix.slugs = hashTable{slots: slugs, n: t.Slugs, keyOf: ix.slugOf}
	if err := ix.check(); err != nil {
		return nil, err
	}
	return ix, nil
}

// check finds any reference of the arrays that points outside them.
func (ix *docIndex) check() error {
	if len(ix.ents) >= 1<<31-1 || len(ix.docs) >= 1<<31-1 || len(ix.packs) > 65535 || len(ix.langSets) > 65535 || len(ix.keys) > 65535 {
		return fmt.Errorf("document index: more records than it codes")
	}
	for i := range ix.docs {
		d := &ix.docs[i]
		if d.entry < 0 || int(d.entry) >= len(ix.ents) || int(d.pack) >= len(ix.packs) || int(d.kind) >= len(ix.kinds) ||
			int(d.lang) >= len(ix.langs) || int(d.encoding) >= len(docEncodings) || d.variant > variantEnglish {
			return fmt.Errorf("document index: document %d refers outside the index", i)
		}
	}
	for i := range ix.ents {
		e := &ix.ents[i]
		if uint64(e.id)+uint64(e.idLen) > uint64(len(ix.arena)) || uint64(e.slug)+uint64(e.slugLen) > uint64(len(ix.arena)) ||
			e.first < 0 || e.n < 0 || int64(e.first)+int64(e.n) > int64(len(ix.docs)) || int(e.langs) >= len(ix.langSets) || int(e.key) >= len(ix.keys) {
			return fmt.Errorf("document index: entry %d refers outside the index", i)
		}
	}
	for _, h := range []*hashTable{&ix.byID, &ix.slugs} {
		// A table without an empty slot would make a lookup of a key it
		// does not hold probe for ever.
		used := 0
		for _, v := range h.slots {
			if v < 0 || int(v) > len(ix.ents) {
				return fmt.Errorf("document index: a hash table refers outside the entries")
			}
			if v != 0 {
				used++
			}
		}
		if n := len(h.slots); n == 0 || n&(n-1) != 0 || 2*used > n || used != h.n {
			return fmt.Errorf("document index: a hash table of %d slots for %d keys (%d stated)", n, used, h.n)
		}
	}
	for at := range ix.full {
		if at < 0 || int(at) >= len(ix.docs) {
			return fmt.Errorf("document index: a whole row of document %d outside the index", at)
		}
	}
	for _, at := range ix.extra {
		if at < 0 || int(at) >= len(ix.docs) {
			return fmt.Errorf("document index: a path of document %d outside the index", at)
		}
	}
	return nil
}
