package search_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
)

func TestSmoke(t *testing.T) {
	s := searcher(t, fixtureEntries())
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	for _, in := range []schemas.SearchInput{
		{Query: "Tischler für Einbauschrank", Near: &schemas.Near{Place: "Wuppertal"}},
		{Query: "joinery", Near: &schemas.Near{PostalCode: "SW1A", Country: "GB"}},
		{Query: "Bäckerei", Near: &schemas.Near{Place: "Berlin"}},
		{Query: "marangoz"},
	} {
		out, err := s.Search(in, now, search.Options{BaseURL: "https://daawid.example", RankingPolicy: "https://daawid.example/docs/ranking"})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.MarshalIndent(out, "", " ")
		t.Logf("%s\n%s", b, search.Text(&out))
	}
}
