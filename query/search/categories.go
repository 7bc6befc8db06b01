package search

import (
	"maps"
	"slices"
	"sync"

	"github.com/daawid/registry/schemas/taxonomy"
	"github.com/daawid/registry/schemas/terms"
)

// categoryWords are the everyday words of every category (SEARCH-32):
// each category's labels and the OpenStreetMap presets' names, terms and
// aliases in every locale, folded and stemmed in their locale. A sector's
// words count for every category in it. They are the same for every
// entry of a category, so they are kept once, apart from the entries.
type categoryWords struct {
	codes  []string          // category ID → code
	ids    map[string]uint16 // code → category ID
	sector []uint16          // category ID → its sector's ID
	set    wordSet           // the words
	cats   [][]uint16        // word (its place in set) → its categories
}

var loadCategories = sync.OnceValue(func() *categoryWords { return newCategoryWords(taxonomy.Default()) })

func newCategoryWords(t *taxonomy.Taxonomy) *categoryWords {
	cw := &categoryWords{ids: map[string]uint16{}}
	words := map[string][]uint16{}
	cats := t.Categories()
	for _, c := range cats {
		cw.ids[c.Code] = uint16(len(cw.codes))
		cw.codes = append(cw.codes, c.Code)
	}
	cw.sector = make([]uint16, len(cw.codes))
	for i, c := range cats {
		cw.sector[i] = cw.ids[c.Sector]
	}
	add := func(id uint16, lang, text string) {
		for _, w := range terms.Index(nil, lang, text) {
			if l := words[w]; len(l) == 0 || l[len(l)-1] != id {
				words[w] = append(l, id)
			}
		}
	}
	for i, c := range cats {
		id := uint16(i)
		labels := t.Labels(c.Code)
		for _, lang := range slices.Sorted(maps.Keys(labels)) {
			add(id, lang, labels[lang])
		}
		ts := t.Terms(c.Code)
		for _, locale := range slices.Sorted(maps.Keys(ts)) {
			for _, w := range ts[locale] {
				add(id, locale, w)
			}
		}
	}
	sorted := slices.Sorted(maps.Keys(words))
	cw.set = newWordSet(sorted)
	for _, w := range sorted {
		ids := words[w]
		slices.Sort(ids)
		cw.cats = append(cw.cats, slices.Compact(ids))
	}
	return cw
}

// reversed spells a word backwards, rune by rune, for finding words by
// their end.
func reversed(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

// CategoryCodes are the categories (and sectors) whose everyday words a
// query word matches, as search matches them: by any reading of it in
// the language (every stemmer's when ""), or as the start or end of a
// category word when it has four letters or more.
func CategoryCodes(word, lang string) []string {
	cw := loadCategories()
	seen := map[uint16]bool{}
	for _, rd := range terms.Readings(nil, lang, word) {
		cw.set.match(rd, func(w int32) {
			for _, c := range cw.cats[w] {
				seen[c] = true
			}
		})
	}
	var out []string
	for c := range seen {
		out = append(out, cw.codes[c])
	}
	slices.Sort(out)
	return out
}
