package search_test

import (
	"errors"
	"testing"

	"github.com/daawid/registry/query/search"
	"github.com/daawid/registry/schemas"
)

// FuzzSearchInput: whatever the query, place, postal code and cursor, a
// search answers or says which input is wrong; it never panics, and a
// cursor it did not make is refused by name.
func FuzzSearchInput(f *testing.F) {
	s := searcher(f, fixtureEntries())
	f.Add("Tischler für Einbauschrank", "Wuppertal", "", "", "")
	f.Add("joinery", "", "SW1A 1AA", "GB", "")
	f.Add("نجار", "Paris, Texas", "", "", "AQAAAAAAAAAA")
	f.Add("\xff\xfe", ",,,", "0000", "D", "AQ")
	f.Fuzz(func(t *testing.T, q, place, postal, country, cursor string) {
		in := schemas.SearchInput{Query: q, Cursor: cursor}
		if place != "" || postal != "" || country != "" {
			in.Near = &schemas.Near{Place: place, PostalCode: postal, Country: country}
		}
		out, err := s.Search(in, monday, opts)
		if err != nil {
			var bad *search.InputError
			if !errors.As(err, &bad) || len(bad.Issues) == 0 {
				t.Fatalf("%+v: %v", in, err)
			}
			return
		}
		if cursor != "" {
			t.Fatalf("a cursor from nowhere was taken: %q", cursor)
		}
		for _, h := range out.Hits {
			if h.Sponsored || h.ID == "" {
				t.Fatalf("bad hit %+v", h)
			}
		}
	})
}

// FuzzCursor: a cursor changed by hand is refused or pages on from
// somewhere in the same order; it never panics.
func FuzzCursor(f *testing.F) {
	s := searcher(f, append(fixtureEntries(), clones(12)...))
	in := schemas.SearchInput{Query: "Tischlerei", Limit: 3}
	out, err := s.Search(in, monday, opts)
	if err != nil || out.NextCursor == "" {
		f.Fatal("no cursor", err)
	}
	f.Add(out.NextCursor)
	f.Add(out.NextCursor[:len(out.NextCursor)-3])
	f.Add("")
	f.Fuzz(func(t *testing.T, c string) {
		in := in
		in.Cursor = c
		out, err := s.Search(in, monday, opts)
		if err != nil {
			var bad *search.InputError
			if !errors.As(err, &bad) || bad.Issues[0].Field != "cursor" {
				t.Fatalf("%q: %v", c, err)
			}
			return
		}
		if len(out.Hits) > 3 {
			t.Fatalf("%d hits on a page of 3", len(out.Hits))
		}
	})
}
