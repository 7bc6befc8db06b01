package search_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/terms"
)

// TestRings_SamePagesAsTallyingWhole: in the spatial order (D125), a
// query near a place finds tier 3 ring by ring around it and stops once
// nothing farther could enter the page; every page of every query
// (pages of 1, 3 and 10, a radius, a category, opening hours, a postal
// code, two words of which entries match one or both, the cursor's next
// pages) is the page tallying every posting makes; the rings ran for a
// third of the queries at least (the rest filled their page in tier 1)
// and stopped early for most of their runs.
func TestRings_SamePagesAsTallyingWhole(t *testing.T) {
	s := searcher0(t, nearRecords(4000))
	var ins []schemas.SearchInput
	radius, small := 120.0, 15.0
	for _, town := range benchTowns {
		code := town.code[:3]
		if strings.Contains(town.code, " ") {
			code = town.code // "M1 1AE": its first part is too short
		}
		for _, limit := range []int{1, 3, 10} {
			near := &schemas.Near{Place: town.name}
			ins = append(ins,
				schemas.SearchInput{Query: "Firma", Near: near, Limit: limit},
				schemas.SearchInput{Query: "Firma Werkstatt", Near: near, Limit: limit},
				schemas.SearchInput{Query: "Werkstatt", Near: near, Limit: limit},
				schemas.SearchInput{Query: "Firma", Near: near, RadiusKm: &radius, Limit: limit},
				schemas.SearchInput{Query: "Firma", Near: near, RadiusKm: &small, Limit: limit},
				schemas.SearchInput{Query: "Firma", Near: near, Category: "home.cleaning", Limit: limit},
				schemas.SearchInput{Query: "Firma", Near: near, OpenAt: "2026-12-07T10:00:00+01:00", Limit: limit},
				schemas.SearchInput{Query: "Firma", Near: &schemas.Near{PostalCode: code, Country: town.country}, Limit: limit})
		}
	}
	pages := func(noRings bool, way int) ([]schemas.SearchOutput, int64, int64) {
		runs, stops, restore := search.SetNoRings(noRings)
		defer restore()
		search.SetWeighPath(way) // tier 1 weighed alone: the ways that lead to the rings
		defer search.SetWeighPath(0)
		var out []schemas.SearchOutput
		for _, in := range ins {
			for page := 0; page < 6; page++ {
				o, err := s.Search(in, monday, opts)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, o)
				if o.NextCursor == "" {
					break
				}
				in.Cursor = o.NextCursor
			}
		}
		return out, runs.Load(), stops.Load()
	}
	want, _, _ := pages(true, 1)
	for _, way := range []int{1, 3} {
		got, runs, stops := pages(false, way)
		if runs < int64(len(ins)/3) || stops < runs/2 {
			t.Fatalf("way %d: the rings ran %d times for %d queries, and stopped early %d times", way, runs, len(ins), stops)
		}
		t.Logf("way %d: rings ran %d times, stopped early %d", way, runs, stops)
		if len(got) != len(want) {
			t.Fatalf("way %d: %d pages, against %d tallying whole", way, len(got), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				g, _ := json.Marshal(got[i].Hits)
				w, _ := json.Marshal(want[i].Hits)
				t.Fatalf("way %d: page %d differs:\n%s\ntallying whole:\n%s", way, i, g, w)
			}
		}
	}
	hits, far := 0, 0
	for i := range want {
		hits += len(want[i].Hits)
		for _, h := range want[i].Hits {
			if h.DistanceKm != nil && *h.DistanceKm > 50 {
				far++
			}
		}
	}
	if hits < 2000 || far < 100 {
		t.Fatalf("%d hits, %d of them over 50 km away: too few to compare", hits, far)
	}
}

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

// searcher0 is a searcher of records.
func searcher0(t *testing.T, recs []schemas.SearchRecord) *search.Searcher {
	t.Helper()
	g, err := gazetteer()
	if err != nil {
		t.Fatal(err)
	}
	return &search.Searcher{Layers: []*search.Index{layer(t, recs, nil)}, Gaz: g}
}

// TestPostalOfEntries: a postal code the gazetteer does not know is
// placed at the first entry giving it (D126), in that entry's town, with
// the code as written; an entry a later layer hides or replaces is
// passed over; a code no entry gives has no place.
func TestPostalOfEntries(t *testing.T) {
	g, err := gazetteer()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := g.FindPostal("DE", "58497"); ok {
		t.Fatal("the gazetteer knows 58497: the test needs a code it does not")
	}
	rec := func(id, town, code string) schemas.SearchRecord {
		return schemas.SearchRecord{ID: id, Slug: id, Kind: schemas.KindOrganization, Status: schemas.StatusUnclaimed,
			VerificationLevel: schemas.LevelNone, DefaultLanguage: "de", Names: []schemas.LangText{{Lang: "de", Text: "Firma"}},
			Strong: []string{"firma"}, Locations: []schemas.SearchLocation{{ID: "loc_1", Locality: town, PostalCode: code, Country: "DE"}}}
	}
	full := layer(t, []schemas.SearchRecord{rec("ent_a", "Hagen", "58497"), rec("ent_b", "Lüdenscheid", "58497 1")}, nil)
	in := schemas.SearchInput{Query: "Firma", Near: &schemas.Near{PostalCode: "58497", Country: "DE"}}
	placeOf := func(layers ...*search.Index) *schemas.SearchPlace {
		out, err := (&search.Searcher{Layers: layers, Gaz: g}).Search(in, monday, opts)
		if err != nil {
			t.Fatal(err)
		}
		return out.Place
	}
	if p := placeOf(full); p == nil || p.Name != "Hagen" || p.PostalCode != "58497" {
		t.Fatalf("place %+v, want Hagen with 58497", p)
	}
	if p := placeOf(full, layer(t, nil, []string{"ent_a"})); p == nil || p.Name != "Lüdenscheid" {
		t.Fatalf("with ent_a hidden: place %+v, want Lüdenscheid", p)
	}
	in.Near.PostalCode = "58498"
	if p := placeOf(full); p != nil {
		t.Fatalf("a code no entry gives: place %+v, want none", p)
	}
}
