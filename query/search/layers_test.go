package search_test

import (
	"slices"
	"testing"

	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
)

// TestLayers_LaterLayerReplacesAndHides: over a full index and a delta
// layer, an entry the delta hides is never found and an entry the delta
// holds again is found once, from the delta; the others keep their order.
// The entries asked about lead the page, one hit a page, so the check is
// made of entries that would make it (consider asks a later layer last).
func TestLayers_LaterLayerReplacesAndHides(t *testing.T) {
	entries := append(fixtureEntries(), clones(6)...)
	base := searcher(t, entries)
	in := schemas.SearchInput{Query: "Tischlerei Einbauschrank", Near: &schemas.Near{Place: "Wuppertal"}, Limit: 1}
	want := pagedSlugs(t, base, in)
	if len(want) < 4 {
		t.Fatalf("the full index finds %v: too few to test", want)
	}
	bySlug := map[string]*schemas.Entry{}
	for _, e := range entries {
		bySlug[e.Slug] = e
	}
	hidden, again := bySlug[want[0]], bySlug[want[1]]
	g, err := gazetteer()
	if err != nil {
		t.Fatal(err)
	}
	b := search.NewBuilder(g)
	for _, r := range records(t, []*schemas.Entry{again}) {
		if err := b.Add(&r); err != nil {
			t.Fatal(err)
		}
	}
	b.Hide(hidden.ID)
	layered := &search.Searcher{Layers: []*search.Index{b.Build(), base.Layers[0]}, Gaz: g}
	got := pagedSlugs(t, layered, in)
	if slices.Contains(got, hidden.Slug) {
		t.Errorf("the entry the delta hides is found: %v", got)
	}
	if n := count(got, again.Slug); n != 1 {
		t.Errorf("the entry the delta holds again is found %d times: %v", n, got)
	}
	rest := slices.DeleteFunc(slices.Clone(want), func(s string) bool { return s == hidden.Slug || s == again.Slug })
	if kept := slices.DeleteFunc(slices.Clone(got), func(s string) bool { return s == again.Slug }); !slices.Equal(kept, rest) {
		t.Errorf("the other entries: got %v, want %v", kept, rest)
	}
}

// pagedSlugs is the slug of every hit of a search, page after page
// (allHits).
func pagedSlugs(t *testing.T, s *search.Searcher, in schemas.SearchInput) []string {
	t.Helper()
	_, hits, err := allHits(t, s, in, monday)
	if err != nil {
		t.Fatal(err)
	}
	slugs := make([]string, len(hits))
	for i, h := range hits {
		slugs[i] = h.Slug
	}
	return slugs
}

func count(s []string, v string) int {
	n := 0
	for _, x := range s {
		if x == v {
			n++
		}
	}
	return n
}
