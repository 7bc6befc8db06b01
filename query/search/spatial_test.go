package search_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
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
	pages := func(noRings bool) ([]schemas.SearchOutput, int64, int64) {
		runs, stops, restore := search.SetNoRings(noRings)
		defer restore()
		search.SetWeighPath(1) // tier 1 looked up: the way that leads to the rings
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
	want, _, _ := pages(true)
	got, runs, stops := pages(false)
	if runs < int64(len(ins)/3) || stops < runs/2 {
		t.Fatalf("the rings ran %d times for %d queries, and stopped early %d times", runs, len(ins), stops)
	}
	t.Logf("rings ran %d times, stopped early %d", runs, stops)
	if len(got) != len(want) {
		t.Fatalf("%d pages, against %d tallying whole", len(got), len(want))
	}
	hits, far := 0, 0
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			g, _ := json.Marshal(got[i].Hits)
			w, _ := json.Marshal(want[i].Hits)
			t.Fatalf("page %d differs:\n%s\ntallying whole:\n%s", i, g, w)
		}
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
