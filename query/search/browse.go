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
// taxonomy has no name in it).
func (s *Searcher) Browse(town, country, lang string) Facets {
	var out Facets
	cats := map[uint16]int{}
	type townKey struct{ folded, country string }
	towns := map[townKey]*Facet{}
	want := terms.Fold(town)
	for li, ix := range s.Layers {
		if ix == nil {
			continue
		}
		for at := range ix.ents {
			e := &ix.ents[at]
			if ix.flags[at]&flagStatus == statusSuspended || replaced(ix, int32(at), s.Layers[:li]) {
				continue
			}
			in := want == ""
			seen := map[townKey]bool{}
			for _, l := range ix.locs[e.locs : e.locs+uint32(e.nlocs)] {
				k := townKey{ix.str(l.folded), string(l.country[:])}
				if k.folded == "" || seen[k] {
					continue
				}
				seen[k] = true
				if k.folded == want && (country == "" || country == k.country) {
					in = true
				}
				f := towns[k]
				if f == nil {
					f = &Facet{Code: k.folded, Name: ix.str(l.locality), Country: k.country}
					towns[k] = f
				}
				// The name as most of its entries write it would need a
				// count per spelling; the least in byte order is as
				// good a representative and does not depend on order.
				f.Name = min(f.Name, ix.str(l.locality))
				f.Entries++
			}
			if !in {
				continue
			}
			for _, c := range ix.cats[e.cats : e.cats+uint32(e.ncats)] {
				cats[c]++
			}
			if e.ncats == 0 && e.ntexts > 0 {
				out.Uncategorized = append(out.Uncategorized, Facet{Code: ix.str(e.slug), Name: ix.str(ix.texts[e.texts].name), Entries: 1})
			}
		}
	}
	cw := loadCategories()
	tx := taxonomy.Default()
	for c, n := range cats {
		out.Categories = append(out.Categories, Facet{Code: cw.codes[c], Name: tx.Label(cw.codes[c], lang), Entries: n})
	}
	for _, f := range towns {
		out.Towns = append(out.Towns, *f)
	}
	byCount := func(a, b Facet) int {
		return cmp.Or(b.Entries-a.Entries, cmp.Compare(a.Name, b.Name), cmp.Compare(a.Country, b.Country), cmp.Compare(a.Code, b.Code))
	}
	slices.SortFunc(out.Categories, byCount)
	slices.SortFunc(out.Towns, byCount)
	slices.SortFunc(out.Uncategorized, byCount)
	out.Uncategorized = out.Uncategorized[:min(len(out.Uncategorized), maxUncategorized)]
	return out
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
