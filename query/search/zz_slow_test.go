package search_test

import (
	"os"
	"testing"
	"time"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/query/places"
	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
)

func TestZZSlow(t *testing.T) {
	path := os.Getenv("SEARCHFILE")
	if path == "" {
		t.Skip()
	}
	m, err := publication.MapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := search.OpenIndex(m.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	g, _ := places.Default()
	s := &search.Searcher{Layers: []*search.Index{ix}, Gaz: g}
	ins := []schemas.SearchInput{
		{Query: "Building contractor", Near: &schemas.Near{PostalCode: "M4 0NZ", Country: "GB"}, Category: "trades.construction"},
		{Query: "IT-Dienstleister", Near: &schemas.Near{PostalCode: "58497", Country: "DE"}, Category: "it.it_services"},
		{Query: "Home care service", Near: &schemas.Near{PostalCode: "S7 2EE", Country: "GB"}, Category: "health.home_care"},
		{Query: "Cleaning service", Near: &schemas.Near{PostalCode: "L8 1JG", Country: "GB"}, Category: "home.cleaning"},
		{Query: "Restaurant", Near: &schemas.Near{Place: "Bromley"}},
		{Query: "Unternehmen", Near: &schemas.Near{Place: "München"}},
		{Query: "Home care service", Near: &schemas.Near{Place: "London"}},
	}
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	for _, in := range ins {
		p, _ := g.FindPostal("GB", "M4 0NZ")
		_ = p
		runs, stops, restore := search.SetNoRings(false)
		var best time.Duration
		var out schemas.SearchOutput
		for range 5 {
			st := time.Now()
			out, err = s.Search(in, now, search.Options{})
			if d := time.Since(st); best == 0 || d < best {
				best = d
			}
		}
		restore()
		var pl string
		if in.Near.PostalCode != "" {
			m, ok := g.FindPostal(in.Near.Country, in.Near.PostalCode)
			pl = m.Place.Name
			if !ok {
				pl = "NOT FOUND"
			}
		}
		t.Logf("%-20s %-8s %v hits %d err %v rings %d stops %d place %q", in.Query, in.Near.PostalCode+in.Near.Place, best, len(out.Hits), err, runs.Load(), stops.Load(), pl)
	}
}
