package bench

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daawid/registry/cmd/daawid/bench/blevepeer"
	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

// TestBleve_TranslationFindsTheEntry builds both engines over a tiny
// registry (the fixture entries' search records, made as a publication
// makes them) and checks that the benchmark's Bleve translation of a
// query finds exactly the entries it should, and that our index puts the
// same entry first, so the peer of "daawid bench search" (issue 18) is
// not silently answering nothing or everything. Each case checks one
// part of the translation: words with a place (geo distance around the
// point our gazetteer finds, SEARCH-02), a postal code with a category
// filter (SEARCH-03, SEARCH-06), acceptingWork (SEARCH-07), verifiedOnly
// (SEARCH-08), kind (SEARCH-05) and openAt (SEARCH-16).
func TestBleve_TranslationFindsTheEntry(t *testing.T) {
	gaz, err := places.Default()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	site := render.Site{BaseURL: "https://daawid.example", APIURL: "https://api.daawid.example", MCPURL: "https://mcp.daawid.example/mcp"}
	dir := filepath.Join(t.TempDir(), "bleve")
	b, err := blevepeer.NewBuilder(dir, gaz, now)
	if err != nil {
		t.Fatal(err)
	}
	ours := search.NewBuilder(gaz)
	for _, e := range fixtures.Entries() {
		_, views := render.Documents(e, site)
		r, ok := render.SearchRecord(e, views)
		if !ok {
			continue
		}
		if err := b.Add(&r); err != nil {
			t.Fatal(err)
		}
		if err := ours.Add(&r); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := b.Close(); err != nil || n < 10 {
		t.Fatalf("bleve indexed %d records: %v", n, err)
	}
	peer, err := blevepeer.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	s := &search.Searcher{Layers: []*search.Index{ours.Build()}, Gaz: gaz}
	yes := true
	const (
		probe     = "ent_01m1rg5h59ve2m27my5s4vyv4d" // a carpenter in Bremen
		krause    = "ent_01k8r2m5n7p9q3s4t6v8w0x2yz" // a carpenter in Wuppertal 42285, hours, verified
		kanal     = "ent_01m2q3bt2jcqabg4ry7rtggh0d" // a physiotherapist in Hamburg, accepting
		thornbury = "ent_01m203y7848rrfhs3f6a6vbsfb" // a joiner in London, verified
		ashdown   = "ent_01m4q48x46ckhasz7x7qvckjw3" // accountants in London, unclaimed
		camille   = "ent_01m3v9bes0q62jh02r48c7915a" // a software developer, a person
	)
	for _, c := range []struct {
		name string
		in   schemas.SearchInput
		want []string
	}{
		{"words near a place", schemas.SearchInput{Query: "Tischlerei", Near: &schemas.Near{Place: "Bremen"}}, []string{probe}},
		{"one of two words needed, one folded", schemas.SearchInput{Query: "Kränze Holzwerk", Near: &schemas.Near{Place: "Wuppertal"}}, []string{krause}},
		{"postal code and category", schemas.SearchInput{Query: "Tischlerei", Category: "trades.carpentry", Near: &schemas.Near{PostalCode: "42285", Country: "DE"}}, []string{krause}},
		{"a sector as the category", schemas.SearchInput{Query: "Tischlerei", Category: "trades", Near: &schemas.Near{PostalCode: "42285", Country: "DE"}}, []string{krause}},
		{"acceptingWork", schemas.SearchInput{Query: "Physiotherapiepraxis", Near: &schemas.Near{Place: "Hamburg"}, AcceptingWork: &yes}, []string{kanal}},
		{"verifiedOnly", schemas.SearchInput{Query: "Joinery", Near: &schemas.Near{Place: "London"}, VerifiedOnly: true}, []string{thornbury}},
		{"a name in London", schemas.SearchInput{Query: "Ashdown", Near: &schemas.Near{Place: "London"}}, []string{ashdown}},
		{"kind", schemas.SearchInput{Query: "Softwareentwicklung", Kind: schemas.KindPerson}, []string{camille}},
		{"openAt", schemas.SearchInput{Query: "Tischlerei", Near: &schemas.Near{Place: "Wuppertal"}, OpenAt: "2026-11-23T10:00:00+01:00"}, []string{krause}},
	} {
		q, err := s.Prepare(c.in, now)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := peer.Search(q)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: bleve found %v, want %v (query %s)", c.name, got, c.want, jsonOf(blevepeer.Translate(q)))
		}
		out, err := s.Search(c.in, now, search.Options{BaseURL: site.BaseURL, APIURL: site.APIURL})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(out.Hits) == 0 || out.Hits[0].ID != c.want[0] {
			t.Errorf("%s: ours found %v first, want %s", c.name, hitIDs(out.Hits), c.want[0])
		}
	}
}

// TestBleve_NoQueryWordsFindsNothing checks that a query the translation
// has nothing for matches no entry rather than every entry.
func TestBleve_NoQueryWordsFindsNothing(t *testing.T) {
	q := blevepeer.Translate(&search.Query{Limit: 10})
	if s := jsonOf(q); !strings.Contains(s, "match_none") {
		t.Errorf("an empty query translates to %s, want match_none", s)
	}
}

func hitIDs(hits []schemas.SearchHit) []string {
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	return ids
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
