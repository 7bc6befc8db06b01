package search

import (
	"cmp"
	"slices"

	"github.com/daawid/registry/schemas/taxonomy"
	"github.com/daawid/registry/schemas/terms"
)

// Browsing (issue 15): the landing page for people lists the categories
// and towns the registry's entries have, each linking to a search, so a
// person who does not know what to type still reaches an entry. The lists
// come from the same index search runs on, so a category or town listed
// is one that search finds entries in.

// Facet is a category or a town, with how many entries search finds in
// it.
type Facet struct {
	// Code is a category's code; for a town, its folded name.
	Code string
	// Name is a category's name in the language asked for, or a town's
	// name as its entries write it.
	Name string
	// Country is a town's country (ISO 3166-1 alpha-2).
	Country string
	Entries int
}

// Facets are the categories and the towns of the entries search can find,
// the most entries first, then by name.
type Facets struct {
	Categories []Facet
	Towns      []Facet
	// Uncategorized are the entries counted that have no category of the
	// taxonomy, which no category search finds (at most maxUncategorized,
	// by name; Code is the slug): a town's page lists them by name.
	Uncategorized []Facet
}

// maxUncategorized is how many entries without a category Browse lists.
const maxUncategorized = 50

// Browse lists the categories and towns of the entries search can find
// (every listed entry but the suspended ones, a later layer's entry in
// place of an earlier one's). With town (and its country, when given),
// only the entries located in that town are counted, so a town's page
// lists its categories. Categories are named in lang (English when the
// taxonomy has no name in it). The counts are made once per searcher, at
// the first call (a scan of every entry), and every call after reads
// them: a page for people costs no scan of the registry.
func (s *Searcher) Browse(town, country, lang string) Facets {
	s.browseOnce.Do(func() { s.browse = s.countFacets() })
	t := s.browse
	var out Facets
	cats := t.cats
	var uncat []Facet
	switch want := terms.Fold(town); {
	case want == "":
		uncat = t.uncat
	case country == "":
		cats, uncat = t.byName[want].counted()
	default:
		cats, uncat = t.byTown[townKey{want, country}].counted()
	}
	cw := loadCategories()
	tx := taxonomy.Default()
	for c, n := range cats {
		out.Categories = append(out.Categories, Facet{Code: cw.codes[c], Name: tx.Label(cw.codes[c], lang), Entries: n})
	}
	for _, f := range t.towns {
		out.Towns = append(out.Towns, *f)
	}
	out.Uncategorized = slices.Clone(uncat)
	byCount := func(a, b Facet) int {
		return cmp.Or(b.Entries-a.Entries, cmp.Compare(a.Name, b.Name), cmp.Compare(a.Country, b.Country), cmp.Compare(a.Code, b.Code))
	}
	slices.SortFunc(out.Categories, byCount)
	slices.SortFunc(out.Towns, byCount)
	slices.SortFunc(out.Uncategorized, byCount)
	out.Uncategorized = out.Uncategorized[:min(len(out.Uncategorized), maxUncategorized)]
	return out
}

type townKey struct{ folded, country string }

// facetCounts are the counts Browse answers from: over every entry, and
// over the entries of each town, by its folded name and by name and
// country (an entry is counted once in each, however many of its
// locations are there).
type facetCounts struct {
	cats   map[uint16]int
	uncat  []Facet
	towns  map[townKey]*Facet
	byName map[string]*townCounts
	byTown map[townKey]*townCounts
}

type townCounts struct {
	cats  map[uint16]int
	uncat []Facet
}

// counted are the counts of a town; a town no entry is in has none.
func (c *townCounts) counted() (map[uint16]int, []Facet) {
	if c == nil {
		return nil, nil
	}
	return c.cats, c.uncat
}

func (c *townCounts) add(ix *Index, e *ent) {
	for _, cat := range ix.cats[e.cats : e.cats+uint32(e.ncats)] {
		c.cats[cat]++
	}
	if e.ncats == 0 && e.ntexts > 0 {
		c.uncat = append(c.uncat, Facet{Code: ix.str(e.slug), Name: ix.str(ix.texts[e.texts].name), Entries: 1})
	}
}

// countFacets scans every entry search can find once.
func (s *Searcher) countFacets() *facetCounts {
	t := &facetCounts{towns: map[townKey]*Facet{}, byName: map[string]*townCounts{}, byTown: map[townKey]*townCounts{}}
	all := &townCounts{cats: map[uint16]int{}}
	counts := func(m map[string]*townCounts, k string) *townCounts {
		if m[k] == nil {
			m[k] = &townCounts{cats: map[uint16]int{}}
		}
		return m[k]
	}
	for li, ix := range s.Layers {
		if ix == nil {
			continue
		}
		for at := range ix.ents {
			e := &ix.ents[at]
			if ix.flags[at]&flagStatus == statusSuspended || replaced(ix, int32(at), s.Layers[:li]) {
				continue
			}
			all.add(ix, e)
			seenTown, seenName := map[townKey]bool{}, map[string]bool{}
			for _, l := range ix.locs[e.locs : e.locs+uint32(e.nlocs)] {
				k := townKey{ix.str(l.folded), string(l.country[:])}
				if k.folded == "" || seenTown[k] {
					continue
				}
				seenTown[k] = true
				if t.byTown[k] == nil {
					t.byTown[k] = &townCounts{cats: map[uint16]int{}}
				}
				t.byTown[k].add(ix, e)
				if !seenName[k.folded] {
					seenName[k.folded] = true
					counts(t.byName, k.folded).add(ix, e)
				}
				f := t.towns[k]
				if f == nil {
					f = &Facet{Code: k.folded, Name: ix.str(l.locality), Country: k.country}
					t.towns[k] = f
				}
				// The name as most of its entries write it would need a
				// count per spelling; the least in byte order is as
				// good a representative and does not depend on order.
				f.Name = min(f.Name, ix.str(l.locality))
				f.Entries++
			}
		}
	}
	t.cats, t.uncat = all.cats, all.uncat
	return t
}

// replaced reports whether a later layer holds the entry at (a delta's
// entry replaces the full publication's).
func replaced(ix *Index, at int32, later []*Index) bool {
	for _, l := range later {
		if l != nil && l.holds(ix.hashes[at], ix.bytes(ix.ents[at].id)) {
			return true
		}
	}
	return false
}
