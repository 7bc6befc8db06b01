package search_test

import (
	"os"
	"sync"
	"testing"

	"github.com/daawid/registry/fixtures"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
)

var testSite = render.Site{BaseURL: "https://daawid.example", APIURL: "https://api.daawid.example", MCPURL: "https://mcp.daawid.example/mcp"}

// records are entries' search records as a publication writes them.
func records(t testing.TB, entries []*schemas.Entry) []schemas.SearchRecord {
	t.Helper()
	var out []schemas.SearchRecord
	for _, e := range entries {
		_, views := render.Documents(e, testSite)
		if r, ok := render.SearchRecord(e, views); ok {
			out = append(out, r)
		}
	}
	return out
}

// gazetteer is the bundled one, with GB postcodes from testdata.
var gazetteer = sync.OnceValues(func() (*places.Gazetteer, error) {
	g, err := places.Bundled()
	if err != nil {
		return nil, err
	}
	f, err := os.Open("testdata/gb_postal.txt")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return g, g.LoadPostal(f)
})

func searcher(t testing.TB, entries []*schemas.Entry) *search.Searcher {
	t.Helper()
	g, err := gazetteer()
	if err != nil {
		t.Fatal(err)
	}
	b := search.NewBuilder(g)
	for _, r := range records(t, entries) {
		if err := b.Add(&r); err != nil {
			t.Fatal(err)
		}
	}
	return &search.Searcher{Layers: []*search.Index{b.Build()}, Gaz: g}
}

func fixtureEntries() []*schemas.Entry { return fixtures.Entries() }

var opts = search.Options{BaseURL: "https://daawid.example", APIURL: "https://api.daawid.example", RankingPolicy: "https://daawid.example/docs/ranking"}
