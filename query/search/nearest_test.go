package search_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/terms"
)

// nearRecords are n entries that all carry the word "firma", placed at
// points around the benchmark's towns (a few with two locations, or a
// service area, so they have no one point), some with hours, in two
// categories.
func nearRecords(n int) []schemas.SearchRecord {
	r := rand.New(rand.NewPCG(3, 3))
	cats := []string{"trades.carpentry", "home.cleaning"}
	var out []schemas.SearchRecord
	for i := range n {
		t := benchTowns[r.IntN(len(benchTowns))]
		name := fmt.Sprintf("Firma %d", i)
		if i%3 == 0 {
			name += " Werkstatt" // a second word: another fit
		}
		loc := schemas.SearchLocation{ID: "loc_1", Locality: t.name, PostalCode: t.code, Country: t.country}
		rec := schemas.SearchRecord{ID: fmt.Sprintf("ent_01k8s%021d", i), Slug: fmt.Sprintf("n-%d", i), Kind: schemas.KindOrganization,
			Status: schemas.StatusUnclaimed, VerificationLevel: schemas.LevelNone, DefaultLanguage: "de",
			Names: []schemas.LangText{{Lang: "de", Text: name}}, Categories: []string{cats[i%2]},
			Strong: terms.Index(nil, "de", name), Locations: []schemas.SearchLocation{loc}}
		switch i % 7 {
		case 1, 2, 3, 4:
			// Out of every town searched: found in tier 3, by distance.
			rec.Locations[0].Geo = &schemas.Geo{Lat: 47 + 8*r.Float64(), Lng: 6 + 9*r.Float64()}
			rec.Locations[0].Locality, rec.Locations[0].PostalCode = "Irgendwo", ""
		case 5:
			rec.Locations = append(rec.Locations, schemas.SearchLocation{ID: "loc_2", Locality: "Berlin", Country: "DE"})
		case 6:
			rec.ServiceArea = &schemas.ServiceArea{Places: []schemas.ServicePlace{{Type: "city", Name: "Kassel", Country: "DE"}}}
		}
		if i%4 == 0 {
			rec.Locations[0].Hours = []schemas.HoursRule{{Days: []schemas.DayOfWeek{"mon", "tue"}, Opens: "08:00", Closes: "18:00"}}
		}
		out = append(out, rec)
	}
	return out
}

// TestNearestFirst_SamePagesAsConsideringAll: a common word near a place
// finds its entries of tier 3 nearest first, considering only the few
// the page needs (nearestFirst); every page of every query (small pages,
// a radius, a category, opening hours, a postal code) is the one
// considering every entry of the fit makes, and the nearest-first way ran.
func TestNearestFirst_SamePagesAsConsideringAll(t *testing.T) {
	s := searcher0(t, nearRecords(3000))
	var ins []schemas.SearchInput
	radius := 120.0
	for _, town := range benchTowns[:8] {
		for _, limit := range []int{1, 3, 10} {
			near := &schemas.Near{Place: town.name}
			ins = append(ins,
				schemas.SearchInput{Query: "Firma", Near: near, Limit: limit},
				schemas.SearchInput{Query: "Firma Werkstatt", Near: near, Limit: limit},
				schemas.SearchInput{Query: "Firma", Near: near, RadiusKm: &radius, Limit: limit},
				schemas.SearchInput{Query: "Firma", Near: near, Category: "home.cleaning", Limit: limit},
				schemas.SearchInput{Query: "Firma", Near: near, OpenAt: "2026-12-07T10:00:00+01:00", Limit: limit},
				schemas.SearchInput{Query: "Firma", Near: &schemas.Near{PostalCode: town.code[:3], Country: town.country}, Limit: limit})
		}
	}
	pages := func(all bool) ([]schemas.SearchOutput, int64) {
		runs, restore := search.SetAllFits(all)
		defer restore()
		var out []schemas.SearchOutput
		for _, in := range ins {
			for page := 0; page < 8; page++ {
				o, err := s.Search(in, monday, opts)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, o)
				if len(out) == 109 {
					q, _ := json.Marshal(in)
					t.Logf("page 108: %s", q)
				}
				if o.NextCursor == "" {
					break
				}
				in.Cursor = o.NextCursor
			}
		}
		return out, runs.Load()
	}
	want, _ := pages(true)
	got, runs := pages(false)
	if runs < int64(len(ins)/2) {
		t.Fatalf("nearestFirst ran %d times for %d queries", runs, len(ins))
	}
	if len(got) != len(want) {
		t.Fatalf("%d pages, against %d considering all", len(got), len(want))
	}
	hits := 0
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			g, _ := json.Marshal(got[i].Hits)
			w, _ := json.Marshal(want[i].Hits)
			t.Fatalf("page %d differs:\n%s\nconsidering all:\n%s", i, g, w)
		}
		hits += len(want[i].Hits)
	}
	if hits < 1000 {
		t.Fatalf("%d hits in all: too few to compare", hits)
	}
}

// searcher0 is a searcher of records.
func searcher0(t *testing.T, recs []schemas.SearchRecord) *search.Searcher {
	t.Helper()
	g, err := gazetteer()
	if err != nil {
		t.Fatal(err)
	}
	return &search.Searcher{Layers: []*search.Index{layer(t, recs, nil)}, Gaz: g}
}
